"""Fast whole-deal simulation for bots and benchmarks (the engine's inner loop).

Inputs here are trusted (dealt by ``deal_hands``, plays chosen from the legal
options), so nothing is validated again: validation of untrusted input
happens once, in ``play.replay``.
"""
from __future__ import annotations

import random as _random

from .deal import deal_hands, first_leader
from .exposure import deal_exposure_counts
from .play import initial_table
from .scoring import SeatScore, seat_score
from .table import Table, advance, random_chooser
from .variants import Rules

NO_EXPOSURE = ((), (), (), ())
RAW = SeatScore._fields.index("raw")


def new_table(rules: Rules, hands, exposed=NO_EXPOSURE, *, first_deal: bool = True,
              leader: int | None = None) -> Table:
    """The table before the first play of a trusted deal."""
    if leader is None:
        leader = first_leader(rules, hands)
    return initial_table(rules, hands, exposed, first_deal, leader)


def table_raw_scores(t: Table) -> tuple[int, ...]:
    """Raw scores of the cards each seat has captured so far."""
    k = deal_exposure_counts(t.rules, t.exposed)
    rules = t.rules
    return tuple([seat_score(rules, bits, k)[RAW] for bits in t.captured])


def random_deal(rules: Rules, rng: _random.Random) -> tuple[Table, tuple[int, ...]]:
    """Deal, play every card by uniformly random legal plays, and score."""
    t = new_table(rules, deal_hands(rules, rng=rng))
    advance(t, random_chooser(rng.random))
    return t, table_raw_scores(t)
