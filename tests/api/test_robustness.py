"""No body a client can send gets a 500 (SPEC.md §7): every operation, fed
bodies that are well-shaped, nearly well-shaped or anything at all, answers
200 or a 422 problem. schemathesis does this through the contract; these
bodies carry real cards, so they reach far deeper into the engine."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.api import schemas

from .test_schemas import bodies

OPERATIONS = {
    "/legal-moves": schemas.DEAL_STATE, "/play": schemas.PLAY, "/trick": schemas.TRICK,
    "/score": schemas.SCORE, "/ingots": schemas.INGOTS, "/exposures": schemas.EXPOSURES,
    "/deal": schemas.DEAL,
}


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
