"""``POST /batch``: many calls of the contract in one request, each answered exactly as it is alone
(docs/operations.md, "Batch").

The envelope is read as any body is (``Pipeline.read_text``, with the batch's own size limit), each call's
body left as the text it was sent in (``envelope.read``); its calls are counted (``MAX_CALLS``) and validated
against ``BatchRequest``, compiled from the contract like every request schema; then its ids must be unique.
Each call then goes through the pipeline's own steps: the path matched by the one router (404 and 405 as
alone), the body read with the single request's size limit (413 as alone) and as strictly, validated,
converted and answered by ``pipeline.run``, any fault made a problem by ``problems.answer`` in the call's
language and with the batch's request id. A call a single request would be served but a batch does not carry
(a page, a probe, ``/batch`` itself: anything but a JSON POST) is refused on its own, 422 ``not_batchable``.

The calls run one after the other in the request's thread, the searches too, each taking a bot slot as its
single call does. A worker runs one batch at a time; a batch that finds one running is 503 ``busy`` with
``Retry-After`` at once, so that batches never hold request threads waiting, and a probe or a single request
always finds one. A call not started by the request's deadline answers 503 ``busy``. A client that leaves
stops its batch: no call starts after it is gone, a running search is stopped, and the calls left are counted
as 499 (``gongzhu_batch_items_total``), as the request is. The answer is encoded once: operations' answers as
values, problems as the bytes ``problems.render`` wrote.
"""
from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import orjson

from gongzhu.settings import request_deadline, too_late

from . import envelope, keys, metrics
from . import messages as text
from .clients import ClientGone, gone
from .keys import UNKNOWN_OPERATION
from .pipeline import (
    CLIENT_GONE,
    ESCAPE,
    MAX_DEPTH,
    REQUEST_TIMEOUT_S,
    Pipeline,
    Route,
    arguments,
    check_depth,
    check_depths,
    encode,
    parse_json,
    parse_text,
    reject_lone_surrogates,
    route_for,
    run,
    takes_body,
    too_deep,
    too_large,
    validate,
)
from .problems import ApiProblem, answer
from .searches import search_bound_s
from .validation import MAX_ERRORS

BATCH = "batch"
# The calls of one batch at most: a server limit, like the body's size (the contract states it), checked
# before the envelope is validated, so a body of many thousands of calls costs its reading only.
MAX_CALLS = 1000
LANGUAGE = "Accept-Language"
# The headers of a call's problem a batch passes on (``BatchAnswerHeaders``); ``Vary`` is the batch's own.
ANSWER_HEADERS = frozenset({"Content-Language", "Retry-After", "Allow"})
# A call with no ``body`` is a request with an empty one.
NO_BODY = b""
# the wall clock, as nginx's X-Request-Start (a name of its own, which a test sets)
clock = time.time


class Batch:
    """The batch operation of ``pipeline``: envelopes up to ``limit()`` bytes, each call's body up to the
    pipeline's own limit."""

    def __init__(self, pipeline: Pipeline, limit: Callable[[], int | None]) -> None:
        self.pipeline = pipeline
        self.limit = limit
        # One batch at a time in a worker: its calls hold the GIL, so batches side by side take as long in
        # all, and a batch waiting for another would hold a request thread that a probe or a single request
        # needs. A batch that finds this taken is refused at once.
        self.running = threading.Lock()

    def __call__(self, route: Route, environ: dict) -> bytes:
        if not self.running.acquire(blocking=False):
            raise ApiProblem(503, "busy", text.BATCHES_BUSY(), headers=(("Retry-After", "1"),))
        try:
            return self.serve(route, environ, request_deadline(environ, clock(), REQUEST_TIMEOUT_S))
        finally:
            self.running.release()

    def serve(self, route: Route, environ: dict, deadline: float) -> bytes:
        """The batch's answer: its envelope read and checked, then each call answered by ``deadline``."""
        sent = self.pipeline.read_text(environ, self.limit())
        found, bodies = read_envelope(sent, self.pipeline.limit())
        check_count(found)
        validate(route, found)
        calls = found["requests"]
        check_ids(calls)
        answers, counts = [], Counter[tuple[str, int]]()
        try:
            for call, body in zip(calls, bodies, strict=True):
                if gone(environ):
                    raise ClientGone
                operation, status, item = self.answer(call, body, sent, environ, deadline)
                counts[operation, status] += 1
                answers.append(item)
        except ClientGone:
            # the calls not answered, the one stopped among them: nobody reads them
            counts[UNKNOWN_OPERATION, CLIENT_GONE] += len(calls) - len(answers)
            raise
        finally:
            metrics.count_batch_items(counts)
        refused = sum(count for (_, status), count in counts.items() if status >= 400)
        environ[keys.BATCH] = (len(calls), refused)
        return encode({"responses": answers})

    def answer(self, call: dict, body: envelope.Body | None, sent: str, environ: dict,
               deadline: float) -> tuple[str, int, dict]:
        """A call's operation, status and answer item (``BatchAnswer``); ``ClientGone`` stops the batch."""
        operation = UNKNOWN_OPERATION
        try:
            # the path matched as a request's method and path are (404, 405)
            route, params = route_for(self.pipeline.match_path(path_of(call["url"])), call["method"])
            operation = route.operation.operation_id
            check_batchable(call, route)
            value = self.body_of(body, sent)
            # a search is started only with the longest it may hold its slot left before the deadline
            if too_late(deadline, clock(), search_bound_s(operation, value)):
                raise ApiProblem(503, "busy", text.LATE(), headers=(("Retry-After", "1"),))
            answered = run(route, value, arguments(route, params), environ)
            return operation, 200, {"id": call["id"], "status": 200, "body": answered}
        except ClientGone:
            raise
        except Exception as error:  # noqa: BLE001 — every fault of a call is that call's problem answer
            problem = answer(error, call_environ(call, environ))
            headers = {name: value for name, value in problem.headers if name in ANSWER_HEADERS}
            # the problem's bytes as written, less the line end: not parsed and encoded again
            return operation, problem.status, {"id": call["id"], "status": problem.status, "headers": headers,
                                               "body": orjson.Fragment(problem.body[:-1])}

    def body_of(self, body: envelope.Body | None, sent: str) -> Any:
        """A call's body read as the same body alone is: within the single request's limit (413), strictly
        (400); an empty body when the call has none."""
        if body is None:
            return parse_json(NO_BODY)
        limit = self.pipeline.limit()
        # a character is 1 to 4 bytes: only a body that may be past the limit is encoded to be sized
        if limit is not None and body.end - body.start > limit // 4 and utf8_size(sent[body.start:body.end]) > limit:
            raise too_large()
        if not body.whole:
            return parse_text(sent[body.start:body.end])
        if sent.find(ESCAPE, body.start, body.end) >= 0:  # its depth is checked with the others' (read_envelope)
            reject_lone_surrogates(body.value)
        return body.value


def utf8_size(found: str) -> int:
    """The bytes ``found`` was sent in (UTF-8)."""
    return len(found) if found.isascii() else len(found.encode())


def read_envelope(sent: str, limit: int | None) -> tuple[Any, list[envelope.Body | None]]:
    """The envelope and its calls' bodies (``envelope.read``), 400 ``malformed_json`` as a body's JSON is."""
    try:
        found, bodies = envelope.read(sent, limit)
    except ValueError as error:
        raise ApiProblem(400, "malformed_json", text.NOT_JSON(error=error)) from None
    except RecursionError:
        raise too_deep() from None
    if sent.count("[") + sent.count("{") > MAX_DEPTH:
        check_depth(found)
        bodies = within_depth(bodies)
    if ESCAPE in sent:
        reject_lone_surrogates(found)
    return found, bodies


def within_depth(bodies: list[envelope.Body | None]) -> list[envelope.Body | None]:
    """The bodies, each read whole but nested past ``MAX_DEPTH`` left to be read again when its call runs (then
    its 400, as alone): all checked in one walk, one by one only when one of them is too deep."""
    try:
        check_depths([body.value for body in bodies if body is not None and body.whole])
    except ApiProblem:
        return [body if body is None or not body.whole or shallow(body.value) else envelope.Body(body.start, body.end)
                for body in bodies]
    return bodies


def shallow(value: Any) -> bool:
    try:
        check_depth(value)
    except ApiProblem:
        return False
    return True


def path_of(url: str) -> str:
    """A call's url as the server hands a request's path over: percent-escapes decoded, each to one byte."""
    return unquote(url, encoding="latin-1") if "%" in url else url


def check_batchable(call: dict, route: Route) -> None:
    """422 ``not_batchable`` for what a batch does not carry: anything but a POST operation with a JSON body."""
    if call["method"] != "POST" or route.whole is not None or not takes_body(route):
        raise ApiProblem(422, "not_batchable", text.NOT_BATCHABLE(method=call["method"], url=call["url"][:100]))


def check_count(found: Any) -> None:
    """422 ``too_many_calls`` past ``MAX_CALLS``, before the envelope is validated call by call."""
    calls = found.get("requests") if isinstance(found, dict) else None
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


def call_environ(call: dict, environ: dict) -> dict:
    """What a problem reads of its request, for a call: the batch's request id, the call's language (its
    own ``Accept-Language``, else the batch's)."""
    language = call.get("headers", {}).get(LANGUAGE, environ.get("HTTP_ACCEPT_LANGUAGE"))
    found = {"HTTP_ACCEPT_LANGUAGE": language}
    if keys.REQUEST_ID in environ:
        found[keys.REQUEST_ID] = environ[keys.REQUEST_ID]
    return found
