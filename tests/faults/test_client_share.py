"""One client against a live server with 2 workers, started as ``gongzhu-service serve`` runs (nginx in front of
gunicorn), with the loads that once got pods restarted or a worker killed for memory: bodies trickled on 1,600
connections, batches of searches from 8 clients, a batch call of 700,000 empty objects, clients that leave their
batches. Another loopback address (127.0.0.2) stands for the one client; the probes and the other client use
127.0.0.1. Each drill checks the service's promise with the bars of its issue (docs/deployment.md, "Per-client
limits"; docs/operations.md, "Batch")."""
from __future__ import annotations

import http.client
import json
import multiprocessing
import re
import socket
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from tests.faults.test_hostile import HOST, LEGAL_MOVES, _start
from tests.faults.test_pod_safety import HARD_CLAIM, _peak_kib, _post
from tests.faults.test_serving_drills import _mid_deal, drills
from tests.servers import children_of, workers_of

pytestmark = pytest.mark.faults

ATTACKER = "127.0.0.2"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    started = _start(tmp_path_factory, 2, {})
    yield started
    started.stop()


def _within(latencies: list[float | None]) -> float:
    return sum(x is not None for x in latencies) / max(1, len(latencies))


# ---- item 1: bodies trickled on 1,600 connections -----------------------------------------------------------

TRICKLERS = 1600
TRICKLE_EVERY_S = 8.0
TRICKLE_HEAD = (b"POST /batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 2000000\r\n\r\n{")


class Trickler(threading.Thread):
    """One client (``ATTACKER``) opening ``TRICKLERS`` connections, each a /batch request of 2,000,000 bytes
    sent a byte every ``TRICKLE_EVERY_S``, until ``stop``; ``held`` counts the connections still open at each
    round."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.stop = threading.Event()
        self.held: list[int] = []
        self.sockets: list[socket.socket] = []

    def run(self) -> None:
        self.open_all()
        while not self.stop.wait(TRICKLE_EVERY_S):
            self.sockets = [sock for sock in self.sockets if self._trickle(sock)]
            self.held.append(len(self.sockets))
        for sock in self.sockets:
            sock.close()

    def open_all(self) -> None:
        """Open ``TRICKLERS`` connections, a few at a time so that the listen backlog takes them (a connection
        flood is another attack), each attempt that failed tried once more."""
        for attempt in range(2 * TRICKLERS):
            if len(self.sockets) >= TRICKLERS or self.stop.is_set():
                return
            if attempt % 50 == 0:
                time.sleep(0.05)
            sock = socket.socket()
            sock.settimeout(2)
            try:
                sock.bind((ATTACKER, 0))
                sock.connect((HOST, self.port))
                sock.sendall(TRICKLE_HEAD)
            except OSError:
                sock.close()
                continue
            self.sockets.append(sock)

    @staticmethod
    def _trickle(sock: socket.socket) -> bool:
        try:
            sock.sendall(b" ")
            return True
        except OSError:
            sock.close()
            return False


def test_one_client_trickling_bodies_on_1600_connections_leaves_the_probes_and_other_clients_served(server):
    attack = Trickler(server.port)
    attack.start()
    time.sleep(3)  # its connections open and their heads sent
    probes = drills.Prober(server.port, interval=0.3, timeout=1.0)
    others_answers: list[float | None] = []

    def legal_moves() -> None:
        while not probes.stop.is_set():
            started = time.monotonic()
            try:
                status, _, _ = _post(server.port, "/legal-moves", LEGAL_MOVES, timeout=2.0)
                others_answers.append(time.monotonic() - started if status == 200 else None)
            except OSError:
                others_answers.append(None)
            probes.stop.wait(0.3)

    other = threading.Thread(target=legal_moves, daemon=True)
    probes.start()
    other.start()
    time.sleep(TRICKLE_EVERY_S)
    # another client's batch still finds a place: the one client holds at most half of them
    batch = json.dumps({"requests": [{"id": "a", "method": "POST", "url": "/legal-moves", "body": _mid_deal()}]})
    other_batch = _post(server.port, "/batch", batch.encode(), timeout=5)[0]
    time.sleep(TRICKLE_EVERY_S + 1)
    probes.stop.set()
    probes.join(5)
    other.join(5)
    attack.stop.set()
    attack.join(10)
    seen = {"probes": drills.summary(probes.latencies), "others": drills.summary(others_answers),
            "attacker_held": attack.held, "other_batch": other_batch}
    print(seen)
    assert _within(probes.latencies) >= 0.95 and len(probes.latencies) >= 30, seen
    assert _within(others_answers) >= 0.95 and len(others_answers) >= 20, seen
    # the client keeps no more than its share of requests in progress (GONGZHU_CLIENT_REQUESTS, 64)
    assert attack.held and max(attack.held) <= 64 and other_batch == 200, seen


# ---- item 2: batches of searches from 8 clients ----------------------------------------------------------------

SUGGESTS = json.dumps({"requests": [
    {"id": f"s{i}", "method": "POST", "url": "/suggest", "body": {**_mid_deal(), "budget_ms": 1000}}
    for i in range(40)]}, separators=(",", ":")).encode()
BATCH_LOOP_S = 20


def _batch_clients(port: int, sent: bytes, seconds: float, out: Connection) -> None:
    """8 clients posting ``sent`` to /batch in a loop for ``seconds`` without waiting between (a 503's
    ``Retry-After`` unheeded), in a process of their own so that the prober times the server alone."""
    stop = threading.Event()
    statuses: list[int] = []

    def loop() -> None:
        while not stop.is_set():
            try:
                statuses.append(_post(port, "/batch", sent, timeout=40)[0])
            except OSError:
                statuses.append(0)

    threads = [threading.Thread(target=loop, daemon=True) for _ in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join(40)
    out.send(statuses)


def test_batches_of_searches_from_8_clients_hold_no_thread_a_probe_needs(server):
    assert len(SUGGESTS) > 15_000
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe()
    load = context.Process(target=_batch_clients, args=(server.port, SUGGESTS, BATCH_LOOP_S, theirs), daemon=True)
    load.start()
    time.sleep(1)
    probes = drills.Prober(server.port, interval=0.1, timeout=5, path=b"/healthz")
    ready = drills.Prober(server.port, interval=0.1, timeout=5, path=b"/readyz")
    probes.start()
    ready.start()
    time.sleep(BATCH_LOOP_S - 2)
    for prober in (probes, ready):
        prober.stop.set()
        prober.join(10)
    statuses = ours.recv() if ours.poll(60) else []
    load.join(10)
    seen = {"healthz": drills.summary(probes.latencies), "readyz": drills.summary(ready.latencies),
            "batches": {status: statuses.count(status) for status in set(statuses)}}
    print(seen)
    assert set(statuses) <= {200, 503} and 200 in statuses, seen
    for found in (seen["healthz"], seen["readyz"]):
        assert found["answered"] == found["probes"] >= 50, seen
        assert found["p99_ms"] <= 250 and found["max_ms"] <= 1000, seen


# ---- item 3: a batch call of 700,000 empty objects ------------------------------------------------------------

EMPTY_OBJECTS = 695_000  # as many as a 2 MiB envelope holds
TREE_PSS_KIB = 150 * 1024
MEMORY_LOOP_S = 8


def _oversized_call() -> bytes:
    body = b'{"scores":[' + b",".join([b"{}"] * EMPTY_OBJECTS) + b"]}"
    return b'{"requests":[{"id":"big","method":"POST","url":"/score","body":' + body + b"}]}"


def _tree(pid: int) -> list[int]:
    """``pid`` and all its descendants alive now (serve, nginx, gunicorn's master, workers and search processes)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        if current not in found:
            found.append(current)
            todo.extend(children_of(current))
    return found


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""  # the process ended meanwhile


def tree_pss_kib(pid: int) -> int:
    """The proportional set size of ``pid`` and its descendants, from /proc/*/smaps_rollup."""
    found = (re.search(r"^Pss:\s+(\d+) kB", _read(f"/proc/{current}/smaps_rollup"), re.MULTILINE)
             for current in _tree(pid))
    return sum(int(match.group(1)) for match in found if match)


def test_a_batch_call_of_700000_empty_objects_answers_as_alone_and_the_tree_stays_within_memory(tmp_path_factory):
    # a server of its own, as started: the other drills' loads leave the search processes and nginx larger
    started = _start(tmp_path_factory, 2, {})
    try:
        _the_tree_within_memory(started)
    finally:
        started.stop()


def _the_tree_within_memory(server) -> None:
    sent = _oversized_call()
    assert 1_900_000 < len(sent) < 2 * 1024 * 1024
    alone = _post(server.port, "/score", sent[sent.index(b'{"scores"'):-3])
    status, _, data = _post(server.port, "/batch", sent)
    [item] = json.loads(data)["responses"]
    assert (alone[0], json.loads(alone[2])["code"]) == (413, "payload_too_large")
    assert (status, item["status"], item["body"]["code"]) == (200, 413, "payload_too_large")
    idle = tree_pss_kib(server.proc.pid)
    peaks: list[int] = []
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            _post(server.port, "/batch", sent)

    clients = [threading.Thread(target=loop, daemon=True) for _ in range(8)]
    for client in clients:
        client.start()
    deadline = time.monotonic() + MEMORY_LOOP_S
    while time.monotonic() < deadline:
        peaks.append(tree_pss_kib(server.proc.pid))
        time.sleep(0.2)
    stop.set()
    for client in clients:
        client.join(30)
    time.sleep(2)
    after = tree_pss_kib(server.proc.pid)
    seen = {"tree_pss_idle_mib": round(idle / 1024, 1), "tree_pss_peak_mib": round(max(peaks) / 1024, 1),
            "after_mib": round(after / 1024, 1),
            "worker_peaks_mib": sorted(round(_peak_kib(pid) / 1024, 1) for pid in workers_of(server.proc.pid))}
    print(seen)
    assert max(peaks) <= TREE_PSS_KIB and after <= TREE_PSS_KIB, seen


# ---- item 4: clients that leave their batches -----------------------------------------------------------------

def _leave_at_work(port: int, sent: bytes, pid: int) -> float:
    """Send a batch and leave once the server's processes have spent ``AT_WORK_S`` of CPU on it (a search under
    way, however busy the machine), at most ``AT_WORK_WAIT_S`` later; the CPU seconds spent by then."""
    before = _tree_cpu_s(pid)
    sock = socket.create_connection((HOST, port), timeout=5)
    sock.sendall(b"POST /batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n" % len(sent) + sent)
    deadline = time.monotonic() + AT_WORK_WAIT_S
    while _tree_cpu_s(pid) - before < AT_WORK_S and time.monotonic() < deadline:
        time.sleep(0.05)
    sock.close()
    return _tree_cpu_s(pid) - before


AT_WORK_S = 0.3
AT_WORK_WAIT_S = 10.0


def _tree_cpu_s(pid: int) -> float:
    """CPU seconds (user and system) of ``pid`` and its descendants alive now."""
    ticks = 100.0
    fields = (_read(f"/proc/{current}/stat").rsplit(")", 1)[-1].split() for current in _tree(pid))
    return sum((int(f[11]) + int(f[12])) / ticks for f in fields if len(f) > 12)


def _batch_of(url: str, body: dict, count: int) -> bytes:
    return json.dumps({"requests": [{"id": str(i), "method": "POST", "url": url, "body": body}
                                    for i in range(count)]}, separators=(",", ":")).encode()


@pytest.mark.parametrize("url, body, count", [
    ("/review", {**_mid_deal(plays=52), "seed": 1, "budget_ms": 300}, 300),
    ("/claim", json.loads(HARD_CLAIM), 1000),
    # a whole deal's first lead: every solve runs to its budget
    ("/solve", {**_mid_deal(plays=0), "budget_ms": 3000}, 100),
])
def test_a_client_that_leaves_its_batch_stops_it_no_500_no_traceback_cpu_idle_within_2_s(server, url, body, count):
    sent = _batch_of(url, body, count)
    log = server.log.read_text(errors="replace")
    operation = url.strip("/")
    before = _metric(server.port, operation, "500")
    working = _leave_at_work(server.port, sent, server.proc.pid)
    time.sleep(2)
    first = _tree_cpu_s(server.proc.pid)
    time.sleep(1)
    busy = _tree_cpu_s(server.proc.pid) - first
    new_lines = server.log.read_text(errors="replace")[len(log):]
    seen = {"cpu_s_before_it_left": round(working, 2), "cpu_s_2_s_after_it_left": round(busy, 2),
            "500s": _metric(server.port, operation, "500") - before}
    print(seen)
    assert working >= AT_WORK_S, seen  # the batch was at work when its client left
    assert "Traceback" not in new_lines and "unhandled" not in new_lines.lower(), new_lines[-3000:]
    assert seen["500s"] == 0, seen
    # idle: the probes and the scrape are all that runs (a search process at work burns a whole core)
    assert busy < 0.3, seen


def _metric(port: int, operation: str, status: str) -> float:
    status_code, _, data = _get(port, "/metrics")
    assert status_code == 200
    pattern = re.compile(rf'^gongzhu_batch_items_total\{{operation="{operation}",status="{status}"\}} (\S+)$',
                         re.MULTILINE)
    return sum(float(x) for x in pattern.findall(data.decode()))


def _get(port: int, path: str) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        conn.close()


# ---- behind a trusted proxy: the client is the one X-Forwarded-For names ---------------------------------------

def _held_request(port: int, source: str, forwarded: str) -> socket.socket:
    """A request from ``source`` naming ``forwarded`` as its client, its body still arriving."""
    sock = socket.socket()
    sock.settimeout(5)
    sock.bind((source, 0))
    sock.connect((HOST, port))
    sock.sendall(b"POST /legal-moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"X-Forwarded-For: %s\r\nContent-Length: 1000\r\n\r\n{" % forwarded.encode())
    return sock


def _status_of(sock: socket.socket) -> int:
    sock.settimeout(1)
    try:
        head = sock.recv(64)
    except TimeoutError:
        return 0  # still held: no answer yet
    return int(head.split()[1]) if head else -1


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_share_and_an_untrusted_one_is_not_believed(
        tmp_path_factory):
    started = _start(tmp_path_factory, 1, {"GONGZHU_TRUSTED_PROXIES": ATTACKER, "GONGZHU_CLIENT_REQUESTS": "2"})
    sockets: list[socket.socket] = []
    try:
        # through the trusted proxy: two requests of one client held, its third refused, another client's served
        sockets += [_held_request(started.port, ATTACKER, "203.0.113.9") for _ in range(3)]
        sockets.append(_held_request(started.port, ATTACKER, "203.0.113.10"))
        # from an untrusted peer, X-Forwarded-For is not believed: all count as 127.0.0.1
        sockets += [_held_request(started.port, HOST, f"198.51.100.{i}") for i in range(3)]
        time.sleep(0.5)
        assert [_status_of(sock) for sock in sockets] == [0, 0, 429, 0, 0, 0, 429]
    finally:
        for sock in sockets:
            sock.close()
        started.stop()
