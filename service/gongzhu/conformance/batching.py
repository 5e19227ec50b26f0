"""The cases' requests sent as calls of ``POST /batch`` (``conformance --batch``): each call must be answered
exactly as its request alone.

A case's request is a call when a batch can carry it: a POST with a JSON body, no header but
``Accept-Language`` (a call's own) and ``Content-Type: application/json``, not ``/batch`` itself, and not
about the body as a JSON text (which in a batch is the envelope's); any other (a page, a raw or padded
body, a media type, the framing of the request) is skipped with the reason. The calls go in batches of at most
``MAX_CALLS`` calls and ``MAX_BYTES`` bytes, under the contract's caps. A call's answer is its item:
``status`` and ``body``, its ``headers`` (a problem's ``Content-Language``, ``Retry-After``, ``Allow``), and
the media type the contract gives an item's body (a problem from status 400 on, JSON below).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from gongzhu.conformance.transport import Answer, Request

BATCH_PATH = "/batch"
METHOD = "POST"
# The one header a call carries of its own: the language of its problem.
LANGUAGE = "accept-language"
# A call's body is JSON: a request saying so says nothing a call does not.
JSON_HEADER = ("content-type", "application/json")
# A batch's calls: the contract's cap (BatchRequest's maxItems); its bytes: half the batch's default body
# limit (2 MiB), so a server configured lower still takes them, and over any one case's body.
MAX_CALLS = 1000
MAX_BYTES = 1_000_000
ENVELOPE_BYTES = 64
PROBLEM_FROM = 400
# The faults of a body as a JSON text (too many fields in an object, say): the envelope is one JSON text, so
# such a fault anywhere in it refuses the batch, not a call.
JSON_TEXT_CODES = frozenset({"malformed_json", "too_many_fields"})
MEDIA_TYPES = ("application/json", "application/problem+json")


def refusal(case: dict[str, Any]) -> str | None:
    """Why a case cannot be sent as a call of a batch; ``None`` when it can."""
    request = case["request"]
    if request["method"] != METHOD:
        return f"{request['method']}: a batch carries JSON POST operations only"
    if request["path"].split("?")[0] == BATCH_PATH:
        return "a batch itself: a batch does not carry /batch"
    if "body" not in request:
        return "its body is bytes, not a JSON value: a call's body is JSON"
    headers = sorted(name for name, value in request.get("headers", {}).items()
                     if name.lower() != LANGUAGE and (name.lower(), value) != JSON_HEADER)
    if headers:
        return f"its header {headers[0]}: a call has no header but Accept-Language"
    code = case["expect"].get("problem", {}).get("code")
    if code in JSON_TEXT_CODES:
        return f"{code}: a fault of the JSON text, which in a batch is the envelope's, refusing the whole batch"
    return None


def call(request: Request, call_id: str) -> dict[str, Any]:
    """A case's request as a call of a batch (``BatchCall``)."""
    sent = {"id": call_id, "method": METHOD, "url": request["path"], "body": request["body"]}
    languages = [value for name, value in request.get("headers", {}).items() if name.lower() == LANGUAGE]
    if languages:
        sent["headers"] = {"Accept-Language": languages[0]}
    return sent


def envelope(calls: Sequence[dict[str, Any]]) -> Request:
    """The ``/batch`` request carrying ``calls``."""
    return {"method": METHOD, "path": BATCH_PATH, "body": {"requests": list(calls)}}


def size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def chunks(calls: Sequence[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """``calls`` in order, cut into batches within ``MAX_CALLS`` calls and ``MAX_BYTES`` bytes."""
    chunk: list[dict[str, Any]] = []
    used = ENVELOPE_BYTES
    for sent in calls:
        cost = size(sent) + 1
        if chunk and (len(chunk) == MAX_CALLS or used + cost > MAX_BYTES):
            yield chunk
            chunk, used = [], ENVELOPE_BYTES
        chunk.append(sent)
        used += cost
    if chunk:
        yield chunk


def answers(send: Callable[[Request], Answer], calls: Sequence[dict[str, Any]]) -> list[Answer]:
    """Each call's answer, read from its item of the batch's answer. Raises ``ValueError`` when the batch is
    not answered 200 with one item per call, in order, each with the call's id."""
    got = send(envelope(calls))
    if got.status != 200:
        raise ValueError(f"/batch answered {got.status}: {got.body[:300].decode('utf-8', 'replace')}")
    try:
        items = json.loads(got.body)["responses"]
        ids = [item["id"] for item in items]
        found = [item_answer(item) for item in items]
    except (KeyError, TypeError) as error:
        raise ValueError(f"/batch answered outside the contract ({error!r}): {got.body[:300]!r}") from error
    sent_ids = [sent["id"] for sent in calls]
    if ids != sent_ids:
        raise ValueError(f"/batch answered the ids {ids[:3]}… for {sent_ids[:3]}… ({len(ids)} for {len(sent_ids)})")
    return found


def item_answer(item: dict[str, Any]) -> Answer:
    """A call's answer as its request alone would have had it: status, headers and body."""
    status = item["status"]
    headers = {name.lower(): value for name, value in item.get("headers", {}).items()}
    headers.setdefault("content-type", MEDIA_TYPES[status >= PROBLEM_FROM])
    body = json.dumps(item["body"], ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return Answer(status, headers, body)
