"""Every error path of the HTTP layer (rules.md §7): exact status, media
type, code and pointers. Bad input never gets a 500."""
from __future__ import annotations

import json
import logging

import pytest

from gongzhu import api
from gongzhu.api import create_app
from tests.conftest import load_contract

from .deals import FULL_PLAYS, SEED1, X, Y, Z
from .problems import assert_problem

CONTRACT = load_contract()

DEAL_POSTS = ["/legal-moves", "/play", "/exposures"]
ALL_POSTS = ["/legal-moves", "/play", "/trick", "/score", "/ingots", "/exposures", "/deal"]


def post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type="application/json")


# ---- 400, 413, 415: the body itself -------------------------------------------------

@pytest.mark.parametrize("path", ALL_POSTS)
@pytest.mark.parametrize("text", ['{"hands": [', "", "hands", "{'a': 1}", '{"a": NaN}',
                                  '{"a": Infinity}', '{"a": 1, "a": 2}', "\xff{"])
def test_malformed_json_is_400(client, path, text):
    response = client.post(path, data=text.encode("latin-1"), content_type="application/json")
    assert_problem(response, 400, "malformed_json")


def test_malformed_json_names_the_duplicate_key(client):
    response = client.post("/legal-moves", data='{"hands": [], "hands": []}',
                           content_type="application/json")
    body = assert_problem(response, 400, "malformed_json")
    assert body["detail"] == "the body is not valid JSON: duplicate object key 'hands'"


def test_deeply_nested_json_is_400_not_500(client):
    text = "[" * 50_000 + "]" * 50_000
    response = client.post("/legal-moves", data=text, content_type="application/json")
    body = assert_problem(response, 400, "malformed_json")
    assert body["detail"] == ("the body nests arrays and objects more than 32 levels deep; no request of this API "
                              "nests them deeper")


@pytest.mark.parametrize("path", ALL_POSTS)
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "application/problem+json", "application/jsonx"])
def test_wrong_content_type_is_415(client, path, content_type):
    response = client.post(path, data="{}", content_type=content_type)
    body = assert_problem(response, 415, "unsupported_media_type")
    assert body["detail"] == f"send the body as application/json, not {content_type}"


def test_missing_content_type_is_415(client):
    response = client.post("/legal-moves", data="{}")
    body = assert_problem(response, 415, "unsupported_media_type")
    assert body["detail"] == ("send the body as application/json, with the header Content-Type: application/json "
                              "(none was sent)")


def test_json_with_charset_is_accepted(client):
    response = client.post("/ingots", data=json.dumps({"scores": [1, 2, 3, 4]}),
                           content_type="application/json; charset=utf-8")
    assert response.status_code == 200


@pytest.mark.parametrize("path", ALL_POSTS)
def test_body_over_the_default_256_kib_is_413(client, path):
    body = json.dumps({"scores": [0, 0, 0, 0], "pad": " " * (256 * 1024)})
    response = client.post(path, data=body, content_type="application/json")
    assert_problem(response, 413, "payload_too_large")


def test_body_just_under_the_limit_is_read(client):
    text = json.dumps({"scores": [100, 0, -200, -200]})
    text = text[:-1] + " " * (256 * 1024 - len(text)) + "}"
    assert len(text) == 256 * 1024
    response = client.post("/ingots", data=text, content_type="application/json")
    assert response.status_code == 200


def test_body_limit_is_configurable():
    client = create_app({"MAX_CONTENT_LENGTH": 100}).test_client()
    small = client.post("/ingots", json={"scores": [1, 2, 3, 4]})
    assert small.status_code == 200
    large = client.post("/ingots", json={"scores": [1, 2, 3, 4], "fee": 0, "x": "y" * 100})
    assert_problem(large, 413, "payload_too_large")


def test_body_limit_from_environment(monkeypatch):
    monkeypatch.setenv("GONGZHU_MAX_BODY", "64")
    client = create_app().test_client()
    small = client.post("/ingots", data='{"scores": [0, 0, 0, 0]}', content_type="application/json")
    assert small.status_code == 200
    text = '{"scores": [0, 0, 0, 0]}' + " " * 41
    assert len(text) == 65
    response = client.post("/ingots", data=text, content_type="application/json")
    assert_problem(response, 413, "payload_too_large")


# ---- 404, 405, 500 --------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/nope", "/legal-moves/", "/ranks/", "/ranks/1/2",
                                  "/docs/", "/docs/missing.js", "/openapi.json", "/static/x"])
def test_unknown_path_is_404(client, path):
    assert_problem(client.get(path), 404, "not_found")


@pytest.mark.parametrize("path", ALL_POSTS)
@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"])
def test_wrong_method_on_post_operation_is_405_with_allow(client, path, method):
    response = client.open(path, method=method)
    assert response.status_code == 405
    assert response.headers["Allow"] == "POST"
    if method != "HEAD":
        assert_problem(response, 405, "method_not_allowed")


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/ranks", "/ranks/5", "/openapi.yaml",
                                  "/docs", "/docs/index.css"])
@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "OPTIONS"])
def test_wrong_method_on_get_operation_is_405_with_allow(client, path, method):
    response = client.open(path, method=method)
    body = assert_problem(response, 405, "method_not_allowed")
    assert response.headers["Allow"] == "GET, HEAD"
    assert body["detail"] == "this resource allows GET, HEAD only"


def test_unexpected_exception_is_500_logged_and_leaks_nothing(caplog, monkeypatch):
    def boom():
        raise RuntimeError("secret internals /etc/passwd")

    monkeypatch.setitem(api.PAGES, "version", boom)
    with caplog.at_level(logging.ERROR):
        response = create_app().test_client().get("/version")
    body = assert_problem(response, 500, "internal_error")
    assert "secret" not in response.get_data(as_text=True)
    assert body["detail"] == "the server failed to answer this request; it has been logged"
    record = next(r for r in caplog.records if r.exc_info)
    assert record.exc_info[0] is RuntimeError
    assert "secret internals" in caplog.text


# ---- 422 schema_violation: the body does not match the contract ----------------------------

def assert_violations(response, violations) -> dict:
    """A ``schema_violation`` problem whose items are exactly ``violations``:
    (pointer, JSON Schema keyword) pairs, in order."""
    body = assert_problem(response, 422, "schema_violation",
                          [(pointer, "schema_violation") for pointer, _ in violations])
    assert [(e["pointer"], e["keyword"]) for e in body["errors"]] == violations
    return body


@pytest.mark.parametrize("path", ALL_POSTS)
@pytest.mark.parametrize("body", [[], "hands", 3, None, True])
def test_body_must_be_an_object(client, path, body):
    assert_violations(post(client, path, body), [("", "type")])


@pytest.mark.parametrize("path", DEAL_POSTS)
def test_hands_are_required(client, path):
    body = {"move": ["C2"]} if path == "/play" else {}
    problem = assert_violations(post(client, path, body), [("/hands", "required")])
    assert problem["detail"] == "/hands: required field is missing"


def test_unknown_field_is_rejected_with_its_pointer(client):
    body = {"hands": SEED1, "player": 3}
    problem = assert_violations(post(client, "/legal-moves", body), [("/player", "additionalProperties")])
    assert problem["detail"] == "/player: unknown field: not part of this request"


def test_unknown_fields_in_rules_and_escaped_pointers(client):
    body = {"hands": SEED1, "rules": {"decks": 1, "trumps": "H"}, "a/b~c": 1}
    response = post(client, "/legal-moves", body)
    assert sorted(e["pointer"] for e in response.get_json()["errors"]) == ["/a~1b~0c", "/rules/trumps"]
    assert {e["keyword"] for e in response.get_json()["errors"]} == {"additionalProperties"}


@pytest.mark.parametrize("path", ALL_POSTS)
def test_unknown_field_on_every_operation(client, path):
    response = post(client, path, {"extra": 1})
    body = response.get_json()
    assert response.status_code == 422 and body["code"] == "schema_violation"
    assert ("/extra", "additionalProperties") in [(e["pointer"], e["keyword"]) for e in body["errors"]]


@pytest.mark.parametrize("bad, keyword, detail", [
    ("sq", "enum", '"sq" is none of the 52 values allowed: Suit letter'),
    ("10C", "enum", '"10C" is none of the 52 values allowed: Suit letter'),
    ("S1", "enum", '"S1" is none of the 52 values allowed: Suit letter'),
    ("S11", "enum", '"S11" is none of the 52 values allowed: Suit letter'),
    ("SQ ", "enum", '"SQ " is none of the 52 values allowed: Suit letter'),
    ("♠Q", "enum", '"♠Q" is none of the 52 values allowed: Suit letter'),
    ("ST", "enum", '"ST" is none of the 52 values allowed: Suit letter'),
    (10, "type", "must be a string, not integer"),
    (None, "type", "must be a string, not null"),
    (["SQ"], "type", "must be a string, not array"),
    ({"SQ": 1}, "type", "must be a string, not object"),
])
def test_bad_card_notation_points_at_the_card(client, bad, keyword, detail):
    hands = [list(h) for h in SEED1]
    hands[2][5] = bad
    body = assert_violations(post(client, "/legal-moves", {"hands": hands}), [("/hands/2/5", keyword)])
    assert body["errors"][0]["detail"].startswith(detail)


def test_every_bad_card_is_reported(client):
    hands = [list(h) for h in SEED1]
    hands[0][0], hands[3][12] = "XX", "c2"
    plays = [["C2"], ["C8", "hq"]]
    response = post(client, "/legal-moves", {"hands": hands, "plays": plays})
    body = assert_problem(response, 422, "schema_violation",
                          [(p, "schema_violation") for p in ("/hands/0/0", "/hands/3/12", "/plays/1/1")])
    assert body["detail"].startswith('/hands/0/0: "XX" is none of the 52 values allowed: Suit letter')
    assert body["detail"].endswith("(and 2 more)")


@pytest.mark.parametrize("field, value, violations", [
    ("hands", SEED1[:3], [("/hands", "minItems")]),
    ("hands", "SQ", [("/hands", "type")]),
    ("hands", [SEED1[0], "SQ", {"a": 1}, SEED1[3]], [("/hands/1", "type"), ("/hands/2", "type")]),
    ("hands", [SEED1[0] * 3, SEED1[1], SEED1[2], SEED1[3]], [("/hands/0", "maxItems")]),
    ("exposed", [[], [], []], [("/exposed", "minItems")]),
    ("exposed", [["SQ"] * 9, [], [], []], [("/exposed/0", "maxItems")]),
    ("plays", [["C2"], []], [("/plays/1", "minItems")]),
    ("plays", [["C2", "C2", "C2"]], [("/plays/0", "maxItems")]),
    ("plays", [["C2"]] * 105, [("/plays", "maxItems")]),
    ("plays", [{"0": "C2"}], [("/plays/0", "type")]),
    ("leader", 4, [("/leader", "maximum")]),
    ("leader", -1, [("/leader", "minimum")]),
    ("leader", 1.5, [("/leader", "type")]),
    ("leader", True, [("/leader", "type")]),
    ("leader", "1", [("/leader", "type")]),
    ("leader", None, [("/leader", "type")]),
    ("first_deal", "yes", [("/first_deal", "type")]),
    ("first_deal", 1, [("/first_deal", "type")]),
    ("first_deal", None, [("/first_deal", "type")]),
    ("rules", [], [("/rules", "type")]),
    ("rules", None, [("/rules", "type")]),
    ("rules", {"decks": 3}, [("/rules/decks", "enum")]),
    ("rules", {"decks": True}, [("/rules/decks", "type"), ("/rules/decks", "enum")]),
    ("rules", {"decks": 2.5}, [("/rules/decks", "type"), ("/rules/decks", "enum")]),
    ("rules", {"opening_card": "C3"}, [("/rules/opening_card", "enum")]),
    ("rules", {"partnership": "false"}, [("/rules/partnership", "type")]),
    ("rules", {"first_trick_ban": 0}, [("/rules/first_trick_ban", "type")]),
])
def test_field_shape_errors(client, field, value, violations):
    body = {"hands": SEED1, field: value}
    assert_violations(post(client, "/legal-moves", body), violations)


def test_several_faults_are_all_listed(client):
    body = {"hands": SEED1[:3], "leader": "0", "extra": 1}
    response = post(client, "/legal-moves", body)
    problem = assert_problem(response, 422, "schema_violation", [("/hands", "schema_violation"),
                             ("/leader", "schema_violation"), ("/extra", "schema_violation")])
    assert [e["keyword"] for e in problem["errors"]] == ["minItems", "type", "additionalProperties"]


@pytest.mark.parametrize("body, violations", [
    ({"hands": SEED1, "move": []}, [("/move", "minItems")]),
    ({"hands": SEED1, "move": ["C2", "C2", "C2"]}, [("/move", "maxItems")]),
    ({"hands": SEED1, "move": "C2"}, [("/move", "type")]),
    ({"hands": SEED1, "move": ["c2"]}, [("/move/0", "enum")]),
    ({"hands": SEED1}, [("/move", "required")]),
    ({"hands": SEED1, "move": ["C2"], "seat": 7}, [("/seat", "maximum")]),
])
def test_play_request_shape(client, body, violations):
    assert_violations(post(client, "/play", body), violations)


@pytest.mark.parametrize("body, violations", [
    ({"scores": [1, 2, 3]}, [("/scores", "minItems")]),
    ({"scores": "1,2,3,4"}, [("/scores", "type")]),
    ({"scores": [1, 2.5, "3", True]}, [("/scores/1", "type"), ("/scores/2", "type"), ("/scores/3", "type")]),
    ({"scores": [1, 2, 3, 10**7]}, [("/scores/3", "maximum")]),
    ({"scores": [1, 2, 3, 4], "multiplier": 0}, [("/multiplier", "minimum")]),
    ({"scores": [1, 2, 3, 4], "fee": -1}, [("/fee", "minimum")]),
    ({"multiplier": 2}, [("/scores", "required")]),
])
def test_ingots_request_shape(client, body, violations):
    assert_violations(post(client, "/ingots", body), violations)


@pytest.mark.parametrize("body, violations", [
    ({"seed": -1}, [("/seed", "oneOf")]),
    ({"seed": 2**53}, [("/seed", "oneOf")]),
    ({"seed": "1"}, [("/seed", "oneOf")]),
    ({"seed": 1.5}, [("/seed", "oneOf")]),
    ({"seed": "ab" * 31}, [("/seed", "oneOf")]),
    ({"seed": "g" * 64}, [("/seed", "oneOf")]),
    ({"first_deal": "no"}, [("/first_deal", "type")]),
])
def test_deal_request_shape(client, body, violations):
    assert_violations(post(client, "/deal", body), violations)


@pytest.mark.parametrize("body, violations", [
    ({"plays": [["S5"]] * 4}, [("/leader", "required")]),
    ({"leader": 0, "plays": [["S5"]] * 3}, [("/plays", "minItems")]),
    ({"leader": 0, "plays": [["S5"], ["S6"], [], ["S7"]]}, [("/plays/2", "minItems")]),
    ({"leader": 0, "plays": [["S5"], ["S6"], ["S7"], ["s8"]]}, [("/plays/3/0", "enum")]),
])
def test_trick_request_shape(client, body, violations):
    assert_violations(post(client, "/trick", body), violations)


@pytest.mark.parametrize("body, violations", [
    ({}, [("/captured", "required")]),
    ({"captured": [[], [], []]}, [("/captured", "minItems")]),
    ({"captured": [[], ["SQ"] * 105, [], []]}, [("/captured/1", "maxItems")]),
    ({"captured": [[], [], [], ["Q♠"]]}, [("/captured/3/0", "enum")]),
])
def test_score_request_shape(client, body, violations):
    assert_violations(post(client, "/score", body), violations)


# ---- 422: inconsistent deals (the engine's verdict) -----------------------------------------

def test_inconsistent_deal_lists_every_problem(client):
    hands = [SEED1[0][:12] + ["CA"], SEED1[1], SEED1[2], SEED1[3][:12]]
    assert_problem(post(client, "/legal-moves", {"hands": hands}), 422, "invalid_deal",
                   [("/hands/1/0", "duplicate_card"), ("/hands/3", "wrong_card_count")])


def test_two_deck_rules_need_26_cards_a_seat(client):
    body = {"rules": {"decks": 2}, "hands": SEED1}
    assert_problem(post(client, "/legal-moves", body), 422, "wrong_card_count",
                   [(f"/hands/{s}", "wrong_card_count") for s in range(4)])


def test_later_deal_needs_a_leader(client):
    assert_problem(post(client, "/legal-moves", {"hands": SEED1, "first_deal": False}), 422,
                   "missing_leader", [("/leader", "missing_leader")])


def test_first_deal_leader_must_hold_the_opening_card(client):
    assert_problem(post(client, "/legal-moves", {"hands": SEED1, "leader": 0}), 422,
                   "wrong_leader", [("/leader", "wrong_leader")])


def test_exposing_a_card_not_held(client):
    body = {"hands": SEED1, "exposed": [[], ["SQ"], [], []]}
    assert_problem(post(client, "/legal-moves", body), 422, "illegal_exposure",
                   [("/exposed/1/0", "illegal_exposure")])


def test_exposing_a_card_that_cannot_be_exposed(client):
    body = {"hands": SEED1, "exposed": [["S5"], [], [], []]}
    assert_problem(post(client, "/exposures", body), 422, "illegal_exposure",
                   [("/exposed/0/0", "illegal_exposure")])


def test_illegal_play_in_the_history_points_at_it(client):
    body = {"hands": SEED1, "plays": [["C2"], ["SQ"]]}
    assert_problem(post(client, "/legal-moves", body), 422, "must_follow_suit",
                   [("/plays/1", "must_follow_suit")])


def test_card_not_held_in_the_history_points_at_the_card(client):
    body = {"hands": SEED1, "plays": [["C2"], ["C8"], ["CA"], ["C3"], ["HA"]]}
    assert_problem(post(client, "/legal-moves", body), 422, "card_not_in_hand",
                   [("/plays/4/0", "card_not_in_hand")])


def test_too_many_plays(client):
    body = {"hands": SEED1, "plays": FULL_PLAYS + [["C2"]]}
    assert_problem(post(client, "/legal-moves", body), 422, "deal_finished",
                   [("/plays/52", "deal_finished")])


def test_score_with_a_card_taken_twice(client):
    body = {"captured": [["SQ"], [], ["SQ"], []]}
    assert_problem(post(client, "/score", body), 422, "duplicate_card",
                   [("/captured/2/0", "duplicate_card")])


def test_trick_with_a_pair_in_one_deck(client):
    body = {"leader": 0, "plays": [["S4", "S4"], ["SK"], ["SQ"], ["SJ"]]}
    assert_problem(post(client, "/trick", body), 422, "invalid_move", [("/plays/0", "invalid_move")])


# ---- 422: each illegal move of rules.md §7 ------------------------------------------------------

def test_not_your_turn(client):
    body = {"hands": SEED1, "move": ["C8"], "seat": 0}
    problem = assert_problem(post(client, "/play", body), 422, "not_your_turn",
                             [("/seat", "not_your_turn")])
    assert problem["detail"] == "it is seat 3's turn, not seat 0's"


def test_card_not_in_hand(client):
    body = {"hands": SEED1, "plays": [["C2"], ["C8"]], "move": ["C3"]}
    assert_problem(post(client, "/play", body), 422, "card_not_in_hand",
                   [("/move/0", "card_not_in_hand")])


def test_card_not_in_hand_points_at_the_second_card_of_a_pair(client):
    # Seat 1 leads and holds one S7: a pair of S7 fails at the second copy.
    body = {"rules": {"decks": 2}, "first_deal": False, "leader": 1, "hands": Y,
            "move": ["S7", "S7"]}
    assert_problem(post(client, "/play", body), 422, "card_not_in_hand",
                   [("/move/1", "card_not_in_hand")])


def test_must_follow_suit(client):
    body = {"hands": SEED1, "plays": [["C2"]], "move": ["SQ"]}
    assert_problem(post(client, "/play", body), 422, "must_follow_suit", [("/move", "must_follow_suit")])


def test_must_follow_pair(client):
    body = {"rules": {"decks": 2}, "first_deal": False, "leader": 0, "hands": Y,
            "plays": [["S9", "S9"]], "move": ["SK", "S7"]}
    assert_problem(post(client, "/play", body), 422, "must_follow_pair", [("/move", "must_follow_pair")])


def test_exposed_card_first_round(client):
    body = {"first_deal": False, "leader": 1, "hands": X, "exposed": [["SQ"], [], [], []],
            "plays": [["S5"], ["S7"], ["SK"]], "move": ["SQ"]}
    assert_problem(post(client, "/play", body), 422, "exposed_card_first_round",
                   [("/move", "exposed_card_first_round")])


def test_must_lead_opening_card(client):
    body = {"hands": SEED1, "move": ["C5"]}
    assert_problem(post(client, "/play", body), 422, "must_lead_opening_card",
                   [("/move", "must_lead_opening_card")])


def test_first_trick_ban(client):
    body = {"rules": {"first_trick_ban": True}, "hands": Z, "plays": [["C2"]], "move": ["SQ"]}
    assert_problem(post(client, "/play", body), 422, "first_trick_ban", [("/move", "first_trick_ban")])


def test_deal_finished(client):
    body = {"hands": SEED1, "plays": FULL_PLAYS, "move": ["C2"]}
    assert_problem(post(client, "/play", body), 422, "deal_finished", [("/move", "deal_finished")])


@pytest.mark.parametrize("move", [["C2", "C2"], ["C2", "C5"]])
def test_two_cards_in_one_deck_is_invalid_move(client, move):
    body = {"hands": SEED1, "move": move}
    assert_problem(post(client, "/play", body), 422, "invalid_move", [("/move", "invalid_move")])


def test_two_deck_lead_of_two_different_cards_is_invalid_move(client):
    body = {"rules": {"decks": 2}, "first_deal": False, "leader": 0, "hands": Y, "move": ["S9", "S2"]}
    assert_problem(post(client, "/play", body), 422, "invalid_move", [("/move", "invalid_move")])


# ---- lone surrogates: a \u escape that is no Unicode character -------------------------

@pytest.mark.parametrize("path", sorted(p for p, item in CONTRACT["paths"].items() if "post" in item))
@pytest.mark.parametrize("text, pointer, code_point", [
    ('{"seed": "\\ud800"}', "/seed", "U+D800"),
    ('{"hands": [["SQ", "x\\udfff"]]}', "/hands/0/1", "U+DFFF"),
    ('{"\\udc00a": 1}', "/\\udc00a", "U+DC00"),
])
def test_a_lone_surrogate_is_malformed_json_on_every_post_operation(client, path, text, pointer, code_point):
    response = client.post(path, data=text, content_type="application/json")
    body = assert_problem(response, 400, "malformed_json")
    assert body["detail"] == (f"the string at {pointer} holds a lone surrogate ({code_point}), "
                              "which is not a Unicode character")


def test_a_lone_surrogate_is_named_in_chinese(client):
    response = client.post("/deal", data='{"seed": "\\ud800"}', content_type="application/json",
                           headers={"Accept-Language": "zh-CN"})
    detail = assert_problem(response, 400, "malformed_json")["detail"]
    assert detail == "/seed 处的字符串含有孤立代理项（U+D800），它不是 Unicode 字符"


def test_a_surrogate_pair_escape_is_one_character_and_reaches_validation(client):
    response = client.post("/deal", data='{"seed": "\\ud83d\\udc37"}', content_type="application/json")
    body = assert_problem(response, 422, "schema_violation", [("/seed", "schema_violation")])
    assert body["errors"][0]["detail"].startswith('"\U0001F437" is none of')


@pytest.mark.parametrize("path", sorted(p for p, item in CONTRACT["paths"].items() if "post" in item))
def test_a_raw_surrogate_in_utf8_is_malformed_json_on_every_post_operation(client, path):
    # U+D800 written as UTF-8 would be (ED A0 80): no UTF-8 decoder may accept it
    response = client.post(path, data=b'{"seed": "\xed\xa0\x80"}', content_type="application/json")
    body = assert_problem(response, 400, "malformed_json")
    assert body["detail"] == "the body is not UTF-8: byte 10 cannot be decoded"
