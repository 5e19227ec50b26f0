"""How ``gongzhu-service serve`` stops, what its processes leave behind and what nginx holds (docs/deployment.md,
"Supervision"): a stop with a slow reader attached ends within its budget (``GONGZHU_STOP_SECONDS``); orphans of
the serve tree are reaped when tini runs in front of serve as PID 1, as in the image; recycled workers leave the
metrics directory as it was; nginx at its connection cap, every connection holding a slow request, stays within
the memory nginx.conf budgets for it."""
from __future__ import annotations

import os
import resource
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
import requests

from gongzhu.server import front
from tests.faults.test_faults import Gunicorn, _wait
from tests.faults.test_hostile import served
from tests.servers import ROOT, SERVE, children_of, debian_binary, free_port, master_of, workers_of

pytestmark = pytest.mark.faults

HOST = "127.0.0.1"
# A metric file's size as prometheus_client creates it.
FILE_BYTES = 1 << 16
# nginx's connection cap as serve sets it, the size of nginx.conf's large head buffer and of its body buffer,
# and what the pod's memory limit leaves nginx (docs/deployment.md, "nginx's memory").
FRONT_CONNECTIONS = int(front.settings(Path(), Path())["connections"])
HEADER_LINE, BODY_BUFFER = 8192, 4096
NGINX_BUDGET_KIB = 46 * 1024
CONTRACT_BYTES = len((ROOT / "service" / "gongzhu" / "openapi.yaml").read_bytes())


def _served(tmp_path: Path, **env: str) -> Gunicorn:
    return served(tmp_path / "serve.log", int(env.get("WEB_CONCURRENCY", "1")), env)


class SlowReader(threading.Thread):
    """Asks for the contract (``CONTRACT_BYTES``) with a 4 KiB receive window and small segments and reads
    1 KiB every half second: its answer would take minutes to read."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        # small segments: on loopback (64 KiB ones) nginx's send buffer would take the whole answer at once
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
        self.sock.connect((HOST, port))
        self.read = 0

    def run(self) -> None:
        self.sock.sendall(b"GET /openapi.yaml HTTP/1.1\r\nHost: x\r\n\r\n")
        try:
            while chunk := self.sock.recv(1024):
                self.read += len(chunk)
                time.sleep(0.5)
        except OSError:
            pass


def test_a_stop_with_a_slow_reader_attached_ends_within_its_budget(tmp_path):
    budget_s = 6
    server = _served(tmp_path, GONGZHU_STOP_SECONDS=str(budget_s))
    reader = SlowReader(server.port)
    reader.start()
    _wait(lambda: reader.read > 0, 10, "the answer to start")
    started = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    status = server.proc.wait(timeout=60)
    took = time.monotonic() - started
    assert took <= budget_s, f"the stop took {took:.1f} s, its budget is {budget_s} s"
    assert status == 0
    assert reader.read < CONTRACT_BYTES, "the reader was not slow"


def _zombies_under(pid: int) -> list[int]:
    """The zombie processes among the descendants of ``pid``."""
    found, todo = [], [pid]
    while todo:
        for kid in children_of(todo.pop()):
            try:
                state = Path(f"/proc/{kid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state == "Z":
                found.append(kid)
            todo.append(kid)
    return found


def _in_own_pid_namespace(command: list[str], log: Path) -> subprocess.Popen:
    """``command`` as PID 1 of a new PID namespace, as in a container (root only)."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("a PID namespace of its own needs root and util-linux's unshare")
    with log.open("wb") as out:
        return subprocess.Popen(["unshare", "--pid", "--fork", "--mount-proc", *command], cwd=ROOT,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def test_orphans_of_the_serve_tree_are_reaped_under_tini(tmp_path):
    tini = debian_binary("tini", "tini")
    port = free_port()
    env = f"PORT={port} HOST={HOST} WEB_CONCURRENCY=1 GONGZHU_BOT_SLOTS=2".split()
    holder = _in_own_pid_namespace(["env", *env, tini, "--", *SERVE], tmp_path / "serve.log")
    try:
        _wait(lambda: _answers(f"http://{HOST}:{port}/readyz"), 30, "serve under tini to be ready")
        [init] = children_of(holder.pid)  # tini, PID 1 of the namespace
        [serve] = children_of(init)
        [worker] = workers_of(serve)
        searches = children_of(worker)
        assert len(searches) == 2, searches
        # the worker's search processes outlive it, are orphaned to PID 1 and exit when they see it gone
        os.kill(worker, signal.SIGKILL)
        _wait(lambda: not any(Path(f"/proc/{pid}/cmdline").exists() and Path(f"/proc/{pid}/cmdline").read_bytes()
                              for pid in searches), 15, "the orphaned searches to exit")
        time.sleep(1.0)
        assert _zombies_under(holder.pid) == []
        assert requests.get(f"http://{HOST}:{port}/healthz", timeout=10).status_code == 200
    finally:
        os.killpg(holder.pid, signal.SIGTERM)
        holder.wait(timeout=30)


def _answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=1).status_code == 200
    except requests.RequestException:
        return False


def _files(folder: Path) -> tuple[int, int]:
    """How many metric files ``folder`` holds, and their bytes."""
    files = list(folder.glob("*.db"))
    return len(files), sum(f.stat().st_size for f in files)


def _settled(server: Gunicorn, folder: Path, most: int) -> tuple[tuple[int, int], set[int], set[str]]:
    """The folder's files, the server's processes and the files' owners once two workers run, every file is a
    live process's or the merged ones, and there are at most ``most``; the last look if that never comes
    within 15 s (a leak never goes away)."""
    deadline = time.monotonic() + 15
    while True:
        files = _files(folder)
        live = {server.proc.pid, master_of(server.proc.pid), *workers_of(server.proc.pid)}
        owners = {path.stem.rsplit("_", 1)[1] for path in folder.glob("*.db")}
        settled = len(live) == 4 and owners <= {str(pid) for pid in live} | {"merged"} and files[0] <= most
        if settled or time.monotonic() > deadline:
            return files, live, owners
        time.sleep(0.1)


def test_fifty_recycled_workers_leave_the_metrics_directory_as_it_was(tmp_path):
    folder = tmp_path / "metrics"
    # every 10 to 14 requests a worker is recycled: with no jitter both workers, taking requests in turn,
    # stopped together and left nginx none to answer (its static 503), as no deployment would run them
    server = _served(tmp_path, WEB_CONCURRENCY="2", PROMETHEUS_MULTIPROC_DIR=str(folder),
                     GUNICORN_MAX_REQUESTS="10", GUNICORN_MAX_REQUESTS_JITTER="4")
    sent = 0
    try:
        with requests.Session() as session:
            for _ in range(40):
                status = session.get(f"{server.base}/healthz", timeout=10).status_code
                assert status in (200, 503), status  # 503: as below
                sent += status == 200
            # the workers have been recycled: every kind of file there is
            before = _files(folder)
            pids = set(workers_of(server.proc.pid))
            while len(pids) < 52:
                status = session.get(f"{server.base}/healthz", timeout=10).status_code
                # nginx's own 503 when the request went out on a kept-alive connection a recycled worker was
                # closing (proxy_next_upstream off: nothing is sent twice); it never reached the application
                assert status in (200, 503), status
                sent += status == 200
                pids |= workers_of(server.proc.pid)
        _wait(lambda: len(workers_of(server.proc.pid)) == 2, 15, "the workers to be back")
        metrics = requests.get(f"{server.base}/metrics", timeout=10).text
        # that scrape may itself retire a worker: judge the directory once no worker is being born or retired
        # (both snapshots could otherwise fall mid-recycle, one a file set short and the other one long)
        after, live, owners = _settled(server, folder, before[0] + 3)
    finally:
        server.stop()
    served = sum(float(row.rsplit(" ", 1)[1]) for row in metrics.splitlines()
                 if row.startswith('gongzhu_http_requests_total{operation="healthz",status="200"}'))
    # every request counted exactly once, whichever worker, dead or alive, answered it
    assert served == sent
    # files of live processes and the accumulated ones only; a worker just booted may not have written its
    # three (counter, histogram, gauge) before, so at most those more
    assert owners <= {str(pid) for pid in live} | {"merged"}, owners
    assert after[0] <= before[0] + 3 and after[1] <= before[1] + 3 * FILE_BYTES, (before, after)


def _nginx_rss_kib(serve: int) -> int:
    """The resident memory of serve's nginx, master and workers, in KiB."""
    total, todo = 0, [serve]
    while todo:
        for kid in children_of(todo.pop()):
            todo.append(kid)
            try:
                if Path(f"/proc/{kid}/comm").read_text().strip() == "nginx":
                    status = Path(f"/proc/{kid}/status").read_text()
                    total += int(status.split("VmRSS:")[1].split()[0])
            except (OSError, IndexError):
                continue
    return total


def _slow_request() -> bytes:
    """The most of a request nginx holds in memory, its last bytes never sent: a head that needs the large head
    buffer, then as much body as the body buffer takes; held until the request timeout."""
    long_line = b"X-Long: " + b"h" * (HEADER_LINE - 64) + b"\r\n"
    return (b"POST /score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + long_line
            + b"Content-Length: %d\r\n\r\n" % (2 * BODY_BUFFER) + b" " * BODY_BUFFER)


def test_nginx_at_its_connection_cap_holding_slow_requests_stays_within_its_memory_budget(tmp_path):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FRONT_CONNECTIONS + 256
    if hard < wanted:
        pytest.skip(f"{wanted} open files are needed, the limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    server = _served(tmp_path, GUNICORN_REQUEST_TIMEOUT="30")
    held: list[socket.socket] = []
    try:
        idle = _nginx_rss_kib(server.proc.pid)
        head = _slow_request()
        # every connection nginx can hold, but for a few its upstream side needs
        for _ in range(FRONT_CONNECTIONS - 16):
            sock = socket.create_connection((HOST, server.port), timeout=10)
            sock.sendall(head)
            held.append(sock)
        time.sleep(1.0)
        full = _nginx_rss_kib(server.proc.pid)
    finally:
        for sock in held:
            sock.close()
        server.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert full <= NGINX_BUDGET_KIB, f"nginx: {idle} KiB idle, {full} KiB with {len(held)} slow requests"
