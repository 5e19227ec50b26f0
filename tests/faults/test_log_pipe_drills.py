"""serve's stdout against what a client can send and a reader can fail to do (server/logpipe.py): a reader that
stops reading never stops the server (lines are dropped, counted and reported once it reads again); every access
line is valid JSON whatever bytes a client put in its path or headers; under load, no line is cut into another;
clients sending 8,000-byte headers make no line longer than 4 KiB, and a reader that keeps reading loses none.
Each drill starts ``gongzhu-service serve`` as ``make run`` does, with its stdout a pipe the drill holds."""
from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import re
import signal
import socket
import subprocess
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path

import pytest
import requests

from tests.servers import ROOT, SERVE, free_port

pytestmark = pytest.mark.faults

START_S = 30.0
# A path this long and a request id of quotes, each logged bounded (nginx.conf), make a 1.1 KB access line: a
# stalled pipe is full after a few dozen, serve's buffer after about 500 more.
LONG_PATH = "/" + "7" * 600
LOGGED_PATH = "/" + "7" * 511 + "..."
QUOTES = '"' * 128
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
        for _ in range(1000):  # 1.1 MB of access lines into a pipe nobody reads
            started = time.monotonic()
            answer = requests.get(f"{served.base}{LONG_PATH}", headers={"X-Request-ID": QUOTES}, timeout=5)
            slowest = max(slowest, time.monotonic() - started)
            assert answer.status_code == 404
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
    served_lines = [line for line in lines if line.get("path") == LOGGED_PATH]
    assert len(served_lines) + dropped >= 1000


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
    # a traceparent not in the W3C format is logged as invalid, whatever its bytes
    assert {line["traceparent"] for line in access} == {"", "invalid"}


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


# A client blowing up the log: 8 clients for 10 s, each sending a traceparent of 8,000 bytes that JSON escapes to 6 each
# (0x01) or serve's cleaning to 3 (0xff); 200 requests among them marked by their path (a request gunicorn
# refuses has no request id)
HOSTILE_BYTES = 8000
LOAD_S = 10.0
MARKED = 200
LINE_BYTES = 4096


def _hostile_load(port: int, byte: bytes, out: Connection) -> None:
    """8 clients on connections of their own sending the hostile traceparent in a loop for ``LOAD_S``, and a
    ninth the ``MARKED`` requests over that time, in a process of their own (the drill's GIL is not theirs);
    sends back the statuses the clients saw and the marked requests' statuses."""
    stop = threading.Event()
    statuses: list[int] = []
    marked: list[int] = []

    def get(connection: http.client.HTTPConnection, path: str = "/healthz") -> int:
        connection.putrequest("GET", path)
        connection.putheader("traceparent", byte * HOSTILE_BYTES)
        connection.endheaders()
        answer = connection.getresponse()
        answer.read()
        return answer.status

    def loop() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while not stop.is_set():
            statuses.append(get(connection))

    def mark() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for number in range(MARKED):
            marked.append(get(connection, f"/mark-{number:03d}"))
            time.sleep(LOAD_S / MARKED)

    threads = [threading.Thread(target=loop, daemon=True) for _ in range(8)]
    for thread in [*threads, marker := threading.Thread(target=mark, daemon=True)]:
        thread.start()
    marker.join(LOAD_S + 30)
    stop.set()
    for thread in threads:
        thread.join(30)
    out.send((statuses, marked))


# 0x01 is answered 400 by gunicorn, which refuses a control character in a header value (gthread.py), and
# logged by it too; the marked paths are 404 when served
@pytest.mark.parametrize("byte, status, marked_status", [(b"\xff", 200, 404), (b"\x01", 400, 400)],
                         ids=["0xff", "0x01"])
def test_a_client_cannot_blow_up_the_log_nor_hide_its_requests(tmp_path, byte, status, marked_status):
    served = Served(tmp_path, WEB_CONCURRENCY="2")
    log = tmp_path / "stdout.log"
    with log.open("wb") as file:  # a reader that keeps reading, as `serve | cat >file` has
        reader = subprocess.Popen(["cat"], stdin=served.out, stdout=file)
    os.close(served.out)
    try:
        served.ready()
        context = multiprocessing.get_context("fork")
        ours, theirs = context.Pipe()
        load = context.Process(target=_hostile_load, args=(served.port, byte, theirs), daemon=True)
        load.start()
        statuses, marked = ours.recv() if ours.poll(LOAD_S + 60) else ([], [])
        load.join(10)
        dropped = metric(served.base, "gongzhu_log_lines_dropped_total")
    finally:
        served.proc.send_signal(signal.SIGTERM)
        served.proc.wait(timeout=30)
    reader.wait(30)
    text = log.read_bytes().splitlines()
    lines = [json.loads(line) for line in text]
    access = [line for line in lines if line["logger"] == "gongzhu.access" and line["path"] != "/readyz"]
    logged = [line["path"] for line in access if line["path"].startswith("/mark-")]
    seen = {"requests": len(statuses) + len(marked), "lines": len(lines), "access_lines": len(access),
            "longest_line": max(map(len, text)), "dropped": dropped, "reported_dropped": dropped_in(lines),
            "marked_logged": len(set(logged))}
    print(seen)
    assert seen["longest_line"] <= LINE_BYTES, seen
    assert seen["dropped"] == seen["reported_dropped"] == 0, seen
    assert set(statuses) == {status} and set(marked) == {marked_status} and len(marked) == MARKED, seen
    assert len(access) == seen["requests"] + 1, seen  # and /metrics
    # a traceparent not in the W3C format is logged as invalid, not echoed
    assert {line["traceparent"] for line in access if line["path"] != "/metrics"} == {"invalid"}
    assert sorted(logged) == [f"/mark-{number:03d}" for number in range(MARKED)]
