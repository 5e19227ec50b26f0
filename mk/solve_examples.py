"""Answers ``/solve``'s worked examples in the contract (service/gongzhu/openapi.yaml) again.

An exact value does not change with the solver, but the bounds a cut search proves do: the ``budget_cut``
answer is what the search proves within ``CUT_POSITIONS`` positions, so a new search (or new constants in
``gongzhu.solve``) changes it, and tests/api/test_solve.py then fails on it. Run by a maintainer after such a
change, never by the tests: it plays each example's deal with the heuristic seat, sends the request to our app in
process and writes the examples of ``/solve`` in place.

    .venv/bin/python mk/solve_examples.py
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from review_examples import block, flow

from gongzhu import bot, solve
from gongzhu.api import create_app
from gongzhu.api.results import solve_out
from gongzhu.rules import Rules, deal_hands, format_cards, replay, running

CONTRACT = Path(__file__).resolve().parents[1] / "service" / "gongzhu" / "openapi.yaml"
# (name, summary, rules sent, deal seed, plays made)
EXAMPLES = (
    ("one_deck", "One deck, seed 7, 3 tricks left, seat 0 to lead: S8 is best, H9 costs 30", {}, 7, 40),
    ("partnership", "Partnership (打对家), one deck, seed 7, 5 tricks left: DJ gives the sheep away",
     {"partnership": True}, 7, 32),
    ("two_decks", "Two decks, seed 7, 3 tricks left: H7 costs 40", {"decks": 2}, 7, 92),
)
# The budget-cut example: seed 7, 6 tricks left, the search given this many positions (tests/api/test_solve.py
# answers it again, and checks its bounds hold the exact values).
CUT = ("budget_cut", "One deck, seed 7, 6 tricks left, the budget run out: 3 moves exact, 3 bounded", {}, 7, 28)
CUT_POSITIONS = 60_000
BUDGET = {"budget_ms": 2000}


def state_of(rules_sent: dict, seed: int, made: int):
    rules = Rules(**rules_sent)
    hands = deal_hands(rules, seed)
    state = replay(rules, hands=hands)
    while running.plays_count(state) < made:
        state.apply(bot.heuristic_suggestion(state).move)
    return hands, state


def body(rules_sent: dict, seed: int, made: int) -> dict:
    hands, state = state_of(rules_sent, seed, made)
    sent = {**BUDGET, **({"rules": rules_sent} if rules_sent else {})}
    return {**sent, "hands": [format_cards(h) for h in hands], "plays": [format_cards(p) for p in running.plays(state)]}


def examples(indent: int, values: list[tuple[str, str, dict]], extra: dict | None = None, as_json: bool = False) -> str:
    """YAML examples named and summarized, their values by ``block`` (or a field a line in JSON, ``as_json``: a
    problem's details hold colons), then ``extra``'s fields of each."""
    pad = " " * indent
    lines = []
    for name, summary, value in values:
        fields = [f"{pad}    {key}: {json.dumps(field, ensure_ascii=False)}" for key, field in value.items()] \
            if as_json else block(value, indent + 4)
        lines += [f"{pad}{name}:", f"{pad}  summary: '{summary}'", f"{pad}  value:", *fields]
        for key, field in (extra or {}).get(name, {}).items():
            lines += [f"{pad}  {key}:", *block(field, indent + 4)] if isinstance(field, dict) else \
                [f"{pad}  {key}: {flow(field)}"]
    return "\n".join(lines) + "\n"


def problems(finished: dict) -> list[tuple[str, str, dict]]:
    budget = {"type": "urn:gongzhu:problem:schema_violation", "title": "Unprocessable Entity", "status": 422,
              "detail": "/budget_ms: must be ≤ 10000, not 20000", "code": "schema_violation",
              "errors": [{"pointer": "/budget_ms", "detail": "must be ≤ 10000, not 20000", "code": "schema_violation",
                          "keyword": "maximum"}]}
    done = {"type": "urn:gongzhu:problem:deal_finished", "title": "Unprocessable Entity", "status": 422,
            "detail": "the deal is finished: no seat is to act", "code": "deal_finished",
            "errors": [{"pointer": "/plays", "detail": "the deal is finished: no seat is to act",
                        "code": "deal_finished"}]}
    return [("budget_too_large", "budget_ms is at most 10000", budget),
            ("deal_finished", "A finished deal has no seat to act", done)]


def main() -> None:
    client = create_app().test_client()
    requests, answers = [], []
    for name, summary, rules_sent, seed, made in EXAMPLES:
        sent = body(rules_sent, seed, made)
        found = client.post("/solve", json=sent).get_json()
        assert found["exact"], (name, found)
        requests.append((name, summary, sent))
        answers.append((name, summary, found))
    name, summary, rules_sent, seed, made = CUT
    _, state = state_of(rules_sent, seed, made)
    cut = solve_out(state, solve.OpenValues().bounds(state, max_nodes=CUT_POSITIONS), BUDGET["budget_ms"])
    assert not cut["exact"]
    answers.append((name, summary, cut))
    one_deck = requests[0][2]
    finished = body({}, 7, 52)
    rejected = {"budget_too_large": {"x-request-body": {**one_deck, "budget_ms": 20000}},
                "deal_finished": {"x-request-body": {"hands": finished["hands"], "plays": finished["plays"]}}}
    cut_request = {name: {"x-request-body": body(rules_sent, seed, made), "x-max-positions": CUT_POSITIONS}}
    text = CONTRACT.read_text(encoding="utf-8")
    start = text.index("  /solve:\n")
    text = _replace(text, start, "schema: {$ref: '#/components/schemas/SolveRequest'}\n", "      responses:\n",
                    examples(14, requests))
    text = _replace(text, start, "schema: {$ref: '#/components/schemas/Solve'}\n", re.compile(r"^        '400':", re.M),
                    examples(16, answers, cut_request))
    text = _replace(text, start, "'422':\n", re.compile(r"^        '500':", re.M),
                    examples(16, problems(finished), rejected, as_json=True))
    CONTRACT.write_text(text, encoding="utf-8")


def _replace(text: str, start: int, schema: str, end: str | re.Pattern, examples: str) -> str:
    """``text`` with the examples after ``schema`` (the first after ``start``) up to ``end`` replaced."""
    at = text.index(schema, start)
    at = text.index("\n", text.index("examples:", at)) + 1
    until = text.index(end, at) if isinstance(end, str) else end.search(text, at).start()
    return text[:at] + examples + text[until:]


if __name__ == "__main__":
    main()
