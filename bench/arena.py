"""Arena: the bot against three opponents, duplicate format.

Every seeded one-deck deal (first deal of a match, no exposures) is played
four times with the bot in seat 0, 1, 2, 3 in turn and the opponent policy
in the other three seats, so each deal's luck is cancelled: a seat of
equal strength would average exactly 0 normalized points per deal.
Prints the bot's mean normalized score per deal (mean of its four seats),
the standard error over deals, and the bot's decision time p50/p95, both
wall clock and the thread's CPU time (other processes' load on a shared
machine stretches the wall clock, not the CPU time).

    python -m bench.arena --deals 2000 --opponent random --budget-ms 20
    python -m bench.arena --deals 2000 --opponent heuristic --budget-ms 20
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from service.bot import heuristic_suggestion, suggest
from service.rules import (
    SEATS,
    Rules,
    apply_legal_move,
    deal_hands,
    legal_moves,
    normalize,
    replay,
    score_state,
)

PERCENT = 100


def _opponent(name: str, rng: random.Random):
    if name == "random":
        return lambda state: rng.choice(legal_moves(state))
    return lambda state: heuristic_suggestion(state).move


def play_deal(rules: Rules, deal_seed: int, bot_seat: int, opponent: str, budget_ms: int,
              times: list[float]) -> int:
    """One deal with the bot in ``bot_seat``; the bot's normalized score."""
    state = replay(rules, hands=deal_hands(rules, seed=deal_seed))
    other = _opponent(opponent, random.Random(deal_seed * SEATS + bot_seat))
    plays = []
    while not state.finished:
        if state.seat == bot_seat:
            start, cpu = time.perf_counter(), time.thread_time()
            move = suggest(state, budget_ms=budget_ms, seed=deal_seed * 1000 + state.plays_count,
                           plays=plays).move
            times.append(((time.perf_counter() - start) * 1000, (time.thread_time() - cpu) * 1000))
        else:
            move = other(state)
        plays.append(move)
        state = apply_legal_move(state, move)
    return normalize(score_state(state).raw)[bot_seat]


def percentile(values: list[float], p: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / PERCENT))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--opponent", choices=("random", "heuristic"), default="random")
    parser.add_argument("--budget-ms", type=int, default=20)
    parser.add_argument("--progress", type=int, default=100, help="print a running line every N deals")
    args = parser.parse_args(argv)
    rules = Rules()
    per_deal, times = [], []
    began = time.perf_counter()
    for i in range(args.deals):
        seed = args.first_seed + i
        scores = [play_deal(rules, seed, seat, args.opponent, args.budget_ms, times) for seat in range(SEATS)]
        per_deal.append(sum(scores) / SEATS)
        if args.progress and (i + 1) % args.progress == 0:
            print(f"{i + 1} deals: mean {statistics.fmean(per_deal):.2f} "
                  f"({time.perf_counter() - began:.0f} s)", file=sys.stderr, flush=True)
    wall, cpu = [w for w, _ in times], [c for _, c in times]
    mean = statistics.fmean(per_deal)
    se = statistics.stdev(per_deal) / len(per_deal) ** 0.5
    result = {"opponent": args.opponent, "deals": len(per_deal), "budget_ms": args.budget_ms,
              "mean_normalized_per_deal": round(mean, 2), "standard_error": round(se, 2),
              "margin_in_se": round(mean / se, 1), "decisions": len(times),
              "decision_ms_p50": round(percentile(wall, 50), 2),
              "decision_ms_p95": round(percentile(wall, 95), 2),
              "decision_cpu_ms_p50": round(percentile(cpu, 50), 2),
              "decision_cpu_ms_p95": round(percentile(cpu, 95), 2),
              "seconds": round(time.perf_counter() - began)}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
