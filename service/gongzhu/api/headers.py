"""Headers every answer carries, added once at the WSGI level (both request paths).

``X-Content-Type-Options: nosniff`` on every answer, so a browser never reads JSON
as something else; ``Cache-Control: no-store`` on every answer that sets no caching
of its own (the API's answers depend on the request body: nothing to cache).
"""
from __future__ import annotations

NOSNIFF = ("X-Content-Type-Options", "nosniff")
NO_STORE = ("Cache-Control", "no-store")


class StandardHeaders:
    """WSGI middleware adding the headers above."""

    def __init__(self, app) -> None:
        self.app = app

    def __call__(self, environ, start_response):
        def start(status, headers, exc_info=None):
            headers.append(NOSNIFF)
            if not any(name.lower() == "cache-control" for name, _ in headers):
                headers.append(NO_STORE)
            return start_response(status, headers, exc_info)
        return self.app(environ, start)
