"""The play loop: one mutable ``Table`` advanced play by play (docs/rules.md, "Play").

``advance`` is the only code that applies plays. ``replay`` of untrusted
history, ``apply_move`` and fast random playouts all run through it, so the
rules of taking a trick are written once. A *chooser* picks each play from
the legal options ``(single cards, pairs, other two-card plays)`` (see
``moves``): a scripted history (replay), one given move (apply), or a
random/heuristic policy (simulation).
"""
from __future__ import annotations

import random as _random
from collections.abc import Callable, Sequence

from .cards import (
    ONE_PLANE,
    PLANE,
    SEATS,
    SPAN_BITS,
    SUIT_MASKS,
    SUIT_RANKS,
    SUIT_SIZE,
    SUIT_SUBSETS,
    Card,
    Play,
    count_of,
    nth_card,
    remove_card,
)
from .moves import NO_PLAYS, follow_pair_options, play_options, two_of
from .state import Table, Trick, cards_of
from .tricks import leading_index, trick_winner

# builds a Trick without the Python-level NamedTuple constructor (the inner loop makes 13–26 a deal)
new_trick = tuple.__new__
NEXT_SEATS = tuple((seat + 1) % SEATS for seat in range(SEATS))
Chooser = Callable[[int, int, Sequence[Play]], Play]


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


def _single_lead_best(trick: list[Play], leader: int) -> tuple[int, int, int]:
    """(best card, end of the led suit, its seat) of a single-card trick in progress."""
    if not trick or len(trick[0]) != 1:
        return -1, 0, leader
    at = leading_index([play[0] for play in trick])
    best = trick[at][0]
    return best, best - best % SUIT_SIZE + SUIT_SIZE, (leader + at) % SEATS


def advance(t: Table, choose: Chooser, limit: int = -1) -> None:  # noqa: C901, PLR0912, PLR0915 - the inner loop
    """Play until the deal ends or ``limit`` plays are made, each chosen by ``choose``.

    The options handed to ``choose`` are ``moves.play_options``; the
    commonest cases (no exposed card held, no first-trick ban, no opening
    card: a lead, a follow to a single lead, a follow to a pair lead) skip
    its dispatch: they are the expressions ``lead_options``,
    ``follow_single_mask`` and ``follow_pair_options`` reduce to there,
    computed inline (a pair follow's rarer cases call ``follow_pair_options``).
    tests/rules/test_options.py checks every option set the loop hands out
    against ``play_options`` over random deals.

    While it runs, ``t.trick`` and ``t.history`` are live (a chooser may read
    them); the other fields (hands, piles, seat, leader, …) are written back
    when it returns.
    """
    seat = t.seat
    if seat is None:
        return
    one_deck = t.rules.decks == 1
    hands, helds, captured, trick, history = t.hands, t.held_exposed, t.captured, t.trick, t.history
    leader, suits_led, first_round, opening = t.leader, t.suits_led, t.first_round, t.opening_lead
    ban = t.rules.first_trick_ban and not history
    # the two planes apart: one-plane ints stay small, and they are the single-card and pair masks as they are
    # (one deck: the hands are their first plane)
    ones = hands if one_deck else [h & ONE_PLANE for h in hands]
    twos = [0] * SEATS if one_deck else [h >> PLANE for h in hands]
    # the piles the same way (one deck: the first plane is the pile; pile_twos is never used)
    piles, pile_twos = (captured, twos) if one_deck else ([c & ONE_PLANE for c in captured],
                                                          [c >> PLANE for c in captured])
    taken = cards_of(trick) if trick else 0
    trick_one, trick_two = taken & ONE_PLANE, taken >> PLANE
    lead = trick[0] if trick else None
    pair_lead = lead is not None and len(lead) == 2
    best, top, winner = _single_lead_best(trick, leader)
    lead_suit = lead[0] // SUIT_SIZE if lead else 0
    follow = SUIT_MASKS[lead_suit]
    # whether a seat holds an exposed copy still (then each play is checked through play_options)
    holding = any(helds)
    # whether play_options is needed whatever the seat holds: first-trick ban, pair lead, opening card, exposures
    special = ban or pair_lead or opening is not None or holding
    # the exposed copies the seat to play holds; 0 whenever special is False (no seat holds one then)
    held = 0
    next_seat = NEXT_SEATS
    try:
        while limit:   # counts down; the default -1 never reaches 0
            hand = ones[seat]
            if special:
                held = helds[seat]
                if pair_lead and not (held or ban):
                    # what play_options reduces to after a pair lead, with no exposed copy held and no ban:
                    # follow_pair_options' first two cases (a pair of the suit; two different cards of it)
                    # plane by plane, the rest through it
                    pairs = twos[seat] & follow
                    if pairs:
                        move = choose(0, pairs, NO_PLAYS)
                    else:
                        suit = hand & follow
                        if suit & suit - 1:
                            move = choose(0, 0, two_of(suit))
                        else:
                            move = choose(0, *follow_pair_options(hand | twos[seat] << PLANE, 0, lead_suit,
                                                                  first_round))
                else:
                    move = choose(*play_options(hand | twos[seat] << PLANE, held, lead, suits_led, first_round,
                                                opening, ban))
            elif lead is None:
                move = choose(hand, twos[seat], NO_PLAYS)
            else:
                move = choose(hand & follow or hand, 0, NO_PLAYS)
            card = move[0]
            if lead is None:
                lead = move
                pair_lead = len(move) == 2
                lead_suit = card // SUIT_SIZE
                first_round = not suits_led >> lead_suit & 1
                suits_led |= 1 << lead_suit
                opening = None
                special = ban or pair_lead or holding
                best, top, winner = card, (lead_suit + 1) * SUIT_SIZE, seat
                follow = SUIT_MASKS[lead_suit]
            elif best < card < top:
                # a higher card of the led suit takes the trick; ties stay with the earlier play
                # (pair leads are ranked in full when the trick is complete)
                best, winner = card, seat
            bit = 1 << card
            if held or pair_lead:
                if held:
                    full = hand | twos[seat] << PLANE
                    for c in move:
                        held = _release(full, held, c, first_round and c // SUIT_SIZE == lead_suit)
                        full = remove_card(full, c)
                    helds[seat] = held
                    ones[seat], twos[seat] = full & ONE_PLANE, full >> PLANE
                else:
                    # remove_card, plane by plane, for each card of the play
                    one, two = hand, twos[seat]
                    for c in move:
                        bit = 1 << c
                        if two & bit:
                            two ^= bit
                        else:
                            one ^= bit
                    ones[seat], twos[seat] = one, two
                for c in move:
                    bit = 1 << c
                    if trick_one & bit:
                        trick_two |= bit
                    else:
                        trick_one |= bit
            elif one_deck:
                ones[seat] = hand ^ bit
                trick_one |= bit
            else:
                # remove_card, plane by plane: the second copy goes first
                if twos[seat] & bit:
                    twos[seat] ^= bit
                else:
                    ones[seat] = hand ^ bit
                if trick_one & bit:
                    trick_two |= bit
                else:
                    trick_one |= bit
            trick.append(move)
            limit -= 1
            seat = next_seat[seat]
            if seat != leader:
                continue
            # the trick is complete: its winner takes every card and leads next
            if pair_lead:
                winner = trick_winner(trick, leader)
            if one_deck:
                taken = trick_one
                captured[winner] |= taken
            else:
                # merge_bits inlined: the winner's pile plus the trick's cards, plane by plane
                taken = trick_one | trick_two << PLANE
                pile = piles[winner]
                pile_twos[winner] |= trick_two | pile & trick_one
                piles[winner] = pile | trick_one
            history.append(new_trick(Trick, (leader, tuple(trick), winner, taken)))
            trick_one = trick_two = 0
            trick.clear()
            lead = None
            ban = pair_lead = False
            special = holding = holding and any(helds)
            leader = seat = winner
            if not ones[winner]:
                seat = None
                break
    finally:
        t.seat, t.leader, t.suits_led, t.first_round, t.opening_lead = seat, leader, suits_led, first_round, opening
        if not one_deck:
            for s in range(SEATS):
                hands[s] = ones[s] | twos[s] << PLANE
                captured[s] = piles[s] | pile_twos[s] << PLANE


SINGLE_PLAYS: tuple[Play, ...] = tuple((c,) for c in range(PLANE))
PAIR_PLAYS: tuple[Play, ...] = tuple((c, c) for c in range(PLANE))
# by the bit length of a mask's lowest set bit (card + 1): the first card of that card's suit
LOW_SUIT_BASES = (0, *(card - card % SUIT_SIZE for card in range(PLANE)))


def random_chooser(rng: _random.Random) -> Chooser:
    """Uniformly random legal plays, drawn from ``rng`` (a ``random.Random``).

    An index below n is drawn exactly: ``getrandbits`` of n's bit length,
    drawn again while it is n or more (small draws are cached ints: cheaper
    than scaling a wide draw). A single option takes no draw.
    """
    getrandbits = rng.getrandbits

    def choose(singles: int, pairs: int, others: Sequence[Play]) -> Play:
        if not (pairs or others):
            base = LOW_SUIT_BASES[(singles & -singles).bit_length()]
            rest = singles >> base
            if rest < SUIT_SUBSETS:
                # every option is in one suit
                ranks = SUIT_RANKS[rest]
                n = len(ranks)
                if n == 1:
                    return SINGLE_PLAYS[base + ranks[0]]
                bits = SPAN_BITS[n]
                k = getrandbits(bits)
                while k >= n:
                    k = getrandbits(bits)
                return SINGLE_PLAYS[base + ranks[k]]
        n = singles.bit_count()
        p = pairs.bit_count() if pairs else 0
        total = n + p + len(others)
        if total == 1:
            k = 0
        else:
            bits = total.bit_length()
            k = getrandbits(bits)
            while k >= total:
                k = getrandbits(bits)
        if k < n:
            return SINGLE_PLAYS[nth_card(singles, k)]
        if k < n + p:
            return PAIR_PLAYS[nth_card(pairs, k - n)]
        return others[k - n - p]
    return choose


def scripted(move: Play) -> Chooser:
    """A chooser that plays ``move`` (known to be legal)."""
    def choose(singles: int, pairs: int, others: Sequence[Play]) -> Play:
        return move
    return choose
