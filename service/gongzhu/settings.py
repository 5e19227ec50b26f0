"""The service's settings, each written once: the environment variables that the HTTP layer and the server both
read, and their defaults; the headers nginx and the application pass each other; the rule that says when a request
is too late to start; and the log context (the request id of the line being logged).

Standard library only, and below both ``gongzhu.api`` and ``gongzhu.server`` (the layering test): the HTTP layer
reads its settings here and imports nothing of the server, so an application made in process
(``create_app()``) loads no gunicorn. A setting only the server reads stays beside its one reader
(``server/gunicorn_conf.py``, ``server/front.py``); docs/operations.md, "Starting the server", lists them all.
"""
from __future__ import annotations

import contextvars
import math
import os
from collections.abc import Mapping
from typing import Any, Final

# ---- where and how many: HOST, PORT, WEB_CONCURRENCY, GUNICORN_THREADS --------------------------------------
HOST_ENV: Final = "HOST"
PORT_ENV: Final = "PORT"
# Loopback unless HOST says otherwise: the answers include all four hands, so a server started on a laptop is
# not offered to the whole network (the image sets HOST=0.0.0.0).
DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8080
WORKERS_ENV: Final = "WEB_CONCURRENCY"
THREADS_ENV: Final = "GUNICORN_THREADS"
# Request threads per worker. Requests are CPU-bound Python: one process runs one at a time (the GIL), so more
# threads add queueing, not throughput; 4 leave room for a bot call (api/slots.py) while others answer.
DEFAULT_THREADS: Final = 4
# gunicorn's unix sockets behind nginx (``serve`` sets them): requests, and a second one for /batch alone.
SOCKET_ENV: Final = "GONGZHU_SOCKET"
BATCH_SOCKET_ENV: Final = "GONGZHU_BATCH_SOCKET"

# ---- limits: the bodies, the request timeout, connections -------------------------------------------------------
MAX_BODY_ENV: Final = "GONGZHU_MAX_BODY"
DEFAULT_MAX_BODY: Final = 256 * 1024
# A batch's body: 1,000 mid-deal states of two decks fit (docs/operations.md, "Batch"), and eight of them parsed
# at once fit a worker's memory.
MAX_BATCH_BODY_ENV: Final = "GONGZHU_MAX_BATCH_BODY"
DEFAULT_MAX_BATCH_BODY: Final = 2 * 1024 * 1024
# Read by nginx (a request must arrive whole, and its answer be read, within it) and by the application (a request
# handed over longer ago is not started: ``request_deadline``).
REQUEST_TIMEOUT_ENV: Final = "GUNICORN_REQUEST_TIMEOUT"
DEFAULT_REQUEST_TIMEOUT_S: Final = 10.0
# Seconds an idle connection (new or between requests) is kept before it is closed: gunicorn's and nginx's.
KEEPALIVE_ENV: Final = "GUNICORN_KEEPALIVE"
DEFAULT_KEEPALIVE_S: Final = 10
# Connections the kernel queues before any worker accepts them: a short queue sheds load (connection refused,
# retried elsewhere) instead of hiding it.
BACKLOG_ENV: Final = "GUNICORN_BACKLOG"
DEFAULT_BACKLOG: Final = 256
# Seconds a stopping worker may finish its requests; under serve, gunicorn's share of the stop budget.
GRACEFUL_TIMEOUT_ENV: Final = "GUNICORN_GRACEFUL_TIMEOUT"
DEFAULT_GRACEFUL_TIMEOUT_S: Final = 20

# ---- metrics across processes ----------------------------------------------------------------------------------
# prometheus_client's multiprocess directory (read by prometheus_client itself when first imported).
MULTIPROC_ENV: Final = "PROMETHEUS_MULTIPROC_DIR"
# gunicorn's master pid, exported by the master for its workers' process metrics.
SERVER_PID_ENV: Final = "GONGZHU_SERVER_PID"

# ---- headers nginx and the application pass each other -------------------------------------------------------
# A client's request id, echoed on every answer (made when a client sent none acceptable).
REQUEST_ID_HEADER: Final = "X-Request-ID"
# Set by nginx when it hands a request over: ``t=<seconds since the epoch>``.
REQUEST_START_HEADER: Final = "X-Request-Start"


def environ_key(header: str) -> str:
    """The WSGI environ's key of a request header (PEP 3333): ``X-Request-ID`` is ``HTTP_X_REQUEST_ID``."""
    return "HTTP_" + header.upper().replace("-", "_")


REQUEST_ID_KEY: Final = environ_key(REQUEST_ID_HEADER)
REQUEST_START_KEY: Final = environ_key(REQUEST_START_HEADER)

# ---- logs --------------------------------------------------------------------------------------------------------
LOG_FORMAT_ENV: Final = "GONGZHU_LOG_FORMAT"
JSON_FORMAT: Final = "json"
TEXT_FORMAT: Final = "text"
LOG_LEVEL_ENV: Final = "LOG_LEVEL"
DEFAULT_LOG_LEVEL: Final = "info"
# What turns a setting such as GONGZHU_METRICS or GONGZHU_ACCESS_LOG off (on by default).
OFF: Final = frozenset({"0", "off", "false", "no"})
# The id of the request being served by this thread, for every line logged meanwhile.
REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)


def _int(name: str, default: int) -> int:
    """The whole number ``name`` sets, else ``default``; ``ValueError`` naming the setting for another value."""
    value = os.environ.get(name)
    try:
        return default if value is None else int(value)
    except ValueError:
        raise ValueError(f"{name}={value!r} is not a whole number") from None


def host() -> str:
    return os.environ.get(HOST_ENV, DEFAULT_HOST)


def port() -> int:
    return _int(PORT_ENV, DEFAULT_PORT)


def workers() -> int:
    """gunicorn's workers: ``WEB_CONCURRENCY``, else 2 × cores + 1."""
    return _int(WORKERS_ENV, 2 * (os.cpu_count() or 1) + 1)


def threads() -> int:
    return _int(THREADS_ENV, DEFAULT_THREADS)


def max_body() -> int:
    """A request body's limit in bytes, a batch call's too."""
    return _int(MAX_BODY_ENV, DEFAULT_MAX_BODY)


def max_batch_body() -> int:
    """A batch's body limit in bytes."""
    return _int(MAX_BATCH_BODY_ENV, DEFAULT_MAX_BATCH_BODY)


def request_timeout_s() -> float:
    return float(os.environ.get(REQUEST_TIMEOUT_ENV, DEFAULT_REQUEST_TIMEOUT_S))


def keepalive_s() -> int:
    return _int(KEEPALIVE_ENV, DEFAULT_KEEPALIVE_S)


def backlog() -> int:
    return _int(BACKLOG_ENV, DEFAULT_BACKLOG)


def log_level() -> str:
    return os.environ.get(LOG_LEVEL_ENV, DEFAULT_LOG_LEVEL)


def switched_off(name: str) -> bool:
    """Whether the setting ``name`` says off."""
    return os.environ.get(name, "on").strip().lower() in OFF


def text_lines() -> bool:
    """Whether ``GONGZHU_LOG_FORMAT`` asks for text lines (JSON otherwise): the application's, gunicorn's and
    nginx's."""
    return os.environ.get(LOG_FORMAT_ENV, JSON_FORMAT).strip().lower() == TEXT_FORMAT


# ---- the deadline: is a request too late to start? ------------------------------------------------------------


def handed_over(environ: Mapping[str, Any]) -> float | None:
    """When nginx handed the request over, from its ``X-Request-Start: t=<seconds>``; None for none, or a value
    that is not that (gunicorn serving alone passes whatever a client sent)."""
    value = environ.get(REQUEST_START_KEY, "")
    if not isinstance(value, str) or not value.startswith("t="):
        return None
    try:
        started = float(value[2:])
    except ValueError:
        return None
    return started if math.isfinite(started) else None


def request_deadline(environ: Mapping[str, Any], now: float, timeout_s: float) -> float:
    """The wall-clock time by which a request must have started: ``timeout_s`` after nginx handed it over, else
    (no front to say when: in process, or gunicorn alone) after ``now``, when the application first asks."""
    started = handed_over(environ)
    return (now if started is None else started) + timeout_s


def too_late(deadline: float, now: float, takes_s: float = 0.0) -> bool:
    """Whether work that may take ``takes_s`` seconds, started ``now``, would end past ``deadline``."""
    return now + takes_s > deadline
