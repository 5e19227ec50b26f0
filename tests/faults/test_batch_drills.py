"""/batch against a live server with 2 workers, started as ``make run`` does (nginx in front of gunicorn):
a body of 20,000 calls is refused at once, and batches at the cap of 1,000 calls, sent in a loop by 8
clients (more than the workers admit: the others are 503 at once, and wait as Retry-After says), leave the
probes prompt and every worker within its share of the chart's memory. The pass criteria
are the service's promises, with bounds generous enough for a shared machine; the load's figures come from
``bench/perf/http.py --batch-only`` (docs/performance.md, "Batch")."""
from __future__ import annotations

import json
import multiprocessing
import threading
import time
from multiprocessing.connection import Connection

import pytest

from tests.faults.test_hostile import _start
from tests.faults.test_pod_safety import WORKER_PEAK_KIB, _peak_kib, _post
from tests.faults.test_serving_drills import _mid_deal, drills
from tests.servers import workers_of

pytestmark = pytest.mark.faults

CAP = 1000
REFUSED_WITHIN_S = 5.0
PROBE_P99_MS = 100
LOOP_S = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    started = _start(tmp_path_factory, 2, {})
    yield started
    started.stop()


def _batch(count: int, body: dict, url: str = "/legal-moves") -> bytes:
    return json.dumps({"requests": [{"id": f"c{i}", "method": "POST", "url": url, "body": body}
                                    for i in range(count)]}, separators=(",", ":")).encode()


@pytest.mark.parametrize("body, url, status, code", [
    # 1.6 MB, within the batch's body limit: read, then refused by the cap on calls
    ({"scores": [100, 0, -200, -200]}, "/ingots", 422, "too_many_calls"),
    # 15 MB of mid-deal states: past the batch's body limit, refused by nginx before the application reads it
    (_mid_deal(), "/legal-moves", 413, "payload_too_large"),
])
def test_twenty_thousand_calls_in_one_body_are_refused_at_once(server, body, url, status, code):
    sent = _batch(20_000, body, url)
    started = time.monotonic()
    found, _, data = _post(server.port, "/batch", sent)
    took = time.monotonic() - started
    problem = json.loads(data)
    assert (found, problem["code"]) == (status, code)
    if status == 422:
        assert [(e["pointer"], e["code"]) for e in problem["errors"]] == [("/requests", "too_many_calls")]
    assert took < REFUSED_WITHIN_S, took


def _clients(port: int, sent: bytes, seconds: float, out: Connection) -> None:
    """8 clients sending ``sent`` in a loop for ``seconds``, in a process of their own: their reading of the
    answers takes no GIL from the prober, which times the server alone. Sends back (status, calls answered
    200 or the Retry-After) a batch."""
    stop = threading.Event()
    answers: list[tuple[int, int]] = []

    def loop() -> None:
        while not stop.is_set():
            status, headers, data = _post(port, "/batch", sent)
            items = json.loads(data)["responses"] if status == 200 else []
            answers.append((status, sum(item["status"] == 200 for item in items) or int(headers["Retry-After"])))
            if status == 503:  # as a client honouring Retry-After does
                stop.wait(int(headers["Retry-After"]))

    threads = [threading.Thread(target=loop, daemon=True) for _ in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join(30)
    out.send(answers)


def test_batches_at_the_cap_from_8_clients_leave_probes_prompt_and_memory_within_bounds(server):
    sent = _batch(CAP, _mid_deal())
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe()
    load = context.Process(target=_clients, args=(server.port, sent, LOOP_S + 0.5, theirs), daemon=True)
    load.start()
    prober = drills.Prober(server.port, interval=0.05, timeout=5)
    time.sleep(0.5)
    prober.start()
    time.sleep(LOOP_S)
    prober.stop.set()
    prober.join(10)
    answers = ours.recv() if ours.poll(40) else []
    load.join(10)
    probes = drills.summary(prober.latencies)
    peaks = {pid: _peak_kib(pid) for pid in workers_of(server.proc.pid)}
    seen = {"probes": probes, "batches": len(answers), "worker_peaks_kib": peaks}
    print(seen)
    # every batch answered whole, or refused at once past a worker's admitted batches (503 with Retry-After)
    assert set(answers) <= {(200, CAP), (503, 1)} and (200, CAP) in answers, set(answers)
    assert all(peak <= WORKER_PEAK_KIB for peak in peaks.values()), seen
    assert probes["answered"] == probes["probes"] >= 20, seen
    assert probes["p99_ms"] <= PROBE_P99_MS, seen
