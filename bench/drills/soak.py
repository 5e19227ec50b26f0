"""Soak: minutes of mixed valid and invalid load; worker memory, 5xx and the contract.

One command from a fresh clone (bootstraps .venv with ``make venv``, installs wrk as root):

    python3 bench/drills/soak.py                # 5 minutes
    python3 bench/drills/soak.py --minutes 1 --workers 5 --threads 2 --connections 16

gunicorn starts exactly as ``make run`` does, on 127.0.0.1:<free port>. wrk cycles a mix
of requests (valid: one- and two-deck /legal-moves, /play, /score, /deal, /ranks,
/healthz; invalid: malformed JSON 400, wrong media type 415, unknown field 422,
inconsistent deal 422, illegal play 422, unknown path 404, wrong method 405) and counts
answers by status class. Meanwhile a sampler sends the same mix plus oversized bodies
(413) a few times a second and validates each answer against openapi.yaml with
openapi-core. Worker RSS/PSS is read from /proc after a warm-up, every 30 s, and at the
end. Pass: zero 5xx, zero socket errors, every sampled answer valid, no memory growth
beyond noise (reported, judged by the reader: the last sample against the first).
"""
from __future__ import annotations

import sys
from pathlib import Path

# bench/: its _server (loaded once, by its name) keeps bench/perf, whose http.py shadows the stdlib, off sys.path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _server  # noqa: E402

_server.bootstrap()

import argparse  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402

import requests  # noqa: E402

JSON = "application/json"


def mix() -> list[tuple[str, str, str | None, bytes | None, int]]:
    """(name, method, path, content type, body, expected status)."""
    b = _server.bodies()
    one = json.loads(b["legal-moves-1deck"][1])
    bad_deal = dict(one, plays=one["plays"][:-1] + [["SQ"]] if one["plays"][-1] != ["SQ"] else [["H2"]])
    bad_play = dict(json.loads(b["play"][1]), move=["C2"])
    unknown = dict(one, colour="red")
    enc = lambda o: json.dumps(o).encode()  # noqa: E731
    return [
        ("legal-moves-1deck", "POST", "/legal-moves", JSON, b["legal-moves-1deck"][1], 200),
        ("legal-moves-2deck", "POST", "/legal-moves", JSON, b["legal-moves-2deck"][1], 200),
        ("play", "POST", "/play", JSON, b["play"][1], 200),
        ("score", "POST", "/score", JSON, b["score"][1], 200),
        ("deal", "POST", "/deal", JSON, enc({"seed": 42}), 200),
        ("ranks", "GET", "/ranks", None, None, 200),
        ("healthz", "GET", "/healthz", None, None, 200),
        ("malformed-json", "POST", "/legal-moves", JSON, b'{"hands": [', 400),
        ("wrong-media-type", "POST", "/score", "text/plain", b["score"][1], 415),
        ("unknown-field", "POST", "/legal-moves", JSON, enc(unknown), 422),
        ("inconsistent-deal", "POST", "/legal-moves", JSON, enc(bad_deal), 422),
        ("illegal-play", "POST", "/play", JSON, enc(bad_play), 422),
        ("unknown-path", "GET", "/nowhere", None, None, 404),
        ("wrong-method", "GET", "/legal-moves", None, None, 405),
    ]


_LUA = r"""
local reqs = {}
%(reqs)s
local i = 0
c = {}  -- global: done() reads it with thread:get
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args)
  i = math.random(#reqs) - 1
  c = {s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0}
end
function request()
  i = i %% #reqs + 1
  return reqs[i][1]
end
function response(status, headers, body)
  local k = "s" .. math.floor(status / 100)
  c[k] = (c[k] or 0) + 1
  -- a thread's connections interleave, so an answer cannot be paired with its request
  -- here: the sampler checks exact statuses; wrk counts classes (expected 2xx share below)
end
function done(summary, latency, requests)
  local t = {s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0}
  for _, th in ipairs(threads) do
    local tc = th:get("c")
    for k, v in pairs(tc) do t[k] = (t[k] or 0) + v end
  end
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests":%%d,"duration_us":%%d,"connect":%%d,"read":%%d,"write":%%d,"timeout":%%d,' ..
    '"s2":%%d,"s3":%%d,"s4":%%d,"s5":%%d,"p50_us":%%d,"p99_us":%%d,"max_us":%%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.timeout,
    t.s2, t.s3, t.s4, t.s5, latency:percentile(50), latency:percentile(99), latency.max))
end
"""


def lua(directory: Path, items) -> Path:
    lines = []
    for _name, method, path, ctype, body, status in items:
        headers = "{}" if ctype is None else '{["Content-Type"] = "' + ctype + '"}'
        lit = "nil" if body is None else '"' + body.decode().replace("\\", "\\\\").replace('"', '\\"') + '"'
        lines.append(f'table.insert(reqs, {{wrk.format("{method}", "{path}", {headers}, {lit}), {status}}})')
    p = directory / "soak.lua"
    p.write_text(_LUA % {"reqs": "\n".join(lines)})
    return p


class Sampler(threading.Thread):
    """Sends the mix (plus oversized bodies) at a few per second; validates with openapi-core."""

    def __init__(self, base: str, items, stop: threading.Event, period: float):
        super().__init__(daemon=True)
        from openapi_core import Config, OpenAPI
        config = Config(extra_media_type_deserializers={"application/problem+json": json.loads})
        self.openapi = OpenAPI.from_file_path(str(_server.ROOT / "service" / "gongzhu" / "openapi.yaml"),
                                              config=config)
        self.base, self.stop, self.period = base, stop, period
        big = b'{"hands": [' + b'"SQ",' * 60_000 + b'"SQ"]}'  # ~300 KB > the 256 KiB limit
        self.items = list(items) + [("oversized", "POST", "/legal-moves", JSON, big, 413)]
        self.counts: Counter = Counter()
        self.failures: list[str] = []

    def check(self, name, method, path, ctype, body, expected) -> None:
        from openapi_core.testing import MockRequest, MockResponse
        headers = {"Content-Type": ctype} if ctype else {}
        try:
            r = requests.request(method, self.base + path, data=body, headers=headers, timeout=10)
        except requests.RequestException as error:
            self.counts["socket_error"] += 1
            self.failures.append(f"{name}: {error!r}")
            return
        self.counts["sampled"] += 1
        if r.status_code >= 500:
            self.counts["5xx"] += 1
        if r.status_code != expected:
            self.failures.append(f"{name}: status {r.status_code}, expected {expected}")
        ctype_out = r.headers.get("Content-Type", "").split(";")[0]
        if expected in (404, 405):  # no operation in the contract to validate against
            ok = ctype_out == "application/problem+json" and r.json().get("status") == expected
            self.counts["valid" if ok else "invalid"] += 1
            if not ok:
                self.failures.append(f"{name}: not a problem document: {r.text[:200]}")
            return
        req = MockRequest("http://localhost:8080", method.lower(), path, data=body,
                          content_type=ctype or JSON)
        resp = MockResponse(r.content, status_code=r.status_code, content_type=ctype_out)
        try:
            self.openapi.validate_response(req, resp)
            self.counts["valid"] += 1
        except Exception as error:  # noqa: BLE001 - any contract failure is reported
            self.counts["invalid"] += 1
            self.failures.append(f"{name}: {type(error).__name__}: {error}"[:300])

    def run(self) -> None:
        i = 0
        while not self.stop.is_set() and i < 100_000:
            self.check(*self.items[i % len(self.items)])
            i += 1
            self.stop.wait(self.period)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--workers", type=int, default=0, help="WEB_CONCURRENCY (default 2 x cores + 1)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--sample-period", type=float, default=0.2, help="seconds between sampled requests")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    if not 0.1 <= args.minutes <= 120:
        sys.exit("--minutes 0.1..120")
    wrk = _server.ensure_wrk()
    print(f"# {_server.machine_notes()}", flush=True)
    work = Path(tempfile.mkdtemp(prefix="gongzhu-soak-"))
    items = mix()
    script = lua(work, items)
    seconds = int(args.minutes * 60)
    with _server.Server(workers=args.workers, log_dir=work) as srv:
        warm = min(20, max(3, seconds // 10))
        cmd = [wrk, f"-t{args.threads}", f"-c{args.connections}", f"-d{seconds}s", "--timeout=10s",
               "--latency", "-s", str(script), srv.base]
        print(f"# gunicorn {srv.workers} workers on {srv.base}; {' '.join(cmd)}", flush=True)
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        stop = threading.Event()
        sampler = Sampler(srv.base, items, stop, args.sample_period)
        time.sleep(warm)  # warm-up: caches, allocator arenas
        pids0 = srv.worker_pids()
        samples = [(warm, srv.memory())]
        print(f"t={warm:4d}s workers RSS {samples[0][1]['workers_rss_kib'] / 1024:.1f} MiB "
              f"PSS {samples[0][1]['workers_pss_kib'] / 1024:.1f} MiB", flush=True)
        sampler.start()
        t0 = time.monotonic() - warm
        while proc.poll() is None and time.monotonic() - t0 < seconds + 60:
            time.sleep(min(30, max(1, seconds - (time.monotonic() - t0) - 2)))
            if proc.poll() is None:
                t = round(time.monotonic() - t0)
                samples.append((t, srv.memory()))
                m = samples[-1][1]
                print(f"t={t:4d}s workers RSS {m['workers_rss_kib'] / 1024:.1f} MiB "
                      f"PSS {m['workers_pss_kib'] / 1024:.1f} MiB", flush=True)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        stop.set()
        sampler.join(timeout=15)
        final = srv.memory()
        pids1 = srv.worker_pids()
    res = next((json.loads(line[8:]) for line in out.splitlines() if line.startswith("WRKJSON ")), None)
    if res is None:
        sys.exit(f"wrk gave no figures:\n{out}\n{err}")
    res["rps"] = res["requests"] / (res["duration_us"] / 1e6)
    expected_2xx = sum(1 for item in items if item[-1] < 300) / len(items)
    first = samples[0][1]
    per_worker = {pid: (first["workers"].get(pid, {}).get("rss", 0), final["workers"].get(pid, {}).get("rss", 0))
                  for pid in pids0}
    report = {"machine": _server.machine_notes(), "command": " ".join(cmd), "workers": srv.workers,
              "wrk": res, "sampler": dict(sampler.counts), "failures": sampler.failures[:20],
              "rss_kib": {"first": first["workers_rss_kib"], "last": final["workers_rss_kib"],
                          "per_worker_first_last": per_worker},
              "pss_kib": {"first": first["workers_pss_kib"], "last": final["workers_pss_kib"]},
              "memory_series": [(t, m["workers_rss_kib"], m["workers_pss_kib"]) for t, m in samples],
              "workers_restarted": sorted(set(pids0) ^ set(pids1))}
    print(f"wrk: {res['requests']} requests in {res['duration_us'] / 1e6:.0f}s = {res['rps']:.0f} req/s; "
          f"2xx {res['s2']} 4xx {res['s4']} 5xx {res['s5']} "
          f"(expected 2xx share {expected_2xx:.0%}, got {res['s2'] / max(1, res['requests']):.0%}); "
          f"socket errors connect {res['connect']} read {res['read']} write {res['write']} "
          f"timeout {res['timeout']}; p50 {res['p50_us'] / 1000:.2f} ms p99 {res['p99_us'] / 1000:.2f} ms "
          f"max {res['max_us'] / 1000:.1f} ms")
    c = sampler.counts
    print(f"sampler: {c['sampled']} answers, {c['valid']} valid against openapi.yaml, {c['invalid']} not, "
          f"5xx {c['5xx']}, socket errors {c['socket_error']}")
    for f in sampler.failures[:10]:
        print("  ", f)
    print(f"workers RSS {first['workers_rss_kib'] / 1024:.1f} -> {final['workers_rss_kib'] / 1024:.1f} MiB "
          f"(PSS {first['workers_pss_kib'] / 1024:.1f} -> {final['workers_pss_kib'] / 1024:.1f} MiB); "
          "per worker KiB: " + ", ".join(f"{a}->{b}" for a, b in per_worker.values())
          + f"; workers replaced during the run: {report['workers_restarted'] or 'none'}")
    ok = (res["s5"] == 0 and c["5xx"] == 0 and c["invalid"] == 0
          and res["connect"] + res["read"] + res["write"] + res["timeout"] == 0)
    print("PASS" if ok else "FAIL")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
