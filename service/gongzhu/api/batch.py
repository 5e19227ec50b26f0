"""``POST /batch``: many calls of the contract in one request, each answered exactly as it is alone
(docs/operations.md, "Batch").

The envelope is read as any body is (``Pipeline.read``, with the batch's own size limit), its calls counted
(``MAX_CALLS``) and validated against ``BatchRequest``, compiled from the contract like every request schema;
then its ids must be unique. Each call then goes through the pipeline's own steps: the path matched by the
one router (404 and 405 as alone), the body validated, converted and answered by ``pipeline.run``, any fault
made a problem by ``problems.answer`` in the call's language and with the batch's request id. A call a single
request would be served but a batch does not carry (a page, a probe, ``/batch`` itself: anything but a JSON
POST) is refused on its own, 422 ``not_batchable``. The calls run one after the other in the request's
thread, the searches too, each taking a bot slot as its single call does. A worker runs one batch at a time
and admits, past the first, one a request thread while their bodies fit ``QUEUE_BYTES`` (503 ``busy``
beyond); a call not started by the request's
deadline answers 503 ``busy`` with ``Retry-After``, and so does a batch that could not start by then. The
answer is encoded once: operations' answers as values, problems as the bytes ``problems.render`` wrote.
"""
from __future__ import annotations

import math
import os
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import orjson

from . import keys, metrics
from . import messages as text
from .pipeline import (
    REQUEST_TIMEOUT_S,
    Pipeline,
    Route,
    arguments,
    content_length,
    encode,
    handed_over,
    parse_json,
    route_for,
    run,
    takes_body,
    validate,
)
from .problems import ApiProblem, answer
from .searches import search_bound_s
from .validation import MAX_ERRORS

BATCH = "batch"
# The calls of one batch at most: a server limit, like the body's size (the contract states it), checked
# before the envelope is validated, so a body of many thousands of calls costs its reading only.
MAX_CALLS = 1000
# The bodies of the batches a worker admits beside the one it runs, at most: about 850 one-deck mid-deal
# calls, some 40 ms of a core (docs/performance.md, "Batch"). A batch alone is admitted at any size.
QUEUE_BYTES = 512 * 1024
# gunicorn's request threads a worker (gunicorn_conf.py reads the same setting).
REQUEST_THREADS = int(os.environ.get("GUNICORN_THREADS", 4))
LANGUAGE = "Accept-Language"
UNKNOWN_OPERATION = "none"
# The headers of a call's problem a batch passes on (``BatchAnswerHeaders``); ``Vary`` is the batch's own.
ANSWER_HEADERS = frozenset({"Content-Language", "Retry-After", "Allow"})
# A call with no ``body`` is a request with an empty one.
NO_BODY = b""
# the wall clock, as nginx's X-Request-Start (a name of its own, which a test sets)
clock = time.time


class Batch:
    """The batch operation of ``pipeline``: envelopes up to ``limit()`` bytes."""

    def __init__(self, pipeline: Pipeline, limit: Callable[[], int | None]) -> None:
        self.pipeline = pipeline
        self.limit = limit
        # One batch at a time in a worker: its calls hold the GIL, so batches side by side take as long in
        # all and each holds a request thread the longer; one after the other, one envelope at a time is
        # in memory.
        self.running = threading.Lock()
        # Batches admitted (running or waiting for ``running``): at most one a request thread, and, past the
        # first, only while their bodies add up to ``QUEUE_BYTES``; one more is 503 ``busy`` at once, never
        # queued. A thread that waits here waits for work bounded in bytes, so a probe or a single request
        # that finds every thread taken waits for a few milliseconds of calls, not for several full batches.
        self.most = max(1, REQUEST_THREADS)
        self.admitted = 0
        self.admitted_bytes = 0
        self.counting = threading.Lock()

    def __call__(self, route: Route, environ: dict) -> bytes:
        # a length that is no number counts 0 here: the body's reading refuses it (400)
        length = content_length(environ) or 0
        with self.counting:
            if self.admitted >= self.most or (self.admitted and self.admitted_bytes + length > QUEUE_BYTES):
                raise ApiProblem(503, "busy", text.BATCHES_BUSY(), headers=(("Retry-After", "1"),))
            self.admitted += 1
            self.admitted_bytes += length
        try:
            deadline = started(environ) + REQUEST_TIMEOUT_S
            if not self.running.acquire(timeout=max(0.0, deadline - clock())):
                raise ApiProblem(503, "busy", text.LATE(), headers=(("Retry-After", "1"),))
            try:
                return self.serve(route, environ, deadline)
            finally:
                self.running.release()
        finally:
            with self.counting:
                self.admitted -= 1
                self.admitted_bytes -= length

    def serve(self, route: Route, environ: dict, deadline: float) -> bytes:
        """The batch's answer: its envelope read and checked, then each call answered by ``deadline``."""
        envelope = self.pipeline.read(environ, self.limit())
        check_count(envelope)
        validate(route, envelope)
        calls = envelope["requests"]
        check_ids(calls)
        answers, counts = [], Counter[tuple[str, int]]()
        for call in calls:
            operation, status, found = self.answer(call, environ, deadline)
            counts[operation, status] += 1
            answers.append(found)
        refused = sum(count for (_, status), count in counts.items() if status >= 400)
        environ[keys.BATCH] = (len(calls), refused)
        metrics.count_batch_items(counts)
        return encode({"responses": answers})

    def answer(self, call: dict, environ: dict, deadline: float) -> tuple[str, int, dict]:
        """A call's operation, status and answer item (``BatchAnswer``)."""
        operation = UNKNOWN_OPERATION
        try:
            # the path matched as a request's method and path are (404, 405)
            route, params = route_for(self.pipeline.match_path(path_of(call["url"])), call["method"])
            operation = route.operation.operation_id
            check_batchable(call, route)
            # a search is started only with the longest it may hold its slot left before the deadline
            if clock() + search_bound_s(operation, call.get("body")) > deadline:
                raise ApiProblem(503, "busy", text.LATE(), headers=(("Retry-After", "1"),))
            # as a request with an empty body when the call has none
            body = call["body"] if "body" in call else parse_json(NO_BODY)
            answered = run(route, body, arguments(route, params), environ)
            return operation, 200, {"id": call["id"], "status": 200, "body": answered}
        except Exception as error:  # noqa: BLE001 — every fault of a call is that call's problem answer
            problem = answer(error, call_environ(call, environ))
            headers = {name: value for name, value in problem.headers if name in ANSWER_HEADERS}
            # the problem's bytes as written, less the line end: not parsed and encoded again
            return operation, problem.status, {"id": call["id"], "status": problem.status, "headers": headers,
                                               "body": orjson.Fragment(problem.body[:-1])}


def path_of(url: str) -> str:
    """A call's url as the server hands a request's path over: percent-escapes decoded, each to one byte."""
    return unquote(url, encoding="latin-1") if "%" in url else url


def check_batchable(call: dict, route: Route) -> None:
    """422 ``not_batchable`` for what a batch does not carry: anything but a POST operation with a JSON body."""
    if call["method"] != "POST" or route.whole is not None or not takes_body(route):
        raise ApiProblem(422, "not_batchable", text.NOT_BATCHABLE(method=call["method"], url=call["url"][:100]))


def check_count(envelope: Any) -> None:
    """422 ``too_many_calls`` past ``MAX_CALLS``, before the envelope is validated call by call."""
    calls = envelope.get("requests") if isinstance(envelope, dict) else None
    if isinstance(calls, list) and len(calls) > MAX_CALLS:
        detail = text.TOO_MANY_CALLS(count=len(calls), limit=MAX_CALLS)
        raise ApiProblem(422, "too_many_calls", detail,
                         errors=[{"pointer": "/requests", "detail": detail, "code": "too_many_calls"}])


def check_ids(calls: list[dict]) -> None:
    """422 ``duplicate_id`` pointing at every call whose id an earlier call has."""
    first: dict[str, int] = {}
    errors = []
    for index, call in enumerate(calls):
        seen = first.setdefault(call["id"], index)
        if seen != index:
            detail = text.DUPLICATE_ID(id=orjson.dumps(call["id"][:100]).decode(), first=f"/requests/{seen}")
            errors.append({"pointer": f"/requests/{index}/id", "detail": detail, "code": "duplicate_id"})
    if errors:
        raise ApiProblem(422, "duplicate_id", errors[0]["detail"], errors=errors[:MAX_ERRORS])


def started(environ: dict) -> float:
    """When the request reached the front (nginx's ``X-Request-Start``), else now (none, or one malformed)."""
    sent = handed_over(environ.get("HTTP_X_REQUEST_START", ""))
    return sent if math.isfinite(sent) else clock()


def call_environ(call: dict, environ: dict) -> dict:
    """What a problem reads of its request, for a call: the batch's request id, the call's language (its
    own ``Accept-Language``, else the batch's)."""
    language = call.get("headers", {}).get(LANGUAGE, environ.get("HTTP_ACCEPT_LANGUAGE"))
    found = {"HTTP_ACCEPT_LANGUAGE": language}
    if keys.REQUEST_ID in environ:
        found[keys.REQUEST_ID] = environ[keys.REQUEST_ID]
    return found
