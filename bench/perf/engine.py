"""Engine speed: random legal deals per second, legal moves and replay latency.

    python bench/perf/engine.py [--seconds 3] [--seed 1] [--builds compiled,pure [--base DIR] [--rounds N]]

Times are CPU time of this single-threaded process (``time.process_time``),
so other load on the machine does not count against the engine.

Prints, for one and two decks: random deals per second on one core, the
median and best of five rounds (deal,
play every card by uniformly random legal plays, score), the median µs of
``legal_moves`` on a mid-deal state, and the µs of ``replay`` (full
validation) of a finished deal: each of 20 deals' median, averaged. See
docs/performance.md for recorded figures.

``--builds compiled,pure`` measures both builds of the engine in one run (each in
its own process, taking turns deck count by deck count): ``compiled`` is the
installed package (its rules modules compiled by mypyc, setup.py), ``pure`` the
same source without the compiled modules (bench/_builds.py). Each line is
prefixed by its build's name, and the compiled/pure ratios follow. ``--base DIR``
adds ``base``: another checkout's source (e.g. main's) as it is built there (pure,
or compiled in place by ``python setup.py build_ext --inplace`` in DIR), for "no
slower than before": pure/base and compiled/base follow. ``--rounds N`` measures
every build N times, in turns (ABC, then CBA, ...), and gives each ratio as the
median of the rounds' own ratios: the builds of a round share the machine's load.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # bench/: the shared helpers

from _checkout import initial_state, query  # noqa: E402

import gongzhu.rules as engine  # noqa: E402
from gongzhu.rules import Play, Rules, deal_hands, legal_moves, replay
from gongzhu.rules.deal import first_leader
from gongzhu.rules.table import advance, random_chooser

# the deal before the first play (this script also runs on another checkout's engine: --base)
new_state = initial_state(engine)
raw_scores = query(engine, "raw_scores")

FIGURES = "#figures "

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
                t = new_state(rules, deal_hands(rules, rng=rng))
                advance(t, choose)
                raw_scores(t)
            count += 100
        rates.append(count / (time.process_time() - start))
        total += count
    return statistics.median(rates), max(rates), total


def recorded_deal(rules: Rules, seed: int):
    """A finished random deal as history: hands, plays. Dealt from ``seed`` by the documented seeded
    shuffle and played by ``random.Random.choice`` over the options in order, so every build and
    checkout measures the same deals (whatever their own random dealing and chooser do)."""
    rng = random.Random(seed)
    hands = deal_hands(rules, seed)
    t = new_state(rules, hands)
    plays: list[Play] = []

    def record(singles: int, pairs: int, others: Sequence[Play]) -> Play:
        options = [(c,) for c in range(52) if singles >> c & 1] + [(c, c) for c in range(52) if pairs >> c & 1]
        move = rng.choice(options + sorted(others))
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


def measure(decks: int, seconds: float, seed: int, prefix: str) -> dict[str, float]:
    """Prints one deck count's line; returns its figures."""
    rules = Rules(decks=decks)
    rate, best, count = deals_per_second(rules, seconds, seed)
    hands, plays = recorded_deal(rules, seed)
    leader = first_leader(rules, hands)
    mid = replay(rules, hands=hands, plays=plays[:MID_DEAL_PLAYS[decks]], leader=leader)
    legal_us = median_us(lambda: legal_moves(mid))
    replay_us, mean_plays = replay_cost(rules, seed)
    print(f"{prefix}{decks} deck(s): {rate:,.0f} random deals/s (median of {ROUNDS} rounds, best {best:,.0f}; "
          f"{count:,} deals), "
          f"legal_moves mid-deal {legal_us:.1f} µs median, "
          f"replay+validate finished deal {replay_us:.1f} µs (mean over {REPLAY_DEALS} deals of each one's "
          f"median; {mean_plays:.1f} plays a deal)", flush=True)
    return {"deals": rate, "best": best, "legal_us": legal_us, "replay_us": replay_us}


def run_build(name: str, env: dict[str, str], args: argparse.Namespace, decks: int) -> dict[str, float]:
    """One deck count measured by ``name``'s build in its own process; its line is printed as it comes."""
    command = [sys.executable, os.path.abspath(__file__), "--seconds", str(args.seconds), "--seed", str(args.seed),
               "--decks", str(decks), "--prefix", name, "--expect", "" if name == "base" else name]
    found = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if found.returncode:
        sys.exit(f"{name}: {found.stderr.strip()}")
    figures: dict[str, float] = {}
    for line in found.stdout.splitlines():
        if line.startswith(FIGURES):
            figures = json.loads(line[len(FIGURES):])
        else:
            print(line, flush=True)
    return figures


def compare_builds(args: argparse.Namespace) -> None:
    from _builds import pure_copy, pure_env

    builds = args.builds.split(",")
    unknown = set(builds) - {"compiled", "pure"}
    if unknown:
        sys.exit(f"unknown builds {sorted(unknown)}: compiled, pure (and --base DIR)")
    work = Path(tempfile.mkdtemp(prefix="gongzhu-builds-"))
    envs = {"compiled": dict(os.environ), "pure": pure_env(pure_copy(work / "pure"))}
    if args.base:
        envs["base"] = pure_env(args.base.resolve() / "service")
        builds.append("base")
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
          f"builds {', '.join(builds)}")
    rounds: list[dict[str, dict[int, dict[str, float]]]] = []
    for number in range(args.rounds):
        order = builds if number % 2 == 0 else builds[::-1]
        figures: dict[str, dict[int, dict[str, float]]] = {name: {} for name in builds}
        for decks in (1, 2):
            for name in order:
                figures[name][decks] = run_build(name, envs[name], args, decks)
        rounds.append(figures)
    pairs = [("compiled", "pure"), ("pure", "base"), ("compiled", "base")]
    for a, b in pairs:
        if a in builds and b in builds:
            for decks in (1, 2):
                def ratio(key: str, faster_is_lower: bool = False) -> float:
                    found = [r[b][decks][key] / r[a][decks][key] if faster_is_lower else
                             r[a][decks][key] / r[b][decks][key] for r in rounds]
                    return statistics.median(found)
                print(f"{a} / {b}, {decks} deck(s): random deals/s ×{ratio('deals'):.2f} "
                      f"(best rounds ×{ratio('best'):.2f}), "
                      f"legal_moves ×{ratio('legal_us', True):.2f}, "
                      f"replay+validate ×{ratio('replay_us', True):.2f} (speed-ups: > 1 is faster"
                      f"{f'; median of {len(rounds)} rounds' if len(rounds) > 1 else ''})")


def engine_build() -> str:
    """The running engine's build (a checkout from before the compiled build is pure)."""
    from gongzhu import rules

    return rules.engine_build() if hasattr(rules, "engine_build") else "pure"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--builds", help="compiled,pure: both builds in one run, each line prefixed by its build")
    parser.add_argument("--base", type=Path, help="with --builds: also another checkout's source, as built there")
    parser.add_argument("--rounds", type=int, default=1, help="with --builds: every build this many times, in turns")
    parser.add_argument("--decks", type=int, choices=(1, 2), help=argparse.SUPPRESS)
    parser.add_argument("--prefix", default="", help=argparse.SUPPRESS)
    parser.add_argument("--expect", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.builds:
        compare_builds(args)
        return
    if args.expect and engine_build() != args.expect:
        sys.exit(f"asked for the {args.expect} build, but the {engine_build()} build is installed")
    prefix = f"{args.prefix} " if args.prefix else ""
    if args.decks:
        print(FIGURES + json.dumps(measure(args.decks, args.seconds, args.seed, prefix)))
        return
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
          f"engine {engine_build()}")
    rates = {decks: measure(decks, args.seconds, args.seed, prefix)["best"] for decks in (1, 2)}
    # same run, best rounds: a card of two decks costs as much as a card of one at 0.5
    print(f"two decks / one deck, random deals per second (best rounds): {rates[2] / rates[1]:.2f}")


if __name__ == "__main__":
    main()
