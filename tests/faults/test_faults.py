"""A killed worker is replaced and the service answers again; SIGTERM drains an in-flight
request. Each test starts its own gunicorn exactly as ``make run``
does (``gunicorn -c python:gongzhu.server.gunicorn_conf gongzhu.server.wsgi:app``) on a free loopback
port; together they take a few seconds. Figures under load: ``bench/drills/faults.py``."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
import requests

from tests.servers import SERVE, free_port, workers_of

pytestmark = pytest.mark.faults

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 30.0


def _wait(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


class Gunicorn:
    def __init__(self, workers: int, log: Path):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.log = log
        env = {**os.environ, "PORT": str(self.port), "HOST": "127.0.0.1",
               "WEB_CONCURRENCY": str(workers)}
        with log.open("wb") as out:
            self.proc = subprocess.Popen(SERVE, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)

    def ready(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"gunicorn exited {self.proc.returncode}:\n{self.log.read_text()}")
        try:
            return requests.get(f"{self.base}/readyz", timeout=1).status_code == 200
        except requests.RequestException:
            return False

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture()
def gunicorn(request, tmp_path):
    servers: list[Gunicorn] = []

    def start(workers: int) -> Gunicorn:
        server = Gunicorn(workers, tmp_path / f"gunicorn-{len(servers)}.log")
        servers.append(server)
        _wait(lambda: server.ready() and len(workers_of(server.proc.pid)) == workers,
              START_TIMEOUT, "gunicorn to be ready")
        return server

    yield start
    for server in servers:
        server.stop()


def _legal_moves_body(base: str) -> bytes:
    dealt = requests.post(f"{base}/deal", json={"seed": 1}, timeout=5).json()
    return json.dumps({"rules": dealt["rules"], "first_deal": True, "leader": dealt["leader"],
                       "hands": dealt["hands"], "exposed": [[], [], [], []],
                       "plays": []}).encode()


def test_a_killed_worker_is_replaced_and_the_service_answers_again(gunicorn):
    server = gunicorn(2)
    body = _legal_moves_body(server.base)
    before = workers_of(server.proc.pid)
    victim = min(before)
    os.kill(victim, signal.SIGKILL)

    def replaced():
        workers = workers_of(server.proc.pid)
        return workers if len(workers) == 2 and victim not in workers else None

    after = _wait(replaced, 15, "a replacement worker")
    assert len(after - before) == 1 and server.proc.poll() is None
    for _ in range(10):  # several requests, so both workers, the new one included, answer
        assert requests.get(f"{server.base}/healthz", timeout=5).status_code == 200
        r = requests.post(f"{server.base}/legal-moves", data=body, timeout=5,
                          headers={"Content-Type": "application/json"})
        assert r.status_code == 200 and r.json()["seat"] is not None


def test_sigterm_drains_an_in_flight_request(gunicorn):
    server = gunicorn(1)
    body = _legal_moves_body(server.base)
    half = len(body) // 2
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        # A request whose body is trickled: the worker has accepted it and is reading it.
        sock.sendall(b"POST /legal-moves HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nConnection: close\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body[:half])
        time.sleep(0.5)
        server.proc.send_signal(signal.SIGTERM)
        time.sleep(1.0)
        assert server.proc.poll() is None, "the master must wait for the in-flight request"
        sock.sendall(body[half:])
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, payload = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    assert json.loads(payload)["moves"]
    assert server.proc.wait(timeout=25) == 0
    log = server.log.read_text()
    assert "Handling signal: term" in log and "Shutting down: Master" in log
