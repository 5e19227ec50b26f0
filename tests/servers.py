"""Processes the live tests start — the server (as ``make run`` does: nginx in front of gunicorn)
and Prometheus — each on a free loopback port and stopped by whoever started it, and the
gunicorn master and workers under a server's process."""
from __future__ import annotations

import fcntl
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[1]


def expected_engine() -> str:
    """The engine build these tests run on: the one make test asked for (GONGZHU_EXPECT_ENGINE),
    else the one the play loop's module file shows (an extension module: compiled)."""
    import importlib.machinery
    import importlib.util

    if os.environ.get("GONGZHU_EXPECT_ENGINE"):
        return os.environ["GONGZHU_EXPECT_ENGINE"]
    origin = importlib.util.find_spec("gongzhu.rules.table").origin or ""
    return "compiled" if origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) else "pure"
START_TIMEOUT_S = 30.0
APT_TIMEOUT_S = 900
# One apt at a time across the suite's processes (see debian_binary), a lock for each user: a lock file left in
# /tmp by another user's run (root's) could not be opened, and every deploy test errored.
APT_LOCK = f"/tmp/gongzhu-tests-apt-{os.getuid()}.lock"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
        try:
            if requests.get(url, timeout=1).status_code == 200:
                return
        except requests.ConnectionError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} not ready in {START_TIMEOUT_S}s:\n{log.read_text()[-4000:]}")
        time.sleep(0.1)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def start(command: list[str], log: Path, ready_url: str, env: dict | None = None) -> subprocess.Popen:
    with log.open("wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **(env or {})},
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for(ready_url, proc, log)
    except RuntimeError:
        stop(proc)
        raise
    return proc


def children_of(pid: int) -> set[int]:
    """The child processes of ``pid``, from /proc."""
    kids: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids |= {int(x) for x in (task / "children").read_text().split()}
        except (OSError, ValueError):
            pass
    return kids


def master_of(pid: int) -> int:
    """The gunicorn master of the server ``pid`` (``gongzhu-service serve``'s child), or ``pid`` itself
    when it is a gunicorn master."""
    if b"gunicorn" in Path(f"/proc/{pid}/cmdline").read_bytes():
        return pid
    for kid in children_of(pid):
        try:
            if b"gunicorn" in Path(f"/proc/{kid}/cmdline").read_bytes():
                return kid
        except OSError:
            pass
    return pid


def workers_of(pid: int) -> set[int]:
    """The gunicorn workers of the server ``pid`` (``master_of``)."""
    return children_of(master_of(pid))


SERVE = [sys.executable, "-m", "gongzhu", "serve"]


def debian_binary(package: str, command: str, also: tuple[str, ...] = ()) -> str:
    """``command`` from Debian's ``package``, installed with apt-get (with the packages ``also`` names)
    when missing and running as root; the test is skipped, saying how to install it, anywhere else.
    Installs are serialized by a file lock: the suite's processes (pytest-xdist) may want packages at
    the same time, and apt allows one."""
    found = shutil.which(command)
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        with open(APT_LOCK, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not shutil.which(command):
                subprocess.run(["apt-get", "update", "-qq"], env=env, check=False, timeout=APT_TIMEOUT_S,
                               capture_output=True)
                subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", package, *also],
                               env=env, check=False, timeout=APT_TIMEOUT_S, capture_output=True)
        found = shutil.which(command)
        if found:
            return found
    pytest.skip(f"Debian's {package} is needed and could not be installed here (not root, or no apt-get): "
                f"run `sudo apt-get install -y {' '.join([package, *also])}`")


def prometheus_binary() -> str:
    """Debian's prometheus (a real Prometheus server)."""
    return debian_binary("prometheus", "prometheus")
