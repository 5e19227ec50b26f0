"""Shared by bench/perf/http.py, bench/drills/soak.py and bench/drills/faults.py: bootstrap, wrk, the server.

- ``bootstrap()`` re-runs the calling script under ``.venv/bin/python`` (running
  ``make venv`` first when the venv is missing), so each script is one command
  from a fresh clone: ``python3 bench/perf/http.py``.
- ``ensure_wrk()`` finds wrk, installs it with apt-get when running as root, or
  exits telling the one command to run.
- ``Server`` starts the server exactly as ``make run`` does (``gongzhu-service serve``: nginx
  in front of gunicorn, ``PORT``, ``WEB_CONCURRENCY``), on 127.0.0.1 and a free port, and reads
  its gunicorn master, workers and their memory from /proc.
- ``bodies()`` are the request bodies the benchmarks send, built with the engine; ``batch_body()`` a /batch
  of many of them.
- ``run_wrk()`` runs wrk with a generated Lua script and returns its figures.

All traffic goes to 127.0.0.1; every wait is bounded.
"""
from __future__ import annotations

import sys
from pathlib import Path

# bench/perf/http.py shadows the standard library's ``http``, and a script run from bench/perf has that folder
# first on sys.path: it leaves before anything imports ``http`` (urllib.request does), for every script that
# imports this module (with bench/ on sys.path: ``import _server``)
_PERF = Path(__file__).resolve().parent / "perf"
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _PERF]

import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.request  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
VENV_PY = ROOT / ".venv" / "bin" / "python"
HOST = "127.0.0.1"


# --------------------------------------------------------------------------- bootstrap

def bootstrap() -> None:
    """Re-exec the calling script under the project's venv (creating it with make venv)."""
    if Path(sys.prefix).resolve() == (ROOT / ".venv").resolve():
        if str(ROOT) not in sys.path:
            sys.path.insert(0, str(ROOT))
        return
    if not VENV_PY.exists() or not (ROOT / ".venv" / ".stamp-test").exists():
        print("bench: creating .venv with `make venv` (one-off) ...", file=sys.stderr, flush=True)
        subprocess.run(["make", "-C", str(ROOT), "venv"], check=True)
    os.execv(str(VENV_PY), [str(VENV_PY), *sys.argv])


def ensure_wrk() -> str:
    wrk = shutil.which("wrk")
    if wrk:
        return wrk
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("bench: installing wrk (apt-get install -y wrk) ...", file=sys.stderr, flush=True)
        subprocess.run(["apt-get", "update", "-qq"], check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=False,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        wrk = shutil.which("wrk")
        if wrk:
            return wrk
    sys.exit("bench: wrk is not installed; run: sudo apt-get update && sudo apt-get install -y wrk")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def machine_notes() -> str:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "?"
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{kb / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{os.cpu_count()} CPUs ({cpu}), {mem} RAM, {platform.system()} {platform.release()}, "
            f"CPython {platform.python_version()}, load average at start {load}")


# --------------------------------------------------------------------------- /proc

def children(pid: int) -> list[int]:
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(x) for x in (task / "children").read_text().split()]
        except (OSError, ValueError):
            pass
    return sorted(set(kids))


def rss_kib(pid: int) -> dict[str, int]:
    """VmRSS and (when readable) Pss of ``pid`` in KiB; a preloaded app shares pages, so Pss
    is the fair per-worker share and Rss counts shared pages in every worker."""
    out = {"rss": 0, "pss": 0}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                out["rss"] = int(line.split()[1])
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                out["pss"] = int(line.split()[1])
    except (OSError, ValueError):
        pass
    return out


# --------------------------------------------------------------------------- server

class Server:
    """The server as ``make run`` starts it, on 127.0.0.1:<free port>; a context manager."""

    def __init__(self, workers: int = 0, log_dir: Path | None = None, env: dict | None = None,
                 app: str = "gongzhu.server.wsgi:app"):
        """``app``: the WSGI app gunicorn serves behind nginx (``constant:app``, from bench/perf/ceiling/,
        for the constant app bench/perf/http.py measures the server's ceiling with)."""
        self.app = app
        self.workers = workers or (os.cpu_count() or 1) * 2 + 1  # gunicorn_conf's default
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.log_dir = Path(log_dir or tempfile.mkdtemp(prefix="gongzhu-bench-"))
        self.log = self.log_dir / f"gunicorn-{self.port}.log"
        self.extra_env = env or {}
        self.proc: subprocess.Popen | None = None

    @property
    def command(self) -> list[str]:
        ceiling = ROOT / "bench" / "perf" / "ceiling"
        # gunicorn serves the first application named: serve's own comes last
        return [str(VENV_PY), "-m", "gongzhu", "serve",
                *(["--pythonpath", str(ceiling), self.app] if self.app.startswith("constant:") else [])]

    def start(self, timeout: float = 30.0) -> Server:
        from gongzhu.cli import MALLOC_ENV  # the allocator settings `make run` and the image start with

        env = {**MALLOC_ENV, **os.environ, "PORT": str(self.port), "HOST": HOST,
               "WEB_CONCURRENCY": str(self.workers), **self.extra_env}
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(self.command, cwd=ROOT, env=env, stdout=out,
                                         stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}:\n"
                                   f"{self.log.read_text()[-4000:]}")
            if self.ready() and len(self.worker_pids()) == self.workers:
                return self
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"gunicorn not ready in {timeout}s:\n{self.log.read_text()[-4000:]}")
            time.sleep(0.1)

    def ready(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.base}/readyz", timeout=1) as r:
                return r.status == 200
        except OSError:
            return False

    @property
    def pid(self) -> int:
        """The gunicorn master (the child of serve's process that runs gunicorn)."""
        assert self.proc is not None
        for kid in children(self.proc.pid):
            try:
                if b"gunicorn" in Path(f"/proc/{kid}/cmdline").read_bytes():
                    return kid
            except OSError:
                pass
        return self.proc.pid

    def worker_pids(self) -> list[int]:
        return children(self.pid)

    def memory(self) -> dict:
        workers = {pid: rss_kib(pid) for pid in self.worker_pids()}
        return {"master": rss_kib(self.pid), "workers": workers,
                "workers_rss_kib": sum(m["rss"] for m in workers.values()),
                "workers_pss_kib": sum(m["pss"] for m in workers.values())}

    def wait_workers(self, count: int, exclude: set[int] = frozenset(), timeout: float = 20.0) -> float:
        """Seconds until ``count`` workers run none of which is in ``exclude`` and /readyz answers."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            pids = set(self.worker_pids())
            if len(pids) == count and not pids & exclude and self.ready():
                return time.monotonic() - t0
            time.sleep(0.05)
        raise RuntimeError(f"workers not back to {count} in {timeout}s: {self.worker_pids()}")

    def stop(self, timeout: float = 40.0) -> int | None:
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


# --------------------------------------------------------------------------- bodies

def _state(decks: int, seed: int, plays: int, **rules) -> dict:
    from gongzhu import rules as engine
    r = engine.Rules(decks=decks, **rules)
    hands = engine.deal_hands(r, seed)
    leader = engine.deal.first_leader(r, hands)
    state = engine.replay(r, hands=hands, first_deal=True, leader=leader)
    made = []
    for i in range(plays):
        moves = engine.legal_moves(state)
        move = moves[(i * 7 + seed) % len(moves)]  # not always the first: a realistic spread
        made.append(move)
        state = engine.apply_move(state, move)
    return {"rules": {"decks": decks, **rules}, "first_deal": True, "leader": leader,
            "hands": [engine.format_cards(h) for h in hands], "exposed": [[], [], [], []],
            "plays": [engine.format_cards(m) for m in made]}


def bodies() -> dict[str, tuple[str, bytes]]:
    """name -> (path, JSON body): the states and sheets the benchmarks send."""
    one = _state(1, 7, 26)      # one deck, mid-deal: trick 7 of 13, lead to play
    two = _state(2, 7, 50)      # two decks, mid-deal: trick 13 of 26
    play = dict(one)
    from gongzhu import rules as engine
    st = engine.replay(engine.Rules(), hands=[[engine.cards.CARD_BY_NAME[c] for c in h] for h in one["hands"]],
                       plays=[[engine.cards.CARD_BY_NAME[c] for c in p] for p in one["plays"]],
                       leader=one["leader"])
    play["move"] = engine.format_cards(engine.legal_moves(st)[0])
    score = {"rules": {"decks": 1},
             "captured": [["SQ", "H2", "H3", "C10"], ["DJ", "HA", "HK"],
                          ["H4", "H5", "H6", "H7", "H8"], ["H9", "H10", "HJ", "HQ"]],
             "exposed": [["SQ"], [], [], ["HA"]]}
    enc = lambda b: json.dumps(b, separators=(",", ":")).encode()  # noqa: E731
    return {"legal-moves-1deck": ("/legal-moves", enc(one)),
            "legal-moves-2deck": ("/legal-moves", enc(two)),
            "score": ("/score", enc(score)),
            "play": ("/play", enc(play))}


def batch_body(count: int = 100) -> tuple[str, bytes]:
    """(path, JSON body) of a /batch of ``count`` /legal-moves calls, one-deck states mid-deal, each of its own deal."""
    enc = lambda b: json.dumps(b, separators=(",", ":")).encode()  # noqa: E731
    calls = [{"id": f"t{seed}", "method": "POST", "url": "/legal-moves", "body": _state(1, seed, 26)}
             for seed in range(1, count + 1)]
    return "/batch", enc({"requests": calls})


# --------------------------------------------------------------------------- wrk

_LUA = r"""
wrk.method = %(method)s
wrk.headers["Content-Type"] = "application/json"
%(connection)s
%(body)s
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests":%%d,"duration_us":%%d,"bytes":%%d,"connect":%%d,"read":%%d,"write":%%d,' ..
    '"status":%%d,"timeout":%%d,"p50_us":%%d,"p90_us":%%d,"p99_us":%%d,"p999_us":%%d,"max_us":%%d,"mean_us":%%.1f}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status,
    e.timeout, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9), latency.max, latency.mean))
end
"""


def lua_script(directory: Path, name: str, body: bytes | None, close: bool = False) -> Path:
    """A wrk script; ``close`` sends ``Connection: close`` (wrk then opens a connection
    per request) instead of keeping connections alive."""
    path = Path(directory) / f"{name}{'-close' if close else ''}.lua"
    connection = 'wrk.headers["Connection"] = "close"' if close else ""
    if body is None:
        text = _LUA % {"method": '"GET"', "body": "", "connection": connection}
    else:
        lit = body.decode().replace("\\", "\\\\").replace('"', '\\"')
        text = _LUA % {"method": '"POST"', "body": f'wrk.body = "{lit}"', "connection": connection}
    path.write_text(text)
    return path


def run_wrk(wrk: str, url: str, script: Path, *, seconds: float, threads: int, connections: int,
            timeout_s: int = 5) -> dict:
    cmd = [wrk, f"-t{threads}", f"-c{connections}", f"-d{max(1, round(seconds))}s",
           f"--timeout={timeout_s}s", "--latency", "-s", str(script), url]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + timeout_s + 30)
    for line in out.stdout.splitlines():
        if line.startswith("WRKJSON "):
            res = json.loads(line[len("WRKJSON "):])
            res["rps"] = res["requests"] / (res["duration_us"] / 1e6)
            res["errors"] = sum(res[k] for k in ("connect", "read", "write", "status", "timeout"))
            res["cmd"] = " ".join(cmd)
            return res
    raise RuntimeError(f"wrk gave no figures:\n{out.stdout}\n{out.stderr}")
