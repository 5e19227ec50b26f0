"""How long the bot's exact endgame (``gongzhu.solve.endgame``) takes to solve one open deal for every
legal move, by tricks left, one and two decks (docs/bot.md, "Exact endgames").

    python3 bench/perf/endgame.py                               # 40 states per row
    python3 bench/perf/endgame.py --decks 1 --tricks 3 4 5 6 --states 40

The states are those of ``bench/perf/claims.py`` (seeded random deals played with random legal moves
until that many tricks remain, stopping anywhere in a trick), where the seat to act has two legal
plays or more. Each is solved for every legal play, starting from each play's playout value as the
bot does; process CPU time on one core, playouts included. Figures: p50, p95 and max milliseconds,
the positions searched, and how many reached the limit (``--max-nodes``).
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

from bench.perf.claims import late_state  # noqa: E402
from gongzhu import rules as engine  # noqa: E402
from gongzhu import solve
from gongzhu.bot.search import playout_value  # noqa: E402


def row(decks: int, left: int, states: int, max_nodes: int, seed: int) -> dict:
    rng = random.Random(seed * 1000 + decks * 100 + left)
    times, nodes, moves, over = [], [], [], 0
    while len(times) < states:
        state = late_state(rng, decks, left)
        if state is None or len(engine.legal_moves(state)) < 2:
            continue
        legal = engine.legal_moves(state)
        started = time.process_time()
        guesses = [playout_value(state, move, state.seat) for move in legal]
        values, searched = solve.endgame_values(state, legal, max_nodes=max_nodes, guesses=guesses)
        times.append((time.process_time() - started) * 1000)
        nodes.append(searched)
        moves.append(len(legal))
        over += values is None
    times.sort()
    nodes.sort()
    at = int(0.95 * (len(times) - 1))
    return {"moves": statistics.mean(moves), "p50_ms": statistics.median(times), "p95_ms": times[at],
            "max_ms": times[-1], "p50_nodes": nodes[len(nodes) // 2], "p95_nodes": nodes[at], "over": over}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--states", type=int, default=40, help="states per row")
    ap.add_argument("--decks", type=int, nargs="*", default=[1, 2])
    ap.add_argument("--tricks", type=int, nargs="*", default=[2, 3, 4])
    ap.add_argument("--max-nodes", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"# CPython {platform.python_version()}, {platform.machine()}, engine {engine.engine_build()}; "
          f"{args.states} states a row; limit {args.max_nodes:,} positions; process CPU time a deal", flush=True)
    print("| decks | tricks left | moves | p50 ms | p95 ms | max ms | positions p50 / p95 | over the limit |")
    print("|---|---|---|---|---|---|---|---|", flush=True)
    for decks in args.decks:
        for left in args.tricks:
            r = row(decks, left, args.states, args.max_nodes, args.seed)
            print(f"| {decks} | {left} | {r['moves']:.1f} | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} | "
                  f"{r['max_ms']:.0f} | {r['p50_nodes']:,} / {r['p95_nodes']:,} | {r['over']} |", flush=True)


if __name__ == "__main__":
    main()
