"""One outermost WSGI middleware for what every request needs, whichever path answers it inside: its
id, its metrics, its access line and the standard headers (docs/operations.md, "Request ids and trace
context", "Metrics", "Logs"); the trace span, when tracing is on, is made inside it (``tracing.py``) and
named after its operation, the request pipeline's match (``keys.py``).
``GONGZHU_METRICS=off`` and ``GONGZHU_ACCESS_LOG=off`` exist to measure what each costs (``bench/perf/telemetry.py``).
"""
from __future__ import annotations

import itertools
import logging
import os
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from gongzhu.server.log_lines import access_line, only_handler, pend
from gongzhu.server.logs import ACCESS_LOGGER, REQUEST_ID, BatchedStreamHandler, JsonFormatter

from . import keys, metrics, tracing

HEADER = "X-Request-ID"
UNKNOWN_OPERATION = "none"
METRICS_ENV = "GONGZHU_METRICS"
ACCESS_LOG_ENV = "GONGZHU_ACCESS_LOG"
OFF = frozenset({"0", "off", "false", "no"})
# A client's request id: printable ASCII (space to tilde), at most 128 characters.
REQUEST_ID_PATTERN = re.compile(r"[\x20-\x7e]{1,128}")
# W3C trace context: version-traceid-parentid-flags, lower-case hex.
TRACEPARENT_PATTERN = re.compile(r"([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})")
ZERO_TRACE = "0" * 32
ZERO_PARENT = "0" * 16
MICROS = 1_000_000

access_log = logging.getLogger(ACCESS_LOGGER)
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
    sent = environ.get("HTTP_X_REQUEST_ID")
    if sent and REQUEST_ID_PATTERN.fullmatch(sent):
        return sent
    return _id_prefix + format(next(_id_sequence), "016x")


def trace_parent(environ: Environ) -> tuple[str, str] | None:
    """(trace id, parent id) of a well-formed W3C ``traceparent`` header, else None."""
    header = environ.get("HTTP_TRACEPARENT")
    if not header:
        return None
    match = TRACEPARENT_PATTERN.match(header.strip())
    if match is None:
        return None
    version, trace_id, parent_id, _ = match.groups()
    # ff is no version, an id of zeros no id; version 00 has exactly four fields, later versions may append more
    if version == "ff" or trace_id == ZERO_TRACE or parent_id == ZERO_PARENT \
            or (version == "00" and len(header.strip()) != match.end()):
        return None
    return trace_id, parent_id


def _enabled(name: str) -> bool:
    return os.environ.get(name, "on").strip().lower() not in OFF


class Telemetry:
    """WSGI middleware: request id, metrics and access line for every request; the span's middleware inside."""

    def __init__(self, app, tracer_provider=None,
                 operation_of: Callable[[dict], str] | None = None) -> None:
        # off, the app itself: a request pays nothing for tracing
        self.app = tracing.wrap(app, tracer_provider)
        self.metrics = _enabled(METRICS_ENV)
        self.access = _enabled(ACCESS_LOG_ENV)
        # the pipeline's matcher (create_app); without one every request is "none"
        self.operation_of = operation_of or (lambda _environ: UNKNOWN_OPERATION)

    def __call__(self, environ: Environ, start_response: Callable) -> Record:
        started = time.perf_counter()
        request_id = request_id_of(environ)
        environ[keys.REQUEST_ID] = request_id
        token = REQUEST_ID.set(request_id)
        operation = self.operation_of(environ)
        record = Record(self, environ, request_id, operation, started)

        def start(status: str, headers: Headers, exc_info: Any = None) -> Any:
            record.status = int(status[:3])
            record.length = _content_length(headers)
            headers.append((HEADER, request_id))
            add_standard_headers(headers)
            return start_response(status, headers, exc_info)

        try:
            record.body = self.app(environ, start)
        except BaseException:
            record.status = 500
            record.finish(0)
            raise
        finally:
            REQUEST_ID.reset(token)
        return record


class Record:
    """What is known of one request until its answer is sent, and the app's response iterable around the
    answer: the request is recorded when the server closes it."""

    __slots__ = ("owner", "environ", "request_id", "operation", "started", "status", "length", "body", "sent")

    def __init__(self, owner: Telemetry, environ: Environ, request_id: str, operation: str,
                 started: float) -> None:
        self.owner = owner
        self.environ = environ
        self.request_id = request_id
        self.operation = operation
        self.started = started
        self.status = 500
        self.length: int | None = None
        self.body: Any = None
        self.sent = 0

    def finish(self, sent: int) -> None:
        seconds = time.perf_counter() - self.started
        owner = self.owner
        if owner.metrics:
            metrics.observe_request(self.operation, self.status, seconds)
            problem = self.environ.get(keys.PROBLEM)
            if problem is not None:
                metrics.count_problem(problem)
        if owner.access:
            # The access logger's one handler when it batches JSON lines with no filter (as under gunicorn): then
            # the line is written here without a LogRecord (a third of its cost). It is there only when INFO
            # lines are: then one check is enough.
            direct = only_handler(access_log, BatchedStreamHandler, JsonFormatter)
            if direct is not None or access_log.isEnabledFor(logging.INFO):
                self._log(seconds, sent, direct)

    def __iter__(self):
        # No request id in the log context here: a body the server stops reading would
        # leave it set for whatever this thread logs next.
        if type(self.body) is list:   # the pipeline's and Flask's answers: every byte is handed over
            self.sent = sum(map(len, self.body))
            return iter(self.body)
        return self._chunks()

    def _chunks(self):
        for chunk in self.body:
            self.sent += len(chunk)
            yield chunk

    def close(self) -> None:
        try:
            # a list (the pipeline's and Flask's answers) has nothing to close: no AttributeError raised and
            # swallowed a request
            if type(self.body) is not list:
                close = getattr(self.body, "close", None)
                if close is not None:
                    close()
        finally:
            self.finish(self.sent)

    def _log(self, seconds: float, sent: int, direct: BatchedStreamHandler | None) -> None:
        environ = self.environ
        fields = {"method": environ.get("REQUEST_METHOD"), "path": environ.get("PATH_INFO"),
                  "operation": self.operation, "status": self.status, "duration_ms": round(seconds * MICROS) / 1000,
                  "bytes": self.length if self.length is not None else sent, "request_id": self.request_id}
        problem = environ.get(keys.PROBLEM)
        if problem is not None:
            fields["problem"] = problem
        parent = trace_parent(environ)
        if parent is not None:
            fields["trace_id"], fields["parent_id"] = parent
        span = environ.get(keys.SPAN)
        if span is not None:
            context = span.get_span_context()
            fields["trace_id"], fields["span_id"] = f"{context.trace_id:032x}", f"{context.span_id:016x}"
        if direct is not None:
            pend(direct, access_line(time.time(), fields))
        else:
            # makeRecord + handle: logging.info would also walk the stack for the caller's line
            access_log.handle(access_log.makeRecord(ACCESS_LOGGER, logging.INFO, __file__, 0, "request",
                                                    (), None, extra={"fields": fields}))


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
CONTENT_LENGTH_LENGTH = len("content-length")


def _content_length(headers: Headers) -> int | None:
    for name, value in headers:
        if len(name) == CONTENT_LENGTH_LENGTH and name.lower() == "content-length":
            return int(value) if value.isdigit() else None
    return None
