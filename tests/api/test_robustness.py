"""No body a client can send gets a 500: every operation, fed bodies that are
well-shaped, nearly well-shaped or anything at all, answers 200 or a 422
problem. schemathesis and tests/contract/test_generated_bodies.py do this from
the contract's own schemas; these bodies carry real cards, so they reach far
deeper into the engine."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gongzhu.api import create_app, messages, pipeline
from gongzhu.rules import CARD_NAMES
from tests.conftest import load_contract

CONTRACT = load_contract()
CARDS = st.sampled_from(CARD_NAMES)
NOT_CARDS = st.sampled_from(["sq", "10C", "S1", "", "HA ", "X"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 6), st.floats(allow_nan=False, allow_infinity=False),
                    CARDS, NOT_CARDS)
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=12)
SEAT = st.integers(0, 3)
PLAY = st.lists(CARDS, min_size=1, max_size=2)
FOUR_LISTS = st.lists(st.lists(CARDS, max_size=8), min_size=4, max_size=4)
# Valid values of every request field (within the contract's bounds).
VALID = {
    "rules": st.fixed_dictionaries({}, optional={
        "decks": st.sampled_from([1, 2]), "partnership": st.booleans(),
        "opening_card": st.sampled_from(["C2", "S2", "S3", "S7"]),
        "must_lead_opening_card": st.booleans(), "first_trick_ban": st.booleans(),
        "pig_flips_with_all_hearts": st.booleans()}),
    "first_deal": st.booleans(), "leader": SEAT, "seat": SEAT,
    "hands": st.lists(st.lists(CARDS, max_size=26), min_size=4, max_size=4),
    "exposed": FOUR_LISTS, "captured": FOUR_LISTS,
    "plays": st.one_of(st.lists(PLAY, max_size=8), st.lists(PLAY, min_size=4, max_size=4)),
    "move": PLAY,
    "scores": st.lists(st.integers(-10**6, 10**6), min_size=4, max_size=4),
    "multiplier": st.integers(1, 10**6), "fee": st.integers(0, 10**9),
    "seed": st.integers(0, 2**53 - 1),
}
ANY = st.one_of(JSON, st.lists(st.one_of(CARDS, NOT_CARDS, JSON), max_size=5),
                st.lists(st.lists(st.one_of(CARDS, CARDS, NOT_CARDS, JSON), max_size=4), max_size=5))
OPERATIONS = {"/legal-moves": "DealState", "/play": "PlayRequest", "/trick": "TrickRequest",
              "/score": "ScoreRequest", "/ingots": "IngotsRequest", "/exposures": "ExposuresRequest",
              "/deal": "DealRequest"}


def bodies(component: str):
    """Bodies for a request schema: all valid; or some fields wrong, unknown or missing; or any JSON."""
    schema = CONTRACT["components"]["schemas"][component]
    names = list(schema["properties"])
    required = schema.get("required", [])

    def messy(name):
        return st.one_of(VALID[name], VALID[name], VALID[name], ANY)
    valid = st.fixed_dictionaries({n: VALID[n] for n in required},
                                  optional={n: VALID[n] for n in names if n not in required})
    wrong = st.fixed_dictionaries({}, optional={**{n: messy(n) for n in names}, "extra": JSON})
    return st.one_of(valid, wrong, JSON)


@pytest.mark.parametrize("path", OPERATIONS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_body_gets_200_or_a_422_problem(client, path, data):
    body = data.draw(bodies(OPERATIONS[path]))
    response = client.post(path, data=json.dumps(body), content_type="application/json")
    assert response.status_code in (200, 422), response.get_data(as_text=True)
    if response.status_code == 422:
        problem = response.get_json()
        assert response.mimetype == "application/problem+json"
        assert problem["code"] and problem["errors"]
        assert all(e["pointer"] == "" or e["pointer"].startswith("/") for e in problem["errors"])


RULE_OPTIONS = st.fixed_dictionaries({}, optional={
    "decks": st.sampled_from([1, 2]), "partnership": st.booleans(),
    "opening_card": st.sampled_from(["C2", "S2", "S3", "S7"]),
    "must_lead_opening_card": st.booleans(), "first_trick_ban": st.booleans(),
    "pig_flips_with_all_hearts": st.booleans()})
EXPOSABLE = ["SQ", "DJ", "C10", "HA"]


@st.composite
def deal_states(draw, client):
    """A real deal (via /deal) played some way in with legal moves, then a move that
    may be legal, illegal, or not even held, by a seat that may or may not be on turn."""
    rules = draw(RULE_OPTIONS)
    first = draw(st.booleans())
    dealt = client.post("/deal", json={"rules": rules, "seed": draw(st.integers(0, 10**6)),
                                       "first_deal": first}).get_json()
    hands = dealt["hands"]
    state = {"rules": rules, "first_deal": first, "hands": hands}
    if not first:
        state["leader"] = draw(st.integers(0, 3))
    state["exposed"] = [[c for c in EXPOSABLE if c in hand and draw(st.booleans())]
                        for hand in hands]
    plays = []
    for _ in range(draw(st.integers(0, 60))):
        answer = client.post("/legal-moves", json={**state, "plays": plays}).get_json()
        if answer.get("finished", True):
            break
        plays.append(draw(st.sampled_from(answer["moves"])))
    state["plays"] = plays
    legal = client.post("/legal-moves", json=state).get_json()["moves"]
    everyone = sorted({c for hand in hands for c in hand})
    anything = st.lists(st.sampled_from(everyone), min_size=1, max_size=2)
    state["move"] = draw(st.one_of(st.sampled_from(legal), anything) if legal else anything)
    if draw(st.booleans()):
        state["seat"] = draw(st.integers(0, 3))
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_plays_on_real_deals_get_200_or_a_rule_problem(client, data):
    body = data.draw(deal_states(client))
    response = client.post("/play", json=body)
    assert response.status_code in (200, 422), response.get_data(as_text=True)
    if response.status_code == 422:
        problem = response.get_json()
        assert problem["code"] in {
            "not_your_turn", "card_not_in_hand", "must_follow_suit", "must_follow_pair",
            "exposed_card_first_round", "must_lead_opening_card", "first_trick_ban",
            "deal_finished", "invalid_move"}, problem
        assert [e["pointer"] for e in problem["errors"]][0] in {"/seat", "/move", "/move/0", "/move/1"}
    else:
        answer = response.get_json()
        assert answer["state"]["plays"] == body["plays"] + [body["move"]]


def test_a_large_invalid_array_is_reported_by_its_first_violation_with_its_real_length():
    client = create_app().test_client()
    body = b'{"hands":[' + b",".join([b"1"] * 100_000) + b"]}"
    answer = client.post("/legal-moves", data=body, content_type="application/json")
    problem = answer.get_json()
    assert answer.status_code == 422
    assert problem["errors"] == [{"pointer": "/hands", "detail": "must have at most 4 items, not 100000",
                                  "code": "schema_violation", "keyword": "maxItems"}]
    assert problem["truncated"] is True


def test_a_large_invalid_input_is_reported_by_its_first_violation_only():
    client = create_app().test_client()
    hands = [["SA"] * 13, ["SA"] * 13, ["SA"] * 13, ["SA"] * 12 + [7]]
    body = {"hands": hands, "plays": [["C2"]] * 600, "claim": {"seat": 0, "kind": "all_tricks"}}
    answer = client.post("/claim", json=body)
    problem = answer.get_json()
    assert answer.status_code == 422
    assert problem["errors"] == [{"pointer": "/hands/3/12", "detail": "must be a string, not integer",
                                  "code": "schema_violation", "keyword": "type"}]
    assert problem["truncated"] is True


# ---- nesting: one answer at any depth, never the validator's recursion limit ---------------------------

BODY_PATHS = sorted(path for path, item in CONTRACT["paths"].items()
                    for operation in item.values() if isinstance(operation, dict) and "requestBody" in operation)


def nested(depth: int, kind: str) -> str:
    """``{"hands": …}`` whose value nests ``depth`` arrays or objects: the body nests ``depth + 1``."""
    opening, leaf, closing = ("[", '"SQ"', "]") if kind == "arrays" else ('{"a":', "1", "}")
    return '{"hands": ' + opening * depth + leaf + closing * depth + "}"


def assert_nesting_answer(response, depth: int) -> None:
    """Deeper than MAX_DEPTH: the 400 malformed_json naming the limit; else the schema's 422."""
    assert response.mimetype == "application/problem+json", response.get_data(as_text=True)
    body = response.get_json()
    if depth + 1 > pipeline.MAX_DEPTH:
        assert (response.status_code, body["code"]) == (400, "malformed_json")
        assert body["detail"] == str(messages.TOO_DEEP(limit=pipeline.MAX_DEPTH))
    else:
        assert (response.status_code, body["code"]) == (422, "schema_violation")


@pytest.mark.parametrize("kind", ["arrays", "objects"])
@pytest.mark.parametrize("depth", [30, 31, 32, 256, 300, 1000, 100_000])
def test_any_nesting_depth_is_one_problem_on_every_body_operation(kind, depth):
    client = create_app({"MAX_CONTENT_LENGTH": 1 << 20}).test_client()  # 100,000 objects: 500 KB
    for path in BODY_PATHS:
        response = client.post(path, data=nested(depth, kind), content_type="application/json")
        assert_nesting_answer(response, depth)


def test_too_deep_says_its_limit_in_chinese(client):
    response = client.post("/play", data=nested(300, "arrays"), content_type="application/json",
                           headers={"Accept-Language": "zh"})
    assert response.get_json()["detail"] == "请求体中数组和对象的嵌套超过 32 层；本 API 的请求都不会嵌套得更深"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(depth=st.integers(1, 2000), kind=st.sampled_from(["arrays", "objects"]), path=st.sampled_from(BODY_PATHS))
def test_nesting_at_any_depth_is_400_or_422_never_500(client, depth, kind, path):
    assert_nesting_answer(client.post(path, data=nested(depth, kind), content_type="application/json"), depth)
