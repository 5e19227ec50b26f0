"""``gongzhu-service serve``'s one writer on stdout: nginx's access lines and gunicorn's lines arrive on pipes of
their own, and this copies them to stdout whole, one line never cut into another's, without ever waiting on
stdout (docs/operations.md, "Logs").

A reader that stops reading (a stalled log shipper, ``serve | less``) must not stop the server: the pipes are
always drained, lines wait in a bounded buffer (``BUFFER_BYTES``) while stdout cannot take them, and lines that
would overflow it are dropped and counted (``gongzhu_log_lines_dropped_total``); once stdout has taken
everything again, one warning line says how many were dropped. A line that is not UTF-8 (nginx's
``escape=json`` passes a client's bytes from 0x80 up as they came) has those bytes replaced by U+FFFD, so
every line is valid UTF-8 and an access line valid JSON.
"""
from __future__ import annotations

import errno
import logging
import os
import select
import socket
import stat
import time
from collections.abc import Callable

from gongzhu.server.logs import JsonFormatter, TextFormatter
from gongzhu.settings import MULTIPROC_ENV, text_lines

# Lines waiting for stdout, at most: about a thousand access lines, a second or two of a busy pod.
BUFFER_BYTES = 512 * 1024
READ_BYTES = 65536
# Writes end at a line's end and, lines allowing, stay within the atomic size of a pipe write.
PIPE_BUF = select.PIPE_BUF
# How often a full stdout is tried again.
RETRY_S = 0.1
DROPPED = "gongzhu_log_lines_dropped"
WOULD_BLOCK = (errno.EAGAIN, errno.EWOULDBLOCK)


def nonblocking_stdout(fd: int = 1) -> Callable[[bytes], int]:
    """A write to ``fd`` that never waits: bytes taken, 0 when it is full. A pipe or a terminal is opened anew
    (``/proc/self/fd``) with ``O_NONBLOCK`` on the new open file only (set on ``fd`` itself, the flag would
    reach the shell or container runtime sharing it); a socket is sent to with ``MSG_DONTWAIT``; a file, which
    never makes a writer wait for a reader, is written as it is (where stderr shares its offset)."""
    mode = os.fstat(fd).st_mode
    if stat.S_ISSOCK(mode):
        sock = socket.socket(fileno=os.dup(fd))
        return lambda data: _taken(lambda: sock.send(data, socket.MSG_DONTWAIT))
    own = fd
    if not stat.S_ISREG(mode):
        try:
            own = os.open(f"/proc/self/fd/{fd}", os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            own = fd
    return lambda data: _taken(lambda: os.write(own, data))


def _taken(write: Callable[[], int]) -> int:
    try:
        return write()
    except OSError as error:
        if error.errno in WOULD_BLOCK:
            return 0
        raise


def clean(line: bytes) -> bytes:
    """``line`` as valid UTF-8: each byte that is not part of a UTF-8 character becomes U+FFFD."""
    try:
        line.decode()
        return line
    except UnicodeDecodeError:
        return line.decode(errors="replace").encode()


def dropped_warning(count: int) -> bytes:
    """The line that says ``count`` lines were dropped, in the format of the others."""
    record = logging.makeLogRecord({"name": "gongzhu.serve", "levelno": logging.WARNING, "levelname": "WARNING",
                                    "msg": "stdout did not take %d log lines: dropped", "args": (count,)})
    formatter = TextFormatter() if text_lines() else JsonFormatter()
    return formatter.format(record).encode() + b"\n"


def dropped_counter() -> Callable[[int], None]:
    """Count dropped lines in the metrics directory the workers read (``/metrics``), when there is one."""
    if not os.environ.get(MULTIPROC_ENV):
        return lambda count: None
    from prometheus_client import Counter

    counter = Counter(DROPPED, "Log lines dropped because stdout did not take them", registry=None)
    return counter.inc


class LinePipe:
    """Copies whole lines from the read ends of pipes to stdout (``write``, non-blocking) until every writer
    has closed its end."""

    def __init__(self, sources: list[int], write: Callable[[bytes], int], count: Callable[[int], None]) -> None:
        self.partial = dict.fromkeys(sources, b"")
        self.write, self.count = write, count
        self.waiting = bytearray()
        self.dropped = 0

    def run(self) -> None:
        while self.partial or self.waiting:
            if self.waiting:
                self._flush()
            readable = self._readable()
            for fd in readable:
                self._read(fd)
            if not readable and not self.partial and self.waiting:
                time.sleep(RETRY_S)

    def _readable(self) -> list[int]:
        if not self.partial:
            return []
        timeout = RETRY_S if self.waiting else None
        return select.select(list(self.partial), [], [], timeout)[0]

    def _read(self, fd: int) -> None:
        chunk = os.read(fd, READ_BYTES)
        if not chunk:
            tail = self.partial.pop(fd)
            os.close(fd)
            if tail:
                self._add(tail + b"\n")
            return
        *lines, self.partial[fd] = (self.partial[fd] + chunk).split(b"\n")
        for line in lines:
            self._add(line + b"\n")
        if len(self.partial[fd]) > BUFFER_BYTES:  # a line longer than the buffer would never fit in it
            self._add(self.partial[fd])
            self.partial[fd] = b""

    def _add(self, line: bytes) -> None:
        """Queue ``line``, or drop it when the buffer is full."""
        line = clean(line)
        if len(self.waiting) + len(line) > BUFFER_BYTES:
            self.dropped += 1
            self.count(1)
            return
        self.waiting += line

    def _flush(self) -> None:
        """Write what waits, whole lines at a time, until stdout is full; say how many were dropped once it has
        taken everything."""
        while self.waiting:
            end = self.waiting.rfind(b"\n", 0, PIPE_BUF) + 1 or self.waiting.find(b"\n") + 1 or len(self.waiting)
            try:
                taken = self.write(bytes(self.waiting[:end]))
            except OSError:  # no reader left: nothing more can be written
                taken = len(self.waiting)
            if not taken:
                return
            del self.waiting[:taken]
            if not self.waiting and self.dropped:
                self.waiting += dropped_warning(self.dropped)
                self.dropped = 0
