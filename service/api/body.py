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
from .wire import check_charset

JSON = "application/json"
# No object of the contract has more than a dozen fields: a body with thousands of
# keys is refused as it is parsed, before it costs a schema's worth of error messages.
MAX_OBJECT_KEYS = 64


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len(pairs) > MAX_OBJECT_KEYS:
        raise ApiProblem(422, "too_many_fields", f"an object of the body has {len(pairs)} "
                         f"fields; no object of this API has more than {MAX_OBJECT_KEYS}")
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        duplicate = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise ValueError(f"duplicate object key {duplicate!r}")
    return obj


def _constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _body() -> bytes:
    """The raw body, at most ``MAX_CONTENT_LENGTH`` bytes (413 beyond)."""
    length = request.content_length
    limit = request.max_content_length
    if length is None:
        # Streamed (chunked): werkzeug cuts the body at the limit rather than refusing
        # it, so look one byte past the limit.
        data = request.get_data()
        if limit is not None and len(data) >= limit and request.environ["wsgi.input"].read(1):
            raise RequestEntityTooLarge()
        return data
    if limit is not None and length > limit:
        raise RequestEntityTooLarge()
    # One read of the declared length: werkzeug's stream wrapper reads a small body
    # in several calls into the server's input, which costs more than the JSON parse.
    return request.environ["wsgi.input"].read(length)


def read_json() -> Any:
    """The decoded body; ``ApiProblem`` 415/400, werkzeug's 413 past the size limit."""
    if request.mimetype != JSON:
        sent = request.mimetype or "no Content-Type"
        raise ApiProblem(415, "unsupported_media_type",
                         f"send the body as {JSON}, not {sent}")
    data = _body()
    check_charset(request.mimetype_params, data)
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
