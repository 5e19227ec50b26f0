"""Request ids and trace context: accepted, generated, echoed, in problem bodies and
in the access line, on the lean /legal-moves path and on Flask's."""
from __future__ import annotations

import io
import json
import logging
import re

import pytest

from gongzhu.api import PIPELINE_KEY, create_app, telemetry
from gongzhu.api import operations as handlers
from gongzhu.server.logs import ACCESS_LOGGER, JsonFormatter

from .deals import SEED1

GENERATED = re.compile(r"[0-9a-f]{32}")
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"
TRACEPARENT = f"00-{TRACE_ID}-{PARENT_ID}-01"


def access_lines(caplog) -> list[dict]:
    return [r.fields for r in caplog.records if r.name == ACCESS_LOGGER]


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


def test_the_access_line_of_the_hot_path(client, caplog):
    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    response = client.post("/legal-moves", json={"hands": SEED1}, buffered=True,
                           headers={"X-Request-ID": "hot-1", "traceparent": TRACEPARENT})
    assert response.status_code == 200
    [line] = access_lines(caplog)
    assert line["duration_ms"] >= 0
    del line["duration_ms"]
    assert line == {"method": "POST", "path": "/legal-moves", "operation": "legal_moves",
                    "status": 200, "bytes": len(response.data), "request_id": "hot-1",
                    "trace_id": TRACE_ID, "parent_id": PARENT_ID}


def test_the_access_line_of_a_problem(client, caplog):
    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    response = client.post("/play", json={"hands": SEED1, "move": ["SQ"]}, buffered=True,
                           headers={"X-Request-ID": "p-1"})
    assert response.status_code == 422
    [line] = access_lines(caplog)
    assert (line["operation"], line["status"], line["problem"], line["request_id"]) == \
        ("play", 422, "card_not_in_hand", "p-1")
    assert line["bytes"] == len(response.data)


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


@pytest.mark.parametrize("header, expected", [
    (TRACEPARENT, (TRACE_ID, PARENT_ID)),
    (f"01-{TRACE_ID}-{PARENT_ID}-01-extra", (TRACE_ID, PARENT_ID)),
    (f"00-{TRACE_ID}-{PARENT_ID}-01-extra", None),
    (f"ff-{TRACE_ID}-{PARENT_ID}-01", None),
    (f"00-{'0' * 32}-{PARENT_ID}-01", None),
    (f"00-{TRACE_ID}-{'0' * 16}-01", None),
    (f"00-{TRACE_ID.upper()}-{PARENT_ID}-01", None),
    ("garbage", None),
])
def test_traceparent(header, expected):
    assert telemetry.trace_parent({"HTTP_TRACEPARENT": header}) == expected


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
    from gongzhu.server.logs import REQUEST_ID

    client = app.test_client()
    response = client.get("/healthz", buffered=False)  # answer neither read nor closed
    assert response.status_code == 200
    assert REQUEST_ID.get() is None
    response.close()


def test_a_request_the_app_fails_to_answer_is_still_counted(app, caplog):
    from gongzhu.api.telemetry import Telemetry

    def broken(environ, start_response):
        raise RuntimeError("no answer")

    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    with pytest.raises(RuntimeError):
        Telemetry(broken, operation_of=app.extensions[PIPELINE_KEY].operation)(
            {"REQUEST_METHOD": "GET", "PATH_INFO": "/healthz",
                           "HTTP_X_REQUEST_ID": "lost-1"}, lambda *a: None)
    [line] = access_lines(caplog)
    assert (line["operation"], line["status"], line["request_id"]) == ("healthz", 500, "lost-1")
