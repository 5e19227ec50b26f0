"""Bot playouts per CPU second: the heuristic policy playing mid-deal positions to the end.

    python bench/perf/playouts.py [--seconds 2]
    python bench/perf/playouts.py --base DIR [--rounds 6] [--seconds 2]

A playout is ``gongzhu.bot.search.playout_value``: a copy of the state's
table, one legal move, then the baseline heuristic in every seat to the end
of the deal, scored. Positions: 40 seeded random positions per deck count,
each with a seeded deal of the hidden cards. Times are this process's CPU
time. ``--base DIR`` (another checkout, e.g. ``git archive <commit> | tar -x
-C DIR``) alternates child processes of this checkout and of DIR, round by
round, and prints the median ratio of their rates (load cancels).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]
sys.path.insert(1, str(HERE / "bench"))  # the shared helpers (_checkout.py)
POSITIONS = 40


def under_test() -> Path:
    """The checkout measured: this one, or the one a --base round's child was started for."""
    return Path(os.environ.get("BENCH_CHECKOUT", HERE))


def positions(decks: int) -> list:
    from _checkout import determinized, import_from

    engine = import_from(under_test(), "rules")
    Rules, apply_move, deal_hands, legal_moves = engine.Rules, engine.apply_move, engine.deal_hands, \
        engine.legal_moves
    replay = engine.replay
    rules = Rules(decks=decks)
    found = []
    seed = 0
    while len(found) < POSITIONS:
        rng = random.Random(seed)
        seed += 1
        state = replay(rules, hands=deal_hands(rules, rng=rng))
        for _ in range(rng.randrange(rules.hand_size * 4 // 2)):
            state = apply_move(state, rng.choice(legal_moves(state)))
        moves = legal_moves(state)
        if hasattr(state, "resample"):
            # the deal of the hidden cards through the state (the same draws as sample_hidden's)
            found.append((state.resample(state.view(), rng), None, moves[rng.randrange(len(moves))]))
        else:
            hidden = engine.sample_hidden(engine.seat_view(state), rng)
            found.append((*determinized(engine, state, hidden), moves[rng.randrange(len(moves))]))
    return found


def rate(decks: int, seconds: float) -> float:
    """Playouts per CPU second over the positions, repeated for ``seconds``."""
    from _checkout import import_from, playout

    playout_value = playout(import_from(under_test(), "bot.search"))
    work = positions(decks)
    done, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for state, hands, move in work:
            playout_value(state, hands, move)
        done += len(work)
    return done / (time.process_time() - start)


def child(root: Path, seconds: float) -> dict[str, float]:
    env = {**os.environ, "BENCH_CHECKOUT": str(root)}
    script = HERE / "bench" / "perf" / "playouts.py"
    out = subprocess.run([sys.executable, str(script), "--seconds", str(seconds), "--json"],
                         env=env, cwd=root, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--base", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.base is None:
        rates = {f"{decks}_deck": round(rate(decks, args.seconds)) for decks in (1, 2)}
        print(json.dumps(rates) if args.json else
              "\n".join(f"{k.replace('_', ' ')}: {v:,} playouts per CPU second" for k, v in rates.items()))
        return 0
    ratios: dict[str, list[float]] = {"1_deck": [], "2_deck": []}
    for _ in range(args.rounds):
        new, old = child(HERE, args.seconds), child(args.base.resolve(), args.seconds)
        for key in ratios:
            ratios[key].append(new[key] / old[key])
    for key, values in ratios.items():
        print(f"{key.replace('_', ' ')}: this checkout / base = {statistics.median(values):.2f} "
              f"(median of {len(values)} rounds; {min(values):.2f}–{max(values):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
