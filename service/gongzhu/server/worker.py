"""The gunicorn worker: gthread whose request threads never wait on a client.

The event loop (gthread's main thread) reads each request whole, fed to h11, which decides
where it ends; a request h11 or our checks refuse gets an RFC 9457 problem at once, counted
in the metrics, and its connection is closed in stages (``_linger``). A complete request goes
to a pool thread rewritten as one canonical HTTP/1.1 request (body de-framed, plain
``Content-Length``) for gunicorn's parser to read from memory; the thread writes its answer
to memory and the event loop sends it as the client reads. One deadline per request, read
and write budgets per worker, probes on a pool of their own, the connection cap and requests
not worth starting: docs/deployment.md, "Serving model".

Set with ``worker_class = "gongzhu.server.worker.BufferedThreadWorker"`` (gunicorn_conf.py).
"""
from __future__ import annotations

import errno
import json
import os
import re
import selectors
import socket
import sys
import time
from concurrent import futures
from functools import partial
from http import HTTPStatus

import h11
from gunicorn.http import errors as http_errors
from gunicorn.workers.gthread import TConn, ThreadWorker

from gongzhu.api import metrics, searches
from gongzhu.server.logs import access_waiting, flush_access

PROBE_PATHS = (b"/healthz", b"/readyz")
# the operation label of a request refused before it reached the app
UNMATCHED = "none"
# The status logged and counted for a request whose client closed before it was served
# (nginx's 499: no answer is sent).
CLIENT_GONE = 499
PROBE_THREADS = 1
# Connections past worker_connections that may still send a probe, and how long they have.
PROBE_OVERFLOW = 16
PROBE_WAIT_S = 1.0
CAP_DETAIL = "the server has too many open connections; retry"
# request line + 32 header fields of at most 8 KiB (gunicorn_conf.py's limits): past it h11
# refuses the head (431); within it gunicorn's parser applies the precise limits (414, 431).
MAX_HEAD = 8190 + 32 * 8190 + 1024
READ_SIZE = 65536
# Access lines and metric observations wait in memory at most this long before the event loop
# writes and counts them.
ACCESS_FLUSH_S = 0.05
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
# After a refusal the connection is closed in stages (RFC 9112 §9.6): our side first, then
# what the client still sends is read and dropped for at most LINGER_S, so the client reads
# the answer instead of a reset. At most LINGER_MAX connections linger at once per worker.
LINGER_S = 2.0
LINGER_MAX = 64
# Headers that describe the framing h11 has already undone.
FRAMING_HEADERS = frozenset({b"content-length", b"transfer-encoding", b"expect"})
PROBLEM_JSON = "application/problem+json"
TYPE_PREFIX = "urn:gongzhu:problem:"
# h11's status hint for a request it refuses, our code for it and what the client is told.
H11_CODES = {400: "bad_request", 413: "payload_too_large", 431: "header_fields_too_large",
             501: "unsupported_transfer_coding"}
DETAILS = {"bad_request": "the request is not valid HTTP/1.1",
           "bad_framing": "the request body's framing is not valid HTTP/1.1",
           "payload_too_large": "the request body is too large",
           "header_fields_too_large": "the request head is too large",
           "unsupported_transfer_coding": "the only transfer coding accepted is chunked",
           "uri_too_long": "the request target is too long"}
# RFC 3986 host, then an optional port: what a Host header may hold.
HOST_VALUE = re.compile(rb"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(:[0-9]*)?")

# What gunicorn's parser answers itself on the canonical request (its precise limits). The canonical
# request has no Transfer-Encoding and no Expect, and the PROXY protocol is off: gunicorn's errors for
# those cannot arise.
SERVER_PROBLEMS: tuple[tuple[type[Exception], int, str], ...] = (
    (http_errors.LimitRequestLine, 414, "uri_too_long"),
    (http_errors.LimitRequestHeaders, 431, "header_fields_too_large"),
    (http_errors.ParseException, 400, "bad_request"),
)


class Refused(Exception):
    """A request answered by the event loop with a problem, before any thread sees it;
    ``reason``: the parser's own words, for the log only (they quote its internals)."""

    def __init__(self, status: int, code: str, detail: str, reason: str = "") -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.reason = status, code, detail, reason


def count_refusal(status: int, code: str | None) -> None:
    """A request the worker answered itself, in the same metrics as the app's answers."""
    metrics.observe_request(UNMATCHED, status, 0.0)
    if code is not None:
        metrics.count_problem(code)


def client_gone(sock) -> bool:
    """Whether the client has closed its end (nothing more to read, ever)."""
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return True


def env_seconds(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def problem_bytes(status: int, code: str, detail: str, retry_after: int | None = None) -> bytes:
    """A complete HTTP/1.1 problem answer that closes the connection."""
    body = json.dumps({"type": TYPE_PREFIX + code, "title": HTTPStatus(status).phrase,
                       "status": status, "detail": detail, "code": code},
                      separators=(",", ":")).encode() + b"\n"
    head = (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM_JSON}\r\nContent-Length: {len(body)}\r\n"
            "X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n"
            + (f"Retry-After: {retry_after}\r\n" if retry_after else "") + "\r\n")
    return head.encode("latin-1") + body


def server_problem(exc: Exception) -> tuple[int, str, str]:
    """(status, code, detail) for an error gunicorn's parser raised on a request, or 500."""
    for kind, status, code in SERVER_PROBLEMS:
        if isinstance(exc, kind):
            return status, code, DETAILS[code]
    return 500, "internal_error", "the server failed to answer this request; it has been logged"


def bare_line_feed(head: bytes) -> bool:
    """Whether a request head ends a line with LF alone (RFC 9112 §2.2: a server may
    refuse it; accepting it is how requests are smuggled past proxies that do not)."""
    end = head.find(b"\r\n\r\n")
    if end < 0:
        return True
    head = head[:end + 4]
    return head.count(b"\n") != head.count(b"\r\n")


def keeps_alive(request: h11.Request) -> bool:
    """Whether the client lets the connection stay open after this request."""
    tokens = {token.strip().lower() for name, value in request.headers if name == b"connection"
              for token in value.split(b",")}
    if request.http_version == b"1.0":
        return b"keep-alive" in tokens and b"close" not in tokens
    return b"close" not in tokens


class Reading:
    """One request being read in the event loop: h11's state and what it has given."""

    __slots__ = ("parser", "head", "request", "body", "deadline", "started", "limit", "held")

    def __init__(self, deadline: float, limit: int) -> None:
        self.parser = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD)
        self.head = bytearray()        # bytes until h11 has the head (for the LF check)
        self.request: h11.Request | None = None
        self.body = bytearray()
        self.deadline = deadline       # keep-alive wait, then the request's own deadline
        self.started = False
        self.limit = limit
        self.held = 0                  # bytes counted against the worker's read budget

    def feed(self, data: bytes) -> bool:
        """Feed bytes; True once the whole request is here (``Refused`` if it never can be)."""
        self.parser.receive_data(data)
        if self.request is None:
            self.head += data
        try:
            while True:
                event = self.parser.next_event()
                if event is h11.NEED_DATA:
                    return False
                if isinstance(event, h11.Request):
                    self._accept_head(event)
                elif isinstance(event, h11.Data):
                    self.body += event.data
                    if len(self.body) > self.limit:
                        raise Refused(413, "payload_too_large", "the request body is too large")
                elif isinstance(event, h11.EndOfMessage):
                    return True
                elif isinstance(event, h11.ConnectionClosed):
                    raise Refused(400, "bad_framing", "the connection ended before the request did")
        except h11.RemoteProtocolError as error:
            status = error.error_status_hint if error.error_status_hint in H11_CODES else 400
            # past the head, a 400 is the body's framing (a chunk line)
            code = "bad_framing" if status == 400 and self.request is not None else H11_CODES[status]
            raise Refused(status, code, DETAILS[code], str(error)) from None

    def _accept_head(self, request: h11.Request) -> None:
        self.request = request
        if bare_line_feed(bytes(self.head)):
            raise Refused(400, "bad_request", "the request head ends a line with LF alone, not CRLF")
        if not request.http_version.startswith(b"1."):
            raise Refused(400, "bad_request", "the request is not HTTP/1.x")
        self.head = bytearray()
        length = self._header(b"content-length")
        # RFC 9112 §6.1: a length beside a transfer coding is how requests are smuggled
        if length is not None and self._header(b"transfer-encoding") is not None:
            raise Refused(400, "bad_framing", "the request has both Content-Length and Transfer-Encoding")
        if length is not None and int(length) > self.limit:
            raise Refused(413, "payload_too_large", "the request body is too large")
        host = self._header(b"host")
        if host is not None and not HOST_VALUE.fullmatch(host):
            raise Refused(400, "invalid_host", "the Host header is not a host name with an optional port")
        # one protocol is spoken here: a request to switch is refused, not half-served
        if self._header(b"upgrade") is not None:
            raise Refused(501, "upgrade_not_supported", "this server speaks HTTP/1.1 only (no Upgrade)")

    def _header(self, name: bytes) -> bytes | None:
        assert self.request is not None
        for key, value in self.request.headers:
            if key == name:
                return value
        return None

    def waits_for_continue(self) -> bool:
        return self.parser.they_are_waiting_for_100_continue

    def probe(self) -> bool:
        """GET /healthz or /readyz with no body and no Expect."""
        request = self.request
        return (request is not None and request.method in (b"GET", b"HEAD")
                and request.target in PROBE_PATHS and not self.body
                and all(key not in FRAMING_HEADERS for key, _ in request.headers))

    def canonical(self) -> bytes:
        """The request as HTTP/1.1 (1.0 kept) with its body de-framed and a plain length."""
        request = self.request
        assert request is not None
        version = b"1.0" if request.http_version == b"1.0" else b"1.1"
        lines = [b"%s %s HTTP/%s" % (request.method, request.target, version)]
        lines += [name + b": " + value for name, value in request.headers.raw_items()
                  if name.lower() not in FRAMING_HEADERS and name.lower() != b"connection"]
        # Connection is a list (RFC 9110 §7.6.1); gunicorn's parser compares it whole
        lines.append(b"Connection: keep-alive" if keeps_alive(request) else b"Connection: close")
        if self.body or request.method not in (b"GET", b"HEAD"):
            lines.append(b"Content-Length: %d" % len(self.body))
        return b"\r\n".join(lines) + b"\r\n\r\n" + bytes(self.body)

    def leftover(self) -> bytes:
        """Bytes after the request (the start of a pipelined next one)."""
        return self.parser.trailing_data[0]


class Buffer:
    """What a thread writes an answer to instead of the socket; the event loop sends it."""

    def __init__(self, sock) -> None:
        self.sock = sock
        self.data = bytearray()

    def sendall(self, data) -> None:
        self.data += data

    def send(self, data) -> int:
        self.data += data
        return len(data)

    def __getattr__(self, name):
        return getattr(self.sock, name)


class BufferedThreadWorker(ThreadWorker):
    """gthread with every wait on a client in the event loop (module docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.request_timeout = env_seconds("GUNICORN_REQUEST_TIMEOUT", 10)
        self.body_limit = int(os.environ.get("GONGZHU_MAX_BODY", 256 * 1024))
        self.reading: dict[TConn, Reading] = {}
        self.writing: dict[TConn, float] = {}
        # Bytes of unfinished requests held by the event loop, and their ceiling.
        self.buffered = 0
        self.buffer_budget = int(env_seconds("GUNICORN_READ_BUFFER_MIB", 8) * 1024 * 1024)
        # Bytes of answers waiting for slow readers, and their ceiling.
        self.sending = 0
        self.send_budget = int(env_seconds("GUNICORN_WRITE_BUFFER_MIB", 64) * 1024 * 1024)
        self.lingering: dict[TConn, float] = {}
        self.probe_pool: futures.ThreadPoolExecutor | None = None
        # connections accepted past the cap (probes only)
        self.overflow = 0
        self.flushed = 0.0

    def init_process(self):
        # forked before this process has a thread
        searches.start()
        self.probe_pool = futures.ThreadPoolExecutor(max_workers=PROBE_THREADS)
        # How long a thread running Python keeps the GIL while another waits for it: the
        # event loop and the probe thread wait about this long per step. 1 ms instead of
        # CPython's 5 keeps probes and short requests prompt beside a bot search
        # (docs/performance.md has the drill figures for both).
        sys.setswitchinterval(env_seconds("GUNICORN_SWITCH_INTERVAL_MS", 1) / 1000)
        super().init_process()

    # ------------------------------------------------------------------ accepting

    def set_accept_enabled(self, enabled):
        """Keep accepting past ``worker_connections`` (``accept`` answers 503 there), so no
        client waits unaccepted; stop only when the worker stops."""
        super().set_accept_enabled(enabled or self.alive)

    def accept(self, listener):
        try:
            client, addr = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        overflow = self.nr_conns >= self.worker_connections and not self._evict_idle()
        if overflow and self.overflow >= PROBE_OVERFLOW:
            client.setblocking(False)
            try:
                client.send(problem_bytes(503, "busy", CAP_DETAIL, retry_after=1))
            except OSError:
                pass
            client.close()
            count_refusal(503, "busy")
            return
        self.nr_conns += 1
        conn = TConn(self.cfg, client, addr, listener.getsockname())
        # past the cap a connection may still ask a probe, promptly, and nothing else
        conn.overflow = overflow
        self.overflow += overflow
        self._start_reading(conn, b"", PROBE_WAIT_S if overflow else self.cfg.keepalive)

    def _evict_idle(self) -> bool:
        """Close the connection idle longest (kept alive, or new and silent) to make room for
        a new one: idle connections hold nothing but the cap. False when none is idle."""
        if self.keepalived_conns:
            conn = self.keepalived_conns.popleft()
            self.poller.unregister(conn.sock)
            self._drop(conn)
            return True
        for conn, reading in self.reading.items():
            if not reading.started:
                self._forget(conn)
                self._drop(conn)
                return True
        return False

    # ------------------------------------------------------------------ reading

    def on_client_socket_readable(self, conn, client):
        """A kept-alive connection has bytes: its next request is read in the event loop too."""
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self._start_reading(conn, b"")

    def _start_reading(self, conn, pending: bytes, wait_s: float | None = None) -> None:
        conn.sock.setblocking(False)
        reading = Reading(time.monotonic() + (self.cfg.keepalive if wait_s is None else wait_s), self.body_limit)
        self.reading[conn] = reading
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._read, conn))
        self._read(conn, conn.sock, pending)

    def _read(self, conn, _client, pending: bytes = b"") -> None:
        try:
            self._receive(conn, pending)
        except Exception:  # noqa: BLE001 — one connection's fault must not stop the worker
            self.log.exception("Error reading a request")
            if conn in self.reading:
                self._forget(conn)
                self._refuse(conn, 500, "internal_error",
                             "the server failed to read this request; it has been logged")

    def _receive(self, conn, pending: bytes) -> None:
        if pending:
            self._take(conn, self.reading[conn], pending)
            return
        try:
            data = conn.sock.recv(READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        reading = self.reading[conn]
        if not data:
            started = reading.started
            self._forget(conn)
            if started:
                self._refuse(conn, 400, "bad_framing", "the connection ended before the request did")
            else:
                self._drop(conn)
            return
        self._take(conn, reading, data)

    def _take(self, conn, reading: Reading, data: bytes) -> None:
        """Bytes of a request: complete, it goes to a thread; refused, it is answered here."""
        if not reading.started:
            # the request has started: all of it must arrive (and be read back) in time
            reading.started = True
            reading.deadline = time.monotonic() + self.request_timeout
        self.buffered += len(data)
        reading.held += len(data)
        try:
            complete = reading.feed(data)
        except Refused as refused:
            self._forget(conn)
            self._refuse(conn, refused.status, refused.code, refused.detail, reason=refused.reason)
            return
        if complete and conn.overflow and not reading.probe():
            self._forget(conn)
            self._refuse(conn, 503, "busy", CAP_DETAIL, retry_after=1)
        elif complete:
            self._forget(conn)
            self.enqueue_req(conn, reading)
        elif reading.waits_for_continue():
            reading.parser.send(h11.InformationalResponse(status_code=100, headers=[]))
            self._send_quietly(conn, CONTINUE)
        elif self.buffered > self.buffer_budget:
            # Many large requests arriving slowly at once: shed this one rather than
            # hold more memory than the pod was sized for.
            self._forget(conn)
            self._refuse(conn, 503, "busy", "the server holds too many unfinished requests; retry",
                         retry_after=1)

    def _forget(self, conn) -> None:
        reading = self.reading.pop(conn, None)
        if reading is not None:
            self.poller.unregister(conn.sock)
            self.buffered -= reading.held

    def _refuse(self, conn, status: int, code: str, detail: str, retry_after: int | None = None,
                reason: str = "") -> None:
        if status < 500 or status == 501:
            self.log.info("Refused request from ip=%s: %d %s: %s", (conn.client or ("",))[0], status, code,
                          reason or detail)
        self._send_quietly(conn, problem_bytes(status, code, detail, retry_after))
        count_refusal(status, code)
        self._linger(conn)

    def _linger(self, conn) -> None:
        """Close our side and drop what the client still sends until it closes too (or
        ``LINGER_S``): closing a socket with unread bytes resets the connection, and a
        client still sending its body would lose the answer we sent before it."""
        if len(self.lingering) >= LINGER_MAX:
            self._drop(conn)
            return
        try:
            conn.sock.shutdown(socket.SHUT_WR)
        except OSError:
            self._drop(conn)
            return
        self.lingering[conn] = time.monotonic() + LINGER_S
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._drain, conn))

    def _drain(self, conn, _client) -> None:
        try:
            if conn.sock.recv(READ_SIZE):
                return
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            pass
        self._stop_lingering(conn)

    def _stop_lingering(self, conn) -> None:
        if self.lingering.pop(conn, None) is not None:
            self.poller.unregister(conn.sock)
            self._drop(conn)

    def _drop(self, conn) -> None:
        self.nr_conns -= 1
        self.overflow -= conn.overflow
        conn.overflow = False
        conn.close()

    def _cap_keepalive(self, deadline):
        """On shutdown, connections that have not started a request are closed by
        ``deadline`` too, like kept-alive ones."""
        super()._cap_keepalive(deadline)
        for reading in self.reading.values():
            if not reading.started:
                reading.deadline = min(reading.deadline, deadline)

    def wait_for_and_dispatch_events(self, timeout):
        """gthread's loop step, waking within ``ACCESS_FLUSH_S`` to write waiting access lines and
        count waiting metric observations."""
        waiting = access_waiting() or metrics.waiting()
        super().wait_for_and_dispatch_events(min(timeout, ACCESS_FLUSH_S) if waiting else timeout)
        now = time.monotonic()
        if waiting and now - self.flushed >= ACCESS_FLUSH_S:
            self.flushed = now
            flush_access()
            metrics.flush()

    def murder_pending(self):
        """Close connections idle past keepalive; answer 408 to requests past their deadline;
        drop answers a client has not read by then."""
        super().murder_pending()
        now = time.monotonic()
        for conn in [c for c, r in self.reading.items() if r.deadline <= now]:
            started = self.reading[conn].started
            self._forget(conn)
            if started:
                self._refuse(conn, 408, "request_timeout",
                             f"the request did not arrive within {self.request_timeout:g} s")
            else:
                self._drop(conn)
        for conn in [c for c, deadline in self.lingering.items() if deadline <= now]:
            self._stop_lingering(conn)
        for conn in [c for c, deadline in self.writing.items() if deadline <= now]:
            self._stop_writing(conn)
            self.log.info("Dropped an answer not read within %g s", self.request_timeout)
            self._drop(conn)

    @staticmethod
    def _send_quietly(conn, data: bytes) -> None:
        try:
            conn.sock.send(data)
        except OSError:
            pass

    # ------------------------------------------------------------------ serving

    def enqueue_req(self, conn, reading: Reading | None = None):
        """Probes go to their own pool; every other request to the request threads."""
        if reading is None:  # gthread's own call (a read-ahead it found): not used here
            raise RuntimeError("requests reach threads only through the event loop")
        conn.canonical = reading.canonical()
        conn.leftover = reading.leftover()
        conn.deadline = reading.deadline
        pool = self.probe_pool if reading.probe() and self.probe_pool is not None else self.tpool
        fs = pool.submit(self.handle, conn)
        fs.add_done_callback(lambda fut: self.method_queue.defer(self._answered, conn, fut))

    def handle(self, conn):
        """Serve the request read by the event loop (its canonical bytes go to the parser),
        unless it waited past its deadline or its client has gone: then its thread is free at once."""
        if time.monotonic() > conn.deadline:
            conn.answer = problem_bytes(503, "busy", "the request waited past its deadline; retry", retry_after=1)
            count_refusal(503, "busy")
            return False
        if client_gone(conn.sock):
            conn.answer = None
            count_refusal(CLIENT_GONE, None)
            return False
        conn.data_ready = True
        conn.sock.setblocking(True)
        conn.init()
        conn.parser.unreader.unread(conn.canonical)
        conn.canonical = b""
        conn.answer = None
        return super().handle(conn)

    def handle_request(self, req, conn):
        """The answer is written to memory; the event loop sends it (``_answered``)."""
        real, conn.sock = conn.sock, Buffer(conn.sock)
        try:
            return super().handle_request(req, conn)
        finally:
            conn.answer, conn.sock = conn.sock.data, real

    def _answered(self, conn, fs) -> None:
        """On the event loop: send what the thread wrote, as the client reads it, then keep
        the connection alive (or close it) as gthread does."""
        answer = getattr(conn, "answer", None)
        conn.answer = None
        if answer:
            conn.sock.setblocking(False)
            self._write(conn, fs, memoryview(bytes(answer)))
        else:
            self._after_answer(conn, fs)

    def _write(self, conn, fs, rest: memoryview) -> None:
        try:
            sent = conn.sock.send(rest)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            self._stop_writing(conn)
            self._drop(conn)
            return
        rest = rest[sent:]
        if not rest:
            self._stop_writing(conn)
            self._after_answer(conn, fs)
            return
        conn.rest = rest
        if conn not in self.writing:
            if self.sending + len(rest) > self.send_budget:
                # answers held for slow readers would pass what the pod was sized for
                self.log.info("Dropped an answer: %d bytes already wait for slow readers", self.sending)
                self._drop(conn)
                return
            conn.held_out = len(rest)
            self.sending += len(rest)
            # an answer that took past the request's deadline still gets a second to be read
            self.writing[conn] = max(conn.deadline, time.monotonic() + 1.0)
            self.poller.register(conn.sock, selectors.EVENT_WRITE, partial(self._writable, conn, fs))

    def _stop_writing(self, conn) -> None:
        if self.writing.pop(conn, None) is not None:
            self.poller.unregister(conn.sock)
            self.sending -= conn.held_out

    def _writable(self, conn, fs, _sock) -> None:
        self._write(conn, fs, conn.rest)

    def _after_answer(self, conn, fs) -> None:
        leftover = getattr(conn, "leftover", b"")
        conn.leftover = b""
        if conn.overflow:
            # a probe let in past the cap: its connection does not stay
            self._drop(conn)
            return
        self.finish_request(conn, fs)
        if leftover and conn in self.keepalived_conns:
            # a pipelined request had started arriving with the last one
            self.poller.unregister(conn.sock)
            self.keepalived_conns.remove(conn)
            self._start_reading(conn, leftover)

    def handle_error(self, req, client, addr, exc):
        """gunicorn's parser's answers as problems: one line at WARNING, no traceback, for
        a client's request; a traceback only for a real server fault."""
        status, code, detail = server_problem(exc)
        ip = (addr or ("", -1))[0]
        if status < 500:
            self.log.warning("Invalid request from ip=%s: %s", ip, exc)
        else:
            self.log.exception("Error handling request")
        count_refusal(status, code)
        try:
            client.sendall(problem_bytes(status, code, detail))
        except OSError:
            self.log.debug("Failed to send error message.")

    def run(self):
        try:
            super().run()
        finally:
            flush_access()
            metrics.flush()
            if self.probe_pool is not None:
                self.probe_pool.shutdown(wait=False)
            searches.stop()
