"""The searches run in child processes of the worker (``searches.start``) answer exactly
as the same searches in the request thread: seeded suggestions, claim verdicts."""
from __future__ import annotations

import json

import pytest

from gongzhu.api import create_app, searches
from tests.faults.test_pod_safety import HARD_CLAIM
from tests.faults.test_serving import _mid_deal


@pytest.fixture()
def client():
    return create_app().test_client()


def _answers(client) -> list[bytes]:
    state = _mid_deal()
    requests = [("/suggest", {**state, "seed": 11, "budget_ms": 200}),
                ("/claim", {**state, "claim": {"seat": 1, "kind": "all_tricks"}}),
                ("/claim", {**state, "claim": {"seat": 2, "kind": "no_tricks"}})]
    return [client.post(path, data=json.dumps(body), content_type="application/json").data
            for path, body in requests]


def test_searches_in_child_processes_answer_as_in_the_request_thread(client):
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
