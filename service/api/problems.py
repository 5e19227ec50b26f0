"""RFC 9457 problem details for every error the API returns (SPEC.md §7).

All error handlers live here. Each problem has ``type``, ``title``,
``status``, ``detail``, a stable ``code`` and, where fields are at fault,
``errors`` (``pointer``, ``detail``, ``code``). A 500 logs the traceback and
tells the client nothing more than that it happened.
"""
from __future__ import annotations

import json
from http import HTTPStatus

from flask import Flask, Response, current_app
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from service.rules import RuleError

PROBLEM_JSON = "application/problem+json"
TYPE_PREFIX = "urn:gongzhu:problem:"

# Codes for the HTTP-level errors (the engine's codes come with its errors).
HTTP_CODES = {
    400: "malformed_json",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    500: "internal_error",
}
HTTP_DETAILS = {
    404: "no such resource; see /openapi.yaml for the operations this service offers",
    413: "the request body is larger than this service accepts",
    500: "the server failed to answer this request; it has been logged",
}
INVALID_REQUEST = "invalid_request"
# Problems list at most this many fields at fault: a hostile body with thousands of
# unknown keys gets a small answer (the detail still counts them all).
MAX_ERRORS = 100


class ApiProblem(Exception):
    """An error the HTTP layer itself detects (bad JSON, wrong media type)."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail


def problem(status: int, code: str, detail: str, errors: list[dict] | None = None,
            headers: dict | None = None) -> Response:
    body = {
        "type": TYPE_PREFIX + code,
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
    }
    if errors is not None:
        body["errors"] = errors[:MAX_ERRORS]
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return Response(text + "\n", status, headers=headers, mimetype=PROBLEM_JSON)


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def flatten(messages, pointer: str = "") -> list[dict]:
    """Marshmallow's nested error messages as ``errors[]`` entries with JSON pointers."""
    if isinstance(messages, dict):
        out = []
        for key, value in messages.items():
            unknown = getattr(value, "code", None) == "unknown_field" or (
                isinstance(value, list) and value
                and getattr(value[0], "code", None) == "unknown_field")
            # "_schema" holds errors of the object itself, unless a client sent such a field.
            child = pointer if key == "_schema" and not unknown else f"{pointer}/{_escape(str(key))}"
            out.extend(flatten(value, child))
        return out
    if isinstance(messages, list):
        out = []
        for message in messages:
            out.extend(flatten(message, pointer))
        return out
    return [{"pointer": pointer, "detail": str(messages),
             "code": getattr(messages, "code", "invalid_value")}]


def validation_problem(error: ValidationError) -> Response:
    errors = flatten(error.messages)
    codes = {e["code"] for e in errors}
    code = codes.pop() if len(codes) == 1 else INVALID_REQUEST
    first = errors[0]
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    where = first["pointer"] or "the body"
    return problem(422, code, f"{where}: {first['detail']}{more}", errors)


def rule_problem(error: RuleError) -> Response:
    errors = [{"pointer": p.path, "detail": p.detail, "code": p.code} for p in error.problems]
    return problem(422, error.code, error.detail, errors)


def http_problem(error: HTTPException) -> Response:
    status = error.code or 500
    if status not in HTTP_CODES:
        return internal_error(error)
    headers = None
    if status == 405:
        allowed = sorted(set(error.valid_methods or ()) - {"OPTIONS"})
        headers = {"Allow": ", ".join(allowed)}
        detail = f"this resource allows {', '.join(allowed)} only"
    else:
        detail = HTTP_DETAILS.get(status, error.description or HTTPStatus(status).description)
    return problem(status, HTTP_CODES[status], detail, headers=headers)


def api_problem(error: ApiProblem) -> Response:
    return problem(error.status, error.code, error.detail)


def internal_error(error: Exception) -> Response:
    current_app.logger.error("unhandled error", exc_info=error)
    return problem(500, HTTP_CODES[500], HTTP_DETAILS[500])


def register(app: Flask) -> None:
    """Install every error handler of the API, in one place."""
    from .slots import Busy, busy_problem
    from .wire import FRAMING_ERRORS, framing_problem
    app.register_error_handler(Busy, busy_problem)
    app.register_error_handler(FRAMING_ERRORS, framing_problem)
    app.register_error_handler(ValidationError, validation_problem)
    app.register_error_handler(RuleError, rule_problem)
    app.register_error_handler(ApiProblem, api_problem)
    app.register_error_handler(HTTPException, http_problem)
    app.register_error_handler(Exception, internal_error)
