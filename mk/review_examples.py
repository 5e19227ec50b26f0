"""Answers ``/review``'s worked examples in the contract (service/gongzhu/openapi.yaml) again.

A review's exact part ends where the solver stops finishing within its positions, so a faster solver (or
new constants in ``gongzhu.bot.deal_review``) makes more decisions exact and changes the examples' answers
(tests/contract/test_openapi.py then fails on them). Run by a maintainer after such a change, never by the
tests: it plays each example's deal with the heuristic seat, sends the request to our app in process and
writes the request and answer examples of ``/review`` in place, one decision a line.

    .venv/bin/python mk/review_examples.py
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from gongzhu import bot
from gongzhu.api import create_app
from gongzhu.rules import Rules, deal_hands, format_cards, replay, running

CONTRACT = Path(__file__).resolve().parents[1] / "service" / "gongzhu" / "openapi.yaml"
# (name, summary, rules sent, deal seed, plays made: None to the end)
EXAMPLES = (
    ("one_deck", "One deck, a whole deal played by the heuristic seat, seed 7", {}, 7, None),
    ("two_decks", "Two decks, a whole deal played by the heuristic seat, seed 7", {"decks": 2}, 7, None),
    ("partnership", "Partnership (打对家), one deck, a whole deal, seed 7", {"partnership": True}, 7, None),
    ("unfinished", "One deck, the first five tricks of a deal, seed 7", {}, 7, 20),
)
REVIEW = {"seed": 1, "budget_ms": 500}


def body(rules_sent: dict, seed: int, made: int | None) -> dict:
    rules = Rules(**rules_sent)
    hands = deal_hands(rules, seed)
    state = replay(rules, hands=hands)
    while not state.finished and (made is None or running.plays_count(state) < made):
        state.apply(bot.heuristic_suggestion(state).move)
    sent = {**REVIEW, **({"rules": rules_sent} if rules_sent else {})}
    return {**sent, "hands": [format_cards(h) for h in hands], "plays": [format_cards(p) for p in running.plays(state)]}


def flow(value: object) -> str:
    """A YAML flow value: JSON without quotes (card names, numbers, booleans and null need none)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False).replace('"', "")


def block(value: dict, indent: int) -> list[str]:
    """``value``'s fields a line each; a list of rows (hands, plays, decisions, seats, /solve's values) a row a
    line."""
    pad, out = " " * indent, []
    for key, field in value.items():
        if key in ("hands", "plays", "decisions", "seats", "values") or (key == "score" and field is not None):
            out.append(f"{pad}{key}:")
            if isinstance(field, dict):
                out += block(field, indent + 2)
            else:
                out += [f"{pad}- {flow(row)}" for row in field]
        else:
            out.append(f"{pad}{key}: {flow(field)}")
    return out


def examples(indent: int, values: list[tuple[str, str, dict]]) -> str:
    pad = " " * indent
    lines = []
    for name, summary, value in values:
        lines += [f"{pad}{name}:", f"{pad}  summary: '{summary}'", f"{pad}  value:", *block(value, indent + 4)]
    return "\n".join(lines) + "\n"


def main() -> None:
    client = create_app().test_client()
    requests, answers = [], []
    for name, summary, rules_sent, seed, made in EXAMPLES:
        sent = body(rules_sent, seed, made)
        found = client.post("/review", json=sent).get_json()
        assert not found.get("budget_cut", True), (name, found)
        exact = sum(d["exact"] for d in found["decisions"])
        summary = f"{summary}: {exact} of {len(found['decisions'])} plays valued exactly"
        requests.append((name, summary, sent))
        answers.append((name, summary, found))
    text = CONTRACT.read_text(encoding="utf-8")
    start = text.index("  /review:\n")
    request_at = text.index("schema: {$ref: '#/components/schemas/ReviewRequest'}\n            examples:\n", start)
    request_at = text.index("\n", text.index("examples:", request_at)) + 1
    request_end = text.index("      responses:\n", request_at)
    text = text[:request_at] + examples(14, requests) + text[request_end:]
    answer_at = text.index("schema: {$ref: '#/components/schemas/Review'}\n              examples:\n", start)
    answer_at = text.index("\n", text.index("examples:", answer_at)) + 1
    answer_end = re.compile(r"^        '400':", re.M).search(text, answer_at).start()
    text = text[:answer_at] + examples(16, answers) + text[answer_end:]
    CONTRACT.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
