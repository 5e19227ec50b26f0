"""Hostile clients against a live server with 2 workers, started as ``make run`` does (nginx in
front of gunicorn), with a request timeout of 3 s (``GUNICORN_REQUEST_TIMEOUT``) so each drill
takes seconds.

Each drill holds its attack open while another client calls ``/healthz`` and
``/legal-moves`` on new connections: both must answer within 1 s. The attacker must
get a problem answer at once, or have its connection closed, unanswered, once it has been
silent for the timeout (nginx's client_header_timeout and client_body_timeout). The
figures under load come from ``bench/drills/faults.py``."""
from __future__ import annotations

import json
import os
import socket
import threading
import time
from pathlib import Path

import pytest

from tests.faults.test_faults import Gunicorn, _wait
from tests.faults.test_serving_drills import _mid_deal

pytestmark = pytest.mark.faults

DEADLINE_S = 3.0
PROMPT_S = 1.0
HOST = "127.0.0.1"
JSON_HEAD = b"Host: x\r\nContent-Type: application/json\r\n"


def _start(tmp_path_factory, workers: int, env: dict[str, str]) -> Gunicorn:
    return served(tmp_path_factory.mktemp("hostile") / "gunicorn.log", workers, env)


def served(log: Path, workers: int, env: dict[str, str]) -> Gunicorn:
    """A server as ``make run`` starts it, with ``env`` set for it alone, once it answers."""
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        server = Gunicorn(workers, log)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    _wait(server.ready, 30, "the server to be ready")
    return server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    started = _start(tmp_path_factory, 2, {"GUNICORN_REQUEST_TIMEOUT": str(DEADLINE_S)})
    yield started
    started.stop()


LEGAL_MOVES = json.dumps(_mid_deal()).encode()


def _exchange(port: int, data: bytes, timeout: float = 10) -> tuple[bytes, float]:
    """Send ``data`` on a new connection; (everything answered until close, seconds)."""
    t0 = time.monotonic()
    with socket.create_connection((HOST, port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except OSError:
            pass
    return out, time.monotonic() - t0


def others_answer(port: int, rounds: int = 3) -> None:
    """/healthz and /legal-moves from another client: 200 within 1 s, ``rounds`` times."""
    for _ in range(rounds):
        for request in (b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                        b"POST /legal-moves HTTP/1.1\r\n" + JSON_HEAD + b"Connection: close\r\n"
                        b"Content-Length: %d\r\n\r\n" % len(LEGAL_MOVES) + LEGAL_MOVES):
            answer, seconds = _exchange(port, request, timeout=5)
            assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]
            assert seconds < PROMPT_S, f"{request[:20]!r} took {seconds:.2f} s during the attack"
        time.sleep(0.2)


def answer_200(port: int, targets: tuple[bytes, ...], within_s: float) -> None:
    """GET each of ``targets`` on a new connection: 200 within ``within_s``."""
    for target in targets:
        answer, seconds = _exchange(port, b"GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % target)
        assert answer.startswith(b"HTTP/1.1 200 OK\r\n"), answer[:200]
        assert seconds < within_s, (target, seconds)


class Attacker(threading.Thread):
    """Sends ``first``, then ``trickle`` a byte every ``period`` seconds until an answer
    comes; records every answer until the server closes, and when (from the first byte)."""

    def __init__(self, port: int, first: bytes, trickle: bytes = b"", period: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.port, self.first, self.trickle, self.period = port, first, trickle, period
        self.answer = b""
        self.after: float | None = None
        self.ready = threading.Event()

    def run(self) -> None:
        with socket.create_connection((HOST, self.port), timeout=10) as s:
            t0 = time.monotonic()
            s.sendall(self.first)
            self.ready.set()
            s.settimeout(self.period)
            for byte in self.trickle:
                try:
                    self.answer = s.recv(4096)
                    break
                except TimeoutError:
                    try:
                        s.send(bytes([byte]))
                    except OSError:
                        break
            s.settimeout(DEADLINE_S + 5)
            try:
                while True:  # every answer is read until the server closes
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    self.answer += chunk
            except OSError:
                pass
            self.after = time.monotonic() - t0


def _attack(server, attackers: list[Attacker]) -> None:
    for a in attackers:
        a.start()
    for a in attackers:
        a.ready.wait(5)
    others_answer(server.port)
    for a in attackers:
        a.join(DEADLINE_S + 10)


def _closed_unanswered(attacker: Attacker, answered: bytes = b"") -> None:
    """Closed without an answer (after ``answered``, what came before the attack) within the timeout
    after the attacker's last byte (``TRICKLE`` bytes, one every half second)."""
    assert attacker.answer == answered, attacker.answer[:200]
    assert attacker.after is not None and DEADLINE_S - 0.5 < attacker.after < TRICKLE * 0.5 + DEADLINE_S + 2


# bytes each trickling attacker sends, one every half second, after its first
TRICKLE = 6


def test_slow_chunked_bodies_hold_no_thread_and_are_closed_when_silent(server):
    head = b"POST /ingots HTTP/1.1\r\n" + JSON_HEAD + b"Transfer-Encoding: chunked\r\n\r\n1000\r\n"
    attackers = [Attacker(server.port, head + b"{", b"x" * TRICKLE) for _ in range(8)]
    _attack(server, attackers)
    for a in attackers:
        _closed_unanswered(a)


def test_a_thirteen_digit_content_length_holds_no_thread(server):
    head = b"POST /score HTTP/1.1\r\n" + JSON_HEAD + b"Content-Length: 0000000004096\r\n\r\n"
    attackers = [Attacker(server.port, head + b"{", b"x" * TRICKLE) for _ in range(8)]
    _attack(server, attackers)
    for a in attackers:
        _closed_unanswered(a)


def test_expect_100_continue_is_answered_by_the_front_and_holds_no_thread(server):
    head = b"POST /score HTTP/1.1\r\n" + JSON_HEAD + b"Expect: 100-continue\r\nContent-Length: 100\r\n\r\n"
    attackers = [Attacker(server.port, head) for _ in range(8)]
    _attack(server, attackers)
    for a in attackers:
        _closed_unanswered(a, b"HTTP/1.1 100 Continue\r\n\r\n")


def test_an_oversized_expect_is_413_without_continue(server):
    with socket.create_connection((HOST, server.port), timeout=5) as s:
        t0 = time.monotonic()
        s.sendall(b"POST /score HTTP/1.1\r\n" + JSON_HEAD
                  + b"Expect: 100-continue\r\nContent-Length: 999999999\r\n\r\n")
        answer = s.recv(65536)
        seconds = time.monotonic() - t0
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:100]
    assert seconds < PROMPT_S


def test_a_pipelined_request_still_arriving_holds_no_thread(server):
    first = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    attackers = [Attacker(server.port, first + b"POST /score HTTP/1.1\r\nHost: x\r\n", b"X" * TRICKLE)
                 for _ in range(8)]
    _attack(server, attackers)
    for a in attackers:
        served, _, rest = a.answer.partition(b'{"status":"ok"}\n')
        assert served.startswith(b"HTTP/1.1 200 OK\r\n"), a.answer[:200]
        assert rest == b"", rest[:200]


def test_a_healthz_with_a_body_holds_no_thread_and_probes_stay_prompt(server):
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n"
    attackers = [Attacker(server.port, head, b"x" * TRICKLE) for _ in range(20)]
    _attack(server, attackers)
    for a in attackers:
        _closed_unanswered(a)


class SlowReader(threading.Thread):
    """Pipelines ``count`` requests for the UI's largest asset, then reads 512 bytes a second."""

    REQUEST = b"GET /docs/swagger-ui-bundle.js HTTP/1.1\r\nHost: x\r\n\r\n"

    def __init__(self, port: int, stop: threading.Event, count: int = 4) -> None:
        super().__init__(daemon=True)
        self.port, self.stop, self.count = port, stop, count
        self.read = 0

    def run(self) -> None:
        with socket.create_connection((HOST, self.port), timeout=10) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(self.REQUEST * self.count)
            while not self.stop.wait(1.0):
                try:
                    chunk = s.recv(512)
                except OSError:
                    return
                if not chunk:
                    return
                self.read += len(chunk)


def test_slow_readers_of_large_answers_hold_no_thread(server):
    stop = threading.Event()
    readers = [SlowReader(server.port, stop) for _ in range(16)]
    for r in readers:
        r.start()
    time.sleep(0.5)
    try:
        others_answer(server.port)
    finally:
        stop.set()
        for r in readers:
            r.join(5)
    assert all(0 < r.read < 20_000 for r in readers), [r.read for r in readers]


@pytest.mark.parametrize("request_bytes, status, code", [
    (b"GET /healthz HTTP/1.1\r\n\r\n", 400, "invalid_host"),
    (b"GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", 400, "bad_request"),
    (b"POST /score HTTP/1.1\r\n" + JSON_HEAD + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n", 400, "bad_request"),
    (b"POST /score HTTP/1.1\r\n" + JSON_HEAD + b"Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFF\r\n"
     + b"{" * (256 * 1024 + 1), 400, "bad_request"),
    (b"POST /score HTTP/1.1\r\n" + JSON_HEAD + b"Transfer-Encoding: gzip, chunked\r\n\r\n", 501,
     "unsupported_transfer_coding"),
])
def test_http_conformance_problems_come_at_once(server, request_bytes, status, code):
    answer, seconds = _exchange(server.port, request_bytes)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 %d " % status), head
    assert json.loads(body)["code"] == code
    assert seconds < PROMPT_S


def test_bare_line_feeds_are_read_as_line_ends_and_the_request_served(server):
    # nginx reads LF as CRLF and hands gunicorn a request of its own framing: nothing to smuggle past it
    for request in (b"GET /healthz HTTP/1.1\nHost: x\nConnection: close\n\n",
                    b"GET /healthz HTTP/1.1\r\nHost: x\nConnection: close\r\n\r\n"):
        answer, _ = _exchange(server.port, request)
        assert answer.startswith(b"HTTP/1.1 200 OK\r\n") and answer.count(b"HTTP/1.1 ") == 1, answer[:100]


def test_an_http_1_2_request_is_answered_in_http_1_1(server):
    answer, _ = _exchange(server.port, b"GET /healthz HTTP/1.2\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200 OK\r\n"), answer[:100]


def test_refused_requests_leave_no_traceback_and_no_error_line(server):
    _exchange(server.port, b"POST /score HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
    _exchange(server.port, b"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n")
    time.sleep(0.3)
    log = server.log.read_text()
    assert "Traceback" not in log
    assert '"level":"error"' not in log and '"level":"critical"' not in log
