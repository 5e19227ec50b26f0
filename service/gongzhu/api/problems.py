"""RFC 9457 problem details for every error the API returns (openapi.yaml, ``Problem``), in the client's language.

One place turns any exception into a problem answer (``answer``): the request pipeline calls it for every
operation and page. The top-level ``code`` is the code every item of ``errors`` shares,
so a client can branch on it alone. The request's id lets a client's report be found in the logs, and the
problem's code is left in the WSGI environ for the metrics. A 500 logs the traceback and tells the client
nothing more than that it happened.

The language comes from ``Accept-Language`` (RFC 9110 §12.5.4): English (``en``, the default) or Chinese in
simplified characters (``zh-Hans``) for every ``zh`` range (docs/rules.md, "Languages"). The range with the
highest ``q`` wins, the first on a tie; ``q=0`` is never chosen; ``*`` counts as English; other languages are
skipped.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from http import HTTPStatus

import orjson

from gongzhu.rules import RuleError, localized

from . import messages as text
from .keys import PROBLEM as PROBLEM_KEY
from .keys import REQUEST_ID as REQUEST_ID_KEY
from .validation import MAX_ERRORS, SchemaViolation

PROBLEM_JSON = "application/problem+json"
TYPE_PREFIX = "urn:gongzhu:problem:"
LOG = logging.getLogger("gongzhu.api")
ENGLISH, CHINESE = "en", "zh"
CONTENT_LANGUAGE = {ENGLISH: "en", CHINESE: "zh-Hans"}
MAX_RANGES = 32


class ApiProblem(Exception):
    """An error the HTTP layer itself detects (bad JSON, wrong media type, …); ``errors``, where the
    input is at fault, as a problem's ``errors`` list them (pointer, detail, code)."""

    def __init__(self, status: int, code: str, detail: str,
                 headers: tuple[tuple[str, str], ...] = (), errors: list[dict] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers
        self.errors = errors


@dataclass(frozen=True, slots=True)
class Answer:
    """A problem answer, ready for WSGI."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes

    @property
    def status_line(self) -> str:
        return f"{self.status} {HTTPStatus(self.status).phrase}"

    def wsgi_headers(self) -> list[tuple[str, str]]:
        return [("Content-Type", PROBLEM_JSON), ("Content-Length", str(len(self.body))),
                *self.headers]


Environ = dict | None


def _language(tag: str) -> str | None:
    primary = tag.split("-", 1)[0]
    if primary == "zh":
        return CHINESE
    if primary in ("en", "*"):
        return ENGLISH
    return None


def _quality(params: list[str]) -> float:
    for param in params:
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value)
            except ValueError:
                return 0.0
            return q if 0.0 <= q <= 1.0 else 0.0
    return 1.0


def negotiate(header: str | None) -> str:
    """``"en"`` or ``"zh"`` for an ``Accept-Language`` value (English when absent)."""
    if not header:
        return ENGLISH
    best, best_q = ENGLISH, 0.0
    for item in header.split(",")[:MAX_RANGES]:
        tag, *params = item.split(";")
        language = _language(tag.strip().lower())
        if language is None:
            continue
        q = _quality(params)
        if q > best_q:
            best, best_q = language, q
    return best


def render(status: int, code: str, detail: str, errors: list[dict] | None = None, *,
           truncated: bool = False, headers: tuple[tuple[str, str], ...] = (),
           environ: Environ = None) -> Answer:
    """The problem body; ``detail`` and each error's ``detail`` are rendered in the client's language."""
    language = negotiate(environ.get("HTTP_ACCEPT_LANGUAGE")) if environ is not None else ENGLISH
    title = HTTPStatus(status).phrase
    body: dict = {
        "type": TYPE_PREFIX + code,
        "title": title if language == ENGLISH else text.TITLES_ZH.get(status, title),
        "status": status,
        "detail": localized(detail, language),
        "code": code,
    }
    if errors:
        body["errors"] = [{**e, "detail": localized(e["detail"], language)} for e in errors]
    if truncated:
        body["truncated"] = True
    if environ is not None:
        environ[PROBLEM_KEY] = code
        if REQUEST_ID_KEY in environ:
            body["request_id"] = environ[REQUEST_ID_KEY]
    headers = (*headers, ("Content-Language", CONTENT_LANGUAGE[language]), ("Vary", "Accept-Language"))
    return Answer(status, headers, orjson.dumps(body, option=orjson.OPT_APPEND_NEWLINE))


def _rule_problem(error: RuleError, environ: Environ) -> Answer:
    problems = error.problems
    errors = [{"pointer": p.path, "detail": p.detail, "code": p.code} for p in problems[:MAX_ERRORS]]
    codes = {p.code for p in problems}
    code = codes.pop() if len(codes) == 1 else error.code
    return render(422, code, error.detail, errors, truncated=len(problems) > MAX_ERRORS, environ=environ)


def internal_error(error: BaseException, environ: Environ = None) -> Answer:
    LOG.error("unhandled error", exc_info=error)
    return render(500, "internal_error", text.INTERNAL(), environ=environ)


def answer(error: BaseException, environ: Environ = None) -> Answer:
    """The problem answer for any exception raised while serving a request (``environ``:
    the request's, for its id and for the metrics)."""
    if isinstance(error, SchemaViolation):
        errors = [v.as_json() for v in error.violations]
        return render(422, error.code, error.detail, errors, truncated=error.truncated, environ=environ)
    if isinstance(error, RuleError):
        return _rule_problem(error, environ)
    if isinstance(error, ApiProblem):
        return render(error.status, error.code, error.detail, error.errors, headers=error.headers, environ=environ)
    return internal_error(error, environ)
