"""Summaries of arena per-deal files (``bench/bot/arena.py --results FILE``).

One run can be split by ``--first-seed``/``--deals`` into parts (over
sessions or machines, from one commit: the arena is deterministic, so the
parts are exactly the deals of one long run); this puts them back together.
With ``--paired`` it compares two runs of the same seeds deal by deal (the
standard error of the difference is far below either run's own).

    python -m bench.bot.arena_results build/results/greedy-1deck-individual.jsonl
    python -m bench.bot.arena_results part1.jsonl part2.jsonl
    python -m bench.bot.arena_results --paired new.jsonl old.jsonl
"""
from __future__ import annotations

import argparse
import json
import sys

from .arena import summary


def load(paths: list[str]) -> dict[int, dict]:
    """Every deal of the files, by seed; a seed given twice is an error."""
    deals: dict[int, dict] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                deal = json.loads(line)
                if deal["seed"] in deals:
                    raise SystemExit(f"{path}: seed {deal['seed']} is in an earlier file too")
                deals[deal["seed"]] = deal
    return deals


def report(deals: dict[int, dict]) -> dict[str, object]:
    seeds = sorted(deals)
    out: dict[str, object] = {"deals": len(seeds), "first_seed": seeds[0], "last_seed": seeds[-1],
                              "contiguous": seeds == list(range(seeds[0], seeds[-1] + 1))}
    ways = deals[seeds[0]]["means"].keys()
    for way in ways:
        out[way] = summary([deals[s]["means"][way] for s in seeds])
    if {"plain", "exposed"} <= ways:
        out["exposure_gain"] = summary([deals[s]["means"]["exposed"] - deals[s]["means"]["plain"] for s in seeds])
        if all("reasons" in deals[s] for s in seeds):
            out["exposure_gain_by_reason"] = by_reason([deals[s] for s in seeds])
    return out


def by_reason(deals: list[dict]) -> dict[str, dict]:
    """Per exposure reason: the seats that exposed for it and the mean gain of one such seat
    (its score exposing − not exposing, same deal and seat; with one seat in four exposing, a
    seat's gain is four times the deal's)."""
    gains: dict[str, list[float]] = {}
    for deal in deals:
        plain, exposed = deal["seats"]["plain"], deal["seats"]["exposed"]
        for seat, reason in enumerate(deal["reasons"]):
            if reason is not None:
                gains.setdefault(reason, []).append(exposed[seat] - plain[seat])
    return {reason: {"seats": len(g), **summary(g)} for reason, g in sorted(gains.items())}


def paired(new: dict[int, dict], old: dict[int, dict]) -> dict[str, object]:
    seeds = sorted(new.keys() & old.keys())
    way = next(iter(new[seeds[0]]["means"]))
    return {"deals": len(seeds), "way": way,
            "difference": summary([new[s]["means"][way] - old[s]["means"][way] for s in seeds])}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--paired", action="store_true", help="two files: the first run minus the second, per seed")
    args = parser.parse_args(argv)
    if args.paired:
        if len(args.files) != 2:
            parser.error("--paired takes two files")
        print(json.dumps(paired(load(args.files[:1]), load(args.files[1:]))))
    else:
        print(json.dumps(report(load(args.files))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
