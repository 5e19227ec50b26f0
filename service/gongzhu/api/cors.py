"""Cross-origin requests from browsers (CORS), off unless asked for.

The service is meant to be called server to server: a deal state carries all four
hands, so a browser holding one is a client that sees every seat's cards. With
``GONGZHU_CORS_ORIGINS`` unset, no CORS header is sent and an ``OPTIONS`` request
gets the contract's 405 problem like any other method a path does not offer.

``GONGZHU_CORS_ORIGINS`` is a comma-separated list of origins
(``https://game.example.com,https://admin.example.com``) or ``*`` for any. For a
listed origin, a preflight (``OPTIONS`` with ``Access-Control-Request-Method``) on
a path of the contract is answered 204 with the methods that path offers, the
headers a client may send (``Content-Type``, ``X-Request-ID``, ``traceparent``) and
a max age; every other answer to that origin carries
``Access-Control-Allow-Origin`` and exposes ``X-Request-ID``. A preflight from
another origin, or for a path the contract does not have, falls through to the
405 or 404 problem.
"""
from __future__ import annotations

import os
from collections.abc import Callable

ORIGINS_ENV = "GONGZHU_CORS_ORIGINS"
ANY = "*"
ALLOWED_HEADERS = "Content-Type, X-Request-ID, traceparent"
EXPOSED_HEADERS = "X-Request-ID"
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

    def allowed(self, origin: str | None) -> bool:
        return origin is not None and (ANY in self.origins or origin in self.origins)

    def __call__(self, environ, start_response):
        origin = environ.get("HTTP_ORIGIN")
        if not self.allowed(origin):
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
