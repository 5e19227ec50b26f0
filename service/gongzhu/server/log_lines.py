"""An access line's JSON text, written out directly (``gongzhu.server.logs``): the same JSON object
``logs.JsonFormatter`` writes for it, without a ``LogRecord`` or ``json.dumps``, and kept by the
batching handler (``pend``). Compiled with the engine when a C compiler is there (setup.py): every
request writes one.
"""
from __future__ import annotations

import json
import logging
import math
import os
import time
from collections.abc import Callable
from typing import Any, Final

ACCESS_LOGGER: Final = "gongzhu.access"
# the C encoder's string quoting (ensure_ascii=False)
quoted: Final[Callable[[str], str]] = json.encoder.encode_basestring
_JSON_CONSTANTS: Final[dict[object, str]] = {True: "true", False: "false", None: "null"}
# ".000Z" … ".999Z", and milliseconds' thousandths as three digits
_MILLISECONDS: Final[tuple[str, ...]] = tuple([f".{i:03d}Z" for i in range(1000)])
_THOUSANDTHS: Final[tuple[str, ...]] = tuple([f"{i:03d}" for i in range(1000)])


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


def json_value(value: object) -> str:
    """``value`` as ``json.dumps(value, ensure_ascii=False, default=str)`` writes it."""
    if isinstance(value, str):
        return quoted(value)
    if value is True or value is False or value is None:
        return _JSON_CONSTANTS[value]
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float) and math.isfinite(value):
        return float.__repr__(value)
    return json.dumps(value, ensure_ascii=False, default=str)


def access_line(now: float, fields: dict[str, object]) -> str:
    """The JSON object ``JsonFormatter`` writes for an access line with these ``fields``: its
    keys in the same order, its values as ``json.dumps`` writes them."""
    head = f'{{"time":"{utc(now)}","level":"info","logger":"{ACCESS_LOGGER}","message":"request","pid":{os.getpid()}'
    return head + "".join([f",{quoted(key)}:{json_value(value)}" for key, value in fields.items()]) + "}"


class _Pid:
    """This process's pid as text, for its lines (a forked worker writes its own)."""

    def __init__(self) -> None:
        self.text = str(os.getpid())

    def renew(self) -> None:
        self.text = str(os.getpid())


_pid = _Pid()
os.register_at_fork(after_in_child=_pid.renew)


def request_line(now: float, method: str, path: str, operation: str, status: int, micros: int, sent: int,
                 request_id: str) -> str:
    """The access line of a request with nothing more to say (no problem, no trace): the same JSON
    object as ``access_line`` of the same fields (``duration_ms`` = ``micros`` / 1000), the
    duration written with three decimals."""
    milli, thousandths = divmod(micros, 1000)
    return (f'{{"time":"{utc(now)}","level":"info","logger":"{ACCESS_LOGGER}","message":"request",'
            f'"pid":{_pid.text},"method":{quoted(method)},"path":{quoted(path)},"operation":{quoted(operation)},'
            f'"status":{status},"duration_ms":{milli}.{_THOUSANDTHS[thousandths]},"bytes":{sent},'
            f'"request_id":{quoted(request_id)}}}')


def pend(handler, text: str) -> None:
    """``text``, a formatted line, kept by a batching handler (``logs.BatchedStreamHandler``, under
    its lock) until it writes its lines: now when ``max_lines`` wait."""
    lock = handler.lock
    if lock is None:
        _keep(handler, text)
        return
    lock.acquire()
    try:
        _keep(handler, text)
    finally:
        lock.release()


def _keep(handler, text: str) -> None:
    pending = handler.pending
    pending.append(text)
    if len(pending) >= handler.max_lines:
        handler.flush()


def only_handler(logger: logging.Logger, handler_class: type[logging.Handler],
                 formatter_class: type[logging.Formatter]) -> Any:
    """``logger``'s one handler when it is of ``handler_class`` (exactly) with no filter and a
    ``formatter_class`` formatter, and ``logger`` (no filter either) and it pass INFO lines; else None
    (``logs.direct_access_handler``, compiled: asked once a request)."""
    handlers = logger.handlers
    if len(handlers) != 1:
        return None
    handler = handlers[0]
    if type(handler) is handler_class and not handler.filters and type(handler.formatter) is formatter_class \
            and not logger.filters and logger.isEnabledFor(logging.INFO) \
            and handler.level <= logging.INFO:
        return handler
    return None
