"""Comparing an answer with a case's ``expect``: the status, then every field the case names.

- ``equal``: JSON pointer → value, which must be the answer's value exactly;
- ``unordered``: JSON pointer → list, compared as a multiset (legal moves as a set); an item that is
  a list of cards (a play) is compared as a multiset of its cards too;
- ``problem``: the top-level ``code`` and, when given, every fault as (``pointer``, ``code``), as a
  multiset, and the media type ``application/problem+json``;
- ``headers``: header name → value, names in any case.

Each mismatch is one line saying where, what was expected and what came back.
"""
from __future__ import annotations

import json
from typing import Any

from gongzhu.conformance.transport import Answer

MISSING = object()
PROBLEM_MEDIA_TYPE = "application/problem+json"


def resolve(document: Any, pointer: str) -> Any:
    """The value at ``pointer`` (RFC 6901), or ``MISSING``."""
    if pointer == "":
        return document
    value = document
    for raw in pointer.lstrip("/").split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return MISSING
    return value


def compact(value: Any) -> str:
    return "(missing)" if value is MISSING else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def multiset_key(item: Any) -> str:
    if isinstance(item, list) and all(isinstance(card, str) for card in item):
        item = sorted(item)
    return json.dumps(item, sort_keys=True, ensure_ascii=False)


def same_multiset(expected: list[Any], actual: Any) -> bool:
    return isinstance(actual, list) and sorted(map(multiset_key, expected)) == sorted(map(multiset_key, actual))


def parsed(answer: Answer) -> Any:
    try:
        return json.loads(answer.body)
    except ValueError:
        return MISSING


def mismatches(expect: dict[str, Any], answer: Answer) -> list[str]:
    """Every way ``answer`` differs from ``expect`` (none: the case passes)."""
    found = []
    if answer.status != expect["status"]:
        found.append(f"status: expected {expect['status']}, got {answer.status}: "
                     f"{answer.body[:300].decode('utf-8', 'replace')}")
    for name, value in expect.get("headers", {}).items():
        got = answer.headers.get(name.lower())
        if got != value:
            found.append(f"header {name}: expected {value!r}, got {got!r}")
    body = parsed(answer)
    if body is MISSING and (expect.get("equal") or expect.get("unordered") or expect.get("problem")):
        return [*found, f"body: expected JSON, got {answer.body[:200]!r}"]
    for pointer, value in expect.get("equal", {}).items():
        got = resolve(body, pointer)
        if got != value or type(got) is not type(value):
            found.append(f"{pointer or '(body)'}: expected {compact(value)}, got {compact(got)}")
    for pointer, value in expect.get("unordered", {}).items():
        got = resolve(body, pointer)
        if not same_multiset(value, got):
            found.append(f"{pointer} (in any order): expected {compact(value)}, got {compact(got)}")
    if "problem" in expect:
        found += problem_mismatches(expect["problem"], body, answer)
    return found


def problem_mismatches(problem: dict[str, Any], body: Any, answer: Answer) -> list[str]:
    found = []
    media_type = answer.headers.get("content-type", "").split(";")[0].strip()
    if media_type != PROBLEM_MEDIA_TYPE:
        found.append(f"Content-Type: expected {PROBLEM_MEDIA_TYPE}, got {media_type!r}")
    code = resolve(body, "/code")
    if code != problem["code"]:
        found.append(f"/code: expected {compact(problem['code'])}, got {compact(code)}")
    if "errors" in problem:
        got = resolve(body, "/errors")
        faults = [{"pointer": e.get("pointer"), "code": e.get("code")} for e in got if isinstance(e, dict)] \
            if isinstance(got, list) else got
        if not same_multiset(problem["errors"], faults):
            found.append(f"/errors (pointer and code, in any order): expected {compact(problem['errors'])}, "
                         f"got {compact(faults)}")
    return found
