"""What the review's bars measure, shared by their tests (tests/bot/test_review_bars.py) and the benchmark that
prints them (bench/perf/review.py): deals a decent seat played against random play, and the change between two
seeds' reviews of them."""
from __future__ import annotations

import random
import statistics
from collections.abc import Callable

from gongzhu import rules as engine
from gongzhu.rules import running

# the decent seats of ``mixed_deals`` (a side, in partnership); the random seats are the others
DECENT = (0, 2)
# The loss a verdict is drawn at: "this play lost 20 points or more".
VERDICT = 20

Player = Callable[[engine.DealState], engine.Play]


def percentile(values: list[float], share: float) -> float:
    values = sorted(values)
    return values[int(share * (len(values) - 1))]


def mixed_deals(count: int, seed: int, player_for: Callable[[int], Player]) -> list[tuple[engine.DealState, list]]:
    """``count`` seeded one-deck partnership deals, ``player_for(number)`` in ``DECENT`` and random legal plays
    elsewhere, played to the end: each one's state before its first play and its plays."""
    rules = engine.Rules(partnership=True)
    found = []
    for number in range(count):
        rng = random.Random(f"mixed {seed} {number}")
        hands = engine.deal_hands(rules, seed=rng.randrange(1 << 40))
        state = engine.replay(rules, hands=hands)
        player = player_for(number)
        while not state.finished:
            state.apply(player(state) if state.seat in DECENT else rng.choice(engine.legal_moves(state)))
        found.append((engine.replay(rules, hands=hands), list(running.plays(state))))
    return found


def stability(first: list, second: list, reached: bool | None = None) -> dict:
    """The two seeds' reviews of the same deals (``bot.review``'s ``Review``s) compared over the estimated
    decisions with a choice (``reached`` True or False: only those the exact search reached, or did not): the p90
    and median of the loss of the play made's difference, the share whose verdict at ``VERDICT`` points differs,
    and how many there were."""
    changes, flips = [], 0
    for one, two in zip(first, second):
        for a, b in zip(one.decisions, two.decisions):
            if a.exact or b.exact or a.values is None or reached is not None and (a.hindsight is not None) != reached:
                continue
            changes.append(abs(a.loss - b.loss))
            flips += (a.loss >= VERDICT) != (b.loss >= VERDICT)
    return {"p90": percentile(changes, 0.9), "median": statistics.median(changes), "flips": flips / len(changes),
            "estimated": len(changes)}
