"""The bytes of a request body: UTF-8 JSON in sound HTTP/1.1 framing. A charset other than UTF-8, or a body in
UTF-16/32 (which ``json.loads`` would decode silently), is 415 ``unsupported_charset``; framing that breaks while
the body is read is 400 ``bad_framing``, never a 500 (docs/deployment.md, "Limits and the server's own answers").
"""
from __future__ import annotations

import json

from gunicorn.http.errors import ParseException

from . import messages as text
from .problems import ApiProblem

UTF8 = ("utf-8", "utf8")
UTF8_DETECTED = ("utf-8", "utf-8-sig")
# What the server's body reader raises on broken framing (gunicorn's parser errors,
# and the OSError/ValueError of other servers' readers).
FRAMING_ERRORS = (ParseException, OSError, ValueError)


def check_declared_charset(declared: str | None) -> None:
    """``ApiProblem`` 415 unless the declared charset, if any, is UTF-8."""
    if declared is not None and declared.strip().strip('"').lower() not in UTF8:
        raise ApiProblem(415, "unsupported_charset", text.CHARSET(sent=declared.strip()[:40]))


def check_encoding(data: bytes) -> None:
    """``ApiProblem`` 415 when the body is UTF-16 or UTF-32 rather than UTF-8 (as ``json.detect_encoding``
    tells; an object's opening brace not followed by a zero byte is UTF-8, the commonest body, told at once)."""
    if data[:1] == b"{" and data[1:2] != b"\x00":
        return
    if json.detect_encoding(data) not in UTF8_DETECTED:
        raise ApiProblem(415, "unsupported_charset", text.UTF16())


def framing_problem(error: Exception) -> ApiProblem:
    return ApiProblem(400, "bad_framing", text.FRAMING(error=str(error)[:100]))
