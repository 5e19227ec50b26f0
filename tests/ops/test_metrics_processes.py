"""/metrics under gunicorn with two workers (prometheus_client's multiprocess mode):
``gongzhu_build_info`` is one series, and the ``process_*`` metrics are reported for
gunicorn's master and each live worker, labelled by pid and role, whichever worker
answers the scrape — and follow a worker that is replaced."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
import requests

from gongzhu import __version__, about
from tests.servers import ROOT, expected_engine, free_port, master_of, start, stop, workers_of

from .metrics_text import value

pytestmark = pytest.mark.live

WORKERS = 2
PROCESS_METRICS = ("process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes",
                   "process_open_fds", "process_max_fds", "process_start_time_seconds")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gunicorn")
    port = free_port()
    env = {"PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": str(WORKERS),
           "PROMETHEUS_MULTIPROC_DIR": str(tmp / "metrics")}
    base = f"http://127.0.0.1:{port}"
    proc = start([sys.executable, "-m", "gongzhu", "serve"], tmp / "gunicorn.log", f"{base}/readyz", env)
    wait_for_workers(proc, set())
    yield base, proc
    stop(proc)
    # nothing of prometheus_client complained (e.g. a label operation multiprocess mode lacks)
    assert "Warning" not in (tmp / "gunicorn.log").read_text()


def wait_for_workers(proc, gone: set[int]) -> set[int]:
    """The master's workers once all WORKERS run and none of ``gone`` is among them (the first
    to answer /readyz may come up before the others are forked on a busy machine)."""
    deadline = time.monotonic() + 20
    while True:
        now = workers_of(proc.pid)
        if (len(now) == WORKERS and not now & gone) or time.monotonic() > deadline:
            return now
        time.sleep(0.1)


def scrape(base: str) -> str:
    response = requests.get(f"{base}/metrics", timeout=5)
    assert response.status_code == 200
    return response.text


def labelled(text: str, name: str) -> dict[tuple[str, str], float]:
    """{(pid, role): value} of one process metric."""
    from prometheus_client.parser import text_string_to_metric_families

    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                found[(sample.labels["pid"], sample.labels["role"])] = sample.value
    return found


def git_head() -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


def expected_processes(proc) -> set[tuple[str, str]]:
    return {(str(master_of(proc.pid)), "master")} | {(str(pid), "worker") for pid in workers_of(proc.pid)}


def test_build_info_is_one_series_over_the_workers(server):
    base, _ = server
    for _ in range(4):  # whichever worker answers
        text = scrape(base)
        series = [line for line in text.splitlines() if line.startswith("gongzhu_build_info{")]
        assert len(series) == 1, series
        assert value(text, "gongzhu_build_info", version=__version__,
                     contract=about.contract_version(), commit=git_head(), engine=expected_engine()) == 1.0


def test_process_metrics_of_the_master_and_each_worker(server):
    base, proc = server
    expected = expected_processes(proc)
    assert len(expected) == 1 + WORKERS
    for _ in range(4):
        text = scrape(base)
        for name in PROCESS_METRICS:
            assert set(labelled(text, name)) == expected, name
    memory = labelled(text, "process_resident_memory_bytes")
    for (pid, _role), resident in memory.items():
        with open(f"/proc/{pid}/status") as status:
            rss_kib = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        assert abs(resident - rss_kib * 1024) < 16 * 2**20  # the same process, read moments apart
    assert sum(1 for line in text.splitlines() if line.startswith("process_cpu_seconds_total{")) == 1 + WORKERS


def test_a_replaced_worker_is_reported_and_the_killed_one_is_not(server):
    base, proc = server
    before = workers_of(proc.pid)
    victim = min(before)
    os.kill(victim, signal.SIGKILL)
    wait_for_workers(proc, {victim})
    requests.get(f"{base}/readyz", timeout=5)
    text = scrape(base)
    reported = set(labelled(text, "process_start_time_seconds"))
    assert reported == expected_processes(proc)
    assert (str(victim), "worker") not in reported
