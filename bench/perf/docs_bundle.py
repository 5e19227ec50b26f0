"""What the documentation's largest file costs nginx: wrk's clients loop on ``GET /docs/swagger-ui-bundle.js``
with ``Accept-Encoding: gzip`` against the server as ``make run`` starts it (1 worker), and the script prints
answers/s, bytes per answer and the CPU seconds nginx's one worker spent per second of load.

    python3 bench/perf/docs_bundle.py [--seconds 10] [--connections 16]

nginx compressing each answer (gzip on a proxied answer) is bounded by that worker's core; sending a file
compressed once (``gzip_static``) is not. Run it on two checkouts to compare (docs/deployment.md, "Limits and
the server's own answers").
"""
from __future__ import annotations

import sys
from pathlib import Path

# bench/: its _server (loaded once, by its name) keeps bench/perf, whose http.py shadows the stdlib, off sys.path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import argparse  # noqa: E402
import os  # noqa: E402

import _server  # noqa: E402

PATH = "/docs/swagger-ui-bundle.js"


def nginx_worker(serve_pid: int) -> int:
    """The pid of nginx's one worker: the child of the nginx master under ``serve``."""
    for kid in _server.children(serve_pid):
        if b"nginx" in Path(f"/proc/{kid}/cmdline").read_bytes():
            [worker] = _server.children(kid)
            return worker
    raise RuntimeError("no nginx under serve")


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of ``pid``, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    _server.bootstrap()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    wrk = _server.ensure_wrk()
    with _server.Server(workers=1) as server:
        script = Path(server.log_dir) / "docs-bundle.lua"
        script.write_text(_server._LUA % {"method": '"GET"', "body": "",
                                          "connection": 'wrk.headers["Accept-Encoding"] = "gzip"'})
        worker = nginx_worker(server.proc.pid)
        before = cpu_seconds(worker)
        result = _server.run_wrk(wrk, server.base + PATH, script, seconds=args.seconds, threads=2,
                                 connections=args.connections)
        busy = (cpu_seconds(worker) - before) / (result["duration_us"] / 1e6)
    print(_server.machine_notes())
    print(f"GET {PATH} (gzip), {args.connections} connections, {args.seconds:g} s: {result['rps']:.0f} answers/s, "
          f"{result['bytes'] / max(result['requests'], 1) / 1024:.0f} KiB each, p99 {result['p99_us'] / 1000:.1f} ms, "
          f"errors {result['errors']}; nginx's worker busy {busy:.2f} of a core")
    print(f"command: {result['cmd']}")


if __name__ == "__main__":
    main()
