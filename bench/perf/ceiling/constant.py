"""The ceiling of the HTTP layer: a WSGI app that answers every request with the same
16 bytes and does nothing else. ``bench/perf/http.py`` serves it with the same gunicorn
settings as the service (``python:gongzhu.server.gunicorn_conf``, the same worker) and
reports every operation as a ratio to it: what the server itself can carry."""
from __future__ import annotations

BODY = b'{"status":"ok"}\n'
HEADERS = [("Content-Type", "application/json"), ("Content-Length", str(len(BODY)))]


def app(environ, start_response):
    start_response("200 OK", list(HEADERS))
    return [BODY]
