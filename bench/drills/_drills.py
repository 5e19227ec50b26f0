"""Hostile and probing clients for the serving drills (bench/drills/faults.py, tests/faults).

Standard library only, raw sockets on 127.0.0.1, every wait bounded:

- ``Prober``: a kubelet-like /healthz probe every ``interval`` seconds, each on a new
  connection with ``Connection: close``; records each probe's latency (None: no 200).
- ``idle_sockets``: connections that are opened and send nothing.
- ``SlowHeaders``: a client sending a request head a byte a second, reconnecting when
  the server gives up on it; counts the server's answers.
- ``BotFlood``: clients looping POST /suggest on kept-alive connections; records
  status, latency and Retry-After of every answer.
- ``LegalMoves``: a client looping a valid POST /legal-moves on one kept-alive
  connection; counts valid answers (a fallback where wrk is not used).
"""
from __future__ import annotations

import http.client
import json
import socket
import statistics
import threading
import time

HOST = "127.0.0.1"
PROBE = b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def probe_once(port: int, timeout: float, path: bytes = b"/healthz") -> float | None:
    """Seconds until a whole 200 answer to GET ``path`` on a new connection, or None."""
    t0 = time.monotonic()
    try:
        with socket.create_connection((HOST, port), timeout=timeout) as s:
            s.sendall(PROBE % path)
            data = b""
            while chunk := s.recv(4096):
                data += chunk
                if time.monotonic() - t0 > timeout:
                    return None
    except OSError:
        return None
    return time.monotonic() - t0 if data.startswith(b"HTTP/1.1 200") else None


def summary(latencies: list[float | None]) -> dict:
    """Count, answered, and latency percentiles in ms of the answered."""
    ok = sorted(x for x in latencies if x is not None)
    pick = (lambda q: round(ok[min(len(ok) - 1, int(q * len(ok)))] * 1000, 1)) if ok else (lambda q: None)
    return {"probes": len(latencies), "answered": len(ok), "p50_ms": pick(0.5), "p99_ms": pick(0.99),
            "max_ms": round(ok[-1] * 1000, 1) if ok else None,
            "mean_ms": round(statistics.fmean(ok) * 1000, 1) if ok else None}


class Prober(threading.Thread):
    def __init__(self, port: int, interval: float = 0.1, timeout: float = 5.0, count: int = 0,
                 path: bytes = b"/healthz"):
        super().__init__(daemon=True)
        self.port, self.interval, self.timeout, self.count = port, interval, timeout, count
        self.path = path
        self.stop = threading.Event()
        self.latencies: list[float | None] = []

    def run(self) -> None:
        while not self.stop.is_set() and (not self.count or len(self.latencies) < self.count):
            self.latencies.append(probe_once(self.port, self.timeout, self.path))
            self.stop.wait(self.interval)


def idle_sockets(port: int, n: int) -> list[socket.socket]:
    return [socket.create_connection((HOST, port), timeout=5) for _ in range(n)]


class Attacker(threading.Thread):
    """A client that connects again and again until ``stop`` and does ``attack`` on each
    connection; ``answers`` counts what came back (``refused`` when it could not connect,
    the name of a socket error when one broke the connection)."""

    def __init__(self, port: int, stop: threading.Event, period: float = 1.0):
        super().__init__(daemon=True)
        self.port, self.stop, self.period = port, stop, period
        self.answers: dict[str, int] = {}

    def _count(self, key: str) -> None:
        self.answers[key] = self.answers.get(key, 0) + 1

    def attack(self, s: socket.socket) -> None:
        raise NotImplementedError

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                s = socket.create_connection((HOST, self.port), timeout=5)
            except OSError:
                self._count("refused")
                self.stop.wait(self.period)
                continue
            try:
                self.attack(s)
            except OSError as error:
                self._count(type(error).__name__)
            finally:
                s.close()


class SlowHeaders(Attacker):
    """A request head a byte a second, over and over; ``answers`` counts the server's
    first answer lines (``closed`` when it closed without one)."""

    HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 4000 + b"\r\n\r\n"

    def attack(self, s: socket.socket) -> None:
        s.setblocking(False)
        for byte in self.HEAD:
            if self.stop.is_set():
                break
            s.send(bytes([byte]))
            self.stop.wait(self.period)
            try:
                answer = s.recv(200)
            except BlockingIOError:
                continue
            self._count(answer.split(b"\r\n")[0].decode(errors="replace") or "closed")
            break


class BotFlood(threading.Thread):
    """Loops POST ``path`` (/suggest) on a kept-alive connection: (status, seconds, Retry-After),
    and each /suggest 200 answer's (move, samples, budget_cut) in ``suggestions``."""

    def __init__(self, port: int, body: bytes, stop: threading.Event, timeout: float = 30.0,
                 path: str = "/suggest"):
        super().__init__(daemon=True)
        self.port, self.body, self.stop, self.timeout = port, body, stop, timeout
        self.path = path
        self.answers: list[tuple[int, float, str | None]] = []
        self.suggestions: list[tuple[tuple[str, ...], int, bool]] = []

    def run(self) -> None:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
        while not self.stop.is_set():
            t0 = time.monotonic()
            try:
                conn.request("POST", self.path, body=self.body,
                             headers={"Content-Type": "application/json"})
                r = conn.getresponse()
                data = r.read()
                self.answers.append((r.status, time.monotonic() - t0, r.getheader("Retry-After")))
                if r.status == 200 and self.path == "/suggest":
                    answer = json.loads(data)
                    self.suggestions.append((tuple(answer["move"]), answer["samples"], answer["budget_cut"]))
                if r.status == 503:  # as a client honouring Retry-After would, but briefly
                    self.stop.wait(0.05)
            except (OSError, http.client.HTTPException):
                self.answers.append((0, time.monotonic() - t0, None))
                conn.close()
                conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
        conn.close()


class LegalMoves(threading.Thread):
    """Loops a valid POST /legal-moves on one kept-alive connection; counts 200s and others."""

    def __init__(self, port: int, body: bytes, stop: threading.Event):
        super().__init__(daemon=True)
        self.port, self.body, self.stop = port, body, stop
        self.ok = 0
        self.failed = 0

    def run(self) -> None:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=10)
        while not self.stop.is_set():
            try:
                conn.request("POST", "/legal-moves", body=self.body,
                             headers={"Content-Type": "application/json"})
                r = conn.getresponse()
                r.read()
                if r.status == 200:
                    self.ok += 1
                else:
                    self.failed += 1
            except (OSError, http.client.HTTPException):
                self.failed += 1
                conn.close()
                conn = http.client.HTTPConnection(HOST, self.port, timeout=10)
        conn.close()


class Trickler(Attacker):
    """Sends ``first`` on a new connection, then one byte of ``trickle`` every ``period``
    seconds until the server answers or closes; reconnects and does it again until
    ``stop``. ``answers`` counts the first line of each answer (``closed`` without one)."""

    def __init__(self, port: int, stop: threading.Event, first: bytes, trickle: bytes = b"x" * 1000,
                 period: float = 1.0):
        super().__init__(port, stop, period)
        self.first, self.trickle = first, trickle

    def attack(self, s: socket.socket) -> None:
        s.sendall(self.first)
        s.settimeout(self.period)
        for byte in self.trickle:
            if self.stop.is_set():
                break
            try:
                answer = s.recv(4096)
            except TimeoutError:
                s.send(bytes([byte]))
                continue
            lines = [line.decode(errors="replace") for line in answer.split(b"\r\n")
                     if line.startswith(b"HTTP/1.1 ")]
            for line in lines or ["closed"]:
                self._count(line)
            if not answer or not answer.startswith(b"HTTP/1.1 100 ") and b" 200 " not in answer[:13]:
                break


class SlowReader(threading.Thread):
    """Pipelines ``count`` requests for ``path`` (a large answer), then reads 512 bytes every
    ``period`` seconds until the server closes or ``stop``; reconnects."""

    def __init__(self, port: int, stop: threading.Event, path: str = "/docs/swagger-ui-bundle.js",
                 count: int = 4, period: float = 3.0):
        super().__init__(daemon=True)
        self.port, self.stop, self.count, self.period = port, stop, count, period
        self.request = f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
        self.read = 0
        self.connections = 0

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                s = socket.create_connection((HOST, self.port), timeout=10)
            except OSError:
                self.stop.wait(self.period)
                continue
            self.connections += 1
            try:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.sendall(self.request * self.count)
                while not self.stop.wait(self.period):
                    chunk = s.recv(512)
                    if not chunk:
                        break
                    self.read += len(chunk)
            except OSError:
                pass
            finally:
                s.close()
