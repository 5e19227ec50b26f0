"""One request pipeline for every operation of the contract.

A WSGI layer in front of Flask, and the one reader of the contract's routes: it
matches each request's method and path to the contract's operation once
(``match``) and leaves the match and the ``operationId`` in the WSGI environ
(``keys.py``), where telemetry (metric labels, access line, span) and CORS read
them. For each path of an operation it serves, it does,
in order: match the method (405 with ``Allow`` otherwise), read the body
(415 media type or content coding, 413 size, 400 framing or JSON syntax), validate the body and
path parameters against the schemas compiled from ``openapi.yaml``
(422 ``schema_violation``), convert them to engine values (``schemas.py``),
call the operation (``operations.py``) and write the JSON answer. Any
exception on the way becomes a problem answer in one place,
``problems.answer``. The pipeline is the one router: the contract's pages (the index, the
contract, its UI, the deal page, ``/version``, ``/metrics``) are matched here too and their views
(``Page``) run in Flask's request context, Flask being the application's container (its
configuration, request and response objects), not a second router. ``/healthz`` and ``/readyz``,
the probes, are answered here with fixed bytes.
"""
from __future__ import annotations

import codecs
import functools
import json
import math
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

import orjson

from gongzhu.settings import request_deadline, request_timeout_s, too_late

from . import keys
from . import messages as text
from .clients import ClientGone, gone
from .contract import Contract, Operation
from .keys import UNKNOWN_OPERATION
from .operations import HANDLERS, Call, Handler
from .problems import Answer, ApiProblem, answer, render
from .validation import MAX_WALKED_VALUES, Compiled, SchemaViolation, path_value, resolve

JSON = "application/json"
JSON_HEADERS = (("Content-Type", JSON),)
TEMPLATE_PARAMETER = re.compile(r"\{([^{}/]+)\}")


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    schema: dict[str, Any]
    compiled: Compiled


# A page of the contract: a view run in Flask's request context, given the path's parameters.
Page = Callable[..., Any]
# An operation answering from the request itself, given its route and environ (the batch): the answer's bytes.
Whole = Callable[["Route", dict], bytes]


@dataclass(frozen=True, slots=True)
class Route:
    operation: Operation
    handler: Handler | None         # None: a page (``page``)
    body: Compiled | None
    parameters: tuple[Parameter, ...]
    page: Page | None = None
    whole: Whole | None = None


class Match(NamedTuple):
    """A path of the contract: its operations by method, and the path's parameters."""

    methods: dict[str, Route]
    params: dict[str, str]


# Set by nginx (server/nginx.conf) on the requests it hands over, and on those it refused: the status
# and, where the status alone does not say it, the code.
REFUSED_HEADER = "HTTP_X_GONGZHU_REFUSED"
REFUSAL_CODES = {400: "bad_request", 413: "payload_too_large", 414: "uri_too_long", 431: "header_fields_too_large",
                 501: "unsupported_transfer_coding"}
# A request not started by its deadline (``settings.request_deadline``) is not started at all (503 busy).
REQUEST_TIMEOUT_S = request_timeout_s()
# The status logged and counted for a request whose client closed before it was served (nginx's
# 499: no answer is read).
CLIENT_GONE = 499
HEALTHY = {"status": "ok"}
READY = {"status": "ready"}
# The probes, answered even when the contract did not load (then /readyz says so), and the contract's
# page (then a 500 says so): their place in the contract, for when it is not there to say it.
PROBES = (Operation("GET", "/healthz", "healthz", None, ()), Operation("GET", "/readyz", "readyz", None, ()))
CONTRACT_PAGE = Operation("GET", "/openapi.yaml", "contract", None, ())


def _not_json(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:100]} is out of range")
    return value


# No object of the contract has more than a dozen fields: a body with thousands of keys is refused
# as it is parsed, before it costs memory and a report (a server limit, like the body size).
MAX_OBJECT_KEYS = 64


def json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A request's JSON object from its (key, value) pairs, as the parser finds them: 422
    ``too_many_fields`` past ``MAX_OBJECT_KEYS``, ``ValueError`` naming a key written twice."""
    if len(pairs) > MAX_OBJECT_KEYS:
        raise ApiProblem(422, "too_many_fields", text.TOO_MANY_FIELDS(count=len(pairs), limit=MAX_OBJECT_KEYS))
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate object key {key[:100]!r}")
            seen.add(key)
    return obj


# Built once: json.loads with options builds a new decoder per call. orjson reads no duplicate key
# and counts no keys: the stdlib's C scanner reads the body, this module's hook builds its objects.
DECODER = json.JSONDecoder(object_pairs_hook=json_object, parse_constant=_not_json,
                           parse_float=_finite)
BOM = codecs.BOM_UTF8
# the decoder's public entry (its C scanner, whitespace skipped at both ends)
decode = DECODER.decode


# No request of this API nests arrays and objects more than 6 levels deep (a /match body): a deeper body is
# refused as it is parsed, one answer at any depth, before the schema validator meets it (its own recursion
# limit, ~250 levels, is an error of its own, not a problem).
MAX_DEPTH = 32


def check_depth(value: Any) -> None:
    """400 ``malformed_json`` for a JSON value that nests arrays and objects deeper than ``MAX_DEPTH``,
    found level by level (no recursion)."""
    check_depths([value])


def check_depths(values: list[Any]) -> None:
    """``check_depth`` for each of ``values``, in one walk (a batch's bodies): 400 if any is too deep."""
    level = [value for value in values if isinstance(value, (dict, list))]
    for _ in range(MAX_DEPTH):
        level = [member for container in level
                 for member in (container.values() if isinstance(container, dict) else container)
                 if isinstance(member, (dict, list))]
        if not level:
            return
    raise too_deep()


def too_deep() -> ApiProblem:
    return ApiProblem(400, "malformed_json", text.TOO_DEEP(limit=MAX_DEPTH))


def parse_json(data: bytes) -> Any:
    """A strict JSON text: UTF-8 (a byte order mark ignored; UTF-16/32 is 415), no
    duplicate keys, no NaN, finite numbers, no lone surrogate."""
    return parse_text(json_text(data))


def json_text(data: bytes) -> str:
    """A body's text: UTF-8, a byte order mark ignored (UTF-16/32 is 415, bytes that are not UTF-8 400)."""
    if data[:1] != b"{" or data[1:2] == b"\x00":  # an object not in UTF-16/32: UTF-8 (check_encoding)
        check_encoding(data)
    try:
        # as ``data.decode("utf-8-sig")`` (an error's offset after the mark), in C alone
        return (data[3:] if data[:3] == BOM else data).decode()
    except UnicodeDecodeError as error:
        raise ApiProblem(400, "malformed_json", text.NOT_UTF8(at=error.start)) from None


def parse_text(body: str) -> Any:
    """The JSON value of a body's text, read as ``parse_json`` reads a body (400 ``malformed_json``)."""
    try:
        value = decode(body)
    except ValueError as error:
        raise ApiProblem(400, "malformed_json", text.NOT_JSON(error=error)) from None
    except RecursionError:  # deeper than the parser's stack: far past MAX_DEPTH
        raise too_deep() from None
    checked(body, value)
    return value


def checked(body: str, value: Any) -> Any:
    """``value``, read from ``body``, once no deeper than ``MAX_DEPTH`` and free of lone surrogates (400)."""
    if body.count("[") + body.count("{") > MAX_DEPTH:  # fewer brackets cannot nest deeper
        check_depth(value)
    # UTF-8 cannot carry a surrogate, so only a \u escape (\ud800 with no low half) makes one
    if ESCAPE in body:
        reject_lone_surrogates(value)
    return value


ESCAPE = "\\u"


def reject_lone_surrogates(value: Any) -> None:
    """400 ``malformed_json`` naming a string (key or value) that holds a lone surrogate:
    it is no Unicode character, and nothing after the parser could encode it."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        pointer, item = stack.pop()
        if isinstance(item, dict):
            for key, member in item.items():
                escaped = key.replace("~", "~0").replace("/", "~1")
                stack.append((f"{pointer}/{escaped}", key))
                stack.append((f"{pointer}/{escaped}", member))
        elif isinstance(item, list):
            stack.extend((f"{pointer}/{index}", member) for index, member in enumerate(item))
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as error:
                code_point = f"U+{ord(item[error.start]):04X}"
                raise ApiProblem(400, "malformed_json", text.LONE_SURROGATE(
                    pointer=pointer.encode("utf-8", "backslashreplace").decode("utf-8") or "/",
                    code_point=code_point)) from None


UTF8 = ("utf-8", "utf8")
UTF8_DETECTED = ("utf-8", "utf-8-sig")


def check_encoding(data: bytes) -> None:
    """415 ``unsupported_charset`` for a body in UTF-16 or UTF-32, which ``json.loads`` would decode silently
    (as ``json.detect_encoding`` tells)."""
    if json.detect_encoding(data) not in UTF8_DETECTED:
        raise ApiProblem(415, "unsupported_charset", text.UTF16())


def check_media_type(content_type: str) -> None:
    """JSON in UTF-8 only: ``application/json`` with no charset or ``charset=utf-8`` (415)."""
    if content_type == JSON:
        return
    mimetype, _, options = content_type.partition(";")
    mimetype = mimetype.strip().lower()
    if not mimetype:
        raise ApiProblem(415, "unsupported_media_type", text.NO_MEDIA_TYPE(wanted=JSON))
    if mimetype != JSON:
        raise ApiProblem(415, "unsupported_media_type", text.MEDIA_TYPE(wanted=JSON, sent=mimetype[:100]))
    for option in options.split(";"):
        name, _, value = option.partition("=")
        if name.strip().lower() == "charset" and value.strip().strip('"').lower() not in UTF8:
            raise ApiProblem(415, "unsupported_charset", text.CHARSET(sent=value.strip()[:40]))


# The one content coding a body may be sent in (RFC 9110 §8.4): none. A body gzip'd (or so labelled) is refused,
# never read as if it were plain nor decoded past the body limit.
IDENTITY = "identity"


def check_content_encoding(coding: str) -> None:
    """415 ``unsupported_content_encoding``, with ``Accept-Encoding: identity`` (RFC 9110 §15.5.16), for a
    ``Content-Encoding`` other than ``identity``."""
    sent = coding.strip()
    if sent and sent.lower() != IDENTITY:
        raise ApiProblem(415, "unsupported_content_encoding", text.CONTENT_ENCODING(sent=sent[:40]),
                         headers=(("Accept-Encoding", IDENTITY),))


def content_length(environ: dict) -> int | None:
    """The body's length as nginx states it (0 when none is stated), None when it is not a number."""
    length = environ.get("CONTENT_LENGTH") or "0"
    return int(length) if length.isdigit() else None


def read_body(environ: dict, limit: int | None) -> bytes:
    """The raw body, at most ``limit`` bytes (413 beyond). nginx, in front, has read it whole and states
    its length: a chunked body reaches the application with its ``Content-Length`` too."""
    length = content_length(environ)
    if length is None:
        raise ApiProblem(400, "bad_request", text.REFUSED["bad_request"])
    if limit is not None and length > limit:
        raise too_large()
    return environ["wsgi.input"].read(length)


def too_large() -> ApiProblem:
    return ApiProblem(413, "payload_too_large", text.TOO_LARGE())


def encode(value: Any) -> bytes:
    """An answer as one line of UTF-8 JSON text (compact, as ``json.dumps`` with
    ``ensure_ascii=False`` would write it: the wire corpus test holds it byte for byte)."""
    return orjson.dumps(value, option=orjson.OPT_APPEND_NEWLINE)


# Call(data, body, params, environ), built by tuple.__new__ directly (a NamedTuple's __new__ is Python)
new_call = functools.partial(tuple.__new__, Call)


def _compile_route(contract: Contract, operation: Operation, handler: Handler | None,
                   page: Page | None, whole: Whole | None) -> Route:
    document = contract.document
    if handler is None and whole is None:
        return Route(operation, None, None, (), page)
    body = Compiled(document, ref=operation.body_ref) if operation.body_ref else None
    parameters = tuple(
        Parameter(p["name"], resolve(document, p["schema"]), Compiled(document, schema=p["schema"]))
        for p in operation.parameters if p.get("in") == "path")
    return Route(operation, handler, body, parameters, whole=whole)


def route_for(found: Match | None, method: str) -> tuple[Route, dict[str, str]]:
    """The route of a method on a matched path and the path's parameters: 404 ``not_found`` for no path, 405
    ``method_not_allowed`` (with ``Allow``) for a method it does not offer; HEAD is the GET that answers it."""
    if found is None:
        raise ApiProblem(404, "not_found", text.NOT_FOUND())
    methods = found.methods
    route = methods.get("GET" if method == "HEAD" and "GET" in methods else method)
    if route is None:
        allowed = ", ".join(sorted({*methods, "HEAD"} if "GET" in methods else methods))
        raise ApiProblem(405, "method_not_allowed", text.METHOD(allowed=allowed), headers=(("Allow", allowed),))
    return route, found.params


def arguments(route: Route, raw_params: dict[str, str]) -> dict[str, Any]:
    """The path's parameters, read and checked against their schemas (422 ``schema_violation``)."""
    params = {}
    for parameter in route.parameters:
        value = path_value(raw_params[parameter.name], parameter.schema, parameter.name)
        parameter.compiled.check(value, location="path", prefix=(parameter.name,))
        params[parameter.name] = value
    return params


def refusal(value: str, environ: dict) -> Answer:
    """The problem for what nginx refused: fixed English text and no request id (the contract's
    ``UriTooLong``), the code left for the metrics."""
    status_text, _, code = value.partition(" ")
    status = int(status_text) if status_text.isdigit() and int(status_text) in REFUSAL_CODES else 400
    code = code.strip() or REFUSAL_CODES[status]
    environ[keys.PROBLEM] = code
    return render(status, code, text.REFUSED.get(code, text.REFUSED["bad_request"]))


def check_worth_starting(environ: dict) -> None:
    """503 ``busy`` for a request past its deadline (``settings.request_deadline``); ``ClientGone`` when nobody
    waits for the answer any more."""
    now = time.time()
    if too_late(request_deadline(environ, now, REQUEST_TIMEOUT_S), now):
        raise ApiProblem(503, "busy", text.LATE(), headers=(("Retry-After", "1"),))
    if gone(environ):
        raise ClientGone


class Pipeline:
    """The WSGI application of the contract's operations and pages (``pages`` by ``operationId``, run
    in ``app``'s request context); any other path is a 404 problem."""

    def __init__(self, app: Any, contract: Contract | None, limit: Callable[[], int | None],
                 pages: dict[str, Page], whole: dict[str, Callable[[Pipeline], Whole]] | None = None) -> None:
        self.app = app
        self.pages = pages
        # the operations answering from the whole request (the batch), each made for this pipeline
        self.whole = {operation_id: make(self) for operation_id, make in (whole or {}).items()}
        self.limit = limit
        self.static: dict[str, dict[str, Route]] = {}
        self.templated: list[tuple[re.Pattern, dict[str, Route]]] = []
        self.ready = contract is not None
        self.probes = {"healthz": Handler(None, lambda _call: HEALTHY),
                       "readyz": Handler(None, self._readyz)}
        if contract is not None:
            self._build(contract)
            self.warm()
        for probe in PROBES:
            self.static.setdefault(probe.path, {probe.method: Route(probe, self.probes[probe.operation_id],
                                                                    None, ())})
        self.static.setdefault(CONTRACT_PAGE.path, {"GET": Route(CONTRACT_PAGE, None, None, (),
                                                                 pages.get(CONTRACT_PAGE.operation_id))})
        # each static path's match, built once (no parameters to read from the path)
        self.static_matches = {path: Match(methods, {}) for path, methods in self.static.items()}

    def _readyz(self, _call: Call) -> dict:
        if not self.ready:
            raise ApiProblem(503, "not_ready", text.NOT_LOADED())
        return READY

    def _build(self, contract: Contract) -> None:
        templates: dict[str, dict[str, Route]] = {}
        for operation in contract.operations():
            handler = HANDLERS.get(operation.operation_id) or self.probes.get(operation.operation_id)
            routes = self.static if "{" not in operation.path else templates
            routes.setdefault(operation.path, {})[operation.method] = _compile_route(
                contract, operation, handler, self.pages.get(operation.operation_id),
                self.whole.get(operation.operation_id))
        for path, methods in templates.items():
            regex = TEMPLATE_PARAMETER.sub(lambda m: f"(?P<{m.group(1)}>[^/]+)", re.escape(path)
                                           .replace(r"\{", "{").replace(r"\}", "}"))
            self.templated.append((re.compile(regex), methods))

    def warm(self) -> None:
        """Each body's reader and validator run once on an invalid body, one past ``MAX_WALKED_VALUES``
        too (the bounded report's path), at start-up: with ``preload_app`` before the workers fork, so a
        worker's first hostile requests do not pay for those paths' first run."""
        large = b'{"hands":[' + b",".join([b"1"] * (MAX_WALKED_VALUES + 1)) + b"]}"
        for methods in self.static.values():
            for route in methods.values():
                if route.body is None:
                    continue
                for sent in (b'{"hands":[1]}', large):
                    try:
                        route.body.check(parse_json(sent))
                    except SchemaViolation:
                        pass

    def routes(self) -> dict[str, dict[str, Route]]:
        """Every path of an operation (not a page), by method (for tests and benchmarks)."""
        found = dict(self.static)
        found.update({next(iter(m.values())).operation.path: m for _, m in self.templated})
        return {path: served for path, methods in found.items()
                if (served := {m: r for m, r in methods.items() if r.handler is not None or r.whole is not None})}

    def _match(self, path: str) -> Match | None:
        methods = self.static.get(path)
        if methods is not None:
            return Match(methods, {})
        for regex, methods in self.templated:
            found = regex.fullmatch(path)
            if found:
                return Match(methods, found.groupdict())
        return None

    def match_path(self, path: str) -> Match | None:
        """The contract's path ``path`` is, or None."""
        found = self.static_matches.get(path)
        return self._match(path) if found is None else found

    def operation(self, environ: dict) -> str:
        """The request's ``operationId`` in the contract (``none`` if the contract has no such
        operation; HEAD counts as the GET that answers it), matching its path once: the match
        is kept in ``environ[keys.MATCH]``, the ``operationId`` in ``environ[keys.OPERATION]``."""
        if keys.OPERATION in environ:
            return environ[keys.OPERATION]
        found = self.match_path(environ.get("PATH_INFO", ""))
        environ[keys.MATCH] = found
        operation = UNKNOWN_OPERATION
        if found is not None:
            method = environ.get("REQUEST_METHOD", "")
            route = found.methods.get("GET" if method == "HEAD" else method)
            if route is not None:
                operation = route.operation.operation_id
        environ[keys.OPERATION] = operation
        return operation

    def match(self, environ: dict) -> Match | None:
        """The contract's path for this request (``operation`` matches it once), or None."""
        if keys.MATCH not in environ:
            environ.pop(keys.OPERATION, None)
            self.operation(environ)
        return environ[keys.MATCH]

    def methods(self, environ: dict) -> str | None:
        """The methods the contract offers on this request's path (``None``: no such path)."""
        found = self.match(environ)
        return None if found is None else ", ".join(sorted(found.methods))

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        # telemetry, outermost, has matched the request already (its operation)
        matched = environ[keys.MATCH] if keys.MATCH in environ else self.match(environ)
        head = environ.get("REQUEST_METHOD", "GET") == "HEAD"
        refused = environ.get(REFUSED_HEADER)
        if refused:
            problem = refusal(refused, environ)
            start_response(problem.status_line, problem.wsgi_headers())
            return [b"" if head else problem.body]
        try:
            route, params = route_for(matched, environ.get("REQUEST_METHOD", "GET"))
            if route.page is not None:
                return self.page(route.page, environ, params, start_response)
            if route.whole is not None:
                body = route.whole(route, environ)
            else:
                body = encode(self.serve(route, environ, params))
            status, headers = "200 OK", [*JSON_HEADERS, ("Content-Length", str(len(body)))]
        except ClientGone:
            start_response(f"{CLIENT_GONE} Client Closed Request", [("Content-Length", "0")])
            return [b""]
        except Exception as error:  # noqa: BLE001 — every fault becomes a problem answer
            problem = answer(error, environ)
            status, headers, body = problem.status_line, problem.wsgi_headers(), problem.body
        start_response(status, headers)
        return [b"" if head else body]

    def page(self, view: Page, environ: dict, params: dict[str, str], start_response: Callable) -> Iterable[bytes]:
        """A page's answer: its view run in Flask's request context (HEAD: werkzeug sends no body)."""
        with self.app.request_context(environ):
            response = self.app.make_response(view(**params))
        return response(environ, start_response)

    def serve(self, route: Route, environ: dict, raw_params: dict[str, str]) -> Any:
        """The answer of one operation for a request already matched to it."""
        params = arguments(route, raw_params)
        body = self.read(environ, self.limit()) if takes_body(route) else None
        return run(route, body, params, environ)

    def read(self, environ: dict, limit: int | None) -> Any:
        """The request's body as JSON: started only if worth it, in the media type and size accepted."""
        return parse_text(self.read_text(environ, limit))

    def read_text(self, environ: dict, limit: int | None) -> str:
        """The request's body as text, not yet read as JSON (``read``'s first steps; the batch's envelope)."""
        check_worth_starting(environ)
        content_type = environ.get("CONTENT_TYPE", "")
        if content_type != JSON:
            check_media_type(content_type)
        if "HTTP_CONTENT_ENCODING" in environ:
            check_content_encoding(environ["HTTP_CONTENT_ENCODING"])
        return json_text(read_body(environ, limit))


def takes_body(route: Route) -> bool:
    """Whether the operation reads a JSON body (every POST operation of the contract)."""
    return route.body is not None and route.handler is not None and route.handler.convert is not None


def run(route: Route, body: Any, params: dict[str, Any], environ: dict) -> Any:
    """An operation's answer to its JSON ``body`` (parsed) and path parameters (checked): the body validated
    against the contract and converted, the operation called. A single request and a batch's call both run here."""
    handler = route.handler
    assert handler is not None
    data: Any = None
    if handler.convert is not None:
        validate(route, body)
        data = handler.convert(body)
    return handler.answer(new_call((data, body, params, environ)))


def validate(route: Route, body: Any) -> None:
    """422 ``schema_violation`` for a body its operation's request schema does not accept."""
    schema = route.body
    if schema is not None and not schema.is_valid(body):
        schema.check(body)  # raises the bounded report
