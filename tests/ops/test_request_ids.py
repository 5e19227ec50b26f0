"""Request ids: accepted, generated, echoed, in problem bodies and in error lines, on the lean
/legal-moves path and on Flask's; what nginx's access line reads of a request (``X-Gongzhu-Log``)."""
from __future__ import annotations

import io
import json
import logging
import re

import pytest

from gongzhu.api import PIPELINE_KEY, create_app, telemetry
from gongzhu.api import operations as handlers
from gongzhu.server.logs import JsonFormatter

from .deals import SEED1

GENERATED = re.compile(r"[0-9a-f]{32}")


@pytest.mark.parametrize("path, body", [("/legal-moves", {"hands": SEED1}), ("/score", {"captured": [[], [], [], []]})])
def test_a_sent_id_is_echoed(client, path, body):
    response = client.post(path, json=body, headers={"X-Request-ID": "game-42/move 7"})
    assert response.status_code == 200
    assert response.headers["X-Request-ID"] == "game-42/move 7"


def test_an_id_is_generated_when_none_is_sent(client):
    first = client.get("/healthz").headers["X-Request-ID"]
    second = client.get("/healthz").headers["X-Request-ID"]
    assert GENERATED.fullmatch(first) and GENERATED.fullmatch(second)
    assert first != second


@pytest.mark.parametrize("sent", ["x" * 129, "tab\there", "", "caf\u00e9"])
def test_an_unacceptable_id_is_replaced(sent):
    environ = {"HTTP_X_REQUEST_ID": sent.encode("utf-8").decode("latin-1")}
    assert GENERATED.fullmatch(telemetry.request_id_of(environ))


def test_the_longest_acceptable_id_is_kept():
    sent = "~" + "a" * 126 + " "
    assert telemetry.request_id_of({"HTTP_X_REQUEST_ID": sent}) == sent


def test_a_problem_body_carries_the_id(client):
    response = client.post("/legal-moves", data=b'{"hands": [', content_type="application/json",
                           headers={"X-Request-ID": "r-1"})
    assert response.status_code == 400
    assert response.get_json()["request_id"] == "r-1"
    assert response.headers["X-Request-ID"] == "r-1"


def test_a_generated_id_is_the_same_in_header_and_problem(client):
    response = client.get("/no-such-path")
    assert response.status_code == 404
    assert response.get_json()["request_id"] == response.headers["X-Request-ID"]


def test_the_operation_for_the_access_line_of_the_hot_path(client):
    response = client.post("/legal-moves", json={"hands": SEED1}, buffered=True)
    assert (response.status_code, response.headers[telemetry.LOG_HEADER]) == (200, "legal_moves")


def test_the_operation_and_problem_for_the_access_line_of_a_problem(client):
    response = client.post("/play", json={"hands": SEED1, "move": ["SQ"]}, buffered=True)
    assert (response.status_code, response.headers[telemetry.LOG_HEADER]) == (422, "play card_not_in_hand")
    response = client.get("/no-such-path", buffered=True)
    assert (response.status_code, response.headers[telemetry.LOG_HEADER]) == (404, "none not_found")


def test_an_error_line_carries_the_request_id(monkeypatch):
    failing = handlers.Handler(handlers.HANDLERS["settle_ingots"].convert, lambda call: 1 / 0)
    monkeypatch.setitem(handlers.HANDLERS, "settle_ingots", failing)
    app = create_app()
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger(app.name)
    logger.addHandler(handler)
    try:
        response = app.test_client().post("/ingots", json={"scores": [0, 0, 0, 0]},
                                          headers={"X-Request-ID": "boom-1"}, buffered=True)
    finally:
        logger.removeHandler(handler)
    assert response.status_code == 500
    [line] = [json.loads(text) for text in out.getvalue().splitlines()]
    assert (line["level"], line["message"], line["request_id"]) == ("error", "unhandled error", "boom-1")
    assert "ZeroDivisionError" in line["exception"]


@pytest.mark.parametrize("method, path, operation", [
    ("POST", "/legal-moves", "legal_moves"),
    ("GET", "/ranks/-300000", "title_for"),
    ("GET", "/docs/swagger-ui.css", "docs_asset"),
    ("GET", "/metrics", "metrics"),
    ("GET", "/version", "version"),
    ("HEAD", "/healthz", "healthz"),
    ("GET", "/legal-moves", "none"),
    ("POST", "/ranks/1", "none"),
    ("GET", "/ranks/1/2", "none"),
    ("BREW", "/coffee", "none"),
])
def test_operation_of(app, method, path, operation):
    # the pipeline matches the contract's routes once and leaves the operation in the environ
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path}
    assert app.extensions[PIPELINE_KEY].operation(environ) == operation
    assert environ["gongzhu.operation"] == operation


def test_no_request_id_outlives_its_request(app):
    from gongzhu.settings import REQUEST_ID

    client = app.test_client()
    response = client.get("/healthz", buffered=False)  # answer neither read nor closed
    assert response.status_code == 200
    assert REQUEST_ID.get() is None
    response.close()


def test_a_request_the_app_fails_to_answer_is_still_counted(app):
    from gongzhu.api import metrics
    from gongzhu.api.telemetry import Telemetry

    def broken(environ, start_response):
        raise RuntimeError("no answer")

    metrics.flush()
    with pytest.raises(RuntimeError):
        Telemetry(broken, operation_of=app.extensions[PIPELINE_KEY].operation)(
            {"REQUEST_METHOD": "GET", "PATH_INFO": "/healthz", "HTTP_X_REQUEST_ID": "lost-1"}, lambda *a: None)
    assert [entry[:2] for entry in metrics._pending] == [("healthz", 500)]
