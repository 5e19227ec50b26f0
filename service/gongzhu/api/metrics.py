"""Prometheus metrics of the service, and ``/metrics``'s text. Names, labels and the multiprocess mode's
choices (one ``gongzhu_build_info`` series; ``process_*`` per server process, read from /proc at each
scrape): docs/operations.md, "Metrics".

A request's own observations (its count and duration, its replay time) wait in a queue (a ``deque``:
no lock) and ``flush()`` adds them in one go, counts summed and durations bucketed; ``render()`` flushes
first, and a queue of ``FLUSH_AT`` flushes itself. Each observation alone takes a lock and, in
multiprocess mode, writes a memory map: a few microseconds a request, more than the rest of its
telemetry; a flush looks each series up once (``labels()`` locks and builds a key).
"""
from __future__ import annotations

import fcntl
import glob
import json
import os
import threading
from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
    multiprocess,
)
from prometheus_client.metrics_core import Metric

# prometheus_client's own file format, to write the sum of dead workers' files in (merge_dead)
from prometheus_client.mmap_dict import MmapedDict

from gongzhu.settings import MULTIPROC_ENV, SERVER_PID_ENV

PROC = Path("/proc")
# The classic text format, which every Prometheus version reads.
TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8"
# Seconds: a mid-deal /legal-moves is well under a millisecond, /suggest up to its budget.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
REPLAY_BUCKETS = (0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025)
SAMPLE_BUCKETS = (0, 10, 50, 100, 250, 500, 1000, 2500, 5000)
RATIO_BUCKETS = (0.1, 0.25, 0.5, 0.75, 0.9, 1.0, 1.1, 1.5, 2.0)

REQUESTS = Counter("gongzhu_http_requests", "HTTP requests by operation and status",
                   ["operation", "status"])
LATENCY = Histogram("gongzhu_http_request_duration_seconds",
                    "Time from the request reaching the app to the last byte of the answer",
                    ["operation", "status"], buckets=LATENCY_BUCKETS)
BATCH_ITEMS = Counter("gongzhu_batch_items", "Calls answered inside /batch requests by operation and status",
                      ["operation", "status"])
PROBLEMS = Counter("gongzhu_problems", "Problem answers by code", ["code"])
REPLAY = Histogram("gongzhu_engine_replay_seconds", "Time to replay a deal state's history",
                   buckets=REPLAY_BUCKETS)
BOT_DECISIONS = Counter("gongzhu_bot_decisions", "Bot suggestions by reason", ["reason"])
BOT_SAMPLES = Histogram("gongzhu_bot_samples", "Deals sampled per bot suggestion",
                        buckets=SAMPLE_BUCKETS)
BOT_BUDGET_USED = Histogram("gongzhu_bot_budget_used_ratio",
                            "Bot thinking time as a share of its budget", buckets=RATIO_BUCKETS)
BOT_SHED = Counter("gongzhu_bot_shed", "Bot requests refused because the bot was busy")
BUILD_INFO = Gauge("gongzhu_build_info", "What runs: service and contract versions, commit, engine build (always 1)",
                   ["version", "contract", "commit", "engine"], multiprocess_mode="max")

# (operation, status, seconds) of each request, or (None, 0, seconds) of a replay, not yet counted
_pending: deque[tuple[str | None, int, float]] = deque()
FLUSH_AT = 512
# Held for a whole flush: a worker's last flush (at its exit) must wait for the flusher thread's, which may
# hold observations it has taken off the queue and not yet counted; the process ends, and that thread with it,
# as soon as the last one returns.
_flushing = threading.Lock()


def observe_request(operation: str, status: int, seconds: float) -> None:
    _pending.append((operation, status, seconds))
    if len(_pending) >= FLUSH_AT:
        flush()


def observe_replay(seconds: float) -> None:
    _pending.append((None, 0, seconds))
    if len(_pending) >= FLUSH_AT:
        flush()


class _Batch:
    """One histogram series' observations of a flush: how many, their sum, each bucket's count."""

    __slots__ = ("count", "total", "buckets")

    def __init__(self, size: int) -> None:
        self.count = 0
        self.total = 0.0
        self.buckets = [0] * size

    def into(self, histogram) -> None:
        """Add to a prometheus_client histogram series as ``observe`` would, value by value."""
        histogram._sum.inc(self.total)
        for index, count in enumerate(self.buckets):
            if count:
                histogram._buckets[index].inc(count)


def flush() -> None:
    """Count the observations waiting (``_pending``) into prometheus_client's values; when it returns, every
    observation made before the call is counted, whichever thread flushes beside it."""
    with _flushing:
        _count_pending()


def _count_pending() -> None:
    requests: dict[tuple[str, int], _Batch] = {}
    replays = _Batch(len(REPLAY_BUCKETS) + 1)
    latency_size = len(LATENCY_BUCKETS) + 1
    while True:
        try:
            operation, status, seconds = _pending.popleft()
        except IndexError:
            break
        if operation is None:
            batch = replays
            bounds: tuple[float, ...] = REPLAY_BUCKETS
        else:
            batch = requests.get((operation, status)) or requests.setdefault((operation, status),
                                                                            _Batch(latency_size))
            bounds = LATENCY_BUCKETS
        # added here, not by a method: two values a request pass this loop; the bucket of the first
        # upper bound at or above the value (the last is +Inf)
        batch.count += 1
        batch.total += seconds
        batch.buckets[bisect_left(bounds, seconds)] += 1
    for (operation, status), batch in requests.items():
        REQUESTS.labels(operation, str(status)).inc(batch.count)
        batch.into(LATENCY.labels(operation, str(status)))
    if replays.count:
        replays.into(REPLAY)


def count_batch_items(counts: dict[tuple[str, int], int]) -> None:
    """A batch's calls, counted once per operation and status (not a lock and a memory map each)."""
    for (operation, status), count in counts.items():
        BATCH_ITEMS.labels(operation, str(status)).inc(count)


def count_problem(code: str) -> None:
    PROBLEMS.labels(code).inc()


def observe_bot(reason: str, samples: int, seconds: float, budget_ms: int) -> None:
    BOT_DECISIONS.labels(reason).inc()
    BOT_SAMPLES.observe(samples)
    if budget_ms > 0:
        BOT_BUDGET_USED.observe(seconds * 1000 / budget_ms)


def count_bot_shed() -> None:
    BOT_SHED.inc()


def record_build_info(version: str, contract: str, commit: str | None, engine: str) -> None:
    """Set ``gongzhu_build_info``. One process's labels do not change (under gunicorn the
    master sets them once, before forking); in one process, an app created again with
    other labels (tests) replaces them. prometheus_client cannot clear labels in
    multiprocess mode, hence the test."""
    if not os.environ.get(MULTIPROC_ENV):
        BUILD_INFO.clear()
    BUILD_INFO.labels(version, contract, commit or "", engine).set(1)


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (a gunicorn master's workers), from /proc."""
    kids: list[int] = []
    for task in (PROC / str(pid) / "task").glob("*"):
        try:
            kids += [int(kid) for kid in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return sorted(kids)


def server_processes() -> list[tuple[int, str]]:
    """(pid, role) of gunicorn's master and its workers; this process alone elsewhere."""
    master = os.environ.get(SERVER_PID_ENV, "")
    if not master.isdigit() or not (PROC / master).exists():
        return [(os.getpid(), "worker")]
    workers = _children(int(master)) or [os.getpid()]
    return [(int(master), "master"), *((pid, "worker") for pid in workers)]


def _constant(pid: int) -> Callable[[], int]:
    return lambda: pid


class ServerProcessCollector:
    """prometheus_client's process metrics for each process of the server, labelled
    ``pid`` and ``role``; read from /proc when scraped (a process gone meanwhile is left out)."""

    def collect(self) -> Iterator[Metric]:
        families: dict[str, Metric] = {}
        for pid, role in server_processes():
            one = ProcessCollector(pid=_constant(pid), registry=None)
            for family in one.collect():
                merged = families.setdefault(family.name, Metric(family.name, family.documentation, family.type))
                for sample in family.samples:
                    merged.add_sample(sample.name, {**sample.labels, "pid": str(pid), "role": role}, sample.value)
        yield from families.values()


def written(files: Iterable[str]) -> list[str]:
    """The metrics files a process has begun to write: prometheus_client creates a process's file, then sizes
    it, and reading one in between (or one a process killed then left behind) fails the whole scrape."""
    found = []
    for name in files:
        try:
            if os.path.getsize(name):
                found.append(name)
        except OSError:
            # (gone since it was listed: a dead worker's, merged)
            continue
    return found


class WrittenFilesCollector(multiprocess.MultiProcessCollector):
    """prometheus_client's multiprocess collector over the files of ``path`` processes have begun to write
    (``written``)."""

    def __init__(self, path: str) -> None:
        super().__init__(None, path)
        self.folder = path

    def collect(self) -> Iterable[Metric]:
        return self.merge(written(glob.glob(os.path.join(self.folder, "*.db"))), accumulate=True)


def render() -> tuple[bytes, str]:
    """The exposition text of every worker (multiprocess mode) or of this process."""
    flush()
    path = os.environ.get(MULTIPROC_ENV)
    if path:
        registry = CollectorRegistry()
        registry.register(WrittenFilesCollector(path))
        registry.register(ServerProcessCollector())
        with _files_locked(path, fcntl.LOCK_SH):
            return generate_latest(registry), TEXT_FORMAT
    return generate_latest(REGISTRY), TEXT_FORMAT


# The files a dead process's counters and histograms are added to (``merge_dead``).
MERGED = "merged"
ADDED_KINDS = ("counter", "histogram", "summary")


def merge_dead(pid: int, path: str) -> None:
    """Add a dead worker's counters and histograms to the directory's accumulated files and remove its files:
    the directory holds one file a live process and kind, however many workers were recycled, and the totals
    stay exact. Its gauges go: they were values of a process that no longer is. A scrape reads the files
    under a shared lock, so it never sees a worker counted twice or not at all."""
    folder = Path(path)
    with _files_locked(path, fcntl.LOCK_EX):
        for kind in ADDED_KINDS:
            dead, merged = folder / f"{kind}_{pid}.db", folder / f"{kind}_{MERGED}.db"
            if written([str(dead)]):
                _write_sum(written([str(merged), str(dead)]), folder / f"{kind}_{MERGED}.tmp")
                os.replace(folder / f"{kind}_{MERGED}.tmp", merged)
            dead.unlink(missing_ok=True)
        for gauge in folder.glob(f"gauge_*_{pid}.db"):
            gauge.unlink()


def _write_sum(files: list[str], target: Path) -> None:
    """The sum of ``files``' values into a new file ``target``, in prometheus_client's format (its keys; buckets
    as each file keeps them, not cumulative)."""
    target.unlink(missing_ok=True)
    out = MmapedDict(str(target))
    try:
        for metric in multiprocess.MultiProcessCollector.merge(files, accumulate=False):
            for sample in metric.samples:
                key = json.dumps([metric.name, sample.name, sample.labels, metric.documentation], sort_keys=True)
                out.write_value(key, sample.value, 0.0)
    finally:
        out.close()


@contextmanager
def _files_locked(path: str, how: int) -> Iterator[None]:
    with open(Path(path) / ".lock", "a") as lock:
        fcntl.flock(lock, how)
        yield
