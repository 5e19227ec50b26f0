"""POST /solve through the HTTP layer (docs/review.md, "The solver as an operation"): every legal move's exact
value equal to the brute-force minimax with 3 tricks left or fewer, one and two decks, partnership and
exposures; an answer cut by its budget marked ``exact: false`` with bounds that hold the exact values (the
contract's ``budget_cut`` example, answered again); the problems of a finished deal, of a deal the rules reject
and of a budget out of range; 503 ``busy`` when every bot slot is taken; the same answer from a search process;
a client gone stops it; a batch carries it."""
from __future__ import annotations

import json
import random

import pytest

from gongzhu import rules as engine
from gongzhu import solve
from gongzhu.api import create_app, searches, slots
from gongzhu.api.clients import ClientGone
from gongzhu.api.results import solve_out
from gongzhu.rules import running
from tests.api.test_searches import UNHURRIED_S
from tests.contract.test_openapi import CONTRACT
from tests.faults.test_serving_drills import _mid_deal
from tests.solve.brute import brute_values
from tests.solve.reference import EXPOSABLE

# the brute force walks every line: 3 tricks left at most, the trick on the table counted
BRUTE_TRICKS_LEFT = 3


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def _solve(client, body: dict):
    return client.post("/solve", data=json.dumps(body), content_type="application/json")


def _late_bodies(count: int, seed: int) -> list[tuple[dict, engine.DealState]]:
    """Random deals, one and two decks, individual and partnership, exposures in half of them, played with
    random legal moves until 1–3 tricks are left, as /solve's bodies (with their states)."""
    rng = random.Random(seed)
    found = []
    for n in range(count):
        sent = {"decks": 1 + n % 2, "partnership": n % 4 >= 2}
        rules = engine.Rules(**sent)
        hands = engine.deal_hands(rules, seed=rng.randrange(1 << 30))
        exposed = [[c for c in hand if c in EXPOSABLE and n % 8 >= 4 and rng.random() < 0.5] for hand in hands]
        state = engine.replay(rules, hands=hands, exposed=exposed, plays=(), first_deal=True)
        stop = 1 + rng.randrange(BRUTE_TRICKS_LEFT)
        while solve.tricks_left(state) > stop or len(state.trick) < rng.randrange(2):
            state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
        body = {"rules": sent, "hands": [engine.format_cards(h) for h in hands],
                "exposed": [engine.format_cards(e) for e in exposed],
                "plays": [engine.format_cards(p) for p in running.plays(state)]}
        found.append((body, state))
    return found


def test_exact_values_equal_the_brute_force_with_3_tricks_left_or_fewer(client):
    for body, state in _late_bodies(24, 61):
        found = _solve(client, body).get_json()
        exact = brute_values(state.clone())
        assert found["exact"] is True and found["seat"] == state.seat
        assert found["values"] == [{"move": engine.format_cards(move), "value": value, "lower": value,
                                    "upper": value, "exact": True} for move, value in exact.items()]
        highest = max(exact.values())
        assert found["best"] == [engine.format_cards(m) for m, value in exact.items() if value == highest]


def _cut_example() -> tuple[dict, int, dict]:
    """The contract's ``budget_cut`` answer: its request, the positions it was given, the answer."""
    example = CONTRACT["paths"]["/solve"]["post"]["responses"]["200"]["content"]["application/json"]["examples"][
        "budget_cut"]
    return example["x-request-body"], example["x-max-positions"], example["value"]


def _cards(names: list[str]) -> tuple[int, ...]:
    return tuple(map(engine.parse_card, names))


def test_the_contracts_budget_cut_example_is_what_the_solver_proves_and_holds_the_exact_values(client):
    body, positions, answer = _cut_example()
    state = engine.replay(engine.Rules(), hands=[_cards(h) for h in body["hands"]],
                          plays=[_cards(p) for p in body["plays"]])
    assert solve_out(state, solve.OpenValues().bounds(state, max_nodes=positions), body["budget_ms"]) == answer
    exact = solve.OpenValues().values(state)
    assert answer["exact"] is False
    assert sum(v["exact"] for v in answer["values"]) not in (0, len(exact))
    for value, (move, true) in zip(answer["values"], exact.items(), strict=True):
        assert value["move"] == engine.format_cards(move)
        assert value["lower"] <= true <= value["upper"]
        assert (value["value"], value["exact"]) == ((true, True) if value["lower"] == value["upper"] else (None, False))
    # the best moves listed are those that may still be best, the true best among them
    truly_best = {tuple(engine.format_cards(m)) for m, v in exact.items() if v == max(exact.values())}
    assert truly_best <= {tuple(m) for m in answer["best"]}


def test_a_budget_run_out_answers_bounds_marked_not_exact(client):
    # 10 tricks left are far beyond 1 ms on any build
    found = _solve(client, {**_mid_deal(plays=12), "budget_ms": 1})
    assert found.status_code == 200
    answer = found.get_json()
    assert (answer["exact"], answer["tricks_left"], answer["budget_ms"]) == (False, 10, 1)
    assert len(answer["values"]) == len(client.post("/legal-moves", json=_mid_deal(plays=12)).get_json()["moves"])
    for value in answer["values"]:
        assert value["lower"] <= value["upper"]
        assert value["exact"] == (value["lower"] == value["upper"]) == (value["value"] is not None)
    assert any(not value["exact"] for value in answer["values"])


def test_a_finished_deal_is_deal_finished_at_plays(client):
    problem = _solve(client, _mid_deal(plays=52))
    assert problem.status_code == 422
    found = problem.get_json()
    assert (found["code"], found["errors"][0]["pointer"]) == ("deal_finished", "/plays")


def test_a_deal_the_rules_reject_gets_the_problems_of_legal_moves(client):
    state = _mid_deal(plays=6)
    state["plays"][5] = ["SA"] if ["SA"] not in state["plays"] else ["HA"]
    problem, expected = _solve(client, state), client.post("/legal-moves", json=state)
    assert problem.status_code == expected.status_code == 422
    got, want = problem.get_json(), expected.get_json()
    got.pop("request_id"), want.pop("request_id")
    assert got == want


@pytest.mark.parametrize("budget, keyword", [(0, "minimum"), (10001, "maximum"), ("1000", "type")])
def test_a_budget_out_of_range_is_a_schema_violation_at_budget_ms(client, budget, keyword):
    problem = _solve(client, {**_mid_deal(plays=44), "budget_ms": budget}).get_json()
    assert (problem["code"], problem["errors"][0]["pointer"], problem["errors"][0]["keyword"]) == \
        ("schema_violation", "/budget_ms", keyword)


def test_a_budget_above_the_servers_cap_is_served_with_the_cap(client, monkeypatch):
    monkeypatch.setattr(searches, "REVIEW_BUDGET_CAP_MS", 50)
    assert _solve(client, {**_mid_deal(plays=44), "budget_ms": 5000}).get_json()["budget_ms"] == 50


def test_the_default_budget_is_the_contracts(client):
    assert _solve(client, _mid_deal(plays=44)).get_json()["budget_ms"] == 2000


def test_a_full_house_is_503_busy_with_retry_after(client):
    with slots.BOT.slot(4000, kind="review"):
        answer = _solve(client, _mid_deal(plays=44))
    assert answer.status_code == 503
    assert answer.get_json()["code"] == "busy"
    assert int(answer.headers["Retry-After"]) >= 1


def test_a_solve_in_a_search_process_answers_as_in_the_request_thread(client, monkeypatch):
    monkeypatch.setattr(searches, "STUCK_GRACE_S", UNHURRIED_S)
    body = _mid_deal(plays=40)
    inline = _solve(client, body).get_json()
    searches.start()
    try:
        assert _solve(client, body).get_json() == inline
    finally:
        searches.stop()
    assert inline["exact"] is True


def test_a_client_gone_stops_the_solve_and_a_fresh_search_process_takes_its_slot():
    processes = searches.Processes(1)
    try:
        first = processes.children[0].process.pid
        with pytest.raises(ClientGone):
            processes.run("solve", {**_mid_deal(plays=0), "budget_ms": 10000}, 10000, 10.0, gone=lambda: True)
        assert processes.children[0].process.pid != first
        assert processes.children[0].process.is_alive()
    finally:
        processes.stop()


def test_a_batch_carries_solve_answered_as_alone(client):
    body = _mid_deal(plays=44)
    alone = _solve(client, body).get_json()
    batch = client.post("/batch", json={"requests": [{"id": "a", "method": "POST", "url": "/solve", "body": body}]})
    assert batch.get_json()["responses"] == [{"id": "a", "status": 200, "body": alone}]
    assert searches.search_bound_s("solve", {"budget_ms": 300}) == 0.3
    assert searches.search_bound_s("solve", {}) == 2.0
