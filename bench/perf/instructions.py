"""Engine cost in instructions, counted by callgrind: load on the machine does not change them.

    python bench/perf/instructions.py [--root DIR] [--count 100]

For one and two decks, prints the instructions of one random deal (deal,
``initial_state``, ``advance`` with ``random_chooser``, ``raw_scores``) and of
one ``replay`` with full validation of a finished deal (the mean over 20
random deals). Each figure is the difference of two runs (``--count`` and a
fifth of it) over the difference in iterations, so the interpreter's start-up
drops out.
``--root`` measures another checkout (e.g. ``git archive <commit> | tar -x -C DIR``).
Needs ``valgrind``.
"""
from __future__ import annotations

import argparse
import inspect
import random
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve()
COLLECTED = re.compile(rb"Collected : (\d+)")


REPLAY_DEALS = 20


def any_legal(rng: random.Random):
    """Uniformly random legal plays, written here: the replayed deals are the same whatever ``--root``."""
    def choose(singles, pairs, others):
        options = [(c,) for c in range(52) if singles >> c & 1]
        options += [(c, c) for c in range(52) if pairs >> c & 1]
        return rng.choice(options + sorted(others))
    return choose


def inner(root: str, decks: int, count: int, what: str) -> None:
    sys.path.insert(1, str(HERE.parents[1]))  # bench/: the shared helpers
    from _checkout import import_from, initial_state, member, query

    engine = import_from(Path(root), "rules")
    Rules, deal_hands, replay = engine.Rules, engine.deal_hands, engine.replay
    advance, first_leader, random_chooser = (member(engine, name) for name in ("advance", "first_leader",
                                                                                "random_chooser"))
    new_table = initial_state(engine)
    raw_scores = query(engine, "raw_scores")

    rules = Rules(decks=decks)
    rng = random.Random(1)
    if what == "deal":
        # a checkout from before random_chooser took the Random itself takes its random method
        takes_rng = "rng" in inspect.signature(random_chooser).parameters
        choose = random_chooser(rng if takes_rng else rng.random)
        for _ in range(count):
            t = new_table(rules, deal_hands(rules, rng=rng))
            advance(t, choose)
            raw_scores(t)
        return
    deals = []
    for _ in range(REPLAY_DEALS):
        hands = deal_hands(rules, rng=rng)
        plays = []
        pick = any_legal(rng)

        def record(*options, pick=pick, plays=plays):
            move = pick(*options)
            plays.append(move)
            return move
        advance(new_table(rules, hands), record)
        deals.append((hands, plays, first_leader(rules, hands)))
    for _ in range(count):
        for hands, plays, leader in deals:
            replay(rules, hands=hands, plays=plays, leader=leader)


def instructions(root: str, decks: int, count: int, what: str) -> int:
    # a fixed hash seed: set and dict orders, and so the counts, repeat exactly
    command = ["env", "PYTHONHASHSEED=0", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, str(HERE),
               "--inner", "--root", root, "--decks", str(decks), "--count", str(count), "--what", what]
    found = COLLECTED.search(subprocess.run(command, capture_output=True, check=True).stderr)
    if found is None:
        raise SystemExit("callgrind printed no instruction count")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(HERE.parents[2]))
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--decks", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--what", default="deal", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        inner(args.root, args.decks, args.count, args.what)
        return
    small = args.count // 5
    for what in ("deal", "replay"):
        for decks in (1, 2):
            many = instructions(args.root, decks, args.count, what)
            few = instructions(args.root, decks, small, what)
            per = REPLAY_DEALS if what == "replay" else 1
            print(f"{decks} deck(s) {what}: {(many - few) // ((args.count - small) * per):,} instructions"
                  + (f" (a deal, mean of {REPLAY_DEALS} finished deals)" if per > 1 else ""))


if __name__ == "__main__":
    main()
