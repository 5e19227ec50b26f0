"""POST /claim through the HTTP layer: the verdict, the refutation as plays the API
accepts, and the score of a claim of every trick as /score gives it."""
from __future__ import annotations

import pytest

from .problems import assert_problem


def late_state(client, seed: int, tricks: int) -> dict:
    hands = client.post("/deal", json={"seed": seed}).get_json()["hands"]
    state = {"hands": hands, "plays": []}
    while True:
        answer = client.post("/legal-moves", json=state).get_json()
        if answer["trick_number"] >= tricks and not answer["trick"]:
            return state
        state["plays"].append(answer["moves"][0])


@pytest.mark.parametrize("seed", [14, 15, 16])
def test_claims_answer_and_refutations_replay_through_play(client, seed):
    state = late_state(client, seed, 10)
    for seat in range(4):
        for kind in ("all_tricks", "no_tricks"):
            verdict = client.post("/claim", json={**state, "claim": {"seat": seat, "kind": kind}}).get_json()
            assert verdict["claim"] == {"seat": seat, "kind": kind} and verdict["tricks_left"] == 3
            assert verdict["holds"] in (True, False) and verdict["reason"] is None
            if verdict["holds"]:
                assert verdict["refutation"] is None
                continue
            plays = list(state["plays"])
            for move in verdict["refutation"]:
                played = client.post("/play", json={"hands": state["hands"], "plays": plays, "move": move})
                assert played.status_code == 200
                plays.append(move)
            trick = played.get_json()["trick"]
            assert (trick["winner"] == seat) != (kind == "all_tricks")


def test_a_claim_of_every_trick_that_holds_is_scored_with_every_card_to_the_claimant(client):
    state = late_state(client, 14, 10)
    verdict = client.post("/claim", json={**state, "claim": {"seat": 3, "kind": "all_tricks"}}).get_json()
    assert verdict["holds"] is True
    # what each seat took in the ten tricks played, from /play's completed tricks
    captured = [[], [], [], []]
    for i, move in enumerate(state["plays"]):
        played = client.post("/play", json={"hands": state["hands"], "plays": state["plays"][:i],
                                            "move": move}).get_json()
        if played["trick"]:
            captured[played["trick"]["winner"]] += [c for play in played["trick"]["plays"] for c in play]
    gone = {c for seat in captured for c in seat}
    captured[3] += [c for hand in state["hands"] for c in hand if c not in gone]
    expected = client.post("/score", json={"captured": captured}).get_json()
    assert verdict["score"] == expected


def test_claim_problems(client):
    state = late_state(client, 14, 10)
    bad_seat = client.post("/claim", json={**state, "claim": {"seat": 4, "kind": "all_tricks"}})
    assert_problem(bad_seat, 422, "schema_violation", [("/claim/seat", "schema_violation")])
    missing = client.post("/claim", json=state)
    assert_problem(missing, 422, "schema_violation", [("/claim", "schema_violation")])


def test_a_claim_is_503_busy_when_every_bot_slot_is_taken(client):
    from gongzhu.api import slots

    state = late_state(client, 14, 10)
    with slots.BOT.slot(1500):
        response = client.post("/claim", json={**state, "claim": {"seat": 3, "kind": "all_tricks"}})
    assert_problem(response, 503, "busy")
    assert response.headers["Retry-After"] == "2"
