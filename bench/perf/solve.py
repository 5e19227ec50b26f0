"""What ``POST /solve`` answers within its budget (``gongzhu.solve.OpenValues.bounds``, docs/review.md, "The solver
as an operation"), by tricks left: the share of positions answered exactly, the share of moves exact, and the
width of the bounds of the moves that are not; and, with no budget, the CPU time of ``bounds`` against the
review's ``values`` on the same positions, in turn (the same search: the ratio should be 1).

    python3 bench/perf/solve.py                                 # one deck, 6 to 10 tricks left, budget 2000 ms
    python3 bench/perf/solve.py --decks 2 --tricks 4 5 6 7 --budget-ms 2000 --states 10

Positions: ``bench/perf/review.py``'s (seeded random deals played with random legal moves), one deck
individual and partnership, two decks individual; each solved by a fresh ``OpenValues`` (no table from an
earlier position). Wall-clock budget (what the operation has), process CPU time for the comparison (rows up to
``--compare-up-to`` tricks left: beyond, ``values`` is too slow to wait for).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.perf.review import KINDS, position_states  # noqa: E402
from gongzhu import solve  # noqa: E402


def budget_row(decks: int, partnership: bool, left: int, states: int, budget_ms: int, seed: int) -> dict:
    exact_positions, moves, exact_moves, widths = 0, 0, 0, []
    for state in position_states(decks, partnership, left, states, seed):
        found = solve.OpenValues().bounds(state, deadline=time.monotonic() + budget_ms / 1000)
        exact = [low == high for low, high in found.values()]
        exact_positions += all(exact)
        moves += len(exact)
        exact_moves += sum(exact)
        widths += [high - low for low, high in found.values() if low < high]
    return {"positions": exact_positions / states, "moves": exact_moves / moves,
            "width": statistics.median(widths) if widths else 0}


def compare_row(decks: int, partnership: bool, left: int, states: int, seed: int) -> tuple[float, float, float]:
    """Median CPU ms of ``values`` and of ``bounds`` (no budget), in turn, and the median of their ratios."""
    values_ms, bounds_ms = [], []
    for i, state in enumerate(position_states(decks, partnership, left, states, seed)):
        calls = [("values", solve.OpenValues().values), ("bounds", solve.OpenValues().bounds)]
        for name, call in calls if i % 2 == 0 else calls[::-1]:
            started = time.process_time()
            call(state)
            (values_ms if name == "values" else bounds_ms).append((time.process_time() - started) * 1000)
    ratios = [b / v for v, b in zip(values_ms, bounds_ms) if v > 0]
    return statistics.median(values_ms), statistics.median(bounds_ms), statistics.median(ratios)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decks", type=int, nargs="+", default=[1])
    parser.add_argument("--tricks", type=int, nargs="+", default=[6, 7, 8, 9, 10])
    parser.add_argument("--states", type=int, default=10)
    parser.add_argument("--budget-ms", type=int, default=2000)
    parser.add_argument("--compare-up-to", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"\n## /solve within {args.budget_ms} ms; {args.states} positions a row\n")
    print("| kind | tricks left | positions exact | moves exact | bound width median | values CPU ms | bounds CPU ms "
          "| bounds / values |")
    print("|---|---|---|---|---|---|---|---|", flush=True)
    for label, decks, partnership in KINDS:
        if decks not in args.decks:
            continue
        for left in args.tricks:
            r = budget_row(decks, partnership, left, args.states, args.budget_ms, args.seed)
            compared = ("", "", "")
            if left <= args.compare_up_to:
                v, b, ratio = compare_row(decks, partnership, left, args.states, args.seed)
                compared = (f"{v:.1f}", f"{b:.1f}", f"×{ratio:.2f}")
            print(f"| {label} | {left} | {r['positions']:.0%} | {r['moves']:.0%} | {r['width']:.0f} | "
                  f"{' | '.join(compared)} |", flush=True)


if __name__ == "__main__":
    main()
