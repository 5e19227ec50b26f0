"""gunicorn's gthread worker with two changes, set by ``gunicorn_conf.py``; the rest is gunicorn's, unchanged.

Its one refusal a problem: a request nginx passed that gunicorn's parser still refuses (a control character in
a header value, which nginx lets through) gets the application's 400 ``bad_request`` problem, counted like the
application's answers, instead of gunicorn's HTML page.

Batches on a thread and a socket of their own: behind nginx, ``/batch`` comes on the batch socket
(``GONGZHU_BATCH_SOCKET``, front.py). A worker runs a batch on its one batch thread and accepts no other from
that socket until it is done, so batches wait in the socket's backlog, shared by the workers, for the first one
free: a waiting batch holds no request thread (a probe or a single request always finds one) and no worker's
memory, and the batches keep a free worker busy one after the other (docs/operations.md, "Batch").
"""
from __future__ import annotations

import os
import selectors
from concurrent import futures

from gunicorn.http.errors import ParseException
from gunicorn.workers import gthread

from gongzhu.api import messages, metrics
from gongzhu.api.keys import UNKNOWN_OPERATION
from gongzhu.api.problems import render
from gongzhu.api.telemetry import LOG_HEADER, add_standard_headers, log_value
from gongzhu.server.logs import quoted
from gongzhu.settings import BATCH_SOCKET_ENV

# The application's own answer to a request nginx refuses as not valid HTTP/1.1 (pipeline.refusal).
_PROBLEM = render(400, "bad_request", messages.REFUSED["bad_request"])
_HEADERS = [("Connection", "close"), *_PROBLEM.wsgi_headers(),
            (LOG_HEADER, log_value(UNKNOWN_OPERATION, "bad_request"))]
add_standard_headers(_HEADERS)
BAD_REQUEST = (f"HTTP/1.1 {_PROBLEM.status_line}\r\n"
               + "".join(f"{name}: {value}\r\n" for name, value in _HEADERS) + "\r\n").encode() + _PROBLEM.body


class ThreadWorker(gthread.ThreadWorker):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.batch_address = os.environ.get(BATCH_SOCKET_ENV)
        self.batch_pool: futures.ThreadPoolExecutor | None = None
        self.batch_running = False
        self._accepting: bool = False  # gunicorn's, not yet listening

    def init_process(self) -> None:
        self.batch_pool = futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="batch")
        super().init_process()

    def is_batch(self, listener_or_address) -> bool:
        """Whether a listener, or the address a connection came to (a path, or a TCP (host, port) served alone),
        is the batch socket."""
        if self.batch_address is None:
            return False
        getsockname = getattr(listener_or_address, "getsockname", None)
        return (listener_or_address if getsockname is None else getsockname()) == self.batch_address

    def set_accept_enabled(self, enabled: bool) -> None:
        """gunicorn's, but the batch socket is listened to only while no batch runs here."""
        if enabled == self._accepting:
            return
        for listener in self.sockets:
            listening = enabled and not (self.is_batch(listener) and self.batch_running)
            self._listen(listener, listening)
        self._accepting = enabled

    def _listen(self, listener, listening: bool) -> None:
        registered = self._registered(listener)
        if listening and not registered:
            listener.setblocking(False)
            self.poller.register(listener, selectors.EVENT_READ, self.accept)
        elif not listening and registered:
            self.poller.unregister(listener)

    def _registered(self, listener) -> bool:
        try:
            self.poller.get_key(listener)
        except KeyError:
            return False
        return True

    def enqueue_req(self, conn) -> None:
        if self.batch_pool is None or not self.is_batch(conn.server):
            super().enqueue_req(conn)
            return
        # this worker takes no other batch until this one is answered
        self.batch_running = True
        for listener in self.sockets:
            if self.is_batch(listener):
                self._listen(listener, False)
        done = self.batch_pool.submit(self.handle, conn)
        done.add_done_callback(lambda found: self.method_queue.defer(self.finish_batch, conn, found))

    def finish_batch(self, conn, found) -> None:
        self.batch_running = False
        for listener in self.sockets:
            if self.is_batch(listener):
                self._listen(listener, self._accepting)
        if found.cancelled() or found.exception() is not None or found.result() is gthread._DEFER:
            self.finish_request(conn, found)
            return
        # a batch's connection carries one batch (nginx keeps none alive): closed now, not kept to be read again
        self.nr_conns -= 1
        conn.close()

    def handle_error(self, req, client, addr, exc):
        if not isinstance(exc, ParseException):  # a fault of the server: gunicorn's 500 and traceback
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("Invalid request: %s", quoted(str(exc)))
        metrics.observe_request(UNKNOWN_OPERATION, 400, 0.0)
        metrics.count_problem("bad_request")
        try:
            client.sendall(BAD_REQUEST)
        except OSError:
            self.log.debug("Failed to send error message.")
