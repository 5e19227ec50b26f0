"""A real Prometheus scrapes a real gunicorn with two workers: the per-operation
counters it reports equal the requests sent, the lean /legal-moves path included;
the access lines (nginx's) are JSON with the request ids sent, and both workers counted."""
from __future__ import annotations

import json
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.servers import SERVE, free_port, prometheus_binary, start, stop, workers_of

from .deals import SEED1
from .metrics_text import value

pytestmark = [pytest.mark.live, pytest.mark.prometheus]

LEGAL_MOVES = 60
MALFORMED = 5
WORKERS = 2
SCRAPE_CONFIG = """global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: gongzhu
    metrics_path: /metrics
    static_configs:
      - targets: ["127.0.0.1:{port}"]
"""
QUERY_TIMEOUT_S = 30.0


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gunicorn")
    port = free_port()
    env = {"PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": str(WORKERS),
           "PROMETHEUS_MULTIPROC_DIR": str(tmp / "metrics"), "GONGZHU_LOG_FORMAT": "json"}
    log = tmp / "gunicorn.log"
    base = f"http://127.0.0.1:{port}"
    proc = start(SERVE, log, f"{base}/readyz", env)
    yield base, port, log, proc
    stop(proc)


@pytest.fixture(scope="module")
def prometheus(server, tmp_path_factory):
    binary = prometheus_binary()
    tmp = tmp_path_factory.mktemp("prometheus")
    config = tmp / "prometheus.yml"
    config.write_text(SCRAPE_CONFIG.format(port=server[1]))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start([binary, f"--config.file={config}", f"--storage.tsdb.path={tmp / 'data'}",
                  f"--web.listen-address=127.0.0.1:{port}"], tmp / "prometheus.log", f"{base}/-/ready")
    yield base
    stop(proc)


def query(prometheus: str, promql: str) -> float | None:
    answer = requests.get(f"{prometheus}/api/v1/query", params={"query": promql}, timeout=5).json()
    assert answer["status"] == "success", answer
    result = answer["data"]["result"]
    return float(result[0]["value"][1]) if result else None


def wait_until(prometheus: str, promql: str, expected: float) -> float | None:
    deadline = time.monotonic() + QUERY_TIMEOUT_S
    while True:
        got = query(prometheus, promql)
        if got == expected or time.monotonic() > deadline:
            return got
        time.sleep(0.5)


def send(base: str) -> None:
    body = json.dumps({"hands": SEED1}).encode()

    def legal_moves(i: int) -> int:
        # one connection per request: the kernel hands them to either worker
        return requests.post(f"{base}/legal-moves", data=body, timeout=10, headers={
            "Content-Type": "application/json", "X-Request-ID": f"prom-{i}",
            "Connection": "close"}).status_code

    def malformed(i: int) -> int:
        return requests.post(f"{base}/legal-moves", data=b"{", timeout=10, headers={
            "Content-Type": "application/json", "X-Request-ID": f"bad-{i}",
            "Connection": "close"}).status_code

    with ThreadPoolExecutor(max_workers=6) as pool:
        codes = list(pool.map(legal_moves, range(LEGAL_MOVES)))
        bad = list(pool.map(malformed, range(MALFORMED)))
    assert codes == [200] * LEGAL_MOVES
    assert bad == [400] * MALFORMED


@pytest.fixture(scope="module")
def sent(server, prometheus):
    # Prometheus is up and scraping before the requests, so it sees them arrive.
    assert wait_until(prometheus, 'up{job="gongzhu"}', 1.0) == 1.0
    send(server[0])
    return server


def test_prometheus_reports_the_requests_sent(sent, prometheus):
    ok = 'sum(gongzhu_http_requests_total{operation="legal_moves",status="200"})'
    assert wait_until(prometheus, ok, LEGAL_MOVES) == LEGAL_MOVES
    bad = 'sum(gongzhu_http_requests_total{operation="legal_moves",status="400"})'
    assert wait_until(prometheus, bad, MALFORMED) == MALFORMED
    problems = 'sum(gongzhu_problems_total{code="malformed_json"})'
    assert wait_until(prometheus, problems, MALFORMED) == MALFORMED
    durations = 'sum(gongzhu_http_request_duration_seconds_count{operation="legal_moves"})'
    assert wait_until(prometheus, durations, LEGAL_MOVES + MALFORMED) == LEGAL_MOVES + MALFORMED
    assert wait_until(prometheus, "sum(gongzhu_engine_replay_seconds_count)", LEGAL_MOVES) == LEGAL_MOVES


def test_metrics_sum_both_workers(sent):
    base, _, log, proc = sent
    text = requests.get(f"{base}/metrics", timeout=5).text
    assert value(text, "gongzhu_http_requests_total", operation="legal_moves", status="200") == LEGAL_MOVES
    # each process that counted keeps its own file (prometheus_client's multiprocess mode)
    counted = {int(path.stem.split("_")[1]) for path in (log.parent / "metrics").glob("counter_*.db")}
    assert set(workers_of(proc.pid)) <= counted, "both workers answered some of the requests"


def access_lines(log) -> list[dict]:
    lines = [json.loads(text) for text in log.read_text().splitlines() if text.strip()]
    return [line for line in lines if line["logger"] == "gongzhu.access"]


def test_every_log_line_is_json_and_access_lines_carry_the_ids(sent):
    base, _, log, proc = sent
    lines = access_lines(log)  # every line parses as JSON, gunicorn's and nginx's included
    ours = [line for line in lines if line["path"] == "/legal-moves"]
    assert sorted(line["request_id"] for line in ours) == sorted(
        [f"prom-{i}" for i in range(LEGAL_MOVES)] + [f"bad-{i}" for i in range(MALFORMED)])
    first = next(line for line in ours if line["status"] == 200)
    assert first.keys() == {"time", "level", "logger", "message", "method", "path", "operation", "status",
                            "duration_ms", "bytes", "request_id", "problem", "traceparent", "items", "refused"}
    assert (first["method"], first["operation"], first["level"], first["problem"]) == \
        ("POST", "legal_moves", "info", "")
    assert first["bytes"] > 0 and first["duration_ms"] >= 0
    assert {line["problem"] for line in ours if line["status"] == 400} == {"malformed_json"}


def test_a_dead_workers_counts_are_kept(sent):
    """Runs last: kills a worker. Its counters stay in the sum; the arbiter's child_exit
    hook marks it dead without error and a new worker takes its place."""
    base, _, log, proc = sent
    counted = 'gongzhu_http_requests_total'
    before = value(requests.get(f"{base}/metrics", timeout=5).text, counted,
                   operation="legal_moves", status="200")
    victim = min(workers_of(proc.pid))
    os.kill(victim, signal.SIGKILL)
    deadline = time.monotonic() + QUERY_TIMEOUT_S
    while not (len(workers_of(proc.pid)) == WORKERS and victim not in workers_of(proc.pid)):
        assert time.monotonic() < deadline, "no replacement worker"
        time.sleep(0.1)
    text = requests.get(f"{base}/metrics", timeout=5).text
    assert value(text, counted, operation="legal_moves", status="200") == before == LEGAL_MOVES
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert not [line for line in lines if line["level"] in {"error", "critical"}
                and "exception" in line], "child_exit raised"
    assert any(f"pid:{victim}" in line["message"] for line in lines)
