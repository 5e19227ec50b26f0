"""CORS is off by default (OPTIONS stays the contract's 405) and on for listed origins."""
from __future__ import annotations

import pytest

from gongzhu.api import cors, create_app

from .conftest import ClosingClient
from .deals import SEED1

GAME = "https://game.example.com"
PREFLIGHT = {"Origin": GAME, "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "content-type"}


def client_for(origins):
    app = create_app({"CORS_ORIGINS": origins})
    app.test_client_class = ClosingClient
    return app.test_client()


def test_off_by_default(client, monkeypatch):
    monkeypatch.delenv(cors.ORIGINS_ENV, raising=False)
    preflight = client.options("/legal-moves", headers=PREFLIGHT)
    assert preflight.status_code == 405
    assert preflight.get_json()["code"] == "method_not_allowed"
    answer = client.post("/legal-moves", json={"hands": SEED1}, headers={"Origin": GAME})
    assert answer.status_code == 200
    assert "Access-Control-Allow-Origin" not in answer.headers


def test_on_from_the_environment(monkeypatch):
    monkeypatch.setenv(cors.ORIGINS_ENV, f" {GAME}/ , https://admin.example.com")
    assert cors.origins_from_env() == frozenset({GAME, "https://admin.example.com"})
    app = create_app()
    app.test_client_class = ClosingClient
    assert app.test_client().options("/legal-moves", headers=PREFLIGHT).status_code == 204


def test_preflight_for_a_listed_origin():
    response = client_for(frozenset({GAME})).options("/ranks/-300000", headers=PREFLIGHT)
    assert response.status_code == 204
    assert response.data == b""
    assert response.headers["Access-Control-Allow-Origin"] == GAME
    assert response.headers["Access-Control-Allow-Methods"] == "GET"
    assert response.headers["Access-Control-Allow-Headers"] == "Content-Type, X-Request-ID, traceparent"
    assert response.headers["Access-Control-Max-Age"] == "600"
    assert response.headers["Vary"] == "Origin"
    assert response.headers["X-Request-ID"]


def test_answers_to_a_listed_origin_carry_the_headers():
    response = client_for(frozenset({GAME})).post("/legal-moves", json={"hands": SEED1},
                                                  headers={"Origin": GAME})
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == GAME
    assert response.headers["Access-Control-Expose-Headers"] == "X-Request-ID"


def test_any_origin():
    response = client_for(frozenset({"*"})).options("/play", headers=PREFLIGHT)
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("origin, path, status", [
    ("https://evil.example.com", "/legal-moves", 405),  # not listed: the contract's 405
    (GAME, "/no-such-path", 404),                        # not an operation: the 404 problem
])
def test_other_preflights_fall_through_to_problems(origin, path, status):
    response = client_for(frozenset({GAME})).options(path, headers={**PREFLIGHT, "Origin": origin})
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    assert "Access-Control-Allow-Methods" not in response.headers


def test_plain_options_without_a_preflight_header_is_still_405():
    response = client_for(frozenset({GAME})).options("/legal-moves", headers={"Origin": GAME})
    assert response.status_code == 405
