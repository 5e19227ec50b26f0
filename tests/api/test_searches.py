"""The searches run in child processes of the worker (``searches.start``) answer exactly
as the same searches in the request thread: seeded suggestions, claim verdicts."""
from __future__ import annotations

import json
import time

import pytest

from gongzhu.api import create_app, searches
from gongzhu.api.slots import Busy
from tests.faults.test_pod_safety import HARD_CLAIM
from tests.faults.test_serving_drills import _mid_deal


@pytest.fixture()
def client():
    return create_app().test_client()


# a stuck bound no starved search process reaches
UNHURRIED_S = 120.0


def _answers(client) -> list[bytes]:
    state = _mid_deal()
    requests = [("/suggest", {**state, "seed": 11, "budget_ms": 200}),
                ("/claim", {**state, "claim": {"seat": 1, "kind": "all_tricks"}}),
                ("/claim", {**state, "claim": {"seat": 2, "kind": "no_tricks"}})]
    return [client.post(path, data=json.dumps(body), content_type="application/json").data
            for path, body in requests]


def test_searches_in_child_processes_answer_as_in_the_request_thread(client, monkeypatch):
    # the answers are what is compared: a search process starved by the suite's other runners (the pure pass
    # runs at niceness 19, its searches below it) waits rather than answering busy (its bound: the test below)
    monkeypatch.setattr(searches, "STUCK_GRACE_S", UNHURRIED_S)
    inline = _answers(client)
    searches.start()
    try:
        assert searches.running()
        assert _answers(client) == inline
    finally:
        searches.stop()
    assert not searches.running()


def test_a_claim_past_its_bound_answers_null_with_the_positions_searched(client):
    searches.start()
    try:
        answer = client.post("/claim", data=HARD_CLAIM, content_type="application/json").get_json()
    finally:
        searches.stop()
    assert (answer["holds"], answer["reason"], answer["tricks_left"]) == (None, "search_budget", 13)
    assert answer["positions"] > 0


def test_a_claim_the_engine_refuses_is_its_rule_error_with_searches_in_child_processes(client):
    state = _mid_deal(plays=52)
    searches.start()
    try:
        answer = client.post("/claim", data=json.dumps({**state, "claim": {"seat": 2, "kind": "no_tricks"}}),
                             content_type="application/json")
    finally:
        searches.stop()
    assert (answer.status_code, answer.get_json()["code"]) == (422, "deal_finished")


def _sleep(body: dict, _budget_ms: int) -> tuple:
    time.sleep(body["seconds"])
    return ("slept", body["seconds"])


def test_a_search_past_its_bound_has_a_grace_that_scales_with_it_then_is_busy_and_replaced(monkeypatch):
    # a search that sleeps stands for a seeded /suggest on a pod short of CPU
    monkeypatch.setitem(searches.SEARCHES, "sleep", _sleep)
    monkeypatch.setattr(searches, "STUCK_GRACE_S", 0.1)
    processes = searches.Processes(1)
    try:
        # 2.4 times its bound of 0.5 s: within 4 × the bound, so answered
        assert processes.run("sleep", {"seconds": 1.2}, 500, 0.5) == ("slept", 1.2)
        first = processes.children[0].process.pid
        # past 4 × 0.5 s + 0.1 s: 503 busy, retry after the bound, and a fresh process takes the slot
        with pytest.raises(Busy) as busy:
            processes.run("sleep", {"seconds": 30}, 500, 0.5)
        assert (busy.value.status, busy.value.code, busy.value.retry_after_s) == (503, "busy", 1)
        assert busy.value.headers == (("Retry-After", "1"),)
        [child] = processes.children
        assert child.process.pid != first and child.process.is_alive()
        assert processes.run("sleep", {"seconds": 0}, 500, 0.5) == ("slept", 0)
    finally:
        processes.stop()
