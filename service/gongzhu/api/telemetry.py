"""One outermost WSGI middleware for what every request needs, whichever path answers it inside: its
id, its metrics, the standard headers, and for nginx's access line its operation and problem code
(``X-Gongzhu-Log``; docs/operations.md, "Request ids and trace context", "Metrics", "Logs"); the trace
span, when tracing is on, is made inside it (``tracing.py``). Its operation is the request pipeline's
match (``keys.py``). ``GONGZHU_METRICS=off`` exists to measure what counting costs (``bench/perf/telemetry.py``).
"""
from __future__ import annotations

import itertools
import os
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from gongzhu.settings import REQUEST_ID, REQUEST_ID_HEADER, REQUEST_ID_KEY, switched_off

from . import keys, metrics, tracing
from .keys import UNKNOWN_OPERATION

# Read by nginx for its access line (server/nginx.conf) and hidden from the client: "<operation>[ <problem>]",
# or for a batch "batch items=<n> refused=<n>".
LOG_HEADER = "X-Gongzhu-Log"
METRICS_ENV = "GONGZHU_METRICS"
# A client's request id: printable ASCII (space to tilde), at most 128 characters.
REQUEST_ID_PATTERN = re.compile(r"[\x20-\x7e]{1,128}")
# a WSGI environ and an answer's headers (PEP 3333: a dict, a list of name and value pairs)
Environ = dict[str, Any]
Headers = list[tuple[str, str]]


def _new_process() -> None:
    """This process's request ids: a random prefix of its own, a sequence from 0."""
    global _id_prefix, _id_sequence
    _id_prefix, _id_sequence = secrets.token_hex(8), itertools.count()


_id_prefix, _id_sequence = "", itertools.count()
_new_process()
os.register_at_fork(after_in_child=_new_process)


def request_id_of(environ: Environ) -> str:
    """The client's ``X-Request-ID`` when it is acceptable, else a fresh id: the process's random prefix
    (each worker draws its own) and its next sequence number, unique, and no system call a request."""
    sent = environ.get(REQUEST_ID_KEY)
    if sent and REQUEST_ID_PATTERN.fullmatch(sent):
        return sent
    return _id_prefix + format(next(_id_sequence), "016x")


class Telemetry:
    """WSGI middleware: request id, metrics and standard headers for every request; the span's middleware
    inside."""

    def __init__(self, app, tracer_provider=None,
                 operation_of: Callable[[dict], str] | None = None) -> None:
        # off, the app itself: a request pays nothing for tracing
        self.app = tracing.wrap(app, tracer_provider)
        self.metrics = not switched_off(METRICS_ENV)
        # the pipeline's matcher (create_app); without one every request is UNKNOWN_OPERATION
        self.operation_of = operation_of or (lambda _environ: UNKNOWN_OPERATION)

    def __call__(self, environ: Environ, start_response: Callable) -> Record:
        started = time.perf_counter()
        request_id = request_id_of(environ)
        environ[keys.REQUEST_ID] = request_id
        token = REQUEST_ID.set(request_id)
        operation = self.operation_of(environ)
        record = Record(self, environ, operation, started)

        def start(status: str, headers: Headers, exc_info: Any = None) -> Any:
            record.status = int(status[:3])
            headers.append((REQUEST_ID_HEADER, request_id))
            headers.append((LOG_HEADER, log_value(operation, environ.get(keys.PROBLEM), environ.get(keys.BATCH))))
            add_standard_headers(headers)
            return start_response(status, headers, exc_info)

        try:
            record.body = self.app(environ, start)
        except BaseException:
            record.status = 500
            record.finish()
            raise
        finally:
            REQUEST_ID.reset(token)
        return record


class Record:
    """What is known of one request until its answer is sent, and the app's response iterable around the
    answer: the request is counted when the server closes it."""

    __slots__ = ("owner", "environ", "operation", "started", "status", "body")

    def __init__(self, owner: Telemetry, environ: Environ, operation: str, started: float) -> None:
        self.owner = owner
        self.environ = environ
        self.operation = operation
        self.started = started
        self.status = 500
        self.body: Any = None

    def finish(self) -> None:
        if self.owner.metrics:
            metrics.observe_request(self.operation, self.status, time.perf_counter() - self.started)
            problem = self.environ.get(keys.PROBLEM)
            if problem is not None:
                metrics.count_problem(problem)

    def __iter__(self):
        # No request id in the log context here: a body the server stops reading would
        # leave it set for whatever this thread logs next.
        return iter(self.body)

    def close(self) -> None:
        try:
            # a list (the pipeline's and Flask's answers) has nothing to close: no AttributeError raised and
            # swallowed a request
            if type(self.body) is not list:
                close = getattr(self.body, "close", None)
                if close is not None:
                    close()
        finally:
            self.finish()


def log_value(operation: str, problem: str | None, batch: tuple[int, int] | None = None) -> str:
    """``X-Gongzhu-Log``'s value: the operation, and the problem's code after a space when there is one; for
    a batch that ran, ``items=<calls> refused=<calls answered 4xx or 5xx>`` instead."""
    if batch is not None:
        return f"{operation} items={batch[0]} refused={batch[1]}"
    return operation if problem is None else f"{operation} {problem}"


# Every answer: a browser never reads JSON as something else, and, unless the answer sets its own caching,
# nothing is cached (an answer depends on the request body).
NOSNIFF = ("X-Content-Type-Options", "nosniff")
NO_STORE = ("Cache-Control", "no-store")


def add_standard_headers(headers: Headers) -> None:
    """``NOSNIFF``, and ``NO_STORE`` unless ``headers`` has a Cache-Control, added to an answer's headers."""
    headers.append(NOSNIFF)
    for name, _ in headers:
        # a name of another length is no Cache-Control: not lowered to be told
        if len(name) == CACHE_CONTROL_LENGTH and name.lower() == "cache-control":
            return
    headers.append(NO_STORE)


CACHE_CONTROL_LENGTH = len("cache-control")
