"""Check the rules invariants of tests/rules/invariants.py over many random
legal deals (the project checks ≥ 100,000 of them here). Deals are drawn from
random.Random(seed): one and two decks, all rule options, random exposures.

    python bench/drills/properties.py --deals 100000 --seed 1 --jobs 2

Prints the number of deals and invariant checks and every failure; exits 1
if any invariant is broken."""

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.rules.invariants import run_random_deals  # noqa: E402

CHUNK = 500
SHOWN_FAILURES = 20


def run_chunk(args):
    seed, count, apply_limit, probe_rate = args
    checker, failures = run_random_deals(count, seed, apply_limit=apply_limit, probe_rate=probe_rate)
    return count, checker.checks, [(seed, index, message) for index, message in failures]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--apply-limit", type=int, default=4,
                        help="listed legal moves applied per position (sampled above this)")
    parser.add_argument("--probe-rate", type=float, default=0.25,
                        help="share of positions where unlisted moves are probed")
    args = parser.parse_args(argv)
    # Chunk k checks deals drawn from random.Random(seed·1,000,003 + k).
    chunks = [(args.seed * 1_000_003 + k, min(CHUNK, args.deals - start), args.apply_limit,
               args.probe_rate)
              for k, start in enumerate(range(0, args.deals, CHUNK))]
    started = time.perf_counter()
    deals = checks = 0
    failures = []
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        for count, n, found in pool.map(run_chunk, chunks):
            deals, checks, failures = deals + count, checks + n, failures + found
            print(f"  {deals}/{args.deals} deals, {len(failures)} failures, "
                  f"{time.perf_counter() - started:.0f}s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    print(f"deals: {deals}  invariant checks: {checks}  failures: {len(failures)}  "
          f"time: {elapsed:.1f}s  ({deals / elapsed:.0f} deals/s with checks)")
    for seed, index, message in failures[:SHOWN_FAILURES]:
        print(f"FAIL chunk seed {seed} deal {index}: {message}")
    if len(failures) > SHOWN_FAILURES:
        print(f"... and {len(failures) - SHOWN_FAILURES} more")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
