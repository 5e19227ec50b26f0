"""Fast whole-deal simulation for bots and benchmarks (the engine's inner loop).

Inputs here are trusted (dealt by ``deal_hands``, plays chosen from the legal
options), so nothing is validated again: validation of untrusted input
happens once, in ``play.replay``.
"""
from __future__ import annotations

import random as _random
from collections.abc import Sequence

from .cards import Card
from .deal import deal_hands
from .play import NO_EXPOSURE, initial_table
from .state import Table
from .table import advance, random_chooser
from .variants import Rules


def new_table(rules: Rules, hands: Sequence[Sequence[Card]], exposed: Sequence[Sequence[Card]] = NO_EXPOSURE, *,
              first_deal: bool = True, leader: int | None = None) -> Table:
    """The table before the first play of a trusted deal."""
    return initial_table(rules, hands, exposed, first_deal=first_deal, leader=leader)


def random_deal(rules: Rules, rng: _random.Random) -> tuple[Table, tuple[int, ...]]:
    """Deal, play every card by uniformly random legal plays, and score."""
    t = new_table(rules, deal_hands(rules, rng=rng))
    advance(t, random_chooser(rng))
    return t, t.raw_scores()
