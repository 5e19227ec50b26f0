"""The gunicorn worker: gthread whose threads only ever run requests that have arrived.

gunicorn's ``gthread`` worker keeps HTTP/1.1 connections alive between requests, but a
pool thread reads each request itself, blocking: a connection that sends nothing holds a
thread for seconds, and one that sends its headers a byte a second holds it until the
last byte. A few such clients stop a worker, probes included.

``BufferedThreadWorker`` moves all waiting into the worker's event loop (its main
thread, which already accepts connections and watches idle kept-alive ones):

- every connection, new or kept alive, waits in the event loop, and its bytes are read
  there without blocking until the request is complete: the head, then a body of
  declared length (up to the body limit) or a chunked body up to its last chunk;
- only then does a pool thread get it, with the bytes already read: a thread never
  waits for a client, so idle and slow connections cost a file descriptor and a buffer,
  never a thread;
- a connection that sends nothing within ``keepalive`` seconds is closed; one that
  started a request and has not finished it ``request_timeout`` seconds later gets a
  408 problem and is closed; when unfinished requests hold more than
  ``GUNICORN_READ_BUFFER_MIB`` (8 MiB) in a worker, the one that grows past it gets a
  503 problem (``busy``, ``Retry-After: 1``) and is closed;
- ``GET /healthz`` and ``GET /readyz`` run in a separate small pool, so a probe never
  queues behind requests that keep every request thread busy;
- the server's own error answers (bad request line, headers too many or too large,
  bad chunked framing, …) are RFC 9457 problems (``application/problem+json``) with a
  stable code, like the application's, instead of gunicorn's HTML pages.

Set it with ``worker_class = "gongzhu.worker.BufferedThreadWorker"`` (gunicorn_conf.py).
"""
from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import selectors
import socket
import struct
import sys
import time
from concurrent import futures
from functools import partial
from http import HTTPStatus

from gunicorn.http import errors as http_errors
from gunicorn.workers.gthread import TConn, ThreadWorker

PROBES = (b"GET /healthz ", b"GET /readyz ")
PROBE_THREADS = 1
HEAD_END = b"\r\n\r\n"
LAST_CHUNK = b"0\r\n\r\n"
CONTENT_LENGTH = re.compile(rb"\r\ncontent-length[ \t]*:[ \t]*(\d{1,12})[ \t]*(?=\r\n)", re.I)
CHUNKED = re.compile(rb"\r\ntransfer-encoding[ \t]*:[^\r\n]*chunked", re.I)
EXPECT = re.compile(rb"\r\nexpect[ \t]*:", re.I)
CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]{1,8})[ \t]*(?:;[^\r\n]*)?(?=\r\n)")
MAX_CHUNK_LINE = 1024
# request line + 32 header fields of at most 8 KiB (gunicorn_conf.py's limits)
MAX_HEAD = 8190 + 32 * 8190 + 1024
READ_SIZE = 65536
M_MMAP_THRESHOLD, MMAP_THRESHOLD = -3, 64 * 1024
M_ARENA_MAX, ARENA_MAX = -8, 2
PROBLEM_JSON = "application/problem+json"
TYPE_PREFIX = "urn:gongzhu:problem:"

# What the server itself answers, before the application sees a request.
SERVER_PROBLEMS: tuple[tuple[type[Exception], int, str], ...] = (
    (http_errors.LimitRequestLine, 414, "uri_too_long"),
    (http_errors.LimitRequestHeaders, 431, "header_fields_too_large"),
    (http_errors.UnsupportedTransferCoding, 501, "unsupported_transfer_coding"),
    (http_errors.ExpectationFailed, 417, "expectation_failed"),
    (http_errors.ForbiddenProxyRequest, 403, "forbidden"),
    (http_errors.InvalidChunkSize, 400, "bad_framing"),
    (http_errors.ChunkMissingTerminator, 400, "bad_framing"),
    (http_errors.InvalidChunkExtension, 400, "bad_framing"),
    (http_errors.ParseException, 400, "bad_request"),
)


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
    """(status, code, detail) for an error the server raised on a client's bytes, or 500."""
    for kind, status, code in SERVER_PROBLEMS:
        if isinstance(exc, kind):
            return status, code, f"the request is not valid HTTP/1.1: {exc}"[:300]
    return 500, "internal_error", "the server failed to answer this request; it has been logged"


def chunks_complete(body: bytes) -> bool:
    """Whether a chunked body holds its last chunk and trailer section, or is no valid
    chunked framing at all (the parser then answers 400 at once)."""
    pos = 0
    while True:
        eol = body.find(b"\r\n", pos)
        if eol < 0:
            return len(body) - pos > MAX_CHUNK_LINE
        size = CHUNK_SIZE.match(body, pos, eol)
        if size is None:
            return True
        if int(size.group(1), 16) == 0:
            return body.find(HEAD_END, eol) >= 0
        pos = eol + 2 + int(size.group(1), 16) + 2
        if pos > len(body):
            return False
        if body[pos - 2:pos] != b"\r\n":
            return True


def request_complete(buf: bytes | bytearray, body_limit: int) -> bool:
    """Whether ``buf`` holds a whole request a thread can serve without waiting.

    A head longer than any the server accepts, a body larger than the limit, an
    ``Expect`` header (the client waits for ``100 Continue``), bad chunked framing or a
    length the head does not state plainly count as complete: the server's parser or
    the application answers them.
    """
    end = buf.find(HEAD_END)
    if end < 0:
        return len(buf) > MAX_HEAD
    head = bytes(buf[:end + 2])
    body = len(buf) - end - 4
    if EXPECT.search(head):
        return True
    if CHUNKED.search(head):
        return body > body_limit + MAX_CHUNK_LINE or chunks_complete(bytes(buf[end + 4:]))
    lengths = CONTENT_LENGTH.findall(head)
    if len(lengths) != 1:
        return True
    return body >= min(int(lengths[0]), body_limit + 1)


def bound_malloc() -> None:
    """glibc only: buffers of a request body (up to 256 KiB, a few copies) are mmapped and
    unmapped when freed, and threads share 2 heaps: memory a burst of large bodies took
    goes back to the system instead of staying in per-thread heaps."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
        libc.mallopt(M_ARENA_MAX, ARENA_MAX)
    except (OSError, AttributeError):
        pass


class BufferedThreadWorker(ThreadWorker):
    """gthread with the reading of each request done in the event loop (module docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.request_timeout = env_seconds("GUNICORN_REQUEST_TIMEOUT", 10)
        self.body_limit = int(os.environ.get("GONGZHU_MAX_BODY", 256 * 1024))
        self.reading: dict[TConn, float] = {}
        # Bytes of unfinished requests held by the event loop, and their ceiling.
        self.buffered = 0
        self.buffer_budget = int(env_seconds("GUNICORN_READ_BUFFER_MIB", 8) * 1024 * 1024)
        self.probe_pool: futures.ThreadPoolExecutor | None = None

    def init_process(self):
        self.probe_pool = futures.ThreadPoolExecutor(max_workers=PROBE_THREADS)
        bound_malloc()
        # How long a thread running Python keeps the GIL while another waits for it: the
        # event loop and the probe thread wait about this long per step. 1 ms instead of
        # CPython's 5 keeps probes and short requests prompt beside a bot search
        # (docs/performance.md has the drill figures for both).
        sys.setswitchinterval(env_seconds("GUNICORN_SWITCH_INTERVAL_MS", 1) / 1000)
        super().init_process()

    # ------------------------------------------------------------------ reading

    def accept(self, listener):
        try:
            client, addr = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        # A thread that still ends up reading (a body past what was buffered) waits this
        # long at most for each read or write.
        timeval = struct.pack("ll", int(self.request_timeout), 0)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, timeval)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, timeval)
        conn = TConn(self.cfg, client, addr, listener.getsockname())
        conn.head = bytearray()
        self._wait_for_request(conn, time.monotonic() + self.cfg.keepalive)

    def on_client_socket_readable(self, conn, client):
        """A kept-alive connection has bytes: its next request is read in the event loop too."""
        self.keepalived_conns.remove(conn)
        conn.head = bytearray()
        self.poller.modify(client, selectors.EVENT_READ, partial(self._read, conn))
        self.reading[conn] = time.monotonic() + self.request_timeout
        self._read(conn, client)

    def _wait_for_request(self, conn, deadline: float) -> None:
        conn.sock.setblocking(False)
        self.reading[conn] = deadline
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._read, conn))

    def _read(self, conn, _client) -> None:
        """Bytes for a connection waiting in the event loop; a complete request goes to a thread."""
        try:
            data = conn.sock.recv(READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._forget(conn)
            if conn.head:
                self._send_quietly(conn, problem_bytes(
                    400, "bad_framing", "the connection ended before the request did"))
            self._drop(conn)
            return
        if not conn.head:
            # the request has started: all of it must arrive within request_timeout
            self.reading[conn] = time.monotonic() + self.request_timeout
        conn.head += data
        self.buffered += len(data)
        if request_complete(conn.head, self.body_limit):
            self._forget(conn)
            self.enqueue_req(conn)
        elif self.buffered > self.buffer_budget:
            # Many large requests arriving slowly at once: shed this one rather than
            # hold more memory than the pod was sized for.
            self._forget(conn)
            self._send_quietly(conn, problem_bytes(
                503, "busy", "the server holds too many unfinished requests; retry",
                retry_after=1))
            self._drop(conn)

    def _forget(self, conn) -> None:
        if self.reading.pop(conn, None) is not None:
            self.poller.unregister(conn.sock)
            self.buffered -= len(conn.head)

    def _drop(self, conn) -> None:
        self.nr_conns -= 1
        conn.close()

    def _cap_keepalive(self, deadline):
        """On shutdown, connections that have not started a request are closed by
        ``deadline`` too, like kept-alive ones."""
        super()._cap_keepalive(deadline)
        for conn in self.reading:
            if not conn.head:
                self.reading[conn] = min(self.reading[conn], deadline)

    def murder_pending(self):
        """Close connections idle past keepalive; answer 408 to requests past request_timeout."""
        super().murder_pending()
        now = time.monotonic()
        for conn in [c for c, deadline in self.reading.items() if deadline <= now]:
            self._forget(conn)
            if conn.head:
                self._send_quietly(conn, problem_bytes(
                    408, "request_timeout",
                    f"the request did not arrive within {self.request_timeout:g} s"))
            self._drop(conn)

    @staticmethod
    def _send_quietly(conn, data: bytes) -> None:
        try:
            conn.sock.send(data)
        except OSError:
            pass

    # ------------------------------------------------------------------ serving

    def enqueue_req(self, conn):
        """Probes go to their own pool; every other request to the request threads."""
        head = getattr(conn, "head", b"")
        pool = self.probe_pool if head.startswith(PROBES) else self.tpool
        fs = pool.submit(self.handle, conn)
        fs.add_done_callback(lambda fut: self.method_queue.defer(self.finish_request, conn, fut))

    def handle(self, conn):
        """Serve the request read by the event loop (its bytes go back to the parser first)."""
        conn.data_ready = True
        if getattr(conn, "head", None):
            conn.sock.setblocking(True)
            conn.init()
            conn.parser.unreader.unread(bytes(conn.head))
            conn.head = bytearray()
        return super().handle(conn)

    def handle_error(self, req, client, addr, exc):
        """The server's own answers as problems: one warning line, no traceback for a
        client's bad bytes; a traceback only for a real server fault."""
        status, code, detail = server_problem(exc)
        ip = (addr or ("", -1))[0]
        if status < 500:
            self.log.warning("Invalid request from ip=%s: %s", ip, exc)
        else:
            self.log.exception("Error handling request")
        try:
            client.sendall(problem_bytes(status, code, detail))
        except OSError:
            self.log.debug("Failed to send error message.")

    def run(self):
        try:
            super().run()
        finally:
            if self.probe_pool is not None:
                self.probe_pool.shutdown(wait=False)
