"""The deal review's bars against seats that the bot's search did not shape (tests/players.py: ``rules2`` and
``greedy-trick``) playing against uniformly random play: the same verdicts from two seeds, and the random seats
losing twice what the decent ones lose a decision (docs/review.md, "How stable an estimate is"). Each reviews
whole deals at 1 s or the default budget, so they are slow (the pure pass leaves them out)."""
from __future__ import annotations

from functools import partial
from statistics import mean

import pytest

from gongzhu import bot
from gongzhu.rules import Rules, legal_moves
from tests.bot.review_measures import mixed_deals, stability
from tests.bot.states import played_deal
from tests.players import greedy_trick_play, rules2_play


def _decent_or_random(player):
    """Seats 0 and 2 play ``player`` (written apart from the bot's search), seats 1 and 3 at random."""
    def choose(state, rng):
        return player(state) if state.seat in (0, 2) else rng.choice(legal_moves(state))
    return choose


def _losses(player, seeds) -> dict[tuple[bool, bool], list[float]]:
    """The losses of the plays with a choice of deals ``seeds`` played by ``_decent_or_random(player)``, reviewed
    at 1000 ms: keyed by (a decent seat's, beyond the exact search's reach)."""
    losses: dict[tuple[bool, bool], list[float]] = {(a, b): [] for a in (True, False) for b in (True, False)}
    for seed in seeds:
        start, plays = played_deal(Rules(partnership=True), 200 + seed, _decent_or_random(player))
        for d in bot.review(start, plays, budget_ms=1000, seed=seed).decisions:
            if d.values is not None:
                losses[d.seat in (0, 2), d.hindsight is None].append(d.loss)
    return losses


def _twice(losses: dict[tuple[bool, bool], list[float]]) -> None:
    """The random seats lose at least twice the decent seats' loss a decision, over every play with a choice (each
    judged in the fair lens) and over those the exact search does not reach (the estimate alone)."""
    every = {decent: losses[decent, True] + losses[decent, False] for decent in (True, False)}
    assert mean(every[False]) >= 2 * mean(every[True]) > 0
    assert mean(losses[False, True]) >= 2 * mean(losses[True, True]) > 0


@pytest.mark.slow
def test_random_seats_lose_at_least_twice_what_a_greedy_seat_loses_a_decision():
    # greedy-trick: a one-trick best reply on deals of the hidden cards, built like the open-source greedy Gong Zhu
    # AIs; neither the bot's search nor its playout policy
    _twice(_losses(partial(greedy_trick_play, samples=20, seed=1), range(6)))


# The bar is not reached with rules2: over 20 deals at the default budget the random seats lose ×1.7 what rules2
# loses a decision, ×1.45 over the plays the exact search does not reach; rules2 blunders with the sheep, and the
# fair lens says so (docs/review.md, "How stable an estimate is"). Strict: it fails loudly once it is met.
@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="not reached with rules2 (×1.7, ×1.45): docs/review.md")
def test_random_seats_lose_at_least_twice_what_a_rules2_seat_loses_a_decision():
    _twice(_losses(rules2_play, range(6)))


@pytest.mark.slow
def test_two_seeds_give_the_same_verdicts_at_the_default_budget():
    deals = mixed_deals(20, 1, lambda number: rules2_play)
    first, second = ([bot.review(start, plays, seed=seed) for start, plays in deals] for seed in (1, 2))
    found = stability(first, second)
    assert found["estimated"] >= 200
    assert found["p90"] <= 10 and found["flips"] <= 0.05
    # and over the plays the exact search does not reach, where the playouts alone decide
    early = stability(first, second, reached=False)
    assert early["estimated"] >= 200
    assert early["p90"] <= 10 and early["flips"] <= 0.05
