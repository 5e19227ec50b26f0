"""Determinization: one deal of the unseen cards consistent with what the seat knows.

The unseen cards go to the other seats so that each gets exactly as many as
it holds, keeps the exposed copies it is known to hold, and gets no card of
a suit it is known to be void in. Cards with the fewest eligible seats are
placed first; each goes to an eligible seat chosen with probability
proportional to the room left there. A dead end starts again; after
``ATTEMPTS`` dead ends the voids are dropped (the deal stays legal to play).
"""
from __future__ import annotations

import random

from service.rules.cards import SUIT_SIZE, add_card

from .knowledge import SEATS, Knowledge

ATTEMPTS = 20


def _try_deal(k: Knowledge, rng: random.Random, use_voids: bool) -> list[int] | None:
    room = [k.sizes[s] - k.known[s].bit_count() if s != k.seat else 0 for s in range(SEATS)]
    hands = list(k.known)
    others = [s for s in range(SEATS) if s != k.seat]
    eligible_by_suit = []
    for suit in range(4):
        eligible_by_suit.append([s for s in others if not (use_voids and k.voids[s] >> suit & 1)])
    cards = list(k.unseen)
    rng.shuffle(cards)
    cards.sort(key=lambda c: len(eligible_by_suit[c // SUIT_SIZE]))
    for c in cards:
        seats = eligible_by_suit[c // SUIT_SIZE]
        total = sum(room[s] for s in seats)
        if not total:
            return None
        pick = int(rng.random() * total)
        for s in seats:
            pick -= room[s]
            if pick < 0:
                break
        room[s] -= 1
        hands[s] = add_card(hands[s], c)
    return hands


def deal_unseen(k: Knowledge, rng: random.Random) -> list[int]:
    """Four two-plane hands: the seat's own, and a consistent guess for the others."""
    for _ in range(ATTEMPTS):
        hands = _try_deal(k, rng, True)
        if hands is not None:
            return hands
    return _try_deal(k, rng, False)
