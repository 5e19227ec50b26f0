"""Interchangeable plays: single cards that lead to the same outcome whatever the others hold.

Two single cards of one suit are interchangeable when they score alike (no
scoring card but hearts of one value; the pig, the sheep and the transformer
are each unique) and no copy of any card from the lower to the higher one is
in another seat's hand or in the current trick: every such card is played
in an earlier trick or is the seat's own. Then
each beats and loses to exactly the same cards, so the search plays one of
them (the lowest) and spends the playouts of the others on the plays that
differ. With two decks a card the seat holds twice is never merged: playing
one copy would break a pair the other card leaves whole.
"""
from __future__ import annotations

from collections.abc import Sequence

from service.rules import HEARTS, ONE_PLANE, PIG, SHEEP, SUIT_SIZE, TRANSFORMER, Card, Play, SeatView

PLANE = ONE_PLANE.bit_length()

# the points of each heart rank (2-4: 0; 5-10: 10; J 20, Q 30, K 40, A 50) as a class of equal value
HEART_CLASSES = (0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5)
UNIQUE = (PIG, SHEEP, TRANSFORMER)


def _value_class(card: Card) -> int:
    if card in UNIQUE:
        return -1 - card
    return HEART_CLASSES[card % SUIT_SIZE] if card // SUIT_SIZE == HEARTS else 0


def out_mask(view: SeatView, trick: Sequence[Play]) -> int:
    """One-plane mask of the cards of which some copy is in another seat's hand or in the trick."""
    out = 0
    for play in trick:
        for c in play:
            out |= 1 << c
    for c in view.unseen:
        out |= 1 << c
    for seat, bits in enumerate(view.known):
        if seat != view.seat:
            out |= bits | bits >> PLANE
    return out & ONE_PLANE


def distinct_plays(view: SeatView, trick: Sequence[Play], moves: list[Play]) -> list[Play]:
    """``moves`` less each single card interchangeable with the next lower single (order kept).

    ``trick``: the current trick's plays (its cards still compete with the seat's).
    """
    out = out_mask(view, trick)
    # two decks: a card the seat holds twice stays apart (playing one copy breaks a pair)
    twice = view.hand >> PLANE
    singles = sorted(m[0] for m in moves if len(m) == 1 and not twice >> m[0] & 1)
    dropped = {high for low, high in zip(singles, singles[1:]) if _same(low, high, out)}
    if not dropped:
        return moves
    return [m for m in moves if len(m) != 1 or m[0] not in dropped]


def _same(low: Card, high: Card, out: int) -> bool:
    if low // SUIT_SIZE != high // SUIT_SIZE or _value_class(low) != _value_class(high) or _value_class(low) < 0:
        return False
    between = (1 << high + 1) - (1 << low)
    return not out & between
