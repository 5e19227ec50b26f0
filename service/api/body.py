"""Reading a JSON request body: media type (415), size (413), syntax (400),
then the marshmallow schema (422). Nothing the client sent is dropped: a
duplicate object key is as malformed as a missing brace."""
from __future__ import annotations

import json
from typing import Any

from flask import request
from marshmallow import Schema
from werkzeug.exceptions import RequestEntityTooLarge

from .problems import ApiProblem

JSON = "application/json"


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        duplicate = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise ValueError(f"duplicate object key {duplicate!r}")
    return obj


def _constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def read_json() -> Any:
    """The decoded body; ``ApiProblem`` 415/400, werkzeug's 413 past the size limit."""
    if request.mimetype != JSON:
        sent = request.mimetype or "no Content-Type"
        raise ApiProblem(415, "unsupported_media_type",
                         f"send the body as {JSON}, not {sent}")
    data = request.get_data()
    # werkzeug refuses a Content-Length over the limit but cuts a streamed (chunked)
    # body at it: look one byte past the limit.
    if "CONTENT_LENGTH" not in request.environ:
        limit = request.max_content_length
        if limit is not None and len(data) >= limit and request.environ["wsgi.input"].read(1):
            raise RequestEntityTooLarge()
    try:
        return json.loads(data, object_pairs_hook=_object, parse_constant=_constant)
    except ValueError as error:
        raise ApiProblem(400, "malformed_json", f"the body is not valid JSON: {error}") from None
    except RecursionError:
        raise ApiProblem(400, "malformed_json", "the body is nested too deeply") from None


def load(schema: Schema) -> dict[str, Any]:
    """The body loaded into engine values by ``schema`` (422 on any field fault)."""
    return schema.load(read_json())


def load_with_body(schema: Schema) -> tuple[dict[str, Any], dict[str, Any]]:
    """Like ``load``, also returning the decoded JSON as sent (to echo it back)."""
    body = read_json()
    return body, schema.load(body)
