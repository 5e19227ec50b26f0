"""The deal review's bars measured against seats playing the lab's ``rules2`` (bench/bot/opponents.py, written
apart from the bot): the same verdicts from two seeds, and the random seats losing twice what the decent ones
lose a decision (docs/review.md, "How stable an estimate is"). They read the lab, so they live beside it and
``make test`` does not run them (bench/README.md):

    .venv/bin/python -m pytest -q bench/perf/test_review_bars.py
"""
from __future__ import annotations

from statistics import mean

import pytest

from bench.bot.opponents import rules2_play
from bench.perf.review import mixed_deals, stability
from gongzhu import bot
from gongzhu.rules import Rules, legal_moves
from tests.bot.states import played_deal


def _decent_or_random(state, rng):
    # seats 0 and 2 play rules2 (written apart from the bot), seats 1 and 3 at random
    if state.seat in (0, 2):
        return rules2_play(state)
    return rng.choice(legal_moves(state))


# The review's discrimination bar, not reached yet: over 20 such deals at the default budget the random seats
# lose ×1.4 what rules2 loses a decision, over all decisions and over the estimated ones alone (docs/review.md,
# "How stable an estimate is"); the test stands for the bar and fails loudly (strict) once it is met.
@pytest.mark.xfail(strict=True, reason="the discrimination bar (×2) is not reached yet: docs/review.md")
def test_random_seats_lose_at_least_twice_what_a_decent_seat_loses_a_decision():
    losses: dict[tuple[bool, bool], list[float]] = {(a, b): [] for a in (True, False) for b in (True, False)}
    for seed in range(6):
        start, plays = played_deal(Rules(partnership=True), 200 + seed, _decent_or_random)
        for d in bot.review(start, plays, budget_ms=1000, seed=seed).decisions:
            if d.values is not None:
                losses[d.seat in (0, 2), d.exact].append(d.loss)
    every = {decent: losses[decent, True] + losses[decent, False] for decent in (True, False)}
    assert mean(every[False]) >= 2 * mean(every[True]) > 0
    assert mean(losses[False, False]) >= 2 * mean(losses[True, False]) > 0


@pytest.mark.slow
def test_two_seeds_give_the_same_verdicts_at_the_default_budget():
    deals = mixed_deals(20, 1)
    first, second = ([bot.review(start, plays, seed=seed) for start, plays in deals] for seed in (1, 2))
    found = stability(first, second)
    assert found["estimated"] >= 200
    assert found["p90"] <= 10 and found["flips"] <= 0.05


