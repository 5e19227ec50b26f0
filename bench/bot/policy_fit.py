"""Fit the learned playout policy's weights (``gongzhu.bot.policy``) to Monte Carlo decisions.

    python -m bench.bot.policy_fit build/policy/data.jsonl [--temperature 10] [--epochs 8] \\
        [--write service/gongzhu/bot/policy_weights.json]

The data are ``bench/bot/policy_data.py``'s lines: per decision, each play's features and its mean
value. The model is a conditional logit: a play's probability is the softmax of its score (the sum
of its features' weights) over the decision's plays. It is fitted to soft targets, the softmax of
the values over ``--temperature`` points (a play worth 10 points more is e times as likely at 10),
by mini-batch Adam with an L2 penalty, in pure Python. The decisions of every tenth deal seed are
held out: printed per epoch are the held-out cross-entropy, how often the best-scored play is a
best-valued one, and the mean regret (the best value minus the value of the best-scored play).
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

from gongzhu.bot.policy import FEATURES, SCORINGS, WEIGHTS_FILE, Decision, card_features

Example = tuple[list[list[int]], list[float], int | None]


def features(item: dict) -> list[list[int]]:
    options = sum(1 << card for card in item["moves"])
    d = Decision(item["hand"], item["played"], [tuple(p) for p in item["trick"]], item["seat"], item["voids"],
                 item["tricks"], item["partnership"], item["captured"], options)
    return [card_features(d, card) for card in item["moves"]]


def read(paths: list[Path], partnership: bool) -> tuple[list[Example], list[Example]]:
    """The decisions of one scoring: every tenth deal seed's held out."""
    train: list[Example] = []
    held: list[Example] = []
    for path in paths:
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                item = json.loads(line)
                if item["partnership"] != partnership:
                    continue
                (held if item["seed"] % 10 == 9 else train).append((features(item), item["values"],
                                                                    item.get("heuristic")))
    return train, held


def scores(weights: list[float], features: list[list[int]]) -> list[float]:
    return [sum(weights[i] for i in f) for f in features]


def softmax(values: list[float]) -> list[float]:
    top = max(values)
    exps = [math.exp(v - top) for v in values]
    total = sum(exps)
    return [e / total for e in exps]


def evaluate(weights: list[float], data: list[Example], temperature: float) -> dict[str, float]:
    loss = agree = regret = 0.0
    for features, values, _ in data:
        s = scores(weights, features)
        q = softmax(s)
        p = softmax([v / temperature for v in values])
        loss -= sum(pi * math.log(max(qi, 1e-12)) for pi, qi in zip(p, q))
        chosen = max(range(len(s)), key=lambda i: (s[i], -i))
        best = max(values)
        agree += values[chosen] == best
        regret += best - values[chosen]
    n = max(1, len(data))
    return {"cross_entropy": round(loss / n, 4), "agreement": round(agree / n, 4), "regret": round(regret / n, 3)}


def heuristic_regret(data: list[Example]) -> float:
    """The baseline heuristic's mean regret on ``data`` (its play's value below the best)."""
    found = [max(values) - values[h] for _, values, h in data if h is not None]
    return round(sum(found) / max(1, len(found)), 3)


def fit(train: list[Example], held: list[Example], *, temperature: float, epochs: int, l2: float,
        rate: float, batch: int, seed: int, regret_epochs: int = 0) -> list[float]:
    """Cross-entropy to the soft targets for ``epochs``, then ``regret_epochs`` of the expected regret
    of the model's own softmax (the best value minus the mean value it plays, over ``temperature``)."""
    weights = [0.0] * FEATURES
    m = [0.0] * FEATURES
    v = [0.0] * FEATURES
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    rng = random.Random(seed)
    order = list(range(len(train)))
    for epoch in range(epochs + regret_epochs):
        regret = epoch >= epochs
        rng.shuffle(order)
        for start in range(0, len(order), batch):
            grad = [0.0] * FEATURES
            chunk = order[start:start + batch]
            for k in chunk:
                features, values, _ = train[k]
                q = softmax(scores(weights, features))
                if regret:
                    # d/dw of sum q_i (best - v_i) / T: q_i (mean_q - v_i) / T on each play's features
                    mean = sum(qi * x for qi, x in zip(q, values))
                    deltas = [qi * (mean - x) / temperature for qi, x in zip(q, values)]
                else:
                    p = softmax([x / temperature for x in values])
                    deltas = [qi - pi for qi, pi in zip(q, p)]
                for f, d in zip(features, deltas):
                    if d:
                        for i in f:
                            grad[i] += d
            step += 1
            scale = 1.0 / len(chunk)
            for i in range(FEATURES):
                g = grad[i] * scale + l2 * weights[i]
                m[i] = beta1 * m[i] + (1 - beta1) * g
                v[i] = beta2 * v[i] + (1 - beta2) * g * g
                mhat = m[i] / (1 - beta1 ** step)
                vhat = v[i] / (1 - beta2 ** step)
                weights[i] -= rate * mhat / (math.sqrt(vhat) + eps)
        print(json.dumps({"epoch": epoch + 1, "held_out": evaluate(weights, held, temperature)}), file=sys.stderr,
              flush=True)
    return weights


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="+")
    parser.add_argument("--temperature", type=float, default=10.0)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--regret-epochs", type=int, default=0,
                        help="epochs of expected-regret descent after the cross-entropy epochs")
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--rate", type=float, default=0.02)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scorings", nargs="+", choices=SCORINGS, default=list(SCORINGS),
                        help="the scorings to fit (the others' weights are kept from --write's file)")
    parser.add_argument("--write", type=Path, default=None,
                        help=f"write the weights here ({WEIGHTS_FILE})")
    args = parser.parse_args(argv)
    out: dict[str, object] = {"features": FEATURES}
    if args.write is not None and args.write.exists():
        kept = json.loads(args.write.read_text(encoding="utf-8"))
        if kept.get("features") == FEATURES:
            out.update(kept)
    for scoring in args.scorings:
        partnership = scoring == "partnership"
        train, held = read(args.data, partnership)
        if not train:
            raise SystemExit(f"no {scoring} decisions in the data")
        print(json.dumps({"scoring": scoring, "train": len(train), "held_out": len(held), "features": FEATURES,
                          "heuristic_regret": heuristic_regret(held),
                          "zero_weights": evaluate([0.0] * FEATURES, held, args.temperature)}), file=sys.stderr)
        weights = fit(train, held, temperature=args.temperature, epochs=args.epochs, l2=args.l2, rate=args.rate,
                      batch=args.batch, seed=args.seed, regret_epochs=args.regret_epochs)
        result = {"scoring": scoring, "data": [p.name for p in args.data], "train": len(train),
                  "held_out": len(held), "temperature": args.temperature, "epochs": args.epochs,
                  "regret_epochs": args.regret_epochs, "l2": args.l2,
                  "rate": args.rate, "heuristic_regret": heuristic_regret(held),
                  **evaluate(weights, held, args.temperature)}
        print(json.dumps(result))
        out[scoring] = {"fit": result, "weights": [round(w, 4) for w in weights]}
    if args.write is not None:
        args.write.write_text(json.dumps(out) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
