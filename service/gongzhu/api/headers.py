"""Headers every answer carries, added once at the WSGI level (both request paths), by the
outermost layer (``telemetry.Telemetry``, ``telemetry.add_standard_headers``, compiled) as an
answer starts.

``X-Content-Type-Options: nosniff`` on every answer, so a browser never reads JSON
as something else; ``Cache-Control: no-store`` on every answer that sets no caching
of its own (the API's answers depend on the request body: nothing to cache).
"""
from __future__ import annotations

NOSNIFF = ("X-Content-Type-Options", "nosniff")
NO_STORE = ("Cache-Control", "no-store")

