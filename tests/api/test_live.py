"""The HTTP layer through the real server (gunicorn, gongzhu.server.gunicorn_conf):
the same problems as in-process, including for bodies gunicorn streams."""
from __future__ import annotations

import json

import pytest
import requests

from .deals import SEED1

pytestmark = pytest.mark.live

PROBLEM = "application/problem+json"


def problem(response, status, code):
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"] == PROBLEM
    body = response.json()
    assert (body["status"], body["code"]) == (status, code)
    return body


def test_legal_moves_live(live_server):
    response = requests.post(f"{live_server}/legal-moves", json={"hands": SEED1}, timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/json"
    assert response.json()["moves"] == [["C2"]]


def test_too_large_with_content_length(live_server):
    body = json.dumps({"hands": SEED1, "pad": "x" * (300 * 1024)})
    response = requests.post(f"{live_server}/legal-moves", data=body, timeout=10,
                             headers={"Content-Type": "application/json"})
    problem(response, 413, "payload_too_large")


def test_too_large_when_chunked(live_server):
    def chunks():
        yield b'{"pad": "'
        for _ in range(300):
            yield b"x" * 1024
        yield b'"}'

    response = requests.post(f"{live_server}/ingots", data=chunks(), timeout=10,
                             headers={"Content-Type": "application/json"})
    problem(response, 413, "payload_too_large")


def test_chunked_body_under_the_limit(live_server):
    def chunks():
        yield b'{"scores": '
        yield b"[100, 0, -200, -200]}"

    response = requests.post(f"{live_server}/ingots", data=chunks(), timeout=10,
                             headers={"Content-Type": "application/json"})
    assert response.status_code == 200
    assert response.json()["net"] == [700, -100, -300, -300]


@pytest.mark.parametrize("method, path, kwargs, status, code", [
    ("POST", "/play", {"data": "{", "headers": {"Content-Type": "application/json"}}, 400, "malformed_json"),
    ("POST", "/play", {"data": "{}", "headers": {"Content-Type": "text/plain"}}, 415, "unsupported_media_type"),
    ("GET", "/nowhere", {}, 404, "not_found"),
    ("GET", "/play", {}, 405, "method_not_allowed"),
    ("OPTIONS", "/legal-moves", {}, 405, "method_not_allowed"),
    ("POST", "/play", {"json": {"hands": SEED1, "move": ["C5"]}}, 422, "must_lead_opening_card"),
])
def test_problems_live(live_server, method, path, kwargs, status, code):
    response = requests.request(method, f"{live_server}{path}", timeout=10, **kwargs)
    problem(response, status, code)


def test_chunked_body_of_exactly_the_limit_is_read(live_server):
    text = json.dumps({"scores": [100, 0, -200, -200]}).encode()
    text = text[:-1] + b" " * (256 * 1024 - len(text)) + b"}"
    assert len(text) == 256 * 1024

    def chunks():
        for i in range(0, len(text), 1000):
            yield text[i:i + 1000]

    response = requests.post(f"{live_server}/ingots", data=chunks(), timeout=10,
                             headers={"Content-Type": "application/json"})
    assert response.status_code == 200
