"""The HTTP layer's serving rules: UTF-8 bodies only, standard headers on every answer,
bounded bot slots with a budget cap, and small problem answers to hostile bodies."""
from __future__ import annotations

import json

import pytest

from gongzhu.api import slots
from gongzhu.api.slots import BotSlots, Busy
from gongzhu.bot import advice
from tests.api.problems import assert_problem

DEAL_STATE = {
    "hands": [["SQ", "S5", "H7", "S4", "H4", "D9", "S6", "HA", "S8", "D2", "D10", "D3", "C8"],
              ["CA", "D4", "DK", "S10", "CK", "DQ", "H2", "S9", "C4", "CJ", "D8", "S7", "SJ"],
              ["C10", "H9", "D7", "HQ", "D5", "C3", "CQ", "S3", "C9", "H6", "SA", "C7", "H8"],
              ["HJ", "H3", "S2", "C6", "DA", "C5", "DJ", "HK", "H10", "C2", "D6", "SK", "H5"]],
    "plays": [["C2"], ["C8"]],
}


@pytest.mark.parametrize("charset", ["latin1", "utf-16", "ISO-8859-1", "ascii"])
def test_a_charset_other_than_utf8_is_415(client, charset):
    response = client.post("/legal-moves", data=json.dumps(DEAL_STATE),
                           content_type=f"application/json; charset={charset}")
    body = assert_problem(response, 415, "unsupported_charset")
    assert body["detail"] == f"send the body as UTF-8 (charset=utf-8), not charset={charset}"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"])
@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8"])
def test_a_utf16_or_utf32_body_is_415_on_every_path(client, encoding, content_type):
    data = json.dumps(DEAL_STATE).encode(encoding)
    response = client.post("/legal-moves", data=data, content_type=content_type)
    assert_problem(response, 415, "unsupported_charset")


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8", "utf8"])
def test_utf8_declared_or_not_is_served(client, charset):
    plain = client.post("/legal-moves", json=DEAL_STATE)
    declared = client.post("/legal-moves", data=json.dumps(DEAL_STATE),
                           content_type=f"application/json; charset={charset}")
    assert plain.status_code == declared.status_code == 200
    assert declared.get_json() == plain.get_json()


def test_a_utf8_byte_order_mark_is_ignored(client):
    data = b"\xef\xbb\xbf" + json.dumps(DEAL_STATE).encode()
    response = client.post("/legal-moves", data=data, content_type="application/json")
    assert response.status_code == 200
    assert response.get_json()["seat"] == 1


@pytest.mark.parametrize("method, path", [("GET", "/healthz"), ("GET", "/ranks"),
                                          ("GET", "/nowhere"), ("POST", "/legal-moves")])
def test_every_answer_is_nosniff_and_no_store(client, method, path):
    response = client.open(path, method=method, json=DEAL_STATE if method == "POST" else None)
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Cache-Control"] == "no-store"


def test_twenty_thousand_unknown_keys_get_a_small_answer(client):
    hostile = {f"k{i}": 0 for i in range(20_000)}
    response = client.post("/legal-moves", json=hostile)
    body = assert_problem(response, 422, "too_many_fields")
    assert len(response.get_data()) <= 64 * 1024
    assert body["detail"] == "an object of the body has 20000 fields; no object of this API has more than 64"


def test_a_problem_lists_the_first_50_faults_and_says_there_are_more(client):
    response = client.post("/legal-moves", json={"hands": [["XX"] * 26] * 4, "plays": [["YY"]] * 60,
                                                 "exposed": [["ZZ"] * 20] * 4})
    assert response.status_code == 422
    body = response.get_json()
    assert body["code"] == "schema_violation" and len(body["errors"]) == 50
    assert body["truncated"] is True
    assert body["errors"][0]["pointer"] == "/hands/0/0"
    assert body["detail"].endswith("(and 49+ more)")


def test_suggest_is_503_busy_with_retry_after_when_every_slot_is_taken(client):
    with slots.BOT.slot(1500):
        response = client.post("/suggest", json={**DEAL_STATE, "budget_ms": 10, "seed": 1})
    body = assert_problem(response, 503, "busy")
    assert response.headers["Retry-After"] == "2"
    assert "retry after 2 s" in body["detail"]
    again = client.post("/suggest", json={**DEAL_STATE, "budget_ms": 10, "seed": 1})
    assert again.status_code == 200


def test_a_bad_request_is_422_not_busy_even_when_every_slot_is_taken(client):
    with slots.BOT.slot(1000):
        response = client.post("/suggest", json={**DEAL_STATE, "budget_ms": 0})
    body = assert_problem(response, 422, "schema_violation", [("/budget_ms", "schema_violation")])
    assert body["errors"][0]["keyword"] == "minimum"


def test_slots_are_taken_without_waiting_and_given_back():
    bot = BotSlots(2, 1000)
    with bot.slot(1000), bot.slot(1000):
        with pytest.raises(Busy) as busy:
            with bot.slot(1000):
                pass
        assert busy.value.retry_after_s == 1
    with bot.slot(1000):
        pass


def test_retry_after_is_what_recent_searches_of_the_running_kind_took():
    bot = BotSlots(1, 1000)
    with bot.slot(10_000, kind="claim"):
        with pytest.raises(Busy) as busy:
            with bot.slot(1000, kind="suggest"):
                pass
        # nothing measured yet: the running search's bound, 10 s
        assert busy.value.retry_after_s == 10
    took = bot.recent["claim"]
    assert 0 <= took < 1
    bot.recent["claim"] = 2.4
    with bot.slot(10_000, kind="claim"):
        with pytest.raises(Busy) as busy:
            with bot.slot(1000, kind="suggest"):
                pass
        assert busy.value.retry_after_s == 3  # 2.4 s expected, rounded up
    # the moving average: 2.4 moved 30 % of the way to this search's time
    assert 2.4 * 0.7 <= bot.recent["claim"] < 2.4 * 0.7 + 0.3


def test_a_search_running_past_its_kinds_average_is_expected_until_its_bound():
    bot = BotSlots(1, 1000)
    bot.recent["suggest"] = 0.0
    with bot.slot(5000, kind="suggest"):
        with pytest.raises(Busy) as busy:
            with bot.slot(1000):
                pass
        assert busy.value.retry_after_s == 5


def test_the_budget_is_capped():
    bot = BotSlots(1, 500)
    assert (bot.budget(100), bot.budget(500), bot.budget(2000)) == (100, 500, 500)


def test_the_cap_and_slots_come_from_the_environment(monkeypatch):
    monkeypatch.setenv(slots.SLOTS_ENV, "3")
    monkeypatch.setenv(slots.BUDGET_CAP_ENV, "250")
    bot = BotSlots.from_env()
    assert (bot.slots, bot.budget_cap_ms) == (3, 250)
    monkeypatch.setenv(slots.SLOTS_ENV, "0")
    with pytest.raises(ValueError):
        BotSlots.from_env()


def test_a_capped_budget_shows_in_the_samples(client, monkeypatch):
    monkeypatch.setattr(slots.BOT, "budget_cap_ms", 5)
    response = client.post("/suggest", json={**DEAL_STATE, "budget_ms": 2000, "seed": 3})
    assert response.status_code == 200
    assert 0 < response.get_json()["samples"] <= 5 * advice.PLAYOUTS_PER_MS[1]  # x the cap, not x 2000


def test_an_object_with_more_than_64_fields_is_refused_as_it_is_parsed(client):
    nested = {**DEAL_STATE, "rules": {f"option{i}": True for i in range(65)}}
    response = client.post("/legal-moves", json=nested)
    body = assert_problem(response, 422, "too_many_fields")
    assert body["detail"] == "an object of the body has 65 fields; no object of this API has more than 64"
    fine = client.post("/legal-moves", json={**DEAL_STATE, "rules": {f"option{i}": True for i in range(64)}})
    assert fine.status_code == 422
    problem = fine.get_json()
    assert problem["code"] == "schema_violation" and problem["truncated"] is True
    assert {e["pointer"] for e in problem["errors"]} < {f"/rules/option{i}" for i in range(64)}
    assert len(problem["errors"]) == 50
