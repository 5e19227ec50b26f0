"""Interchangeable plays: single cards that lead to the same outcome whatever the others hold.

Two single cards of one suit are interchangeable when they score alike (no
scoring card but hearts of one value; the pig, the sheep and the transformer
stand alone) and no copy of any card from the lower to the higher one is in
another seat's hand or in the current trick: every such card was played in
an earlier trick or is the seat's own. Then each beats and loses to exactly
the same cards, so the search plays one of them (the lowest) and spends the
playouts of the others on the plays that differ. With two decks a card the
seat holds twice stands alone too: playing one copy would break a pair. The
runs are the engine's ``lowest_of_runs``, which the claims search uses for
the same purpose (there without the points: a claim is about tricks); the runs that score alike
are ``solve.vocabulary.distinct_cards``, the exact endgame's too.
"""
from __future__ import annotations

from collections.abc import Sequence

from gongzhu.rules import Play, SeatView
from gongzhu.rules.cards import ONE_PLANE, PLANE
from gongzhu.solve.vocabulary import distinct_cards


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
    """``moves`` with one single card of each interchangeable run, the lowest (order kept).

    ``trick``: the current trick's plays (its cards still compete with the seat's).
    """
    singles = sum(1 << m[0] for m in moves if len(m) == 1)
    if singles & (singles - 1) == 0:
        return moves
    kept = set(distinct_cards(singles, out_mask(view, trick), view.hand >> PLANE))
    if len(kept) == singles.bit_count():
        return moves
    return [m for m in moves if len(m) != 1 or m[0] in kept]
