"""How long the exact claims search (声称, ``service/gongzhu/solve/claims.py``) takes to decide, by
tricks left, one and two decks.

    python3 bench/perf/claims.py                       # 12 states per row, every seat and kind
    python3 bench/perf/claims.py --states 30 --decks 1 --tricks 2 3 4 5 6 7 8

For each number of tricks left it deals seeded random deals, plays random legal moves
until that many tricks remain (stopping at a random point of the trick), and asks all
eight claims (four seats × ``all_tricks``/``no_tricks``). Each decision is timed in
process CPU time on one core. Figures: p50, p95 and max milliseconds, the share of
claims that hold, and how many reached the search's limit of positions (``unknown``:
where exactness stops at that limit).
"""
from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from gongzhu import rules as engine  # noqa: E402
from gongzhu import solve  # noqa: E402

KINDS = ("all_tricks", "no_tricks")


def late_state(rng: random.Random, decks: int, left: int,
               rules: engine.Rules | None = None) -> engine.DealState | None:
    rules = engine.Rules(decks=decks) if rules is None else rules
    hands = engine.deal_hands(rules, seed=rng.randrange(1 << 40))
    state = engine.replay(rules, hands=hands, exposed=((), (), (), ()), plays=(), first_deal=True)
    while not state.finished and solve.tricks_left(state) > left:
        state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
    for _ in range(rng.randrange(4)):
        if state.finished or solve.tricks_left(state) <= 1 or not state.trick and left == 1:
            break
        if state.trick or rng.random() < 0.5:
            state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
    return None if state.finished else state


def row(decks: int, left: int, states: int, max_nodes: int, seed: int) -> dict:
    rng = random.Random(seed * 1000 + decks * 100 + left)
    times, held, unknown, positions = [], 0, 0, []
    made = 0
    while made < states:
        state = late_state(rng, decks, left)
        if state is None:
            continue
        made += 1
        for seat in range(4):
            for kind in KINDS:
                started = time.process_time()
                verdict = solve.decide_claim(state, seat, kind, max_nodes=max_nodes)
                times.append((time.process_time() - started) * 1000)
                positions.append(verdict.nodes)
                held += verdict.holds is True
                unknown += verdict.holds is None
    times.sort()
    return {"decks": decks, "tricks": left, "claims": len(times),
            "p50_ms": statistics.median(times), "p95_ms": times[int(0.95 * (len(times) - 1))],
            "max_ms": times[-1], "held": held / len(times), "unknown": unknown,
            "p95_positions": sorted(positions)[int(0.95 * (len(positions) - 1))]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--states", type=int, default=12, help="states per row (8 claims each)")
    ap.add_argument("--decks", type=int, nargs="*", default=[1, 2])
    ap.add_argument("--tricks", type=int, nargs="*", default=list(range(2, 14)))
    ap.add_argument("--max-nodes", type=int, default=solve.claims.DEFAULT_MAX_NODES)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"# CPython {platform.python_version()}, {platform.machine()}; states/row {args.states} x 8 claims; "
          f"limit {args.max_nodes:,} positions; process CPU time per decision", flush=True)
    print("| decks | tricks left | claims | p50 ms | p95 ms | max ms | hold | unknown | p95 positions |")
    print("|---|---|---|---|---|---|---|---|---|", flush=True)
    for decks in args.decks:
        for left in args.tricks:
            r = row(decks, left, args.states, args.max_nodes, args.seed)
            print(f"| {decks} | {left} | {r['claims']} | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} | "
                  f"{r['max_ms']:.0f} | {r['held']:.0%} | {r['unknown']} | {r['p95_positions']:,} |", flush=True)


if __name__ == "__main__":
    main()
