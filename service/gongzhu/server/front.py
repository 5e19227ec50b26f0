"""``gongzhu-service serve``: nginx on ``HOST:PORT`` in front of gunicorn's stock gthread workers on a
unix socket, both started and watched by this process.

nginx reads every request whole and holds every answer until its client has read it, so a slow,
idle or hostile client never holds a request thread; its refusals are answered by the application
(``nginx.conf``). The run directory (``GONGZHU_RUN_DIR``, else a private temporary one) holds the
socket, nginx's configuration and the bodies in transit. On SIGTERM or SIGINT nginx stops taking
requests and finishes those it holds, then gunicorn drains its own, within one budget (``StopBudget``);
if either dies, the other is stopped and the exit status is 1. Both write their lines to pipes that
serve copies to its stdout (``logpipe``). Orphans are reaped by the init in front of serve (tini in the
image, docs/deployment.md). Why nginx and not our own worker: docs/deployment.md. Without nginx (none
found, or ``GONGZHU_NGINX=off``), gunicorn serves alone, on loopback only, after a warning (``alone``).
"""
from __future__ import annotations

import ipaddress
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from gongzhu import settings as shared
from gongzhu.server import docs_bundle, logpipe, logs
from gongzhu.settings import (
    BATCH_SOCKET_ENV,
    GRACEFUL_TIMEOUT_ENV,
    MULTIPROC_ENV,
    SOCKET_ENV,
    switched_off,
    text_lines,
)

TEMPLATE = Path(__file__).with_name("nginx.conf")
# Batches nginx lets wait for a worker, a worker (in the batch socket's backlog, holding no thread), and one client
# half of all: a pool of 16 connections from one client to a 2-worker pod keeps both busy without a refusal
# (docs/performance.md, "Batch"). A waiting batch costs nginx a connection and its body in a file.
BATCHES_WAITING = 15
NGINX_ENV = "GONGZHU_NGINX"
NGINX_PACKAGE = "nginx-light"
START_S = 30.0
# The seconds a stop may take from SIGTERM, all stages together: the chart derives it from its
# terminationGracePeriodSeconds; the default fits `docker stop`'s 10 s.
STOP_ENV = "GONGZHU_STOP_SECONDS"
STOP_S = 9


@dataclass(frozen=True, slots=True)
class StopBudget:
    """How a stop's seconds (``GONGZHU_STOP_SECONDS``) are shared. nginx first finishes the requests it holds
    and their answers, closing what is left at its ``worker_shutdown_timeout`` (``front_s``); then gunicorn
    drains what nginx gave up on within its ``graceful_timeout`` (``app_s``). serve waits for each a margin past
    its own timeout before killing it, and a margin for the last log lines: the waits add up to the total."""

    total_s: int
    MARGIN_S: ClassVar[int] = 1
    # The least total that leaves each stage a second.
    LEAST_S: ClassVar[int] = 5

    @classmethod
    def from_env(cls) -> StopBudget:
        return cls(max(cls.LEAST_S, int(os.environ.get(STOP_ENV, STOP_S))))

    @property
    def front_s(self) -> int:
        return max(1, (self.total_s - 3 * self.MARGIN_S) * 3 // 4)

    @property
    def app_s(self) -> int:
        return max(1, self.total_s - 3 * self.MARGIN_S - self.front_s)

    @property
    def front_wait_s(self) -> int:
        return self.front_s + self.MARGIN_S

    @property
    def app_wait_s(self) -> int:
        return self.app_s + self.MARGIN_S

    def app_env(self) -> dict[str, str]:
        """gunicorn's share, in the setting gunicorn_conf.py reads."""
        return {GRACEFUL_TIMEOUT_ENV: str(self.app_s)}


def settings(run_dir: Path, socket_path: Path) -> dict[str, str]:
    """nginx.conf's placeholders, from the environment gunicorn_conf.py reads too."""
    env = os.environ.get
    host, port = shared.host(), shared.port()
    timeout = shared.request_timeout_s()
    workers = shared.workers()
    return {"run_dir": str(run_dir), "socket": str(socket_path), "batch_socket": str(batch_socket(socket_path)),
            # the batches nginx lets through at once: one running a worker, and some waiting for it
            "batches": str(workers * (1 + BATCHES_WAITING)),
            "client_batches": str(max(1, workers * (1 + BATCHES_WAITING) // 2)),
            "listen": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
            "connections": env("GONGZHU_FRONT_CONNECTIONS", "1536"),
            "backlog": str(shared.backlog()),
            "max_body": str(shared.max_body()), "max_batch_body": str(shared.max_batch_body()),
            "timeout": f"{timeout:g}", "read_timeout": f"{timeout + 20:g}",
            "keepalive": str(shared.keepalive_s()), "access_log": access_log(),
            "shutdown": str(StopBudget.from_env().front_s), **client_limits()}


# The requests one client may have in progress at once (0: no limit), and the proxies trusted to name the client.
CLIENT_REQUESTS_ENV = "GONGZHU_CLIENT_REQUESTS"
CLIENT_REQUESTS = 64
TRUSTED_PROXIES_ENV = "GONGZHU_TRUSTED_PROXIES"
# nginx's shared memory for the per-client counts: about 8,000 addresses at once in 1 MiB
CLIENT_ZONE = "1m"


def batch_socket(socket_path: Path) -> Path:
    return socket_path.parent / "batch.sock"


def client_limits() -> dict[str, str]:
    """nginx.conf's per-client settings: ``limit_conn`` for one address's requests in progress, and the proxies
    whose ``X-Forwarded-For`` names the client (``ValueError`` for one that is no address or network)."""
    env = os.environ.get
    most = int(env(CLIENT_REQUESTS_ENV, str(CLIENT_REQUESTS)))
    proxies = [ipaddress.ip_network(item, strict=False)
               for item in env(TRUSTED_PROXIES_ENV, "").replace(",", " ").split()]
    trusted = "".join(f"    set_real_ip_from {network};\n" for network in proxies)
    if trusted:
        trusted += "    real_ip_header X-Forwarded-For;\n    real_ip_recursive on;"
    return {"client_zone": CLIENT_ZONE, "client_limit": f"    limit_conn per_client {most};" if most > 0 else "",
            "trusted_proxies": trusted}


def access_log() -> str:
    """nginx's ``access_log``: stdout in the format ``GONGZHU_LOG_FORMAT`` names (JSON unless ``text``),
    written at least every 50 ms; ``off`` when ``GONGZHU_ACCESS_LOG`` says so."""
    if switched_off("GONGZHU_ACCESS_LOG"):
        return "off"
    return f"/dev/stdout {'text' if text_lines() else 'json'} buffer=32k flush=50ms"


def find_nginx() -> str | None:
    """The nginx to run: ``GONGZHU_NGINX`` (a path, or ``off`` for none), else nginx on ``PATH`` or in
    /usr/sbin (where Debian puts it, off a user's ``PATH``); None when there is none."""
    chosen = os.environ.get(NGINX_ENV, "")
    if chosen:
        return chosen if chosen != "off" and os.access(chosen, os.X_OK) else None
    return shutil.which("nginx", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin"]))


def alone(gunicorn_argv: Sequence[str]) -> int:
    """gunicorn in this process's place, on ``HOST:PORT`` with its own limits on a request's head
    (gunicorn_conf.py), after one line saying what serving without nginx means; on loopback only (1 and
    one line otherwise): the image and the chart, on every interface, always have nginx in front."""
    host, port = shared.host(), shared.port()
    chosen = os.environ.get(NGINX_ENV, "")
    why = (f"not found; apt-get install {NGINX_PACKAGE}" if not chosen
           else f"{NGINX_ENV}=off" if chosen == "off" else f"{NGINX_ENV}={chosen} is no program")
    if not _loopback(host):
        print(f"gongzhu-service: nginx is not in front ({why}), and gunicorn serves alone on loopback only, "
              f"not on HOST={host}", file=sys.stderr)
        return 1
    print(f"gongzhu-service: WARNING nginx is not in front ({why}): gunicorn serves {host}:{port} alone — "
          f"a slow or idle client holds one of its request threads, nothing buffers requests or answers, "
          f"refusals are gunicorn's own and no access lines are written; for this machine only",
          file=sys.stderr, flush=True)
    os.environ.pop(SOCKET_ENV, None)
    os.environ.pop(BATCH_SOCKET_ENV, None)
    os.execv(gunicorn_argv[0], list(gunicorn_argv))


def _loopback(host: str) -> bool:
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(gunicorn_argv: Sequence[str]) -> int:
    """Serve until told to stop; the exit status."""
    nginx = find_nginx()
    if nginx is None:
        return alone(gunicorn_argv)
    chosen = os.environ.get("GONGZHU_RUN_DIR")
    run_dir = Path(chosen or tempfile.mkdtemp(prefix="gongzhu-run-"))
    run_dir.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        # nginx's workers run as nobody when started by root: they must reach the socket, not list the dir
        run_dir.chmod(0o711)
    socket_path = run_dir / "gunicorn.sock"
    socket_path.unlink(missing_ok=True)
    batch_socket(socket_path).unlink(missing_ok=True)
    docs_bundle.lay_out(run_dir)
    try:
        filled = settings(run_dir, socket_path)
    except ValueError as error:  # a setting that is no number, or no address or network
        print(f"gongzhu-service: {error} ({CLIENT_REQUESTS_ENV}, {TRUSTED_PROXIES_ENV}: docs/deployment.md, "
              f"\"Per-client limits\")", file=sys.stderr)
        if not chosen:
            shutil.rmtree(run_dir, ignore_errors=True)
        return 1
    (run_dir / "nginx.conf").write_text(TEMPLATE.read_text() % filled)
    stopping: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, _frame: stopping.append(signum))
    signal.signal(signal.SIGINT, lambda signum, _frame: stopping.append(signum))
    # the workers' metric files, where serve counts the log lines it drops too
    os.environ.setdefault(MULTIPROC_ENV, str(run_dir / "metrics"))
    budget = StopBudget.from_env()
    lines, copier, (app_out, front_out) = _log_pipe()
    try:
        app = subprocess.Popen(list(gunicorn_argv), stdout=app_out,
                               env={**os.environ, SOCKET_ENV: str(socket_path),
                                    BATCH_SOCKET_ENV: str(batch_socket(socket_path)), **budget.app_env()})
    finally:
        os.close(app_out)
    front = None
    try:
        if not _wait_for(socket_path, app, stopping):
            return 0 if stopping else 1
        lines.count = logpipe.dropped_counter()
        front = subprocess.Popen([nginx, "-p", str(run_dir), "-c", str(run_dir / "nginx.conf"), "-e",
                                  "stderr"], stdout=front_out, env={**os.environ, "TZ": "UTC"})
        url = public_url()
        announced = False
        while not stopping and app.poll() is None and front.poll() is None:
            if not announced and _answers(url):
                # a log line like the others (stdout is the log pipe's): JSON, or text for a terminal
                print(logs.line("gongzhu.serve", f"serving {url} (the API's pages: {url}/docs, {url}/table)"),
                      file=sys.stderr, flush=True)
                announced = True
            time.sleep(0.2)
        return 0 if stopping else 1
    finally:
        os.close(front_out)
        _stop(front, signal.SIGQUIT, budget.front_wait_s)
        _stop(app, signal.SIGTERM, budget.app_wait_s)
        copier.join(budget.MARGIN_S)  # the last lines, written as they stopped, if stdout takes them
        if not chosen:
            shutil.rmtree(run_dir, ignore_errors=True)


def public_url() -> str:
    """The URL serve answers at, for a person to open: loopback for an address that means every interface."""
    host, port = shared.host(), shared.port()
    host = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


# our own listener, never through a proxy the environment names
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _answers(url: str) -> bool:
    """Whether ``url``'s readiness probe answers 200 now."""
    try:
        with _DIRECT.open(f"{url}/readyz", timeout=0.5) as answer:
            return answer.status == 200
    except (OSError, ValueError):
        return False


def _log_pipe() -> tuple[logpipe.LinePipe, threading.Thread, tuple[int, int]]:
    """The thread that copies gunicorn's and nginx's lines to stdout (``logpipe``), started, and the write ends
    of their pipes. nginx opens ``/dev/stdout`` anew for its access lines: on a socket (a systemd journal) that
    fails, and in a file opened without ``O_APPEND`` its lines and gunicorn's would write over each other; a
    pipe it opens anew is the pipe."""
    (app_in, app_out), (front_in, front_out) = os.pipe(), os.pipe()
    lines = logpipe.LinePipe([app_in, front_in], logpipe.nonblocking_stdout(), lambda _count: None)
    copier = threading.Thread(target=lines.run, name="log-pipe", daemon=True)
    copier.start()
    return lines, copier, (app_out, front_out)


def _wait_for(socket_path: Path, app: subprocess.Popen, stopping: list[int]) -> bool:
    """Whether gunicorn's socket appeared before it exited, the start timed out or a stop was asked."""
    deadline = time.monotonic() + START_S
    while not socket_path.exists():
        if stopping or app.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _stop(proc: subprocess.Popen | None, signum: int, wait_s: float) -> None:
    """Ask ``proc`` to stop (nginx: gracefully with SIGQUIT) and wait ``wait_s`` for it; kill it if it will not."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signum)
    try:
        proc.wait(timeout=wait_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
