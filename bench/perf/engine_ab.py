"""Engine speed before and after a change, in one process: A/B batches alternate, so load cancels.

    python bench/perf/engine_ab.py --base DIR [--seconds 60] [--batch 50]

``DIR`` is another checkout (e.g. ``git archive <commit> | tar -x -C DIR``). Its
``service/gongzhu/rules`` and this checkout's are loaded side by side as two packages
(the engine imports only the standard library and itself), and batches of
random deals (deal, ``initial_state``, ``advance`` with ``random_chooser``,
``raw_scores``) and of replays with full validation (20 finished deals)
alternate between them, one and two decks, for ``--seconds`` of CPU time in
all. Prints, per figure, the median over batch pairs of the after/before CPU
time ratio, and each side's median rate.
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # bench/: the shared helpers
from _checkout import initial_state, member, package_dir, query  # noqa: E402

HERE = Path(__file__).resolve().parents[2]
REPLAY_DEALS = 20


def load(root: Path, name: str, into: Path):
    """``root``'s engine as the top-level package ``name``."""
    # the source only: compiled modules (setup.py) would load under their own name, not this one
    shutil.copytree(package_dir(root) / "rules", into / name, ignore=shutil.ignore_patterns("*.so", "*.pyd"))
    return importlib.import_module(name)


def chooser(engine, rng: random.Random):
    # a checkout from before random_chooser took the Random itself takes its random method
    random_chooser = member(engine, "random_chooser")
    takes_rng = "rng" in inspect.signature(random_chooser).parameters
    return random_chooser(rng if takes_rng else rng.random)


def deal_batch(engine, decks: int, count: int, seed: int) -> float:
    """CPU seconds of ``count`` random deals."""
    rules = engine.Rules(decks=decks)
    rng = random.Random(seed)
    choose = chooser(engine, rng)
    raw_scores = query(engine, "raw_scores")
    start = time.process_time()
    for _ in range(count):
        t = initial_state(engine)(rules, engine.deal_hands(rules, rng=rng))
        member(engine, "advance")(t, choose)
        raw_scores(t)
    return time.process_time() - start


def recorded(engine, decks: int) -> list:
    """REPLAY_DEALS finished deals (hands, plays, leader), the same for both sides."""
    rules = engine.Rules(decks=decks)
    rng = random.Random(1)
    deals = []
    for _ in range(REPLAY_DEALS):
        hands = engine.deal_hands(rules, rng=rng)
        plays: list = []

        def choose(singles, pairs, others, plays=plays):
            options = [(c,) for c in range(52) if singles >> c & 1] + [(c, c) for c in range(52) if pairs >> c & 1]
            move = rng.choice(options + sorted(others))
            plays.append(move)
            return move
        member(engine, "advance")(initial_state(engine)(rules, hands), choose)
        deals.append((hands, plays, member(engine, "first_leader")(rules, hands)))
    return deals


def replay_batch(engine, decks: int, deals: list) -> float:
    rules = engine.Rules(decks=decks)
    start = time.process_time()
    for hands, plays, leader in deals:
        engine.replay(rules, hands=hands, plays=plays, leader=leader)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, type=Path)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--batch", type=int, default=50)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    sys.path.insert(0, str(work))
    before, after = load(args.base, "rules_before", work), load(HERE, "rules_after", work)
    deals = {decks: recorded(after, decks) for decks in (1, 2)}
    figures = [(f"{decks} deck(s) random deals", decks, "deal") for decks in (1, 2)]
    figures += [(f"{decks} deck(s) replay + validation", decks, "replay") for decks in (1, 2)]
    ratios: dict[str, list[float]] = {name: [] for name, _, _ in figures}
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name, _, _ in figures}
    spent, seed = 0.0, 0
    while spent < args.seconds:
        seed += 1
        for name, decks, what in figures:
            pair = []
            # ABBA within a round: each side goes first as often
            order = (before, after) if seed % 2 else (after, before)
            for engine in order:
                if what == "deal":
                    pair.append((engine, deal_batch(engine, decks, args.batch, seed)))
                else:
                    pair.append((engine, replay_batch(engine, decks, deals[decks])))
            by = {id(e): s for e, s in pair}
            b, a = by[id(before)], by[id(after)]
            ratios[name].append(a / b)
            times[name][0].append(b)
            times[name][1].append(a)
            spent += a + b
    print(f"{seed} rounds, {spent:.0f} CPU s; batches of {args.batch} deals or {REPLAY_DEALS} replays")
    for name, _, what in figures:
        per = args.batch if what == "deal" else REPLAY_DEALS
        b, a = (statistics.median(x) for x in times[name])
        unit = (f"{per / b:,.0f} → {per / a:,.0f} deals/s" if what == "deal"
                else f"{b / per * 1e6:.1f} → {a / per * 1e6:.1f} µs a deal")
        print(f"{name}: after/before CPU time {statistics.median(ratios[name]):.3f} (median of pairs); "
              f"medians {unit}")


if __name__ == "__main__":
    main()
