"""What ``service/gongzhu/server/gunicorn_conf.py`` calls: the metrics directory and worker exit.

prometheus_client's multiprocess mode keeps each worker's counters in files under
``PROMETHEUS_MULTIPROC_DIR`` and sums them when ``/metrics`` is scraped, so a
scrape answered by any worker reports the whole server. The directory must be
set before prometheus_client is first imported (it picks its value class then),
i.e. in gunicorn's configuration, before the app is loaded; files of an earlier
run are removed so counters start at zero. When the variable is unset a fresh
private directory under the temporary directory (``TMPDIR``, the chart's
writable ``/tmp``) is used. A worker that exits is marked dead, so its gauges
stop counting while its counters and histograms are kept. The master's pid is
exported as ``GONGZHU_SERVER_PID``: a worker answering a scrape reports the
process metrics of the master and of every worker (``gongzhu.api.metrics``).

Before each fork the master moves everything it has built (the app, the contract, the
compiled validators, the imported modules) to the collector's permanent generation
(``gc.freeze``): a worker's full collections then never walk those objects, and never
write to their pages, which stay shared with the master.

This module imports nothing of prometheus_client at import time on purpose.
"""
from __future__ import annotations

import gc
import os
import shutil
import tempfile
from pathlib import Path

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
SERVER_PID_ENV = "GONGZHU_SERVER_PID"
# The directory this process created (and removes on exit), if it chose one itself.
_created: list[str] = []


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


def child_exit(server, worker) -> None:
    """gunicorn's ``child_exit`` hook: the worker's live gauges stop counting."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server) -> None:
    """gunicorn's ``on_exit`` hook: remove the directory if it was a private one."""
    for path in _created:
        shutil.rmtree(path, ignore_errors=True)
