"""The bytes of a request body: UTF-8 JSON in sound HTTP/1.1 framing.

- A ``charset`` parameter other than UTF-8 on ``Content-Type`` is a 415 problem
  (``unsupported_charset``), and so is a body in UTF-16 or UTF-32 (with or without
  its byte order mark), which ``json.loads`` would otherwise decode silently.
- A UTF-8 byte order mark at the start of the body is ignored, as RFC 8259 §8.1
  allows a parser to do; bytes that are not UTF-8 otherwise make the body
  malformed JSON (400).
- A chunked body whose framing breaks while the application reads it (a chunk
  size that is not hexadecimal, a missing CRLF, …) is a 400 problem
  (``bad_framing``), logged as one warning line, never a 500.
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
