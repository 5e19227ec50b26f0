"""The access lines, nginx's (server/nginx.conf): one a request on stdout, nginx's own answers included, in
JSON with the fields docs/operations.md lists, the operation and problem code as the application named them
(``X-Gongzhu-Log``, which no client sees); text on request; none when switched off."""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import time

import pytest
import requests

from gongzhu.server import front
from tests.servers import SERVE, free_port, start, stop, wait_for

from .deals import SEED1

pytestmark = pytest.mark.live

TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
# nginx writes its buffer at least this often (nginx.conf's access_log flush), with a margin
FLUSHED_S = 0.5


def serve(tmp_path_factory, **env) -> tuple[str, object, object]:
    tmp = tmp_path_factory.mktemp("access")
    port, log = free_port(), tmp / "server.log"
    base = f"http://127.0.0.1:{port}"
    proc = start(SERVE, log, f"{base}/readyz", {"PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "1",
                                                **env})
    return base, log, proc


def access_lines(log) -> list[dict]:
    time.sleep(FLUSHED_S)
    lines = [json.loads(text) for text in log.read_text().splitlines() if text.strip()]
    return [line for line in lines if line["logger"] == "gongzhu.access" and line["path"] != "/readyz"]


@pytest.fixture(scope="module")
def sent(tmp_path_factory):
    base, log, proc = serve(tmp_path_factory, GONGZHU_LOG_FORMAT="json")
    try:
        answers = [
            requests.post(f"{base}/legal-moves?x=1", json={"hands": SEED1}, timeout=10,
                          headers={"X-Request-ID": 'game "42"', "traceparent": TRACEPARENT}),
            requests.post(f"{base}/play", json={"hands": SEED1, "move": ["SQ"]}, timeout=10),
            requests.get(f"{base}/healthz", headers={"Host": "a b"}, timeout=10),
            requests.post(f"{base}/batch", json={"requests": [
                {"id": "a", "method": "POST", "url": "/legal-moves", "body": {"hands": SEED1}},
                {"id": "b", "method": "POST", "url": "/play", "body": {"hands": SEED1, "move": ["SQ"]}},
                {"id": "c", "method": "GET", "url": "/ranks"}]}, timeout=10),
            requests.post(f"{base}/batch", json={"requests": []}, timeout=10),
        ]
        yield answers, access_lines(log)
    finally:
        stop(proc)


def test_an_answer_carries_no_log_header(sent):
    answers, _ = sent
    assert all("X-Gongzhu-Log" not in answer.headers for answer in answers)


def test_the_access_line_of_an_operation(sent):
    answers, lines = sent
    line = lines[0]
    assert TIME.fullmatch(line.pop("time")) and line.pop("duration_ms") >= 0
    assert line == {"level": "info", "logger": "gongzhu.access", "message": "request", "method": "POST",
                    "path": "/legal-moves", "operation": "legal_moves", "status": 200,
                    "bytes": len(answers[0].content), "request_id": 'game "42"', "problem": "",
                    "traceparent": TRACEPARENT, "items": None, "refused": None}


def test_the_access_lines_of_a_problem_and_of_a_refusal(sent):
    answers, lines = sent
    found = [(line["method"], line["path"], line["operation"], line["status"], line["problem"], line["request_id"],
              line["bytes"]) for line in lines[1:3]]
    assert found == [
        ("POST", "/play", "play", 422, "card_not_in_hand", answers[1].headers["X-Request-ID"], len(answers[1].content)),
        ("GET", "/healthz", "none", 400, "invalid_host", answers[2].headers["X-Request-ID"], len(answers[2].content)),
    ]


def test_the_access_line_of_a_batch_counts_its_calls_and_refusals(sent):
    answers, lines = sent
    found = [(line["path"], line["operation"], line["status"], line["problem"], line["items"], line["refused"],
              line["bytes"]) for line in lines[3:]]
    assert found == [("/batch", "batch", 200, "", 3, 2, len(answers[3].content)),
                     ("/batch", "batch", 422, "schema_violation", None, None, len(answers[4].content))]


def test_text_access_lines(tmp_path_factory):
    base, log, proc = serve(tmp_path_factory, GONGZHU_LOG_FORMAT="text")
    try:
        answer = requests.post(f"{base}/legal-moves", json={"hands": SEED1}, timeout=10)
        time.sleep(FLUSHED_S)
    finally:
        stop(proc)
    [line] = [text for text in log.read_text().splitlines() if "POST /legal-moves" in text]
    size, request_id = len(answer.content), answer.headers["X-Request-ID"]
    assert re.fullmatch(rf"\S+Z INFO gongzhu\.access: POST /legal-moves 200 \d+ms {size}B op=legal_moves problem= "
                        rf"request_id={request_id} items=null refused=null", line)


@pytest.mark.parametrize("env, expected", [
    ({}, "/dev/stdout json buffer=32k flush=50ms"),
    ({"GONGZHU_LOG_FORMAT": "text"}, "/dev/stdout text buffer=32k flush=50ms"),
    ({"GONGZHU_ACCESS_LOG": "off"}, "off"),
])
def test_the_access_log_setting(monkeypatch, env, expected):
    for name in ("GONGZHU_LOG_FORMAT", "GONGZHU_ACCESS_LOG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert front.access_log() == expected


def test_a_socket_on_stdout_gets_the_access_lines(tmp_path):
    """As under systemd's journal: nginx cannot open a socket as /dev/stdout, so serve hands it a pipe and
    copies its lines to its own stdout."""
    port, ours, theirs = free_port(), *socket.socketpair()
    env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "1"}
    proc = subprocess.Popen(SERVE, stdout=theirs, stderr=subprocess.STDOUT, env=env)
    theirs.close()
    try:
        wait_for(f"http://127.0.0.1:{port}/readyz", proc, tmp_path / "unused.log")
        requests.get(f"http://127.0.0.1:{port}/ranks", timeout=10)
    finally:
        stop(proc)
    ours.settimeout(10)
    received = b""
    while chunk := ours.recv(65536):
        received += chunk
    ours.close()
    lines = [json.loads(text) for text in received.decode().splitlines() if text.startswith("{")]
    assert [(line["path"], line["status"]) for line in lines if line["logger"] == "gongzhu.access"
            and line["path"] == "/ranks"] == [("/ranks", 200)]


def _raw(port: int, head: bytes) -> int:
    """The status of the answer to a request sent as ``head`` (Connection: close) on a socket of its own."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return int(received.split(b" ", 2)[1])


def _get(path: bytes, *headers: bytes, method: bytes = b"GET") -> bytes:
    return b"\r\n".join([method + b" " + path + b" HTTP/1.1", b"Host: x", *headers, b"Connection: close", b"", b""])


# what docs/operations.md, "Logs", promises of each value a client sent: the method and the path cut after 32 and
# 512 bytes ("..." marks the cut), a traceparent as sent only in the W3C format, a request id as the application
# kept it (1–128 printable characters, else its own), and no line of the log longer than 4 KiB
CUT_METHOD, CUT_PATH, LINE_BYTES = 32, 512, 4096
QUOTES = b'"' * 128


def test_every_value_a_client_sent_is_logged_bounded(tmp_path_factory):
    base, log, proc = serve(tmp_path_factory, GONGZHU_LOG_FORMAT="json")
    port = int(base.rsplit(":", 1)[1])
    sent = [
        (_get(b"/healthz", b"traceparent: " + TRACEPARENT.encode()), 200),
        (_get(b"/healthz", b"traceparent: " + TRACEPARENT.upper().encode()), 200),
        (_get(b"/healthz", b"traceparent: " + TRACEPARENT.encode() + b"-00"), 200),
        (_get(b"/healthz", b"traceparent: " + b"\x01" * 8000, b"X-Request-ID: " + QUOTES), 400),
        (_get(b"/healthz", b"X-Request-ID: " + QUOTES), 200),
        (_get(b"/healthz", b"X-Request-ID: " + QUOTES + b'"'), 200),
        (_get(b"/healthz", method=b"A" * 4000), 400),
        (_get(b"/" + b'"' * 6000), 404),
        (_get(b"/" + b"\xff" * 6000), 400),
    ]
    try:
        statuses = [_raw(port, head) for head, _ in sent]
        time.sleep(FLUSHED_S)
    finally:
        stop(proc)
    assert statuses == [status for _, status in sent]
    text = log.read_bytes().splitlines()
    assert max(map(len, text)) <= LINE_BYTES
    lines = [json.loads(line) for line in text]
    access = [line for line in lines if line["logger"] == "gongzhu.access" and line["path"] != "/readyz"]
    assert [line["traceparent"] for line in access] == [TRACEPARENT, *["invalid"] * 3, *[""] * 5]
    assert [line["request_id"] for line in access[3:6]] == ["", '"' * 128, access[5]["request_id"]]
    assert re.fullmatch("[0-9a-f]{32}", access[5]["request_id"])
    assert access[6]["method"] == "A" * CUT_METHOD + "..."
    assert [line["path"] for line in access[7:]] == ["/" + '"' * (CUT_PATH - 1) + "...",
                                                     "/" + "\ufffd" * (CUT_PATH - 1) + "..."]
    # gunicorn's refusals of what nginx passed quote the request, cut (logs.QUOTED_CHARS)
    refusals = [line["message"] for line in lines if line["message"].startswith("Invalid request")]
    assert refusals and max(map(len, refusals)) <= len("Invalid request: ") + 256 + 3
