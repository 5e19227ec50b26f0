"""What one seat may know (its information set), and deals of the hidden cards consistent with it.

A ``SeatView`` is built from a deal state (``DealState.view``) without reading
any other seat's hand: the seat's own hand, every exposure (an exposed copy not yet played is
known to be in its exposer's hand), every card played and, from the
history, the suits each seat is void in (``running.voids``).

``sample_hidden`` (through ``DealState.resample``) deals the unseen cards to the other seats so that each gets
exactly as many as it holds, keeps the exposed copies it is known to hold,
and gets no card of a suit it is known to be void in. Cards with the fewest
eligible seats are placed first; each goes to an eligible seat chosen with
probability proportional to the room left there. A dead end starts again;
after ``ATTEMPTS`` dead ends the voids are dropped (the deal stays legal to
play). A caller's beliefs (``absent``: cards a seat is taken not to hold)
are honoured the same way and dropped first.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from .cards import PLANE, SEATS, SUIT_SIZE, Card, add_card, mask_cards

ATTEMPTS: Final = 20


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    """A seat's information set: everything public plus its own hand (bits are two-plane)."""

    seat: int
    hand: int
    known: tuple[int, ...]
    sizes: tuple[int, ...]
    voids: tuple[int, ...]
    unseen: tuple[Card, ...]
    played: int


def _try_deal(view: SeatView, rng: random.Random, use_voids: bool, absent: tuple[int, ...] | None) -> list[int] | None:
    room = [view.sizes[s] - view.known[s].bit_count() if s != view.seat else 0 for s in range(SEATS)]
    hands = list(view.known)
    others = [s for s in range(SEATS) if s != view.seat]
    eligible_by_suit = [[s for s in others if not (use_voids and view.voids[s] >> suit & 1)] for suit in range(4)]
    # the seats each card may go to: its suit's, less any seat believed not to hold it
    eligible = [eligible_by_suit[c // SUIT_SIZE] for c in range(PLANE)]
    if absent:
        for s in others:
            for c in mask_cards(absent[s]):
                eligible[c] = [t for t in eligible[c] if t != s]
    cards = list(view.unseen)
    rng.shuffle(cards)
    cards.sort(key=lambda c: len(eligible[c]))
    for c in cards:
        seats = eligible[c]
        total = sum(room[s] for s in seats)
        if not total:
            return None
        pick = int(rng.random() * total)
        chosen = seats[-1]
        for s in seats:
            pick -= room[s]
            if pick < 0:
                chosen = s
                break
        room[chosen] -= 1
        hands[chosen] = add_card(hands[chosen], c)
    return hands


def sample_hidden(view: SeatView, rng: random.Random, absent: tuple[int, ...] | None = None) -> list[int]:
    """Four two-plane hands: the seat's own, and a consistent guess for the others.

    ``absent`` (optional, per seat, one-plane): cards a seat is believed not to
    hold, honoured like its voids; a deal that cannot honour them drops them
    first, then the voids.
    """
    for beliefs in ((absent,) if absent and any(absent) else ()) + (None,):
        for _ in range(ATTEMPTS):
            hands = _try_deal(view, rng, True, beliefs)
            if hands is not None:
                return hands
    hands = _try_deal(view, rng, False, None)
    assert hands is not None, "the unseen cards fit the room left"
    return hands
