"""What the acting seat may know (its information set) — issue 6, SPEC.md §3–§4.

Built from a ``DealState`` without reading any other seat's hand: the seat's
own hand, every exposure (an exposed copy not yet played is known to be in
its exposer's hand), every card played (captured piles and the current
trick) and, from the play history, the suits each seat is void in.

Void rule (SPEC §4, with §3 and ``first_trick_ban``): a seat that plays any
card not of the led suit in a trick holds no card of that suit afterwards.
After a single lead it would have had to follow; after a pair lead it would
have had to play two cards of the suit while holding two, and plays its
only card of the suit plus another when holding one. The exposure
restriction and the first-trick ban never let a seat discard while it holds
a card of the led suit.
"""
from __future__ import annotations

from dataclasses import dataclass

from service.rules.cards import (
    SUIT_SIZE,
    Card,
    add_card,
    bits_cards,
    card_count,
    full_deck,
    hand_bits,
)
from service.rules.play import DealState
from service.rules.tricks import trick_ranking

SEATS = 4


@dataclass(frozen=True, slots=True, kw_only=True)
class Knowledge:
    """The acting seat's information set: everything public plus its own hand."""

    seat: int
    hand: int
    known: tuple[int, ...]
    sizes: tuple[int, ...]
    voids: tuple[int, ...]
    unseen: tuple[Card, ...]
    played: int


def trick_leaders(plays, leader: int) -> list[int]:
    """The leader of every trick in ``plays``, worked back from the current ``leader``.

    The winner of a trick is at the same position whoever led it, and each
    winner leads the next trick, so the leaders follow from the last one.
    """
    tricks = [plays[i:i + SEATS] for i in range(0, len(plays), SEATS)]
    leaders = [leader] * len(tricks)
    ahead = leader
    for k in range(len(tricks) - 1, -1, -1):
        trick = tricks[k]
        if len(trick) < SEATS:
            leaders[k] = ahead
            continue
        position = trick_ranking(trick, 0)[0]
        ahead = (ahead - position) % SEATS
        leaders[k] = ahead
    return leaders


def voids_from(plays, leaders: list[int]) -> list[int]:
    """Per seat, a 4-bit mask of suits it is known to be void in."""
    voids = [0] * SEATS
    for k, leader in enumerate(leaders):
        trick = plays[k * SEATS:(k + 1) * SEATS]
        suit = trick[0][0] // SUIT_SIZE
        for i, play in enumerate(trick[1:], start=1):
            # a card off the led suit shows the seat has no more of it
            if any(c // SUIT_SIZE != suit for c in play):
                voids[(leader + i) % SEATS] |= 1 << suit
    return voids


def _public_history(state: DealState, plays) -> tuple[list, int]:
    """The plays whose seats are known, and the leader after them."""
    if plays is not None:
        plays = [tuple(sorted(p)) for p in plays]
        if len(plays) != state.plays_count or sorted(c for p in plays for c in p) != sorted(_played(state)):
            raise ValueError("plays is not the history of this deal state")
        return plays, state.leader
    # without the history: the last completed trick and the current one
    if state.last_trick is not None and state.trick_number > 0:
        last = state.last_trick[1]
        return list(last) + list(state.trick), state.leader
    return list(state.trick), state.leader


def _played(state: DealState) -> list[Card]:
    """Every card played so far: the captured piles and the current trick."""
    return [c for bits in state.captured_bits for c in bits_cards(bits)] + [c for p in state.trick for c in p]


def knowledge(state: DealState, plays=None) -> Knowledge:
    """The information set of ``state.seat``; ``plays`` (the history) adds voids."""
    seat = state.seat
    history, leader = _public_history(state, plays)
    voids = voids_from(history, trick_leaders(history, leader))
    played = 0
    for c in _played(state):
        played = add_card(played, c)
    # every seat plays as many cards per trick; the captured piles hold the completed tricks
    per_seat = sum(card_count(b) for b in state.captured_bits) // SEATS
    in_trick = [0] * SEATS
    for i, play in enumerate(state.trick):
        in_trick[(state.leader + i) % SEATS] = len(play)
    sizes = tuple(state.rules.hand_size - per_seat - in_trick[s] for s in range(SEATS))
    hand = state.hands_bits[seat]
    known = tuple(hand if s == seat else state.held_exposed[s] for s in range(SEATS))
    gone = hand_bits(c for bits in known for c in bits_cards(bits))
    unseen = list(full_deck(state.rules.decks))
    for c in bits_cards(played) + bits_cards(gone):
        unseen.remove(c)
    return Knowledge(seat=seat, hand=hand, known=known, sizes=sizes, voids=tuple(voids),
                     unseen=tuple(unseen), played=played)

