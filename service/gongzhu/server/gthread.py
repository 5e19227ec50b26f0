"""gunicorn's gthread worker, its one refusal a problem: a request nginx passed that gunicorn's parser
still refuses (a control character in a header value, which nginx lets through) gets the application's
400 ``bad_request`` problem, counted like the application's answers, instead of gunicorn's HTML page.
Set by ``gunicorn_conf.py``; the rest is gunicorn's, unchanged.
"""
from __future__ import annotations

from gunicorn.http.errors import ParseException
from gunicorn.workers import gthread

from gongzhu.api import messages, metrics
from gongzhu.api.problems import render
from gongzhu.api.telemetry import LOG_HEADER, UNKNOWN_OPERATION, add_standard_headers, log_value
from gongzhu.server.logs import quoted

# The application's own answer to a request nginx refuses as not valid HTTP/1.1 (pipeline.refusal).
_PROBLEM = render(400, "bad_request", messages.REFUSED["bad_request"])
_HEADERS = [("Connection", "close"), *_PROBLEM.wsgi_headers(),
            (LOG_HEADER, log_value(UNKNOWN_OPERATION, "bad_request"))]
add_standard_headers(_HEADERS)
BAD_REQUEST = (f"HTTP/1.1 {_PROBLEM.status_line}\r\n"
               + "".join(f"{name}: {value}\r\n" for name, value in _HEADERS) + "\r\n").encode() + _PROBLEM.body


class ThreadWorker(gthread.ThreadWorker):
    def handle_error(self, req, client, addr, exc):
        if not isinstance(exc, ParseException):  # a fault of the server: gunicorn's 500 and traceback
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("Invalid request: %s", quoted(str(exc)))
        metrics.observe_request("none", 400, 0.0)
        metrics.count_problem("bad_request")
        try:
            client.sendall(BAD_REQUEST)
        except OSError:
            self.log.debug("Failed to send error message.")
