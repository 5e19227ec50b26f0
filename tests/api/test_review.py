"""POST /review through the HTTP layer: a decision a play as the engine reviews it, the rule problems of
/legal-moves for a deal the rules reject, the budget's cap, 503 ``busy`` when every bot slot is taken,
the same answer from a search process, and a client gone stops the search."""
from __future__ import annotations

import json
import time

import pytest

from gongzhu.api import create_app, searches, slots
from gongzhu.api.clients import ClientGone
from gongzhu.api.slots import Busy
from tests.api.test_searches import UNHURRIED_S
from tests.faults.test_serving_drills import _mid_deal


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def _finished() -> dict:
    return _mid_deal(plays=52)


def _review(client, body: dict):
    return client.post("/review", data=json.dumps(body), content_type="application/json")


def test_a_finished_deal_is_reviewed_play_by_play_with_its_score(client):
    state = _finished()
    answer = _review(client, {**state, "seed": 3, "budget_ms": 300})
    assert answer.status_code == 200, answer.get_json()
    found = answer.get_json()
    assert found["finished"] is True and found["budget_ms"] == 300
    assert [d["play"] for d in found["decisions"]] == list(range(52))
    assert [d["played"] for d in found["decisions"]] == [sorted(p) for p in state["plays"]]
    assert found["score"] == client.post("/score", json={"captured": _captured(client, state)}).get_json()
    # a play of the last trick is forced and exact, a play with a choice there is judged fair with its
    # hindsight (exact) beside it; forced plays have no values
    assert all(d["exact"] and "values" not in d for d in found["decisions"][-4:])
    assert all(d["exact"] or not d["exact"] and "hindsight" in d for d in found["decisions"][-12:])
    assert all(("values" in d) == (len(d.get("values", [])) > 1) for d in found["decisions"])
    assert [s["seat"] for s in found["seats"]] == [0, 1, 2, 3]


def _captured(client, state: dict) -> list[list[str]]:
    """The piles each seat took, as /legal-moves reports them at the end of the deal."""
    return client.post("/legal-moves", json=state).get_json()["taken"]


def test_an_unfinished_deal_reviews_its_plays_so_far_without_a_score(client):
    found = _review(client, {**_mid_deal(plays=10), "seed": 1, "budget_ms": 100}).get_json()
    assert (found["finished"], found["score"], len(found["decisions"])) == (False, None, 10)


def test_a_deal_the_rules_reject_gets_the_problems_of_legal_moves(client):
    state = _mid_deal(plays=6)
    state["plays"][5] = ["SA"] if ["SA"] not in state["plays"] else ["HA"]
    problem = _review(client, {**state, "seed": 1})
    expected = client.post("/legal-moves", json=state)
    assert problem.status_code == expected.status_code == 422
    got, want = problem.get_json(), expected.get_json()
    got.pop("request_id"), want.pop("request_id")
    assert got == want and got["errors"][0]["pointer"].startswith("/plays/5")


def test_a_budget_above_the_contracts_maximum_is_a_schema_violation(client):
    problem = _review(client, {**_mid_deal(plays=4), "budget_ms": 10001}).get_json()
    assert (problem["code"], problem["errors"][0]["pointer"], problem["errors"][0]["keyword"]) == \
        ("schema_violation", "/budget_ms", "maximum")


def test_a_budget_above_the_servers_cap_is_served_with_the_cap(client, monkeypatch):
    monkeypatch.setattr(searches, "REVIEW_BUDGET_CAP_MS", 50)
    found = _review(client, {**_mid_deal(plays=8), "seed": 1, "budget_ms": 5000}).get_json()
    assert found["budget_ms"] == 50


def test_a_full_house_is_503_busy_with_retry_after(client):
    with slots.BOT.slot(4000, kind="review"):
        answer = _review(client, {**_mid_deal(plays=8), "seed": 1})
    assert answer.status_code == 503
    assert answer.get_json()["code"] == "busy"
    assert int(answer.headers["Retry-After"]) >= 1


def test_a_review_in_a_search_process_answers_as_in_the_request_thread(client, monkeypatch):
    # the answer is what is compared, not the stuck bound (tests/api/test_searches.py): a starved process waits
    monkeypatch.setattr(searches, "STUCK_GRACE_S", UNHURRIED_S)
    body = {**_mid_deal(plays=24), "seed": 4, "budget_ms": 200}
    inline = _review(client, body).get_json()
    searches.start()
    try:
        assert _review(client, body).get_json() == inline
    finally:
        searches.stop()


def test_a_client_gone_stops_the_review_and_a_fresh_search_process_takes_its_slot():
    processes = searches.Processes(1)
    try:
        first = processes.children[0].process.pid
        with pytest.raises(ClientGone):
            processes.run("review", {**_finished(), "budget_ms": 5000}, 5000, 5.0, gone=lambda: True)
        assert processes.children[0].process.pid != first
        assert processes.children[0].process.is_alive()
    finally:
        processes.stop()


def test_a_client_gone_stops_a_review_in_the_request_thread(monkeypatch):
    monkeypatch.setattr(searches, "gone", lambda environ: True)
    with pytest.raises(ClientGone):
        searches.review(searches.s.Call(searches.s.REVIEW.convert(_finished()), _finished(), {}))


def _slow_review(body: dict, _budget_ms: int, stop) -> dict:
    """A review whose fixed work outlasts its bound (a seeded review on a starved machine), asking ``stop``
    between decisions as the real one does unless the body says it is stuck."""
    for _ in range(15):
        time.sleep(0.1)
        if not body.get("stuck"):
            stop()
    return {"reviewed": True}


@pytest.mark.parametrize("stuck", [False, True])
def test_a_review_that_goes_on_past_its_bound_is_not_taken_for_stuck_one_silent_is(monkeypatch, stuck):
    # silent past 2 × 50 ms + 0.3 s is stuck; the review takes 1.5 s, saying it goes on every 0.1 s unless stuck
    monkeypatch.setattr(searches, "_review", _slow_review)
    monkeypatch.setattr(searches, "STUCK_GRACE_S", 0.3)
    monkeypatch.setattr(searches, "ALIVE_S", 0.1)
    processes = searches.Processes(1)
    try:
        if stuck:
            with pytest.raises(Busy):
                processes.run("review", {"stuck": True}, 50, 0.05, searches.REVIEW_STUCK_FACTOR)
        else:
            assert processes.run("review", {}, 50, 0.05, searches.REVIEW_STUCK_FACTOR) == {"reviewed": True}
    finally:
        processes.stop()
