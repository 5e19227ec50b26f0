"""The lean WSGI path for POST /legal-moves answers exactly what the Flask view
answers, and leaves every other request (errors included) to the Flask app."""
import json
import random

import pytest

from service.api import create_app
from service.api.hotpath import LegalMovesHotPath

SEED_STATES = 60


@pytest.fixture(scope="module")
def app():
    return create_app()


def states(client):
    """Deal states at every stage of random deals, one and two decks."""
    rng = random.Random(11)
    for n in range(SEED_STATES):
        rules = {"decks": 1 + n % 2}
        dealt = client.post("/deal", json={"rules": rules, "seed": n}).get_json()
        state = {"rules": rules, "hands": dealt["hands"], "plays": []}
        stop = rng.randrange(52 * rules["decks"] // (1 if rules["decks"] == 1 else 2))
        for _ in range(stop):
            moves = client.post("/legal-moves", json=state).get_json()["moves"]
            if not moves:
                break
            state["plays"].append(rng.choice(moves))
        yield state


def test_the_app_answers_legal_moves_through_the_hot_path(app):
    assert isinstance(app.wsgi_app.app, LegalMovesHotPath)  # inside StandardHeaders


def test_hot_path_and_flask_view_give_the_same_bytes(app):
    client = app.test_client()
    compared = 0
    for state in states(client):
        body = json.dumps(state).encode()
        hot = client.post("/legal-moves", data=body, content_type="application/json")
        # a Content-Type with parameters is not the hot path's exact match: the Flask view answers
        flask = client.post("/legal-moves", data=body, content_type="application/json; charset=utf-8")
        assert hot.status_code == flask.status_code == 200
        assert hot.data == flask.data
        assert hot.headers["Content-Type"] == flask.headers["Content-Type"] == "application/json"
        assert hot.headers["Content-Length"] == flask.headers["Content-Length"]
        compared += 1
    assert compared == SEED_STATES


@pytest.mark.parametrize("body, status, code", [
    (b'{"hands": [', 400, "malformed_json"),
    (b'{"hands": [], "extra": 1}', 422, "invalid_request"),
    (b'{"hands": [["SQ"]], "hands": []}', 400, "malformed_json"),
    (b'[]', 422, "invalid_type"),
])
def test_faults_fall_through_to_the_problem_answers(app, body, status, code):
    answer = app.test_client().post("/legal-moves", data=body, content_type="application/json")
    assert answer.status_code == status
    assert answer.mimetype == "application/problem+json"
    assert answer.get_json()["code"] == code
