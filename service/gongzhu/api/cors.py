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

from .telemetry import operations

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


def methods_by_path() -> tuple[dict[str, str], tuple]:
    """Allowed methods per fixed path, and (pattern, methods) per templated path."""
    fixed, templated = operations()
    by_path: dict[str, set[str]] = {}
    for method, path in fixed:
        by_path.setdefault(path, set()).add(method)
    by_pattern: dict = {}
    for method, pattern, _ in templated:
        by_pattern.setdefault(pattern, set()).add(method)
    return ({path: ", ".join(sorted(m)) for path, m in by_path.items()},
            tuple((pattern, ", ".join(sorted(m))) for pattern, m in by_pattern.items()))


class Cors:
    """WSGI middleware answering preflights and adding CORS headers for listed origins."""

    def __init__(self, app, origins: frozenset[str]) -> None:
        self.app = app
        self.origins = origins
        self.fixed, self.templated = methods_by_path()

    def allowed(self, origin: str | None) -> bool:
        return origin is not None and (ANY in self.origins or origin in self.origins)

    def methods(self, path: str) -> str | None:
        found = self.fixed.get(path)
        if found is not None:
            return found
        for pattern, methods in self.templated:
            if pattern.fullmatch(path):
                return methods
        return None

    def __call__(self, environ, start_response):
        origin = environ.get("HTTP_ORIGIN")
        if not self.allowed(origin):
            return self.app(environ, start_response)
        allow_origin = ANY if ANY in self.origins else origin
        if environ.get("REQUEST_METHOD") == "OPTIONS" \
                and environ.get("HTTP_ACCESS_CONTROL_REQUEST_METHOD"):
            methods = self.methods(environ.get("PATH_INFO", ""))
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


def wrap(app, origins: frozenset[str] | None = None):
    """``app`` behind CORS when origins are configured, else ``app`` itself."""
    chosen = origins_from_env() if origins is None else origins
    return Cors(app, chosen) if chosen else app
