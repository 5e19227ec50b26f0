"""What ``gunicorn_conf.py`` calls: the metrics directory, the fork, a worker's start and exit.

prometheus_client's multiprocess mode keeps each worker's counters in files under
``PROMETHEUS_MULTIPROC_DIR`` (set before prometheus_client is first imported, emptied at start;
a private temporary directory when unset) and sums them on a scrape, so any worker reports the
whole server; a dead worker's counts are added to one accumulated file a kind (``child_exit``).
``GONGZHU_SERVER_PID`` names the master for the process metrics. Before each fork the master's objects
go to the collector's permanent generation (``gc.freeze``), so workers' collections never write to the
pages they share with it. Imports nothing of prometheus_client
at import time on purpose.
"""
from __future__ import annotations

import gc
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

from gongzhu.settings import MULTIPROC_ENV, SERVER_PID_ENV

# The directory this process created (and removes on exit), if it chose one itself.
_created: list[str] = []
# Metric observations wait in memory at most this long before a worker counts them (one lock a
# series a batch, not a request).
FLUSH_S = 0.05
# How long a thread running Python keeps the GIL while another waits for it: 1 ms instead of
# CPython's 5 keeps probes and short requests prompt beside a long request (docs/performance.md).
SWITCH_INTERVAL_S = float(os.environ.get("GUNICORN_SWITCH_INTERVAL_MS", 1)) / 1000


def prepare_metrics_dir() -> str:
    """Create (or empty) the multiprocess directory and export it; returns its path."""
    chosen = os.environ.get(MULTIPROC_ENV)
    if not chosen:
        chosen = tempfile.mkdtemp(prefix="gongzhu-metrics-")
        _created.append(chosen)
    path = Path(chosen)
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink()
    os.environ[MULTIPROC_ENV] = str(path)
    # The workers read the master's pid to report its and their process metrics (api/metrics.py).
    os.environ[SERVER_PID_ENV] = str(os.getpid())
    return str(path)


def pre_fork(server, worker) -> None:
    """gunicorn's ``pre_fork`` hook: what the master holds is frozen out of the workers' collections."""
    gc.freeze()


def post_fork(server, worker) -> None:
    """gunicorn's ``post_fork`` hook: before the worker has a thread, its search processes start; then
    its flusher."""
    from gongzhu.api import searches

    searches.start()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    threading.Thread(target=_flush_every, name="gongzhu-flush", daemon=True).start()


def _flush_every() -> None:
    while True:
        time.sleep(FLUSH_S)
        _flush()


def _flush() -> None:
    from gongzhu.api import metrics

    metrics.flush()


def worker_exit(server, worker) -> None:
    """gunicorn's ``worker_exit`` hook: what waits is written and counted; the searches stop."""
    from gongzhu.api import searches

    _flush()
    searches.stop()


def child_exit(server, worker) -> None:
    """gunicorn's ``child_exit`` hook: the worker's counts join the accumulated files, its own files go
    (a directory that grew by a few files a recycled worker would fill the pod's in-memory /tmp)."""
    from gongzhu.api import metrics

    metrics.merge_dead(worker.pid, os.environ[MULTIPROC_ENV])


def on_exit(server) -> None:
    """gunicorn's ``on_exit`` hook: remove the directory if it was a private one."""
    for path in _created:
        shutil.rmtree(path, ignore_errors=True)
