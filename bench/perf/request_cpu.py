"""In-process CPU per request of each build, in one run: the compiled build, the pure build, and another
checkout (e.g. main) side by side, alternating rounds.

    python bench/perf/request_cpu.py                                   # compiled and pure
    python bench/perf/request_cpu.py --base DIR                       # and DIR's source, pure

``DIR`` is another checkout's root, e.g. ``git archive main | tar -x -C DIR`` into an empty folder.

Each round starts one process per build (the installed package; a pure copy of this source,
``bench/_builds.py``; ``--base DIR``'s ``service/``, pure) in turn, in ABC/CBA order. Each
process builds the app as ``make run`` does and times whole WSGI calls (no server, no sockets;
each answer closed as a server closes it, so the metrics count; the access lines are nginx's):
for each body of ``bench/perf/http.py``
(``/legal-moves`` one and two decks mid-deal, ``/score``, ``/play``) and ``/healthz``, the
best of 3 passes of ``--calls`` calls in process CPU time. Printed: each build's median
over the rounds, in µs a request, and the ratios compiled/base, pure/base and compiled/pure
(the median of each round's ratio).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# bench/perf/http.py shadows the standard library's ``http``: keep bench/ off sys.path, load helpers by path.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]


def _load(name: str, file: str):
    spec = importlib.util.spec_from_file_location(name, HERE / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_builds = _load("_builds", "../_builds.py")
_server = _load("_server", "../_server.py")
_server.bootstrap()

NAMES = ("healthz", "legal-moves-1deck", "legal-moves-2deck", "score", "play")


def inner(calls: int) -> None:
    """One build's figures, as JSON on stdout (run in a child process)."""
    bench_http = _load("bench_http", "http.py")
    from gongzhu import about
    from gongzhu.api import create_app

    app = create_app()
    figures = {"healthz": bench_http._cpu_us(bench_http._wsgi_call(app, "GET", "/healthz", None), calls)}
    for name, (path, raw) in _server.bodies().items():
        figures[name] = bench_http._cpu_us(bench_http._wsgi_call(app, "POST", path, raw), calls)
    figures["engine"] = about.build_info()["engine"]
    print(json.dumps(figures))


def run(env: dict[str, str] | None, calls: int) -> dict:
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--inner", "--calls", str(calls)],
                         env=env, capture_output=True, text=True, check=False, cwd="/")
    if out.returncode:
        sys.exit(out.stderr[-3000:])
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--base", type=Path, help="another checkout's root (its service/ runs pure)")
    ap.add_argument("--pure-dir", type=Path, help="where the pure copy goes (default: a new temporary folder)")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:
        inner(args.calls)
        return
    if not 1 <= args.rounds <= 50 or not 100 <= args.calls <= 100_000:
        sys.exit("rounds 1..50, calls 100..100000")
    print(f"# {_server.machine_notes()}", flush=True)
    pure_dir = args.pure_dir or Path(tempfile.mkdtemp(prefix="gongzhu-pure-")) / "pure"
    envs: dict[str, dict[str, str] | None] = {"compiled": None,
                                              "pure": _builds.pure_env(_builds.pure_copy(pure_dir))}
    if args.base:
        envs["base"] = _builds.pure_env(args.base.resolve() / "service")
    builds = list(envs)
    rows: dict[str, list[dict]] = {build: [] for build in builds}
    for round_ in range(args.rounds):
        order = builds if round_ % 2 == 0 else builds[::-1]
        for build in order:
            rows[build].append(run(envs[build], args.calls))
        print(f"round {round_ + 1}: " + "; ".join(
            f"{b} legal-moves-1deck {rows[b][-1]['legal-moves-1deck']:.1f} µs" for b in builds), flush=True)
    engine = rows["compiled"][0]["engine"]
    if engine != "compiled":
        print(f"# warning: the installed build is {engine}, not compiled (make venv)", flush=True)
    print("# in-process CPU µs a request, median of the rounds (each round: best of 3 passes of "
          f"{args.calls} calls)", flush=True)
    for build in builds:
        print(f"{build:8s} " + ", ".join(
            f"{name} {statistics.median(r[name] for r in rows[build]):.1f}" for name in NAMES), flush=True)
    pairs = [("compiled", "pure")] + ([("compiled", "base"), ("pure", "base")] if args.base else [])
    print("# ratios: the median of each round's ratio", flush=True)
    for a, b in pairs:
        print(f"{a}/{b} " + ", ".join(
            f"{name} ×{statistics.median(x[name] / y[name] for x, y in zip(rows[a], rows[b])):.2f}"
            for name in NAMES), flush=True)


if __name__ == "__main__":
    main()
