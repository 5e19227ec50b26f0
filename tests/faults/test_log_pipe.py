"""serve's stdout against what a client can send and a reader can fail to do (server/logpipe.py): a reader that
stops reading never stops the server (lines are dropped, counted and reported once it reads again); every access
line is valid JSON whatever bytes a client put in its path or headers; under load, no line is cut into another.
Each drill starts ``gongzhu-service serve`` as ``make run`` does, with its stdout a pipe the drill holds."""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
import requests

from tests.servers import ROOT, SERVE, free_port

pytestmark = pytest.mark.faults

START_S = 30.0
# A traceparent this long makes a 7 KB access line: a stalled pipe is full after a few dozen.
LONG_VALUE = "7" * 7000
DROPPED = re.compile(r"stdout did not take (\d+) log lines: dropped")


class Served:
    """``gongzhu-service serve`` with its stdout the write end of a pipe; ``out`` is the read end."""

    def __init__(self, tmp_path: Path, **env: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.out, write_end = os.pipe()
        self.errors = tmp_path / "stderr.log"
        with self.errors.open("wb") as errors:
            self.proc = subprocess.Popen(SERVE, cwd=ROOT, stdout=write_end, stderr=errors, env={
                **os.environ, "PORT": str(self.port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "1", **env})
        os.close(write_end)

    def ready(self) -> None:
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.errors.read_text()[-2000:]
            try:
                if requests.get(f"{self.base}/readyz", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise AssertionError(f"serve not ready in {START_S} s: {self.errors.read_text()[-2000:]}")


class Reader(threading.Thread):
    """Reads a pipe to its end, ``pause`` seconds between reads of ``size`` bytes."""

    def __init__(self, fd: int, size: int = 65536, pause: float = 0.0) -> None:
        super().__init__(daemon=True)
        self.fd, self.size, self.pause = fd, size, pause
        self.data = bytearray()

    def run(self) -> None:
        while chunk := os.read(self.fd, self.size):
            self.data += chunk
            time.sleep(self.pause)
        os.close(self.fd)


def dropped_in(lines: list[dict]) -> int:
    """How many lines the warnings among ``lines`` say were dropped."""
    return sum(int(match[1]) for line in lines if (match := DROPPED.fullmatch(line["message"])))


def metric(base: str, name: str) -> float:
    text = requests.get(f"{base}/metrics", timeout=5).text
    return sum(float(row.rsplit(" ", 1)[1]) for row in text.splitlines() if row.startswith(name + " "))


def test_a_reader_that_stops_reading_never_stops_the_server(tmp_path):
    served = Served(tmp_path)
    try:
        served.ready()
        slowest = 0.0
        for _ in range(200):  # 1.4 MB of access lines into a pipe nobody reads
            started = time.monotonic()
            answer = requests.get(f"{served.base}/healthz", headers={"traceparent": LONG_VALUE}, timeout=5)
            slowest = max(slowest, time.monotonic() - started)
            assert answer.status_code == 200
        assert slowest < 1.0, slowest
        reader = Reader(served.out)
        reader.start()
        deadline = time.monotonic() + 10
        while not DROPPED.search(reader.data.decode(errors="replace")) and time.monotonic() < deadline:
            time.sleep(0.1)
        dropped = metric(served.base, "gongzhu_log_lines_dropped_total")
    finally:
        served.proc.send_signal(signal.SIGTERM)
        served.proc.wait(timeout=30)
    reader.join(30)
    lines = [json.loads(text) for text in reader.data.splitlines()]
    # one warning, once stdout took lines again, with the count the metric has
    assert [line["level"] for line in lines].count("warning") == 1
    assert 0 < dropped == dropped_in(lines)
    served_lines = [line for line in lines if line.get("path") == "/healthz"]
    assert len(served_lines) + dropped >= 200


def _request(port: int, data: bytes) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        while s.recv(65536):
            pass


def test_every_byte_a_client_sends_leaves_every_access_line_json(tmp_path):
    served = Served(tmp_path)
    sent = 0
    try:
        served.ready()
        reader = Reader(served.out)
        reader.start()
        for byte in (bytes([code]) for code in range(256)):
            for request in (b"GET /x" + byte + b"y HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                            b"GET /healthz HTTP/1.1\r\nHost: x\r\ntraceparent: 00-" + byte + b"-01\r\n"
                            b"Connection: close\r\n\r\n",
                            b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-ID: a" + byte + b"b\r\n"
                            b"Connection: close\r\n\r\n"):
                _request(served.port, request)
                sent += 1
        time.sleep(0.5)
    finally:
        served.proc.send_signal(signal.SIGTERM)
        served.proc.wait(timeout=30)
    reader.join(30)
    lines = [json.loads(text.decode()) for text in reader.data.splitlines()]
    access = [line for line in lines if line["logger"] == "gongzhu.access" and line["path"] != "/readyz"]
    assert len(access) == sent == 768
    # bytes from 0x80 up that are no UTF-8 character are logged as U+FFFD
    assert {line["traceparent"] for line in access if line["traceparent"].startswith("00-\ufffd")} == {"00-\ufffd-01"}


def test_lines_are_whole_under_load_with_workers_recycled(tmp_path):
    # a worker recycled every 20 requests: gunicorn's lines (a worker exits, another boots) among nginx's
    served = Served(tmp_path, WEB_CONCURRENCY="2", GUNICORN_MAX_REQUESTS="20", GUNICORN_MAX_REQUESTS_JITTER="0")
    try:
        served.ready()
        reader = Reader(served.out, size=4096, pause=0.01)
        reader.start()

        def load() -> None:
            with requests.Session() as session:
                for _ in range(150):
                    session.get(f"{served.base}/healthz", headers={"traceparent": "t" * 3000}, timeout=10)

        clients = [threading.Thread(target=load) for _ in range(4)]
        for client in clients:
            client.start()
        for client in clients:
            client.join(120)
        time.sleep(0.5)
    finally:
        served.proc.send_signal(signal.SIGTERM)
        served.proc.wait(timeout=30)
    reader.join(30)
    lines = [json.loads(text) for text in reader.data.splitlines()]
    gunicorn = [line for line in lines if line["logger"].startswith("gunicorn")]
    access = [line for line in lines if line["logger"] == "gongzhu.access" and line["path"] == "/healthz"]
    assert len(gunicorn) + len(access) + dropped_in(lines) >= 20 + 600
