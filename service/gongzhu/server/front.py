"""``gongzhu-service serve``: nginx on ``HOST:PORT`` in front of gunicorn's stock gthread workers on a
unix socket, both started and watched by this process.

nginx reads every request whole and holds every answer until its client has read it, so a slow,
idle or hostile client never holds a request thread; its refusals are answered by the application
(``nginx.conf``). The run directory (``GONGZHU_RUN_DIR``, else a private temporary one) holds the
socket, nginx's configuration and the bodies in transit. On SIGTERM or SIGINT nginx stops taking
requests and finishes those it holds, then gunicorn drains its own; if either dies, the other is
stopped and the exit status is 1. Why nginx and not our own worker: docs/deployment.md.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from gongzhu.server.logs import switched_off, text_lines

TEMPLATE = Path(__file__).with_name("nginx.conf")
SOCKET_ENV = "GONGZHU_SOCKET"
NGINX_PACKAGE = "nginx-light"
START_S = 30.0


def settings(run_dir: Path, socket_path: Path) -> dict[str, str]:
    """nginx.conf's placeholders, from the environment gunicorn_conf.py reads too."""
    env = os.environ.get
    host, port = env("HOST", "127.0.0.1"), env("PORT", "8080")
    timeout = float(env("GUNICORN_REQUEST_TIMEOUT", "10"))
    return {"run_dir": str(run_dir), "socket": str(socket_path),
            "listen": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
            "connections": env("GONGZHU_FRONT_CONNECTIONS", "4096"),
            "backlog": env("GUNICORN_BACKLOG", "256"),
            "max_body": env("GONGZHU_MAX_BODY", str(256 * 1024)),
            "max_batch_body": env("GONGZHU_MAX_BATCH_BODY", str(2 * 1024 * 1024)),
            "timeout": f"{timeout:g}", "read_timeout": f"{timeout + 20:g}",
            "keepalive": env("GUNICORN_KEEPALIVE", "10"), "access_log": access_log()}


def access_log() -> str:
    """nginx's ``access_log``: stdout in the format ``GONGZHU_LOG_FORMAT`` names (JSON unless ``text``),
    written at least every 50 ms; ``off`` when ``GONGZHU_ACCESS_LOG`` says so."""
    if switched_off("GONGZHU_ACCESS_LOG"):
        return "off"
    return f"/dev/stdout {'text' if text_lines() else 'json'} buffer=32k flush=50ms"


def run(gunicorn_argv: Sequence[str]) -> int:
    """Serve until told to stop; the exit status."""
    nginx = shutil.which("nginx", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin"]))
    if nginx is None:
        print(f"gongzhu-service: serve needs nginx in front of gunicorn, and it is not installed: "
              f"apt-get install {NGINX_PACKAGE}", file=sys.stderr)
        return 1
    chosen = os.environ.get("GONGZHU_RUN_DIR")
    run_dir = Path(chosen or tempfile.mkdtemp(prefix="gongzhu-run-"))
    run_dir.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        # nginx's workers run as nobody when started by root: they must reach the socket, not list the dir
        run_dir.chmod(0o711)
    socket_path = run_dir / "gunicorn.sock"
    socket_path.unlink(missing_ok=True)
    (run_dir / "nginx.conf").write_text(TEMPLATE.read_text() % settings(run_dir, socket_path))
    stopping: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, _frame: stopping.append(signum))
    signal.signal(signal.SIGINT, lambda signum, _frame: stopping.append(signum))
    app = subprocess.Popen(list(gunicorn_argv), env={**os.environ, SOCKET_ENV: str(socket_path)})
    front = copier = None
    try:
        if not _wait_for(socket_path, app, stopping):
            return 0 if stopping else 1
        read_end, write_end = os.pipe()
        copier = threading.Thread(target=_copy_lines, args=(read_end,), name="nginx-stdout")
        copier.start()
        try:
            front = subprocess.Popen([nginx, "-p", str(run_dir), "-c", str(run_dir / "nginx.conf"), "-e",
                                      "stderr"], stdout=write_end, env={**os.environ, "TZ": "UTC"})
        finally:
            os.close(write_end)
        while not stopping and app.poll() is None and front.poll() is None:
            time.sleep(0.2)
        return 0 if stopping else 1
    finally:
        _stop(front, signal.SIGQUIT)
        _stop(app, signal.SIGTERM)
        if copier is not None:
            copier.join(5)  # nginx's last lines, written as it stopped
        if not chosen:
            shutil.rmtree(run_dir, ignore_errors=True)


def _copy_lines(read_end: int) -> None:
    """nginx's stdout, a pipe, copied to this process's, where gunicorn writes. nginx opens ``/dev/stdout``
    anew for its access lines: on a socket (a systemd journal) that fails, and in a file opened without
    ``O_APPEND`` its lines and gunicorn's would write over each other; a pipe it opens anew is the pipe."""
    with open(read_end, "rb", buffering=0) as lines:
        while chunk := lines.read(65536):
            try:
                sys.stdout.buffer.write(chunk)
                sys.stdout.buffer.flush()
            except (OSError, ValueError):  # no reader left: nginx must not block on a full pipe
                continue


def _wait_for(socket_path: Path, app: subprocess.Popen, stopping: list[int]) -> bool:
    """Whether gunicorn's socket appeared before it exited, the start timed out or a stop was asked."""
    deadline = time.monotonic() + START_S
    while not socket_path.exists():
        if stopping or app.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _stop(proc: subprocess.Popen | None, signum: int) -> None:
    """Ask ``proc`` to stop (nginx: gracefully with SIGQUIT) and wait for it; kill it if it will not."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signum)
    try:
        proc.wait(timeout=40)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
