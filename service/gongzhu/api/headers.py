"""Headers every answer carries, added once at the WSGI level (both request paths), by the
outermost layer (``telemetry.Telemetry``) as an answer starts.

``X-Content-Type-Options: nosniff`` on every answer, so a browser never reads JSON
as something else; ``Cache-Control: no-store`` on every answer that sets no caching
of its own (the API's answers depend on the request body: nothing to cache).
"""
from __future__ import annotations

NOSNIFF = ("X-Content-Type-Options", "nosniff")
NO_STORE = ("Cache-Control", "no-store")


def add_standard_headers(headers: list[tuple[str, str]]) -> None:
    """The headers above, added to an answer's ``headers``."""
    headers.append(NOSNIFF)
    for name, _ in headers:
        if name.lower() == "cache-control":
            return
    headers.append(NO_STORE)
