"""The custom worker against its alternatives, on the same drills and the same throughput rounds
(docs/deployment.md, "The worker against its alternatives": the comparison that replaced it).

One command from a fresh clone (bootstraps .venv, installs wrk and nginx with apt-get as root and
waitress into .venv with pip, none of which the tests need):

    python3 bench/drills/alternatives.py                       # every setup, every drill
    python3 bench/drills/alternatives.py --setups custom,nginx --drills slow-headers,idle-cap

Setups, each with 2 processes serving (the chart's default) and 4 request threads per process:

custom    gunicorn with ``gongzhu.server.worker.BufferedThreadWorker``, the worker ``make run`` served
          with until commit fe3594d. It no longer exists in the tree, so this setup cannot run it
          any more: ``custom`` now starts what ``make run`` starts (``gongzhu-service serve``: nginx
          in front of gunicorn's stock gthread, service/gongzhu/server/front.py). To measure the
          worker again, run this script in a checkout of fe3594d^ (``git worktree add``).
nginx     gunicorn's stock ``gthread`` worker (searches forked per worker by a ``post_fork`` hook)
          behind nginx from Debian, buffering requests and answers (``proxy_request_buffering``,
          ``proxy_buffering``), keep-alive to the upstream; nginx's timeouts and body limit as the
          worker's (10 s, 256 KiB).
waitress  waitress (its own buffering channel per connection, a task thread pool), 2 processes
          forked after the app is loaded, each serving its own SO_REUSEPORT socket on one port
          (waitress has no process manager of its own), searches forked per process.

The drills are bench/drills/faults.py's own (``--drills``, each with ``--pairs`` pairs of
``--seconds`` rounds): the server under test is swapped in for ``_server.Server``. Then
``--rounds`` ABC/CBA rounds of wrk (``-t2 -c16``, kept alive) on one-deck /legal-moves and /healthz
against every setup: requests/s and p99 of each.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("faults", _HERE / "faults.py")
faults = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(faults)  # bootstraps .venv, loads bench/_server.py as ``_server``
_server = sys.modules["_server"]

import argparse  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

ROOT = _server.ROOT
THREADS = 4
DRILLS = ("slow-headers", "idle", "slow-chunked", "expect", "claim-flood", "idle-cap", "invalid-arrays")

# post_fork: the searches' processes are forked before gthread starts its threads, as the custom worker did
GTHREAD_CONF = """from gongzhu.server.gunicorn_conf import *  # noqa: F401,F403

worker_class = "gthread"


def post_fork(server, worker):
    from gongzhu.api import searches

    searches.start()
"""

NGINX_CONF = """{user}daemon off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    client_max_body_size 256k;
    client_body_buffer_size 256k;
    client_header_timeout 10s;
    client_body_timeout 10s;
    send_timeout 10s;
    keepalive_timeout 10s;
    upstream app {{ server 127.0.0.1:{backend}; keepalive 32; }}
    server {{
        listen 127.0.0.1:{port} backlog=256;
        location / {{
            proxy_pass http://app;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_request_buffering on;
            proxy_buffering on;
            proxy_read_timeout 30s;
        }}
    }}
}}
"""

WAITRESS = """
import os, socket, sys
from gongzhu.server import gunicorn_hooks
gunicorn_hooks.prepare_metrics_dir()
from gongzhu.server.wsgi import app
from gongzhu.api import searches
import waitress
port, workers, threads = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
children = []
for _ in range(workers):
    pid = os.fork()
    if pid == 0:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(("127.0.0.1", port))
        searches.start()
        waitress.serve(app, sockets=[sock], threads=threads, connection_limit=1000, channel_timeout=10,
                       backlog=256, max_request_body_size=256 * 1024, ident="waitress")
        os._exit(0)
    children.append(pid)
import signal
signal.signal(signal.SIGTERM, lambda *_: [os.kill(c, signal.SIGKILL) for c in children] and sys.exit(0))
for _ in children:
    os.wait()
"""


def ensure_nginx() -> str:
    found = shutil.which("nginx") or (Path("/usr/sbin/nginx").exists() and "/usr/sbin/nginx")
    if not found and os.geteuid() == 0 and shutil.which("apt-get"):
        print("bench: installing nginx-light (apt-get) ...", file=sys.stderr, flush=True)
        subprocess.run(["apt-get", "update", "-qq"], check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", "nginx-light"], check=False,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        found = shutil.which("nginx") or (Path("/usr/sbin/nginx").exists() and "/usr/sbin/nginx")
    if not found:
        sys.exit("bench: nginx is not installed; run: sudo apt-get install -y nginx-light")
    return str(found)


def ensure_waitress() -> None:
    if importlib.util.find_spec("waitress") is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "waitress>=3,<4"], check=True)


class Custom(_server.Server):
    """What ``make run`` serves: since fe3594d nginx in front of gthread, no longer the custom worker."""


class GthreadBehindNginx(_server.Server):
    """Stock gthread on a private port, nginx on ``port``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.backend = _server.free_port()
        self.conf_dir = Path(tempfile.mkdtemp(prefix="gongzhu-alt-", dir=self.log_dir))
        (self.conf_dir / "gthread_conf.py").write_text(GTHREAD_CONF)
        user = "user root;\n" if os.geteuid() == 0 else ""
        (self.conf_dir / "nginx.conf").write_text(NGINX_CONF.format(
            user=user, dir=self.conf_dir, backend=self.backend, port=self.port))
        self.extra_env = {**self.extra_env, "PORT": str(self.backend)}
        self.nginx: subprocess.Popen | None = None

    @property
    def command(self) -> list[str]:
        return [str(ROOT / ".venv" / "bin" / "gunicorn"), "-c", str(self.conf_dir / "gthread_conf.py"), self.app]

    def start(self, timeout: float = 30.0):
        self.nginx = subprocess.Popen([ensure_nginx(), "-c", str(self.conf_dir / "nginx.conf"),
                                       "-e", str(self.conf_dir / "nginx-error.log")])
        # the base class sets PORT to self.port; the backend's port wins through extra_env
        try:
            return super().start(timeout)
        except BaseException:
            self.stop()
            raise

    def stop(self, timeout: float = 40.0):
        code = super().stop(timeout)
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.terminate()
            self.nginx.wait(10)
        return code


class Waitress(_server.Server):
    """waitress in ``workers`` forked processes sharing one port."""

    @property
    def command(self) -> list[str]:
        return [str(ROOT / ".venv" / "bin" / "python"), "-c", WAITRESS, str(self.port), str(self.workers),
                str(THREADS)]

    def worker_pids(self) -> list[int]:
        return _server.children(self.pid)


SETUPS = {"custom": Custom, "nginx": GthreadBehindNginx, "waitress": Waitress}


def throughput(args, wrk) -> dict:
    """ABC/CBA rounds of wrk on one-deck /legal-moves and /healthz against every setup at once."""
    path, body = _server.bodies()["legal-moves-1deck"]
    work = Path(tempfile.mkdtemp(prefix="gongzhu-alt-", dir=faults.WORK))
    script = _server.lua_script(work, "lm1", body)
    probe = _server.lua_script(work, "healthz", None)
    servers: dict = {}
    results: dict = {name: {"legal-moves": [], "healthz": []} for name in args.setups}
    try:
        for name in args.setups:
            servers[name] = SETUPS[name](workers=args.workers, log_dir=work).start()
        for srv in servers.values():
            _server.run_wrk(wrk, srv.base + path, script, seconds=1, threads=2, connections=16)
        for r in range(args.rounds):
            order = list(servers) if r % 2 == 0 else list(reversed(servers))
            for name in order:
                for target, url, lua in (("legal-moves", path, script), ("healthz", "/healthz", probe)):
                    res = _server.run_wrk(wrk, servers[name].base + url, lua, seconds=args.seconds,
                                          threads=2, connections=16)
                    results[name][target].append(res)
    finally:
        for srv in servers.values():
            srv.stop()
    summary = {}
    for name, by_target in results.items():
        summary[name] = {}
        for target, runs in by_target.items():
            rps = sum(r["requests"] for r in runs) / sum(r["duration_us"] / 1e6 for r in runs)
            summary[name][target] = {"rps": round(rps), "p99_ms": max(r["p99_us"] for r in runs) / 1000,
                                     "errors": sum(r["errors"] for r in runs)}
        print(f"throughput {name}: " + "; ".join(
            f"{t} {v['rps']} req/s, p99 {v['p99_ms']} ms, errors {v['errors']}" for t, v in summary[name].items()),
            flush=True)
    return summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--setups", default=",".join(SETUPS),
                    help="custom (now make run's server: the custom worker is gone), nginx, waitress")
    ap.add_argument("--drills", default=",".join(DRILLS), help="faults.py scenarios, or none")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--pairs", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=2, help="throughput: ABC/CBA rounds")
    args = ap.parse_args()
    args.setups = args.setups.split(",")
    drills = [d for d in args.drills.split(",") if d and d != "none"]
    wrk = _server.ensure_wrk()
    if "nginx" in args.setups:
        ensure_nginx()
    if "waitress" in args.setups:
        ensure_waitress()
    print(f"# {_server.machine_notes()}", flush=True)
    # faults.py's own options, with its defaults
    drill_args = argparse.Namespace(seconds=args.seconds, workers=args.workers, pairs=args.pairs, lm_connections=4,
                                    idle=64, idle_cap=2200, slow_headers=16, attackers=0)
    original = _server.Server
    for name in args.setups:
        _server.Server = SETUPS[name]
        try:
            for drill in drills:
                print(f"== {name}: {drill}", flush=True)
                try:
                    faults.SCENARIOS[drill](drill_args, wrk)
                except Exception as error:  # noqa: BLE001 — a setup that fails a drill is a finding
                    print(f"  {name} {drill}: failed: {error!r}"[:2000], flush=True)
        finally:
            _server.Server = original
    if args.rounds:
        throughput(args, wrk)


if __name__ == "__main__":
    main()
