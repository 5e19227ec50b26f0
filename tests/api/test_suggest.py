"""POST /suggest and /suggest-exposures (docs/bot.md) through the HTTP layer: the
answer is a legal play, blind to the other seats' hidden cards, and errors are
problems with codes and pointers."""
import random

import pytest

from gongzhu.api import create_app
from gongzhu.rules import format_cards, is_legal_move, parse_card, running
from tests.bot.states import random_position, reshuffled_deal

# one Monte Carlo round (the first always completes), so no deadline can change the answer
ONE_ROUND_MS = 1
STATES = 300


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def body(p, hands=None, leader=None, **extra) -> dict:
    return {"rules": {"decks": p.rules.decks, "partnership": p.rules.partnership,
                      "opening_card": p.rules.opening_card,
                      "must_lead_opening_card": p.rules.must_lead_opening_card,
                      "first_trick_ban": p.rules.first_trick_ban,
                      "pig_flips_with_all_hearts": p.rules.pig_flips_with_all_hearts},
            "first_deal": p.first_deal, "leader": running.leader(p.state) if leader is None else leader,
            "hands": [format_cards(h) for h in (hands or p.hands)],
            "exposed": [format_cards(e) for e in p.exposed],
            "plays": [format_cards(m) for m in p.plays], **extra}


def test_suggestions_are_legal_and_blind_to_hidden_cards(client):
    checked = blind = 0
    for seed in range(STATES):
        p = random_position(seed, decks=1 + seed % 2)
        leader = p.seats[0] if p.seats else running.leader(p.state)
        answer = client.post("/suggest", json=body(p, leader=leader, budget_ms=ONE_ROUND_MS, seed=seed))
        assert answer.status_code == 200, answer.get_json()
        data = answer.get_json()
        assert data["seat"] == p.state.seat
        assert is_legal_move(p.state, [parse_card(c) for c in data["move"]])
        checked += 1
        other = reshuffled_deal(p, random.Random(seed))
        if other is None:
            continue
        hands, leader, _ = other
        again = client.post("/suggest", json=body(p, hands=hands, leader=leader,
                                                  budget_ms=ONE_ROUND_MS, seed=seed))
        assert again.get_json() == data
        blind += 1
    assert checked == STATES and blind >= STATES // 2


def test_finished_deal_is_a_problem(client):
    p = random_position(3)
    state = body(p, leader=p.seats[0] if p.seats else running.leader(p.state))
    while True:
        moves = client.post("/legal-moves", json=state).get_json()
        if moves["finished"]:
            break
        state["plays"].append(moves["moves"][0])
    answer = client.post("/suggest", json=state)
    assert answer.status_code == 422
    assert answer.mimetype == "application/problem+json"
    problem = answer.get_json()
    assert problem["code"] == "deal_finished"
    assert problem["errors"] == [{"pointer": "/plays", "code": "deal_finished",
                                  "detail": "the deal is finished: no seat is to act"}]


def test_exposure_advice_and_its_errors(client):
    hand = ["DJ", "DQ", "DK", "D2", "D3", "S2", "S3", "S4", "S5", "SQ", "C2", "C3", "H2"]
    answer = client.post("/suggest-exposures", json={"hand": hand})
    assert answer.status_code == 200
    assert answer.get_json()["expose"] == ["SQ", "DJ"]
    assert answer.get_json()["reason"] == "sheep_guarded+pig_protected"
    duplicate = client.post("/suggest-exposures", json={"hand": hand[:12] + ["DJ"]})
    assert duplicate.status_code == 422
    assert duplicate.get_json()["errors"] == [
        {"pointer": "/hand/12", "code": "duplicate_card", "detail": "DJ is dealt more than 1 time(s)"}]
    bad = client.post("/suggest-exposures", json={"hand": hand[:12] + ["DX"]})
    assert bad.status_code == 422
    assert bad.get_json()["code"] == "schema_violation"
    assert bad.get_json()["errors"][0]["pointer"] == "/hand/12"
