"""What metrics and nginx's JSON access lines cost on /legal-moves, against /healthz, in one run.

One command from a fresh clone (bootstraps .venv with ``make venv``, installs wrk as root):

    python3 bench/perf/telemetry.py                         # 4 rounds x 3 s per side, 2 workers each
    python3 bench/perf/telemetry.py --rounds 6 --seconds 5 --workers 2 --threads 2 --connections 16
    python3 bench/perf/telemetry.py --parts --workers 1 --threads 1 --connections 4   # which part costs what

Two gunicorn servers start as ``make run`` does, side by side on 127.0.0.1: **on** (the
defaults: Prometheus metrics and JSON access lines) and **off** (``GONGZHU_METRICS=off
GONGZHU_ACCESS_LOG=off``). Each round runs wrk against /healthz and /legal-moves (one
deck, mid-deal: ``bench/_server.py: bodies()``) on both servers, in ABBA order from round
to round, so background load hits every side alike. Figures: requests/s (all requests
of all rounds / their time), p50 (median of the rounds'), the workers' CPU time per
request (user + system from /proc, so the machine's other load counts little),
/legal-moves ÷ /healthz per server by throughput and by CPU per request (the target:
≥ 0.8 with metrics and logs on), and on ÷ off per endpoint.

Then an in-process figure: CPU microseconds per WSGI request for /healthz and /legal-moves
with the middleware's metrics on and off (the access line is nginx's, not the application's).

``--parts`` instead runs four servers on /healthz only: nothing, metrics only, access
line only, both; the workers' CPU per request says what each part costs.
"""
from __future__ import annotations

import sys
from pathlib import Path

# bench/: its _server (loaded once, by its name) keeps bench/perf, whose http.py shadows the stdlib, off sys.path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _server  # noqa: E402

_server.bootstrap()

import argparse  # noqa: E402
import io  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

TARGET = 0.8
BODY = "legal-moves-1deck"
OFF = {"GONGZHU_METRICS": "off", "GONGZHU_ACCESS_LOG": "off"}
BATCHES = 7
ON = {"GONGZHU_LOG_FORMAT": "json"}


# --parts: each part alone on /healthz (the access line, the metrics), against none and both.
PARTS = {"off": OFF, "metrics": {"GONGZHU_ACCESS_LOG": "off"},
         "access line": {"GONGZHU_METRICS": "off"}, "on": ON}


def measure(args, configs: dict[str, dict], endpoints: tuple[str, ...]) -> dict:
    """Figures per (configuration, endpoint): one server per configuration, ABBA rounds."""
    wrk = _server.ensure_wrk()
    work = Path(tempfile.mkdtemp(prefix="gongzhu-telemetry-"))
    path, body = _server.bodies()[BODY]
    scripts = {"/healthz": _server.lua_script(work, "healthz", None),
               path: _server.lua_script(work, "legal", body)}
    scripts = {endpoint: scripts[endpoint] for endpoint in endpoints}
    opts = dict(threads=args.threads, connections=args.connections)
    servers = {name: _server.Server(workers=args.workers, log_dir=work, env=env)
               for name, env in configs.items()}
    runs: dict[tuple[str, str], list[dict]] = {}
    try:
        for srv in servers.values():
            srv.start()
        sides = [(name, endpoint) for name in servers for endpoint in scripts]
        for name, endpoint in sides:  # warm-up
            _server.run_wrk(wrk, servers[name].base + endpoint, scripts[endpoint], seconds=1, **opts)
        for r in range(args.rounds):
            for name, endpoint in (sides if r % 2 == 0 else sides[::-1]):
                cpu_before = workers_cpu_s(servers[name])
                res = _server.run_wrk(wrk, servers[name].base + endpoint, scripts[endpoint],
                                      seconds=args.seconds, **opts)
                res["cpu_s"] = workers_cpu_s(servers[name]) - cpu_before
                runs.setdefault((name, endpoint), []).append(res)
                print(f"  round {r + 1} {name:11} {endpoint:13} {res['rps']:8.0f} req/s "
                      f"p50 {res['p50_us'] / 1000:6.2f} ms errors {res['errors']}", flush=True)
    finally:
        for srv in servers.values():
            srv.stop()
    return {side: summary(rounds) for side, rounds in runs.items()}


def workers_cpu_s(server) -> float:
    """User + system CPU seconds used so far by the server's workers (/proc/<pid>/stat)."""
    total = 0
    for pid in server.worker_pids():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / os.sysconf("SC_CLK_TCK")


def summary(rounds: list[dict]) -> dict:
    requests = sum(r["requests"] for r in rounds)
    seconds = sum(r["duration_us"] for r in rounds) / 1e6
    return {"rps": requests / seconds, "p50_ms": statistics.median(r["p50_us"] for r in rounds) / 1000,
            "errors": sum(r["errors"] for r in rounds),
            "cpu_us": sum(r["cpu_s"] for r in rounds) / requests * 1e6}


def in_process(calls: int) -> dict[str, dict[str, float]]:
    """µs per WSGI request, telemetry on and off, best of seven alternating batches."""
    # prometheus_client in multiprocess mode, as under gunicorn (read when first imported)
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="gongzhu-metrics-"))
    from werkzeug.test import EnvironBuilder

    from gongzhu.api import create_app

    _, body = _server.bodies()[BODY]
    apps = {}
    for name, env in (("off", OFF), ("on", {})):
        saved = {k: os.environ.pop(k, None) for k in OFF}
        os.environ.update(env)
        apps[name] = create_app()
        for k, v in saved.items():
            os.environ.pop(k, None)
            if v is not None:
                os.environ[k] = v
    requests = {"/healthz": EnvironBuilder(path="/healthz").get_environ(),
                "/legal-moves": EnvironBuilder(path="/legal-moves", method="POST", data=body,
                                               content_type="application/json").get_environ()}
    best = {name: {endpoint: float("inf") for endpoint in requests} for name in apps}
    # Batches alternate between the sides, so background load hits both alike.
    for _ in range(BATCHES):
        for name, app in apps.items():
            for endpoint, environ in requests.items():
                best[name][endpoint] = min(best[name][endpoint], per_call(app, environ, calls))
    return best


def per_call(app, template: dict, calls: int) -> float:
    """CPU µs per call of ``app`` on a copy of ``template`` (its body re-read each time)."""
    if "body" not in template:
        template["body"] = template["wsgi.input"].read()
    body = template["body"]

    def start_response(status, headers, exc_info=None):
        return None

    t0 = time.process_time()  # this process's CPU time: other processes' load counts little
    for _ in range(calls):
        environ = dict(template)
        environ["wsgi.input"] = io.BytesIO(body)
        answer = app(environ, start_response)
        for _chunk in answer:
            pass
        close = getattr(answer, "close", None)
        if close is not None:
            close()
    return (time.process_time() - t0) / calls * 1e6


def report(args, figures: dict, micro: dict) -> None:
    print(f"\n# bench/perf/telemetry.py — {_server.machine_notes()}")
    print(f"# {args.workers} workers per server, wrk -t{args.threads} -c{args.connections}, "
          f"{args.rounds} rounds x {args.seconds:g} s per side, ABBA\n")
    print("| server | /healthz req/s | p50 | worker CPU/req | /legal-moves req/s | p50 | worker CPU/req "
          "| errors | ratio (req/s) | ratio (CPU/req) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in ("on", "off"):
        h, lm = figures[(name, "/healthz")], figures[(name, "/legal-moves")]
        print(f"| {name} | {h['rps']:,.0f} | {h['p50_ms']:.2f} ms | {h['cpu_us']:.0f} µs | "
              f"{lm['rps']:,.0f} | {lm['p50_ms']:.2f} ms | {lm['cpu_us']:.0f} µs | "
              f"{h['errors'] + lm['errors']} | {lm['rps'] / h['rps']:.2f} | {h['cpu_us'] / lm['cpu_us']:.2f} |")
    on_h, on_lm = figures[("on", "/healthz")], figures[("on", "/legal-moves")]
    for label, ratio in (("requests/s", on_lm["rps"] / on_h["rps"]),
                         ("worker CPU per request", on_h["cpu_us"] / on_lm["cpu_us"])):
        print(f"\nwith metrics and JSON logs on, by {label}: /legal-moves = {ratio:.2f} x /healthz "
              f"(target >= {TARGET}): {'MET' if ratio >= TARGET else 'MISSED'}", end="")
    print()
    for endpoint in ("/healthz", "/legal-moves"):
        on, off = figures[("on", endpoint)], figures[("off", endpoint)]
        print(f"{endpoint}: on / off = {on['rps'] / off['rps']:.2f} by requests/s, "
              f"+{on['cpu_us'] - off['cpu_us']:.0f} µs worker CPU per request")
    print("\nin-process, CPU µs per WSGI request (best of 7 alternating batches):")
    for endpoint in ("/healthz", "/legal-moves"):
        off, on = micro["off"][endpoint], micro["on"][endpoint]
        print(f"  {endpoint:13} off {off:7.1f}  on {on:7.1f}  telemetry {on - off:6.1f}")


def report_parts(args, figures: dict) -> None:
    print(f"\n# bench/perf/telemetry.py --parts — {_server.machine_notes()}")
    print(f"# {args.workers} workers per server, wrk -t{args.threads} -c{args.connections}, "
          f"{args.rounds} rounds x {args.seconds:g} s per side, ABBA; /healthz\n")
    off = figures[("off", "/healthz")]["cpu_us"]
    print("| server | req/s | p50 | worker CPU/req | over off |")
    print("|---|---|---|---|---|")
    for name in PARTS:
        f = figures[(name, "/healthz")]
        print(f"| {name} | {f['rps']:,.0f} | {f['p50_ms']:.2f} ms | {f['cpu_us']:.0f} µs | "
              f"{f['cpu_us'] - off:+.0f} µs |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=3.0, help="per wrk round (whole seconds)")
    ap.add_argument("--workers", type=int, default=2, help="WEB_CONCURRENCY of each server")
    ap.add_argument("--threads", type=int, default=2, help="wrk threads")
    ap.add_argument("--connections", type=int, default=16, help="wrk connections")
    ap.add_argument("--calls", type=int, default=2000, help="in-process calls per batch")
    ap.add_argument("--parts", action="store_true",
                    help="instead: /healthz with nothing, metrics only, access line only, both")
    args = ap.parse_args()
    if args.parts:
        report_parts(args, measure(args, PARTS, ("/healthz",)))
        return
    figures = measure(args, {"on": ON, "off": OFF}, ("/healthz", "/legal-moves"))
    micro = in_process(args.calls)
    report(args, figures, micro)


if __name__ == "__main__":
    main()
