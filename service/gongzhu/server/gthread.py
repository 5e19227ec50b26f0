"""gunicorn's gthread worker, its one refusal a problem: a request nginx passed that gunicorn's parser
still refuses (a control character in a header value, which nginx lets through) gets the application's
400 ``bad_request`` problem, counted like the application's answers, instead of gunicorn's HTML page.
Set by ``gunicorn_conf.py``; the rest is gunicorn's, unchanged.
"""
from __future__ import annotations

from gunicorn.http.errors import ParseException
from gunicorn.workers import gthread

from gongzhu.api import metrics

BODY = (b'{"type":"urn:gongzhu:problem:bad_request","title":"Bad Request","status":400,'
        b'"detail":"the request is not valid HTTP/1.1","code":"bad_request"}\n')
BAD_REQUEST = (b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
               b"Content-Length: %d\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n\r\n"
               % len(BODY)) + BODY


class ThreadWorker(gthread.ThreadWorker):
    def handle_error(self, req, client, addr, exc):
        if not isinstance(exc, ParseException):  # a fault of the server: gunicorn's 500 and traceback
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("Invalid request: %s", exc)
        metrics.observe_request("none", 400, 0.0)
        metrics.count_problem("bad_request")
        try:
            client.sendall(BAD_REQUEST)
        except OSError:
            self.log.debug("Failed to send error message.")
