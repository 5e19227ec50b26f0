"""The serving drills on a real gunicorn with 2 workers, started exactly as ``make run``
does: keep-alive, idle and slow-header connections, a /suggest flood at the largest
budget, framing and hostile bodies. The pass criteria are the service's promises
(answered, and within the generous bounds below), not timings to tune; the figures,
with baselines, come from ``bench/drills/faults.py``."""
from __future__ import annotations

import http.client
import importlib.util
import json
import socket
import threading
import time
from pathlib import Path

import pytest

from gongzhu import rules as engine
from tests.faults.test_faults import gunicorn  # noqa: F401 — the fixture

pytestmark = pytest.mark.faults

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("_drills", ROOT / "bench" / "drills" / "_drills.py")
drills = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(drills)

LARGEST_BUDGET_MS = 2000


def _mid_deal(plays: int = 26) -> dict:
    """A one-deck state mid-deal with a lead to play: the bot searches."""
    rules = engine.Rules()
    hands = engine.deal_hands(rules, 7)
    state = engine.replay(rules, hands=hands, first_deal=True, leader=engine.deal.first_leader(rules, hands))
    made = []
    for i in range(plays):
        moves = engine.legal_moves(state)
        made.append(moves[i * 7 % len(moves)])
        state = engine.apply_move(state, made[-1])
    return {"hands": [engine.format_cards(h) for h in hands],
            "plays": [engine.format_cards(m) for m in made]}


def _raw(port: int, data: bytes, timeout: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


def test_two_requests_on_one_connection_are_both_served_and_kept_alive(gunicorn):  # noqa: F811
    server = gunicorn(2)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", "/healthz")
    first = conn.getresponse()
    assert (first.status, first.read()) == (200, b'{"status":"ok"}\n')
    sock = conn.sock
    conn.request("POST", "/legal-moves", body=json.dumps(_mid_deal()),
                 headers={"Content-Type": "application/json"})
    second = conn.getresponse()
    assert second.status == 200 and json.loads(second.read())["moves"]
    assert conn.sock is sock, "the second request must reuse the connection"
    assert first.getheader("Connection") == second.getheader("Connection") == "keep-alive"
    conn.close()


def test_with_64_idle_sockets_20_of_20_probes_answer_under_500_ms(gunicorn):  # noqa: F811
    server = gunicorn(2)
    idle = drills.idle_sockets(server.port, 64)
    try:
        prober = drills.Prober(server.port, interval=0.05, timeout=5, count=20)
        prober.run()
    finally:
        for s in idle:
            s.close()
    probes = drills.summary(prober.latencies)
    assert probes["answered"] == 20, probes
    assert probes["max_ms"] < 500, probes


def test_with_16_slow_header_clients_every_probe_answers_under_1_s(gunicorn):  # noqa: F811
    server = gunicorn(2)
    stop = threading.Event()
    slow = [drills.SlowHeaders(server.port, stop) for _ in range(16)]
    for client in slow:
        client.start()
    try:
        time.sleep(1.0)
        prober = drills.Prober(server.port, interval=0.1, timeout=5, count=30)
        prober.run()
    finally:
        stop.set()
        for client in slow:
            client.join(timeout=5)
    probes = drills.summary(prober.latencies)
    assert probes["answered"] == 30, probes
    assert probes["max_ms"] < 1000, probes


def test_a_slow_header_client_is_closed_unanswered_at_the_request_timeout(gunicorn, monkeypatch):  # noqa: F811
    monkeypatch.setenv("GUNICORN_REQUEST_TIMEOUT", "2")
    server = gunicorn(2)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        t0 = time.monotonic()
        try:
            answer = s.recv(4096)
        except ConnectionResetError:
            answer = b""
        waited = time.monotonic() - t0
    assert answer == b""
    assert 1.5 < waited < 5.0


def test_a_suggest_flood_at_the_largest_budget_leaves_probes_and_answers_prompt(gunicorn):  # noqa: F811
    server = gunicorn(2)
    body = json.dumps({**_mid_deal(), "budget_ms": LARGEST_BUDGET_MS}).encode()
    stop = threading.Event()
    flood = [drills.BotFlood(server.port, body, stop) for _ in range(8)]
    prober = drills.Prober(server.port, interval=0.25, timeout=5)
    for client in flood:
        client.start()
    prober.start()
    time.sleep(12)
    stop.set()
    prober.stop.set()
    for client in flood:
        client.join(timeout=15)
    prober.join(timeout=10)
    probes = drills.summary(prober.latencies)
    assert probes["answered"] == probes["probes"] >= 30, probes
    assert probes["max_ms"] < 1000, probes
    answers = [a for client in flood for a in client.answers]
    statuses = {status for status, _, _ in answers}
    assert statuses <= {200, 503} and 200 in statuses, statuses
    assert all(retry and int(retry) >= 1 for status, _, retry in answers if status == 503)
    assert max(seconds for _, seconds, _ in answers) < 4 * LARGEST_BUDGET_MS / 1000


def test_a_bad_chunk_size_is_a_400_problem_without_a_traceback(gunicorn):  # noqa: F811
    server = gunicorn(2)
    answer = _raw(server.port, b"POST /legal-moves HTTP/1.1\r\nHost: x\r\n"
                  b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                  b"-a\r\n{}\r\n0\r\n\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ")
    assert json.loads(body)["code"] == "bad_request"
    time.sleep(0.2)
    assert "Traceback" not in server.log.read_text()


@pytest.mark.parametrize("request_bytes, status, code", [
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: %s\r\n" % (i, b"a" * 7000) for i in range(40))
     + b"\r\n", 431, "header_fields_too_large"),
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
     431, "header_fields_too_large"),
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
    (b"POST /score HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501,
     "unsupported_transfer_coding"),
    (b"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n", 400, "bad_request"),
])
def test_the_servers_own_answers_are_problems(gunicorn, request_bytes, status, code):  # noqa: F811
    server = gunicorn(2)
    head, _, body = _raw(server.port, request_bytes).partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0].startswith(b"HTTP/1.1 %d " % status), head
    assert b"Content-Type: application/problem+json" in head
    problem = json.loads(body)
    assert (problem["status"], problem["code"]) == (status, code)


def test_twenty_thousand_unknown_keys_get_at_most_64_kib(gunicorn):  # noqa: F811
    server = gunicorn(2)
    hostile = json.dumps({f"k{i}": 0 for i in range(20_000)}).encode()  # 248,890 bytes
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("POST", "/legal-moves", body=hostile, headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    answer = response.read()
    assert response.status == 422 and len(answer) <= 64 * 1024
    conn.close()


def test_a_body_cut_short_by_the_client_is_never_served(gunicorn):  # noqa: F811
    server = gunicorn(2)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100\r\n\r\n{\"captured\":")
        s.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := s.recv(4096):
            answer += chunk
    assert answer == b""
    time.sleep(0.3)
    # nginx logs the request it gave up on; the application never saw it (no operation, no request id)
    lines = [json.loads(line) for line in server.log.read_text().splitlines() if '"path":"/score"' in line]
    assert [(line["operation"], line["request_id"], line["bytes"]) for line in lines] == [("none", "", 0)]


def test_a_client_still_sending_its_refused_body_reads_the_413(gunicorn):  # noqa: F811
    """RFC 9112 §9.6: nginx refuses an oversized body from its head, then closes in stages
    and drops what still arrives. Closed at once, the bytes it had not read would reset the
    connection and the client (curl sending its body) would never see the answer."""
    server = gunicorn(2)
    body = b" " * (300 * 1024)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n" % len(body) + body)
        time.sleep(0.3)  # the refusal has come, and unread body bytes were at the server
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, problem = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert json.loads(problem)["code"] == "payload_too_large"
