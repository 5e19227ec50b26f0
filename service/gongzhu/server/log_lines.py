"""A log line's JSON text (``gongzhu.server.logs``): orjson writes ``logs.JsonFormatter``'s lines and the
fields of an access line, written without a ``LogRecord`` and kept by the batching handler (``pend``).
Compiled with the engine when a C compiler is there (setup.py): every request writes one.
"""
from __future__ import annotations

import logging
import os
import time
from contextlib import nullcontext
from typing import Any, Final

import orjson

ACCESS_LOGGER: Final = "gongzhu.access"
# ".000Z" … ".999Z"
_MILLISECONDS: Final[tuple[str, ...]] = tuple([f".{i:03d}Z" for i in range(1000)])


class _Second:
    """The second last formatted and its text (one object, replaced whole: threads never mix two)."""

    def __init__(self, second: int, text: str) -> None:
        self.second = second
        self.text = text


_last_second = _Second(-1, "")


def utc(created: float) -> str:
    """ISO 8601 UTC with milliseconds; the seconds part is formatted once per second."""
    global _last_second
    whole = int(created)
    cached = _last_second
    if cached.second != whole:
        cached = _last_second = _Second(whole, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)))
    return cached.text + _MILLISECONDS[int((created - whole) * 1000)]


def json_line(line: dict[str, Any]) -> str:
    """``line`` as one line of JSON text (a value of no JSON type as its ``str``)."""
    return orjson.dumps(line, default=str).decode()


def _new_process() -> None:
    """This process's pid as text, for its lines (a forked worker writes its own)."""
    global _pid
    _pid = str(os.getpid())


_pid = ""
_new_process()
os.register_at_fork(after_in_child=_new_process)


def access_line(now: float, fields: dict[str, Any]) -> str:
    """The line ``JsonFormatter`` writes for an access line with these ``fields`` (not empty): its head, the
    same for every line but the time and the pid, as a template; the fields' object after it, by orjson
    (merged into one dict first, the line would cost a request about a microsecond more)."""
    head = f'{{"time":"{utc(now)}","level":"info","logger":"{ACCESS_LOGGER}","message":"request","pid":{_pid},'
    return head + orjson.dumps(fields, default=str)[1:].decode()


def pend(handler, text: str) -> None:
    """``text``, a formatted line, kept by a batching handler (``logs.BatchedStreamHandler``, under
    its lock) until it writes its lines: now when ``max_lines`` wait."""
    with handler.lock or nullcontext():
        pending = handler.pending
        pending.append(text)
        if len(pending) >= handler.max_lines:
            handler.flush()


def only_handler(logger: logging.Logger, handler_class: type[logging.Handler],
                 formatter_class: type[logging.Formatter]) -> Any:
    """``logger``'s one handler when it is of ``handler_class`` (exactly) with no filter and a
    ``formatter_class`` formatter, and ``logger`` (no filter either) and it pass INFO lines; else None
    (compiled: telemetry asks it once a request)."""
    handlers = logger.handlers
    if len(handlers) != 1:
        return None
    handler = handlers[0]
    if type(handler) is handler_class and not handler.filters and type(handler.formatter) is formatter_class \
            and not logger.filters and logger.isEnabledFor(logging.INFO) \
            and handler.level <= logging.INFO:
        return handler
    return None
