"""Fast whole-deal simulation for bots and benchmarks (the engine's inner loop).

Inputs here are trusted (dealt by ``deal_hands``, plays chosen from the legal
options), so nothing is validated again: validation of untrusted input
happens once, in ``play.replay``.
"""
from __future__ import annotations

import random as _random

from .deal import deal_hands
from .play import initial_state
from .running import raw_scores
from .state import DealState
from .table import advance, random_chooser
from .variants import Rules


def random_deal(rules: Rules, rng: _random.Random) -> tuple[DealState, tuple[int, ...]]:
    """Deal, play every card by uniformly random legal plays, and score."""
    state = initial_state(rules, deal_hands(rules, rng=rng))
    advance(state, random_chooser(rng))
    return state, raw_scores(state)
