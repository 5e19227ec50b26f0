"""The play loop: one mutable table advanced play by play (SPEC.md §2–§4).

``advance`` is the only code that applies plays. The immutable ``DealState``
(``play.py``), replay of untrusted history and fast random playouts all run
through it, so the rules of taking a trick are written once. A *chooser*
picks each play from the legal options: a scripted history (replay), one
given move (apply), or a random/heuristic policy (simulation).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .cards import (ONE_PLANE, PIG, PLANE, SUIT_MASKS, SUIT_SIZE, Card, add_card, count_of, hand_bits, merge_bits,
                    remove_card)
from .moves import NO_DOUBLES, play_options
from .tricks import trick_ranking
from .variants import Rules

SEATS = 4
NEXT_SEAT = SEATS - 1  # (seat + 1) & NEXT_SEAT == (seat + 1) % SEATS
Options = tuple[int, list[tuple[Card, ...]]]
Chooser = Callable[[int, list[tuple[Card, ...]]], tuple[Card, ...]]


@dataclass(slots=True, kw_only=True)
class Table:
    """Everything the rules need mid-deal; bits are two-plane hands (``cards``)."""

    rules: Rules
    hands: list[int]
    held_exposed: list[int]
    exposed: tuple[tuple[Card, ...], ...]
    captured: list[int]
    suits_led: int
    first_round: bool
    trick_number: int
    leader: int
    trick: list[tuple[Card, ...]]
    seat: int | None
    opening_lead: Card | None
    first_pig_taker: int | None
    last_trick: tuple[int, tuple[tuple[Card, ...], ...]] | None
    plays_count: int

    def options(self, *, exposure: bool = True, ban: bool = True) -> Options:
        """Legal plays of the seat to act: (mask of single cards, two-card plays)."""
        seat = self.seat
        return play_options(self.rules.decks, self.hands[seat], self.held_exposed[seat] if exposure else 0,
                            self.trick[0] if self.trick else None, self.suits_led, self.first_round,
                            self.opening_lead, ban and self.trick_number == 0 and self.rules.first_trick_ban)


def _release(hand: int, held: int, card: Card, governed: bool) -> int:
    """Exposed copies left after playing ``card``.

    A play the first-round restriction governs uses an unexposed copy; any
    other play (a discard, or after the first round) uses an exposed copy first.
    """
    if not held >> card & 1:
        return held
    if governed and count_of(hand, card) > count_of(held, card):
        return held
    return remove_card(held, card)


def _single_lead_best(trick, leader: int) -> tuple[int, int, int]:
    """(best card, end of the led suit, its seat) of a single-card trick in progress."""
    if not trick or len(trick[0]) != 1:
        return -1, 0, leader
    best = trick[0][0]
    top = best - best % SUIT_SIZE + SUIT_SIZE
    winner = leader
    for i in range(1, len(trick)):
        c = trick[i][0]
        if best < c < top:
            best, winner = c, (leader + i) % SEATS
    return best, top, winner


def advance(t: Table, choose: Chooser, limit: int = -1) -> None:
    """Play until the deal ends or ``limit`` plays are made, each chosen by ``choose``."""
    one_deck = t.rules.decks == 1
    decks = t.rules.decks
    hands, helds, captured, trick = t.hands, t.held_exposed, t.captured, t.trick
    seat, leader, suits_led, first_round = t.seat, t.leader, t.suits_led, t.first_round
    opening, trick_number, pig_taker, last_trick = t.opening_lead, t.trick_number, t.first_pig_taker, t.last_trick
    ban = t.rules.first_trick_ban and trick_number == 0
    played = 0
    trick_cards = hand_bits(c for play in trick for c in play)
    lead = trick[0] if trick else None
    best, top, winner = _single_lead_best(trick, leader)
    follow = SUIT_MASKS[lead[0] // SUIT_SIZE] if lead else 0
    try:
        while seat is not None and played != limit:
            hand, held = hands[seat], helds[seat]
            simple = one_deck and not held
            if not held and not ban and opening is None and (one_deck or lead is not None and len(lead) == 1):
                # play_options inlined for the common cases: lead anything (one deck);
                # after a single lead, follow suit if able, else discard anything
                move = choose(hand if lead is None else hand & follow or hand & ONE_PLANE, NO_DOUBLES)
            else:
                move = choose(*play_options(decks, hand, held, lead, suits_led, first_round, opening, ban))
            card = move[0]
            if lead is None:
                lead = move
                lead_suit = card // SUIT_SIZE
                first_round = not suits_led >> lead_suit & 1
                suits_led |= 1 << lead_suit
                opening = None
                best, top, winner = card, (lead_suit + 1) * SUIT_SIZE, seat
                follow = SUIT_MASKS[lead_suit]
            elif best < card < top:
                # a higher card of the led suit takes the trick; ties stay with the earlier play
                # (pair leads are ranked in full when the trick is complete)
                best, winner = card, seat
            if simple:
                bit = 1 << card
                hands[seat] = hand ^ bit
                trick_cards |= bit
            else:
                lead_suit = lead[0] // SUIT_SIZE
                for c in move:
                    if held:
                        held = _release(hand, held, c, first_round and c // SUIT_SIZE == lead_suit)
                    hand = remove_card(hand, c)
                    trick_cards = add_card(trick_cards, c)
                hands[seat] = hand
                helds[seat] = held
            trick.append(move)
            played += 1
            if len(trick) < SEATS:
                seat = (seat + 1) & NEXT_SEAT
                continue
            # the trick is complete: its winner takes every card and leads next
            if len(lead) == 2:
                winner = trick_ranking(trick, leader)[0]
            if pig_taker is None and trick_cards >> PIG & 1:
                pig_taker = winner
            captured[winner] = captured[winner] | trick_cards if one_deck else merge_bits(captured[winner], trick_cards)
            trick_cards = 0
            last_trick = (leader, tuple(trick))
            trick.clear()
            lead = None
            trick_number += 1
            ban = False
            leader = winner
            seat = winner if hands[winner] else None
    finally:
        t.seat, t.leader, t.suits_led, t.first_round = seat, leader, suits_led, first_round
        t.opening_lead, t.trick_number, t.first_pig_taker = opening, trick_number, pig_taker
        t.last_trick, t.plays_count = last_trick, t.plays_count + played


SINGLE_PLAYS: tuple[tuple[Card, ...], ...] = tuple((c,) for c in range(PLANE))
# the set ranks of every 13-bit suit mask, to pick a card of one suit in one step
SUIT_RANKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(SUIT_SIZE) if m >> r & 1) for m in range(1 << SUIT_SIZE))
SUIT_SUBSETS = len(SUIT_RANKS)
SUIT_MASK = SUIT_SUBSETS - 1
SUIT_BASES = tuple(range(0, PLANE, SUIT_SIZE))


def random_chooser(random: Callable[[], float]) -> Chooser:
    """Uniformly random legal plays, from a ``random.Random().random``."""
    def choose(mask: int, doubles: list[tuple[Card, ...]]) -> tuple[Card, ...]:
        if not doubles:
            low = (mask & -mask).bit_length() - 1
            base = low - low % SUIT_SIZE
            if mask >> base < SUIT_SUBSETS:
                ranks = SUIT_RANKS[mask >> base]
                return SINGLE_PLAYS[base + ranks[int(random() * len(ranks))]]
        n = mask.bit_count()
        k = int(random() * (n + len(doubles)))
        if k >= n:
            return doubles[k - n]
        for base in SUIT_BASES:
            ranks = SUIT_RANKS[mask >> base & SUIT_MASK]
            if k < len(ranks):
                return SINGLE_PLAYS[base + ranks[k]]
            k -= len(ranks)
        raise ValueError("no legal play to choose from")
    return choose


def is_option(move: tuple[Card, ...], mask: int, doubles) -> bool:
    """Whether sorted ``move`` is among the legal options."""
    if len(move) == 1:
        c = move[0]
        return 0 <= c < PLANE and bool(mask >> c & 1)
    return move in doubles
