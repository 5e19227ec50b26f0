"""Sending a case's request: over HTTP to any server (``http.client``, the standard library only),
or in process to a WSGI application (ours: ``create_app()``).

A request is the case's ``request`` object: ``method``, ``path``, ``headers``, and either ``body``
(a JSON value, sent as compact UTF-8 JSON with ``Content-Type: application/json`` unless the
case's headers say otherwise) or ``raw_body`` (a text sent as it is, in ``raw_encoding``); ``pad``
appends ``text`` repeated ``times`` to the path or the raw body (a request too long to write out).
"""
from __future__ import annotations

import http.client
import io
import json
import sys
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

Request = dict[str, Any]
TIMEOUT_S = 60.0


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes


@dataclass(frozen=True, slots=True)
class Wire:
    """A request as bytes: what both transports send."""
    method: str
    path: str
    headers: list[tuple[str, str]]
    body: bytes | None


def padding(request: Request, where: str) -> str:
    pad = request.get("pad")
    return pad["text"] * pad["times"] if pad and pad["where"] == where else ""


def wire(request: Request) -> Wire:
    """The bytes a case's request sends."""
    headers = list(request.get("headers", {}).items())
    body: bytes | None = None
    if "body" in request:
        body = json.dumps(request["body"], ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if not any(name.lower() == "content-type" for name, _ in headers):
            headers.append(("Content-Type", "application/json"))
    elif "raw_body" in request:
        body = (request["raw_body"] + padding(request, "body")).encode(request.get("raw_encoding", "utf-8"))
    return Wire(request["method"], request["path"] + padding(request, "path"), headers, body)


def over_http(base_url: str) -> Callable[[Request], Answer]:
    """A sender to the server at ``base_url`` (``http://host:port``, optionally with a path prefix)."""
    base = urllib.parse.urlsplit(base_url)
    prefix = base.path.rstrip("/")
    connection_type = http.client.HTTPSConnection if base.scheme == "https" else http.client.HTTPConnection

    def send(request: Request) -> Answer:
        sent = wire(request)
        connection = connection_type(base.netloc, timeout=TIMEOUT_S)
        try:
            names = {name.lower() for name, _ in sent.headers}
            # a case's own Host is sent instead of the base URL's
            connection.putrequest(sent.method, prefix + sent.path, skip_host="host" in names,
                                  skip_accept_encoding=True)
            for name, value in sent.headers:
                connection.putheader(name, value)
            if sent.body is not None and "content-length" not in names and "transfer-encoding" not in names:
                connection.putheader("Content-Length", str(len(sent.body)))
            connection.endheaders()
            if sent.body is not None:
                connection.send(sent.body)
            response = connection.getresponse()
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
        finally:
            connection.close()
    return send


def in_process(app: Callable[..., Iterable[bytes]]) -> Callable[[Request], Answer]:
    """A sender that calls the WSGI application ``app`` directly, as a server would."""
    def send(request: Request) -> Answer:
        sent = wire(request)
        environ = wsgi_environ(sent)
        status: list[str] = []
        headers: list[tuple[str, str]] = []

        def start_response(line: str, pairs: list[tuple[str, str]], exc_info: object = None) -> Callable[..., None]:
            status[:] = [line]
            headers[:] = pairs
            return lambda data: None
        chunks = app(environ, start_response)
        try:
            body = b"".join(chunks)
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()
        return Answer(int(status[0].split()[0]), {k.lower(): v for k, v in headers}, body)
    return send


def wsgi_environ(sent: Wire) -> dict[str, Any]:
    path, _, query = sent.path.partition("?")
    body = sent.body or b""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": sent.method, "SCRIPT_NAME": "", "PATH_INFO": urllib.parse.unquote(path, "latin-1"),
        "QUERY_STRING": query, "SERVER_NAME": "localhost", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "wsgi.version": (1, 0), "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "wsgi.multithread": False,
        "wsgi.multiprocess": False, "wsgi.run_once": False,
    }
    if sent.body is not None:
        environ["CONTENT_LENGTH"] = str(len(body))
    for name, value in sent.headers:
        key = name.upper().replace("-", "_")
        if key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            environ[key] = value
        else:
            environ[f"HTTP_{key}"] = value
    return environ
