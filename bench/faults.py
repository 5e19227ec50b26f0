"""Faults under load: a killed worker, SIGTERM to the master, oversized/truncated/slow bodies.

One command from a fresh clone (bootstraps .venv with ``make venv``, installs wrk as root):

    python3 bench/faults.py                         # all three, about 1 minute
    python3 bench/faults.py bad-bodies --seconds 5 --pairs 3 --slow 2

gunicorn starts exactly as ``make run`` does, on 127.0.0.1:<free port>.

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
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]  # bench/http.py shadows http
_spec = importlib.util.spec_from_file_location("_server", _HERE / "_server.py")
_server = importlib.util.module_from_spec(_spec)
sys.modules["_server"] = _server
_spec.loader.exec_module(_server)

_server.bootstrap()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402

WORK = Path(tempfile.mkdtemp(prefix="gongzhu-faults-"))


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
    import statistics
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenarios", nargs="*", metavar="SCENARIO",
                    help="kill-worker, sigterm, bad-bodies (default: all three)")
    ap.add_argument("--seconds", type=int, default=9, help="load per phase")
    ap.add_argument("--workers", type=int, default=0, help="WEB_CONCURRENCY (default 2 x cores + 1)")
    ap.add_argument("--threads", type=int, default=2, help="wrk threads")
    ap.add_argument("--connections", type=int, default=16, help="wrk connections")
    ap.add_argument("--clients", type=int, default=8, help="sigterm: client threads")
    ap.add_argument("--slow", type=int, default=2, help="bad-bodies: slow clients at once")
    ap.add_argument("--pairs", type=int, default=3, help="bad-bodies: alone/abused round pairs")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    args.scenarios = args.scenarios or ["kill-worker", "sigterm", "bad-bodies"]
    unknown = set(args.scenarios) - {"kill-worker", "sigterm", "bad-bodies"}
    if unknown:
        sys.exit(f"unknown scenario(s): {', '.join(sorted(unknown))}")
    if not 2 <= args.seconds <= 120:
        sys.exit("--seconds 2..120")
    wrk = _server.ensure_wrk()
    print(f"# {_server.machine_notes()}", flush=True)
    report = {"machine": _server.machine_notes()}
    runs = {"kill-worker": kill_worker, "sigterm": sigterm, "bad-bodies": bad_bodies}
    for name in args.scenarios:
        report[name] = runs[name](args, wrk)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, default=str))


if __name__ == "__main__":
    main()
