"""Engine speed: random legal deals per second, legal moves and replay latency.

    python bench/engine.py [--seconds 3] [--seed 1]

Times are CPU time of this single-threaded process (``time.process_time``),
so other load on the machine does not count against the engine.

Prints, for one and two decks: random deals per second on one core, the
median and best of five rounds (deal,
play every card by uniformly random legal plays, score), the median µs of
``legal_moves`` on a mid-deal state, and the µs of ``replay`` (full
validation) of a finished deal: each of 20 deals' median, averaged. See
docs/performance.md for recorded figures.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gongzhu.rules import Play, Rules, advance, deal_hands, first_leader, legal_moves, new_table, random_chooser, replay  # noqa: E402

SAMPLES = 2000
ROUNDS = 5
MID_DEAL_PLAYS = {1: 26, 2: 50}
REPLAY_DEALS = 20
REPLAY_SAMPLES = 500


def deals_per_second(rules: Rules, seconds: float, seed: int) -> tuple[float, float, int]:
    """(median, best) deals per CPU second over ROUNDS rounds, and the deals played."""
    rng = random.Random(seed)
    choose = random_chooser(rng)
    rates, total = [], 0
    for _ in range(ROUNDS):
        count = 0
        start = time.process_time()
        deadline = start + seconds / ROUNDS
        while time.process_time() < deadline:
            for _ in range(100):
                t = new_table(rules, deal_hands(rules, rng=rng))
                advance(t, choose)
                t.raw_scores()
            count += 100
        rates.append(count / (time.process_time() - start))
        total += count
    return statistics.median(rates), max(rates), total


def recorded_deal(rules: Rules, seed: int):
    """A finished random deal as history: hands, plays."""
    rng = random.Random(seed)
    hands = deal_hands(rules, rng=rng)
    t = new_table(rules, hands)
    plays: list[Play] = []
    pick = random_chooser(rng)

    def record(singles: int, pairs: int, others: Sequence[Play]) -> Play:
        move = pick(singles, pairs, others)
        plays.append(move)
        return move
    advance(t, record)
    return hands, plays


def replay_cost(rules: Rules, seed: int) -> tuple[float, float]:
    """(mean µs, mean plays) of replay with full validation over REPLAY_DEALS finished random deals.

    Deals differ in cost (pair tricks, plays), so one deal would make the figure depend on the seed.
    """
    costs, plays_made = [], []
    for k in range(REPLAY_DEALS):
        hands, plays = recorded_deal(rules, seed + k)
        leader = first_leader(rules, hands)
        costs.append(median_us(lambda: replay(rules, hands=hands, plays=plays, leader=leader), REPLAY_SAMPLES))
        plays_made.append(len(plays))
    return statistics.fmean(costs), statistics.fmean(plays_made)


def median_us(fn, samples: int = SAMPLES) -> float:
    times = []
    clock = time.thread_time
    for _ in range(samples):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    rates = {}
    for decks in (1, 2):
        rules = Rules(decks=decks)
        rate, best, count = deals_per_second(rules, args.seconds, args.seed)
        rates[decks] = best
        hands, plays = recorded_deal(rules, args.seed)
        leader = first_leader(rules, hands)
        mid = replay(rules, hands=hands, plays=plays[:MID_DEAL_PLAYS[decks]], leader=leader)
        legal_us = median_us(lambda: legal_moves(mid))
        replay_us, mean_plays = replay_cost(rules, args.seed)
        print(f"{decks} deck(s): {rate:,.0f} random deals/s (median of {ROUNDS} rounds, best {best:,.0f}; "
              f"{count:,} deals), "
              f"legal_moves mid-deal {legal_us:.1f} µs median, "
              f"replay+validate finished deal {replay_us:.1f} µs (mean over {REPLAY_DEALS} deals of each one's "
              f"median; {mean_plays:.1f} plays a deal)")
    # same run, best rounds: a card of two decks costs as much as a card of one at 0.5
    print(f"two decks / one deck, random deals per second (best rounds): {rates[2] / rates[1]:.2f}")


if __name__ == "__main__":
    main()
