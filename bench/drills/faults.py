"""Faults under load: a killed worker, SIGTERM to the master, oversized/truncated/slow bodies,
idle and slow-header connections, a /suggest flood.

One command from a fresh clone (bootstraps .venv with ``make venv``, installs wrk as root):

    python3 bench/drills/faults.py                         # every scenario, about 4 minutes
    python3 bench/drills/faults.py bad-bodies --seconds 5 --pairs 3 --slow 2
    python3 bench/drills/faults.py idle slow-headers bot-flood --pairs 2

gunicorn starts exactly as ``make run`` does, on 127.0.0.1:<free port>, with 2 workers
(the chart's default) unless ``--workers`` says otherwise.

kill-worker   wrk drives /legal-moves; a third of the way in one worker gets SIGKILL. Reports
              wrk's errors (expected: only the killed worker's in-flight request), how long
              the master took to boot a replacement, and that the service answers again.
sigterm       Python clients (each request on its own connection, as wrk does against sync
              workers) drive /legal-moves; SIGTERM goes to the master mid-load. Every
              request is classed: answered, refused at connect (the listener was closed:
              never accepted), or dropped after the TCP handshake (accepted by the kernel's
              backlog but never by a worker, or cut mid-request). Reports the master's exit
              code and drain time.
bad-bodies    wrk drives /legal-moves alone, then again while other clients send oversized
              bodies (413), truncated bodies (declared length not sent, then closed) and
              slow bodies (a byte a second, ``--slow`` clients at once), in alternating
              rounds (``--pairs``). Reports valid requests/s and errors of each round and
              the median ratio abused/alone.

The serving drills alternate, on one server, a baseline round and a drill round
(``--pairs`` of them, ``--seconds`` each). In every round wrk drives valid one-deck
/legal-moves on kept-alive connections (``--lm-connections``) while a prober sends
/healthz every 0.1 s, each on a new connection like a kubelet. Reported: /healthz
answered, p50/p99/max; /legal-moves req/s and errors; drill/baseline throughput.

idle          ``--idle`` (64) connections opened that send nothing.
slow-headers  ``--slow-headers`` (16) clients sending a request head a byte a second
              (nginx closes them unanswered after GUNICORN_REQUEST_TIMEOUT; they reconnect).
bot-flood     ``--flood`` (8) clients looping POST /suggest at ``--budget`` (2000 ms,
              the largest) on kept-alive connections; also reports the /suggest answers
              (200, 503 with Retry-After), the slowest of them and the distinct suggestions
              (move, samples, cut). ``--seed 1`` (any number) sends that seed: the searches
              ignore the clock, so every 200 must be the same suggestion, and the slowest
              answer shows how long a seeded search holds a slot under load.

The hostile-client drills (each a serving drill as above; ``--attackers`` clients, 8
unless said otherwise; every trickling client sends a byte a second):

slow-chunked  a chunked POST /ingots whose first chunk (``1000``) then trickles.
long-length   POST /score with ``Content-Length: 0000000004096`` (13 digits) and a body
              that trickles.
expect        POST /score with ``Expect: 100-continue`` that never sends its body.
pipelined     a whole GET /healthz, then a second request whose head trickles.
probe-body    ``GET /healthz`` with a chunked body that trickles (20 clients): no probe.
slow-readers  16 clients pipelining 4 x /docs/swagger-ui-bundle.js, reading 512 bytes
              every 3 s.
Each reports its clients' answers (first line of each: none when nginx closed the connection
at the timeout, 100 Continue, …) beside the probes and /legal-moves figures.

claim-flood   ``--attackers`` (2) clients looping a valid POST /claim whose search runs to its
              wall-clock bound; also probes /readyz and reports the /claim answers.

invalid-arrays  ``--attackers`` (8) concurrent POST /legal-moves of a 200 KB ``{"hands":[1,…]}``,
              ``--pairs`` times: each refusal's time, then every worker's peak RSS (VmHWM).

idle-cap      ``--idle-cap`` (1,200) silent connections, then 10 x /healthz and /readyz.

bot-budget    one client alone calls /suggest ``--calls`` times at each budget_ms (100 …
              2000) on a server without a cap (GONGZHU_MAX_BUDGET_MS=2000): wall time
              per answer (median, max) and samples — how long a bot slot is held.

hostile-memory  ``--hostile`` clients (2, then 4 x workers: every request thread) loop
              POST /legal-moves with a body just under the 256 KiB limit holding ~30,000
              unknown keys, for ``--seconds``; the server's memory (PSS of the master and
              workers, from /proc) is sampled every 0.25 s. Reports PSS before, the peak,
              after, the largest single worker and every answer's status and size.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

# bench/: its _server (loaded once, by its name) keeps bench/perf, whose http.py shadows the stdlib, off sys.path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _server  # noqa: E402

_server.bootstrap()

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402

WORK = Path(tempfile.mkdtemp(prefix="gongzhu-faults-"))
_dspec = importlib.util.spec_from_file_location("_drills", Path(__file__).resolve().parent / "_drills.py")
_drills = importlib.util.module_from_spec(_dspec)
_dspec.loader.exec_module(_drills)


def _wrk_async(wrk, url, script, seconds, threads, connections):
    cmd = [wrk, f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout=10s", "--latency",
           "-s", str(script), url]
    return cmd, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wrk_result(cmd, proc, seconds) -> dict:
    out, err = proc.communicate(timeout=seconds + 60)
    for line in out.splitlines():
        if line.startswith("WRKJSON "):
            r = json.loads(line[8:])
            r["rps"] = r["requests"] / (r["duration_us"] / 1e6)
            r["errors"] = sum(r[k] for k in ("connect", "read", "write", "status", "timeout"))
            r["cmd"] = " ".join(cmd)
            return r
    raise RuntimeError(f"wrk gave no figures:\n{out}\n{err}")


def _short(r: dict) -> str:
    return (f"{r['requests']} requests, {r['rps']:.0f} req/s, p50 {r['p50_us'] / 1000:.1f} ms, "
            f"p99 {r['p99_us'] / 1000:.1f} ms, max {r['max_us'] / 1000:.0f} ms; errors: connect "
            f"{r['connect']} read {r['read']} write {r['write']} timeout {r['timeout']} non-2xx {r['status']}")


def kill_worker(args, wrk) -> dict:
    path, body = _server.bodies()["legal-moves-1deck"]
    script = _server.lua_script(WORK, "lm1", body)
    with _server.Server(workers=args.workers, log_dir=WORK) as srv:
        cmd, proc = _wrk_async(wrk, srv.base + path, script, args.seconds, args.threads, args.connections)
        time.sleep(args.seconds / 3)
        victim = srv.worker_pids()[0]
        os.kill(victim, signal.SIGKILL)
        t_kill = time.monotonic()
        replaced_after = srv.wait_workers(srv.workers, exclude={victim}, timeout=20)
        res = _wrk_result(cmd, proc, args.seconds)
        after = __import__("urllib.request").request.urlopen(srv.base + "/healthz", timeout=5).status
        log = srv.log.read_text(errors="replace")
    out = {"killed_pid": victim, "replacement_ready_s": round(replaced_after, 3),
           "wrk": res, "healthz_after": after,
           "log_mentions_kill": f"(pid:{victim})" in log, "t_kill": t_kill}
    print(f"kill-worker: SIGKILL worker {victim} mid-load; replacement booted and ready in "
          f"{replaced_after * 1000:.0f} ms; /healthz after: {after}\n  wrk ({res['cmd']}): {_short(res)}",
          flush=True)
    return out


def _one_request(port: int, body: bytes) -> str:
    """'ok' | 'status-<n>' | 'refused' | 'dropped' (connected, no complete answer)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(30)
    try:
        s.connect((_server.HOST, port))
    except ConnectionRefusedError:
        s.close()
        return "refused"
    except OSError:
        s.close()
        return "refused"
    try:
        s.sendall(b"POST /legal-moves HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError:
        return "dropped"
    finally:
        s.close()
    if not data.startswith(b"HTTP/1."):
        return "dropped"
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    length = next((int(h.split(b":")[1]) for h in head.split(b"\r\n")
                   if h.lower().startswith(b"content-length:")), None)
    if length is not None and len(rest) < length:
        return "dropped"
    return "ok" if status == 200 else f"status-{status}"


def sigterm(args, _wrk) -> dict:
    path, body = _server.bodies()["legal-moves-1deck"]
    srv = _server.Server(workers=args.workers, log_dir=WORK).start()
    counts: Counter = Counter()
    after_term: Counter = Counter()
    lock = threading.Lock()
    termed = threading.Event()
    deadline = time.monotonic() + args.seconds + 30

    def client():
        refused = 0
        for _ in range(100_000):
            if time.monotonic() > deadline or refused >= 3:
                return
            outcome = _one_request(srv.port, body)
            with lock:
                counts[outcome] += 1
                if termed.is_set():
                    after_term[outcome] += 1
            refused += outcome == "refused"
            if outcome == "refused":
                time.sleep(0.05)

    threads = [threading.Thread(target=client, daemon=True) for _ in range(args.clients)]
    for t in threads:
        t.start()
    time.sleep(args.seconds / 2)
    with lock:
        before = sum(counts.values())
    t0 = time.monotonic()
    termed.set()
    srv.proc.send_signal(signal.SIGTERM)
    try:
        rc = srv.proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        srv.proc.kill()
        rc = "killed after 60 s"
    drain = time.monotonic() - t0
    for t in threads:
        t.join(timeout=35)
    out = {"clients": args.clients, "workers": srv.workers, "requests_before_sigterm": before,
           "outcomes": dict(counts), "outcomes_after_sigterm": dict(after_term),
           "master_exit": rc, "drain_s": round(drain, 3)}
    print(f"sigterm: {args.clients} clients, {srv.workers} workers; SIGTERM after {before} requests; "
          f"master exited {rc} in {drain * 1000:.0f} ms\n  outcomes (all): {dict(counts)}\n"
          f"  outcomes of requests in flight or started after SIGTERM: {dict(after_term)}", flush=True)
    return out


def _abuse(port: int, kind: str, stop: threading.Event, counts: Counter, lock) -> None:
    body = _server.bodies()["legal-moves-1deck"][1]
    for _ in range(10_000):
        if stop.is_set():
            return
        try:
            s = socket.create_connection((_server.HOST, port), timeout=40)
        except OSError:
            with lock:
                counts[f"{kind}:refused"] += 1
            stop.wait(0.1)
            continue
        head = b"POST /legal-moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        result = "?"
        try:
            if kind == "oversized":  # 1 MiB body against the 256 KiB limit
                big = b"[" + b"0," * (512 * 1024) + b"0]"
                s.sendall(head + b"Content-Length: %d\r\n\r\n" % len(big))
                try:
                    s.sendall(big)
                except OSError:
                    pass  # the server may answer 413 and close before reading it all
                result = s.recv(64).split(b"\r\n")[0].decode(errors="replace") or "closed"
            elif kind == "truncated":  # declares the whole body, sends half, stops writing
                s.sendall(head + b"Content-Length: %d\r\n\r\n" % len(body) + body[: len(body) // 2])
                s.shutdown(socket.SHUT_WR)
                result = s.recv(64).split(b"\r\n")[0].decode(errors="replace") or "closed"
            else:  # slow: a byte a second until stopped
                s.sendall(head + b"Content-Length: %d\r\n\r\n" % len(body))
                sent = 0
                while not stop.is_set() and sent < len(body):
                    s.sendall(body[sent:sent + 1])
                    sent += 1
                    stop.wait(1.0)
                result = f"stopped after {sent} bytes"
        except OSError as error:
            result = type(error).__name__
        finally:
            s.close()
        with lock:
            counts[f"{kind}:{result}"] += 1
        if kind != "slow":
            stop.wait(0.02)


def bad_bodies(args, wrk) -> dict:
    """Alternating rounds: valid load alone, then valid load with the abusers running."""
    path, body = _server.bodies()["legal-moves-1deck"]
    script = _server.lua_script(WORK, "lm1", body)
    counts: Counter = Counter()
    lock = threading.Lock()
    base_runs, under_runs = [], []
    with _server.Server(workers=args.workers, log_dir=WORK) as srv:
        for _ in range(args.pairs):
            cmd, proc = _wrk_async(wrk, srv.base + path, script, args.seconds, args.threads, args.connections)
            base_runs.append(_wrk_result(cmd, proc, args.seconds))
            stop = threading.Event()
            abusers = ([threading.Thread(target=_abuse, args=(srv.port, "oversized", stop, counts, lock))]
                       + [threading.Thread(target=_abuse, args=(srv.port, "truncated", stop, counts, lock))]
                       + [threading.Thread(target=_abuse, args=(srv.port, "slow", stop, counts, lock))
                          for _ in range(args.slow)])
            for t in abusers:
                t.daemon = True
                t.start()
            time.sleep(0.5)
            cmd, proc = _wrk_async(wrk, srv.base + path, script, args.seconds, args.threads, args.connections)
            under_runs.append(_wrk_result(cmd, proc, args.seconds))
            stop.set()
            for t in abusers:
                t.join(timeout=45)
        workers_after = srv.worker_pids()
        log = srv.log.read_text(errors="replace")
    ratios = [u["rps"] / b["rps"] for b, u in zip(base_runs, under_runs)]
    out = {"baseline": base_runs, "under_abuse": under_runs, "ratios": ratios,
           "ratio_median": statistics.median(ratios), "slow_clients": args.slow, "workers": srv.workers,
           "abuse_outcomes": dict(counts), "workers_after": workers_after,
           "worker_timeouts_in_log": log.count("WORKER TIMEOUT")}
    print(f"bad-bodies: {srv.workers} workers; {args.pairs} pairs of {args.seconds}s rounds, valid load alone "
          f"then with {args.slow} slow clients (1 byte/s) + 1 oversized loop + 1 truncated loop", flush=True)
    for b, u in zip(base_runs, under_runs):
        print(f"  alone: {_short(b)}\n  abuse: {_short(u)}", flush=True)
    print(f"  ratio under abuse / alone per pair: {', '.join(f'{r:.2f}' for r in ratios)} (median "
          f"{out['ratio_median']:.2f}); valid-request errors under abuse: "
          f"{sum(u['errors'] for u in under_runs)}; abusive requests: {dict(counts)}", flush=True)
    return out


def _round(srv, wrk, script, path, args) -> dict:
    """One round: wrk on /legal-moves (kept alive) and the /healthz prober, side by side."""
    probers = {p: _drills.Prober(srv.port, interval=0.1, timeout=5, path=f"/{p}".encode())
               for p in ("healthz", "readyz")}
    for prober in probers.values():
        prober.start()
    cmd, proc = _wrk_async(wrk, srv.base + path, script, args.seconds, 1, args.lm_connections)
    res = _wrk_result(cmd, proc, args.seconds)
    for prober in probers.values():
        prober.stop.set()
        prober.join(timeout=10)
    return {"legal_moves": res, **{p: _drills.summary(prober.latencies) for p, prober in probers.items()}}


def _print_round(label: str, r: dict) -> None:
    lm = r["legal_moves"]
    probes = " | ".join(f"/{p} {h['answered']}/{h['probes']} answered, p50 {h['p50_ms']} ms, "
                        f"p99 {h['p99_ms']} ms, max {h['max_ms']} ms"
                        for p, h in ((p, r[p]) for p in ("healthz", "readyz")))
    print(f"  {label}: {probes} | /legal-moves {lm['rps']:.0f} req/s, errors {lm['errors']}", flush=True)


def _serving_drill(args, wrk, name: str, describe: str, start, finish) -> dict:
    """Alternating baseline and drill rounds on one server; ``start(srv)`` begins the
    drill and returns a handle, ``finish(handle)`` ends it and returns its own figures."""
    path, body = _server.bodies()["legal-moves-1deck"]
    script = _server.lua_script(WORK, "lm1", body)
    base_runs, drill_runs, extras = [], [], []
    with _server.Server(workers=args.workers, log_dir=WORK) as srv:
        _server.run_wrk(wrk, srv.base + path, script, seconds=1, threads=1,
                        connections=args.lm_connections)  # warm-up
        print(f"{name}: {srv.workers} workers; {describe}; {args.pairs} pairs of {args.seconds} s "
              f"rounds (baseline, then drill); wrk -t1 -c{args.lm_connections} /legal-moves",
              flush=True)
        for _ in range(args.pairs):
            base_runs.append(_round(srv, wrk, script, path, args))
            _print_round("baseline", base_runs[-1])
            handle = start(srv)
            time.sleep(1.0)
            drill_runs.append(_round(srv, wrk, script, path, args))
            extras.append(finish(handle))
            _print_round("drill   ", drill_runs[-1])
        memory = srv.memory()
        log = srv.log.read_text(errors="replace")
    ratios = [d["legal_moves"]["rps"] / b["legal_moves"]["rps"] for b, d in zip(base_runs, drill_runs)]
    drill_probes = [x for d in drill_runs for x in (d["healthz"]["max_ms"],) if x is not None]
    out = {"baseline": base_runs, "drill": drill_runs, "drill_extra": extras,
           "legal_moves_ratio": ratios, "ratio_median": statistics.median(ratios),
           "healthz_drill_answered": sum(d["healthz"]["answered"] for d in drill_runs),
           "healthz_drill_probes": sum(d["healthz"]["probes"] for d in drill_runs),
           "healthz_drill_max_ms": max(drill_probes) if drill_probes else None,
           "workers_pss_kib_after": memory["workers_pss_kib"],
           "tracebacks_in_log": log.count("Traceback")}
    print(f"  /legal-moves drill/baseline per pair: {', '.join(f'{r:.2f}' for r in ratios)} (median "
          f"{out['ratio_median']:.2f}); /healthz during the drills: {out['healthz_drill_answered']}/"
          f"{out['healthz_drill_probes']} answered, slowest {out['healthz_drill_max_ms']} ms; "
          f"tracebacks in the server log: {out['tracebacks_in_log']}", flush=True)
    return out


def idle(args, wrk) -> dict:
    def start(srv):
        return _drills.idle_sockets(srv.port, args.idle)

    def finish(socks):
        for s in socks:
            s.close()
        return {}
    return _serving_drill(args, wrk, "idle", f"{args.idle} connections that send nothing", start, finish)


def slow_headers(args, wrk) -> dict:
    start, finish = _answering_clients(_drills.SlowHeaders, args.slow_headers, "slow-header")
    return _serving_drill(args, wrk, "slow-headers",
                          f"{args.slow_headers} clients sending a request head a byte a second",
                          start, finish)


def _client_threads(make, count: int, join_s: float):
    """(start, stopped) for a serving drill of ``count`` threads ``make(port, stop)``: ``start(srv)``
    starts them, ``stopped(handle)`` stops and joins them and returns them."""
    def start(srv):
        stop = threading.Event()
        clients = [make(srv.port, stop) for _ in range(count)]
        for c in clients:
            c.start()
        return stop, clients

    def stopped(handle):
        stop, clients = handle
        stop.set()
        for c in clients:
            c.join(timeout=join_s)
        return clients
    return start, stopped


def _answering_clients(make, count: int, name: str):
    """(start, finish) for a serving drill of ``count`` clients ``make(port, stop)`` that record the
    answers they got: ``finish`` prints and returns their sum."""
    start, stopped = _client_threads(make, count, 5)

    def finish(handle):
        answers: Counter = Counter()
        for c in stopped(handle):
            answers.update(c.answers)
        print(f"  {name} clients' answers: {dict(answers) or 'none yet'}", flush=True)
        return {"answers": dict(answers)}
    return start, finish


def bot_flood(args, wrk) -> dict:
    state = json.loads(_server.bodies()["legal-moves-1deck"][1])
    request = {"hands": state["hands"], "plays": state["plays"], "budget_ms": args.budget}
    if args.seed is not None:
        request["seed"] = args.seed
    body = json.dumps(request).encode()

    start, stopped = _client_threads(lambda port, stop: _drills.BotFlood(port, body, stop), args.flood,
                                     4 * args.budget / 1000 + 10)

    def finish(handle):
        clients = stopped(handle)
        answers = [a for c in clients for a in c.answers]
        statuses = Counter(a[0] for a in answers)
        ok = sorted(a[1] for a in answers if a[0] == 200)
        suggestions = Counter(s for c in clients for s in c.suggestions)
        out = {"statuses": dict(statuses),
               # (move, samples, budget_cut) of the 200 answers: one with a seed, whatever the load
               "suggestions": {f"{' '.join(m)} samples {n}{' cut' if cut else ''}": k
                               for (m, n, cut), k in suggestions.most_common()},
               "busy_without_retry_after": sum(1 for a in answers if a[0] == 503 and not a[2]),
               "slowest_s": round(max(a[1] for a in answers), 3) if answers else None,
               "ok_p50_s": round(ok[len(ok) // 2], 3) if ok else None,
               "ok_max_s": round(ok[-1], 3) if ok else None}
        print(f"  /suggest answers: {out['statuses']}, 503 without Retry-After "
              f"{out['busy_without_retry_after']}; 200 p50 {out['ok_p50_s']} s, slowest answer "
              f"{out['slowest_s']} s (4 x budget = {4 * args.budget / 1000:g} s); suggestions "
              f"{out['suggestions']}", flush=True)
        return out
    return _serving_drill(args, wrk, "bot-flood",
                          f"{args.flood} clients looping /suggest at budget_ms {args.budget}"
                          + ("" if args.seed is None else f", seed {args.seed}"),
                          start, finish)


# A valid claim whose search runs to its wall-clock bound (tests/faults/test_pod_safety.py).
HARD_CLAIM = {
    "hands": [["D4", "D5", "C2", "DJ", "CK", "H7", "C7", "DQ", "S8", "D8", "D3", "C3", "C8"],
              ["HA", "S9", "HQ", "S6", "H10", "S3", "H4", "S10", "CJ", "H6", "DK", "C4", "DA"],
              ["C9", "S2", "SK", "D2", "S5", "S7", "H5", "D7", "SA", "D6", "H3", "SJ", "H2"],
              ["C5", "D9", "HJ", "SQ", "S4", "HK", "D10", "CQ", "C10", "H9", "C6", "H8", "CA"]],
    "plays": [["C2"], ["CJ"], ["C9"]], "claim": {"seat": 2, "kind": "no_tricks"}}


def claim_flood(args, wrk) -> dict:
    body = json.dumps(HARD_CLAIM).encode()
    count = args.attackers or 2
    start, stopped = _client_threads(lambda port, stop: _drills.BotFlood(port, body, stop, path="/claim"),
                                     count, 10)

    def finish(handle):
        clients = stopped(handle)
        answers = [a for c in clients for a in c.answers]
        out = {"statuses": dict(Counter(a[0] for a in answers)),
               "busy_without_retry_after": sum(1 for a in answers if a[0] == 503 and not a[2])}
        print(f"  /claim answers: {out['statuses']}, 503 without Retry-After {out['busy_without_retry_after']}",
              flush=True)
        return out
    return _serving_drill(args, wrk, "claim-flood", f"{count} clients looping a /claim whose search runs "
                          "to its bound", start, finish)


JSON_HEAD = b"Host: 127.0.0.1\r\nContent-Type: application/json\r\n"
HOSTILE = {
    "slow-chunked": ("a chunked POST /ingots whose first 4 KiB chunk trickles", 8,
                     b"POST /ingots HTTP/1.1\r\n" + JSON_HEAD + b"Transfer-Encoding: chunked\r\n\r\n1000\r\n{"),
    "long-length": ("POST /score with a 13-digit Content-Length and a trickling body", 8,
                    b"POST /score HTTP/1.1\r\n" + JSON_HEAD + b"Content-Length: 0000000004096\r\n\r\n{"),
    "expect": ("POST /score with Expect: 100-continue and no body", 8,
               b"POST /score HTTP/1.1\r\n" + JSON_HEAD + b"Expect: 100-continue\r\nContent-Length: 100\r\n\r\n"),
    "pipelined": ("a GET /healthz, then a second request whose head trickles", 8,
                  b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nPOST /score HTTP/1.1\r\n"),
    "probe-body": ("GET /healthz with a trickling chunked body", 20,
                   b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n"),
}


def hostile(name: str):
    describe, clients, first = HOSTILE[name]

    def scenario(args, wrk) -> dict:
        count = args.attackers or clients
        start, finish = _answering_clients(lambda port, stop: _drills.Trickler(port, stop, first), count, name)
        return _serving_drill(args, wrk, name, f"{count} clients: {describe}", start, finish)
    return scenario


def slow_readers(args, wrk) -> dict:
    count = args.attackers or 16
    start, stopped = _client_threads(_drills.SlowReader, count, 5)

    def finish(handle):
        readers = stopped(handle)
        out = {"bytes_read": sum(r.read for r in readers), "connections": sum(r.connections for r in readers)}
        print(f"  slow readers: {out['connections']} connections, {out['bytes_read']} bytes read", flush=True)
        return out
    return _serving_drill(args, wrk, "slow-readers", f"{count} clients pipelining 4 x "
                          "/docs/swagger-ui-bundle.js, reading 512 bytes every 3 s", start, finish)


def _hostile_body(limit: int = 256 * 1024) -> bytes:
    """The largest body under ``limit`` of short unknown keys (~30,000)."""
    keys, size, i = [], 2, 0
    while size + len(f'"k{i}":0,') < limit:
        keys.append(f'"k{i}":0')
        size += len(keys[-1]) + 1
        i += 1
    return ("{" + ",".join(keys) + "}").encode()


def _pss_total(srv) -> tuple[int, int]:
    """(PSS of master and workers, largest worker PSS) in KiB."""
    mem = srv.memory()
    workers = [m["pss"] for m in mem["workers"].values()] or [0]
    return mem["master"]["pss"] + sum(workers), max(workers)


def _hostile_client(port: int, body: bytes, stop: threading.Event, answers: Counter, lock) -> None:
    conn = http.client.HTTPConnection(_server.HOST, port, timeout=30)
    while not stop.is_set():
        try:
            conn.request("POST", "/legal-moves", body=body, headers={"Content-Type": "application/json"})
            r = conn.getresponse()
            key = (r.status, len(r.read()))
        except (OSError, http.client.HTTPException) as error:
            key = (type(error).__name__, 0)
            conn.close()
            conn = http.client.HTTPConnection(_server.HOST, port, timeout=30)
        with lock:
            answers[key] += 1
    conn.close()


def hostile_memory(args, _wrk) -> dict:
    body = _hostile_body()
    out = {"body_bytes": len(body), "keys": body.count(b":"), "runs": []}
    threads = int(os.environ.get("GUNICORN_THREADS", 4))
    with _server.Server(workers=args.workers, log_dir=WORK) as srv:
        print(f"hostile-memory: {srv.workers} workers x {threads} threads; bodies of {len(body)} bytes "
              f"with {out['keys']} unknown keys; {args.seconds} s per run", flush=True)
        for clients in sorted({args.hostile, srv.workers * threads}):
            before = _pss_total(srv)
            stop, lock, answers = threading.Event(), threading.Lock(), Counter()
            pool = [threading.Thread(target=_hostile_client, args=(srv.port, body, stop, answers, lock),
                                     daemon=True) for _ in range(clients)]
            for t in pool:
                t.start()
            peak, peak_worker = before
            t0 = time.monotonic()
            while time.monotonic() - t0 < args.seconds:
                total, worker = _pss_total(srv)
                peak, peak_worker = max(peak, total), max(peak_worker, worker)
                time.sleep(0.25)
            stop.set()
            for t in pool:
                t.join(timeout=30)
            time.sleep(1.0)
            after = _pss_total(srv)
            run = {"clients": clients, "pss_before_mib": round(before[0] / 1024, 1),
                   "pss_peak_mib": round(peak / 1024, 1), "pss_after_mib": round(after[0] / 1024, 1),
                   "largest_worker_peak_mib": round(peak_worker / 1024, 1),
                   "answers": {f"{k[0]} ({k[1]} bytes)": v for k, v in answers.items()}}
            out["runs"].append(run)
            print(f"  {clients} clients: PSS (master + workers) {run['pss_before_mib']} MiB before, peak "
                  f"{run['pss_peak_mib']} MiB, {run['pss_after_mib']} MiB 1 s after; largest worker "
                  f"peak {run['largest_worker_peak_mib']} MiB; answers {run['answers']}", flush=True)
    return out


BUDGETS_MS = (100, 250, 500, 1000, 2000)


def _peak_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def invalid_arrays(args, _wrk) -> dict:
    """``--attackers`` (8) concurrent POST /legal-moves of ``{"hands":[1,…]}`` (200 KB), ``--pairs``
    times on a fresh server: each answer's status and seconds, and every worker's peak RSS."""
    body = b'{"hands":[' + b",".join([b"1"] * 100_000) + b"]}"
    count = args.attackers or 8
    with _server.Server(workers=args.workers, log_dir=WORK) as srv:
        rounds = []
        for _ in range(args.pairs):
            answers: list[tuple[int, float]] = []

            def send() -> None:
                t0 = time.monotonic()
                conn = http.client.HTTPConnection(srv.base.split("//")[1].split(":")[0], srv.port, timeout=60)
                conn.request("POST", "/legal-moves", body=body, headers={"Content-Type": "application/json"})
                r = conn.getresponse()
                r.read()
                answers.append((r.status, time.monotonic() - t0))
                conn.close()
            senders = [threading.Thread(target=send) for _ in range(count)]
            for s in senders:
                s.start()
            for s in senders:
                s.join(60)
            rounds.append(answers)
            print(f"  {count} x 200 KB invalid arrays: statuses {dict(Counter(a[0] for a in answers))}, "
                  f"slowest {max(a[1] for a in answers) * 1000:.0f} ms", flush=True)
        peaks = {pid: _peak_kib(pid) for pid in srv.worker_pids()}
    print(f"invalid-arrays: every worker's peak RSS (VmHWM): "
          f"{', '.join(f'{k / 1024:.0f} MiB' for k in peaks.values())}", flush=True)
    return {"rounds": rounds, "worker_peak_kib": peaks}


def idle_cap(args, _wrk) -> dict:
    """``--idle-cap`` (1,200) connections that send nothing, then /healthz and /readyz probes on new
    connections: statuses and seconds."""
    with _server.Server(workers=args.workers, log_dir=WORK) as srv:
        socks = []
        for _ in range(args.idle_cap):
            try:
                socks.append(socket.create_connection(("127.0.0.1", srv.port), timeout=5))
            except OSError:
                break
        time.sleep(1.0)
        probes = [(p, _drills.probe_once(srv.port, 5.0, p)) for _ in range(10) for p in (b"/healthz", b"/readyz")]
        for s in socks:
            s.close()
    answered = [s for _, s in probes if s is not None]
    print(f"idle-cap: {len(socks)} idle connections open; probes answered 200: {len(answered)}/{len(probes)}, "
          f"slowest {max(answered) * 1000 if answered else float('nan'):.0f} ms", flush=True)
    return {"idle": len(socks), "probes": probes}


def bot_budget(args, _wrk) -> dict:
    state = json.loads(_server.bodies()["legal-moves-1deck"][1])
    out = {}
    with _server.Server(workers=args.workers, log_dir=WORK,
                        env={"GONGZHU_MAX_BUDGET_MS": "2000"}) as srv:
        conn = http.client.HTTPConnection(_server.HOST, srv.port, timeout=30)
        print(f"bot-budget: {srv.workers} workers, no cap; one client, {args.calls} calls per budget",
              flush=True)
        for budget in BUDGETS_MS:
            body = json.dumps({"hands": state["hands"], "plays": state["plays"],
                               "budget_ms": budget, "seed": 1}).encode()
            walls, samples = [], []
            for _ in range(args.calls):
                t0 = time.monotonic()
                conn.request("POST", "/suggest", body=body, headers={"Content-Type": "application/json"})
                r = conn.getresponse()
                answer = json.loads(r.read())
                walls.append(time.monotonic() - t0)
                samples.append(answer.get("samples"))
            out[budget] = {"wall_p50_s": round(statistics.median(walls), 3),
                           "wall_max_s": round(max(walls), 3), "samples": samples}
            print(f"  budget_ms {budget:5d}: wall p50 {out[budget]['wall_p50_s']:.3f} s, max "
                  f"{out[budget]['wall_max_s']:.3f} s; samples {samples}", flush=True)
        conn.close()
    return out


SCENARIOS = {"kill-worker": kill_worker, "sigterm": sigterm, "bad-bodies": bad_bodies,
             "idle": idle, "slow-headers": slow_headers, "bot-flood": bot_flood,
             "bot-budget": bot_budget, "claim-flood": claim_flood,
             "invalid-arrays": invalid_arrays, "idle-cap": idle_cap, "hostile-memory": hostile_memory,
             **{name: hostile(name) for name in HOSTILE}, "slow-readers": slow_readers}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenarios", nargs="*", metavar="SCENARIO",
                    help=f"{', '.join(SCENARIOS)} (default: all)")
    ap.add_argument("--seconds", type=int, default=9, help="load per phase")
    ap.add_argument("--workers", type=int, default=2, help="WEB_CONCURRENCY (default 2, the chart's)")
    ap.add_argument("--threads", type=int, default=2, help="wrk threads")
    ap.add_argument("--connections", type=int, default=16, help="wrk connections")
    ap.add_argument("--clients", type=int, default=8, help="sigterm: client threads")
    ap.add_argument("--slow", type=int, default=2, help="bad-bodies: slow clients at once")
    ap.add_argument("--pairs", type=int, default=3, help="bad-bodies: alone/abused round pairs")
    ap.add_argument("--lm-connections", type=int, default=4,
                    help="serving drills: wrk connections on /legal-moves")
    ap.add_argument("--idle", type=int, default=64, help="idle: connections")
    ap.add_argument("--idle-cap", type=int, default=1200, help="idle-cap: connections")
    ap.add_argument("--slow-headers", type=int, default=16, help="slow-headers: clients")
    ap.add_argument("--flood", type=int, default=8, help="bot-flood: /suggest clients")
    ap.add_argument("--budget", type=int, default=2000, help="bot-flood: budget_ms")
    ap.add_argument("--seed", type=int, default=None,
                    help="bot-flood: send this seed (the search then ignores the clock: same answer under load)")
    ap.add_argument("--hostile", type=int, default=2, help="hostile-memory: clients of the first run")
    ap.add_argument("--calls", type=int, default=5, help="bot-budget: calls per budget")
    ap.add_argument("--attackers", type=int, default=0,
                    help="hostile-client drills: clients (default: each drill's own)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    args.scenarios = args.scenarios or list(SCENARIOS)
    unknown = set(args.scenarios) - set(SCENARIOS)
    if unknown:
        sys.exit(f"unknown scenario(s): {', '.join(sorted(unknown))}")
    if not 2 <= args.seconds <= 120:
        sys.exit("--seconds 2..120")
    wrk = _server.ensure_wrk()
    print(f"# {_server.machine_notes()}", flush=True)
    report = {"machine": _server.machine_notes()}
    for name in args.scenarios:
        report[name] = SCENARIOS[name](args, wrk)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, default=str))


if __name__ == "__main__":
    main()
