"""Cross-origin requests from browsers (CORS), off unless ``GONGZHU_CORS_ORIGINS`` lists origins: a deal
state carries all four hands, so a browser holding one sees every seat's cards. What a listed origin
gets, and what everyone else does: docs/operations.md, "Browsers (CORS)".
"""
from __future__ import annotations

import os
from collections.abc import Callable

from gongzhu.settings import REQUEST_ID_HEADER

ORIGINS_ENV = "GONGZHU_CORS_ORIGINS"
ANY = "*"
ALLOWED_HEADERS = f"Content-Type, {REQUEST_ID_HEADER}, traceparent"
EXPOSED_HEADERS = REQUEST_ID_HEADER
# Seconds a browser may reuse a preflight's answer.
MAX_AGE = "600"


def origins_from_env() -> frozenset[str]:
    """The configured origins (empty: CORS is off)."""
    raw = os.environ.get(ORIGINS_ENV, "")
    return frozenset(o.strip().rstrip("/") for o in raw.split(",") if o.strip())


class Cors:
    """WSGI middleware answering preflights and adding CORS headers for listed origins."""

    def __init__(self, app, origins: frozenset[str], methods: Callable[[dict], str | None]) -> None:
        self.app = app
        self.origins = origins
        # the methods the contract offers on a request's path (the pipeline's match)
        self.methods = methods

    def __call__(self, environ, start_response):
        origin = environ.get("HTTP_ORIGIN")
        if origin is None or not (ANY in self.origins or origin in self.origins):
            return self.app(environ, start_response)
        allow_origin = ANY if ANY in self.origins else origin
        if environ.get("REQUEST_METHOD") == "OPTIONS" \
                and environ.get("HTTP_ACCESS_CONTROL_REQUEST_METHOD"):
            methods = self.methods(environ)
            if methods is not None:
                start_response("204 No Content", [
                    ("Access-Control-Allow-Origin", allow_origin),
                    ("Access-Control-Allow-Methods", methods),
                    ("Access-Control-Allow-Headers", ALLOWED_HEADERS),
                    ("Access-Control-Max-Age", MAX_AGE),
                    ("Vary", "Origin"),
                ])
                return []

        def start(status, headers, exc_info=None):
            headers.append(("Access-Control-Allow-Origin", allow_origin))
            headers.append(("Access-Control-Expose-Headers", EXPOSED_HEADERS))
            headers.append(("Vary", "Origin"))
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def wrap(app, methods: Callable[[dict], str | None], origins: frozenset[str] | None = None):
    """``app`` behind CORS when origins are configured, else ``app`` itself; ``methods``
    gives the methods the contract offers on a request's path."""
    chosen = origins_from_env() if origins is None else origins
    return Cors(app, chosen, methods) if chosen else app
