"""Training data for the learned playout policy (``gongzhu.bot.policy``): Monte Carlo decisions, one deck.

    python -m bench.bot.policy_data --deals 2000 --samples 40 --jobs 2 --out build/policy/data.jsonl

Each seeded deal (first deal of a match, default rules, ``--partnership`` for 打对家) is played by four
seats of flat Monte Carlo: at every decision with more than one distinct play (``distinct_plays``),
``--samples`` deals of the hidden cards (``DealState.resample`` with the seat's beliefs, as the bot samples)
are each played out from every distinct play (``search.playout_value``: ``--playout`` policy in every
seat, the baseline heuristic by default, or the shipped learned weights for a second round of fitting),
and the best mean is played. One JSON line per such decision: the deal seed, what the seat knows
(``policy.Decision``'s inputs: hand, cards played, the trick, seat, voids, tricks done, scoring, the
piles taken), each distinct play's card, their mean values (the seat's exact normalized score) and
the index of the baseline heuristic's play among them (``bench/bot/policy_fit.py`` computes the features).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from functools import partial
from multiprocessing import Pool
from pathlib import Path

from gongzhu.bot import heuristic_suggestion
from gongzhu.bot.equivalence import distinct_plays
from gongzhu.bot.knowledge import absent_cards, knowledge
from gongzhu.bot.policy import load_weights
from gongzhu.bot.search import playout_value
from gongzhu.rules import DealState, Rules, deal_hands, legal_moves, replay, running
from gongzhu.rules.cards import ONE_PLANE


def inputs(state: DealState) -> dict[str, object]:
    """What ``policy.decision(state)`` reads, as JSON."""
    return {"hand": running.hands_bits(state)[state.seat] & ONE_PLANE, "played": running.played(state) & ONE_PLANE,
            "trick": [list(p) for p in state.trick], "seat": state.seat, "voids": list(running.voids(state)),
            "tricks": len(running.winners(state)), "partnership": state.rules.partnership,
            "captured": [c & ONE_PLANE for c in running.captured_bits(state)]}


def deal_decisions(partnership: bool, samples: int, playout: str, seed: int) -> list[dict[str, object]]:
    """Every decision with a choice of one self-played deal."""
    rules = Rules(partnership=partnership)
    weights = load_weights(partnership) if playout == "learned" else None
    rng = random.Random(f"policy-data:{seed}")
    state = replay(rules, hands=deal_hands(rules, seed=seed))
    lines: list[dict[str, object]] = []
    while not state.finished:
        moves = legal_moves(state)
        if len(moves) > 1:
            view = knowledge(state)
            moves = distinct_plays(view, state.trick, moves)
        if len(moves) > 1:
            absent = absent_cards(state)
            totals = [0.0] * len(moves)
            for _ in range(samples):
                root = state.resample(view, rng, absent)
                for i, move in enumerate(moves):
                    totals[i] += playout_value(root, move, view.seat, weights)
            heuristic = heuristic_suggestion(state).move
            lines.append({"seed": seed, **inputs(state), "moves": [m[0] for m in moves],
                          "values": [round(t / samples, 2) for t in totals],
                          "heuristic": next((i for i, m in enumerate(moves) if m == heuristic), None)})
            move = moves[max(range(len(moves)), key=lambda i: (totals[i], -i))]
        else:
            move = moves[0]
        state.apply(move)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--partnership", action="store_true")
    parser.add_argument("--playout", choices=("heuristic", "learned"), default="heuristic")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    work = partial(deal_decisions, args.partnership, args.samples, args.playout)
    seeds = range(args.first_seed, args.first_seed + args.deals)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with args.out.open("w", encoding="utf-8") as out, Pool(args.jobs) as pool:
        for n, lines in enumerate(pool.imap(work, seeds), 1):
            for line in lines:
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
            count += len(lines)
            if n % 100 == 0:
                print(f"{n} deals, {count} decisions", file=sys.stderr, flush=True)
    print(json.dumps({"deals": args.deals, "decisions": count, "samples": args.samples, "out": str(args.out)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
