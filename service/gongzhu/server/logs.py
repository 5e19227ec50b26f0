"""Log lines on stdout: one JSON object per line, or text with ``GONGZHU_LOG_FORMAT=text`` (docs/operations.md,
"Logs", has their fields). Under gunicorn a request thread only formats its access line and the worker's flush thread
writes the lines gathered in one write (``BatchedStreamHandler``, ``flush_access``; docs/performance.md, "Tried and
rejected"). ``GunicornLogger`` (gunicorn's ``logger_class``) puts gunicorn's error log through the same formatter
and its access log off.
"""
from __future__ import annotations

import contextvars
import logging
import os
from contextlib import nullcontext
from logging.config import dictConfig

from gunicorn.glogging import Logger

from gongzhu.server.log_lines import ACCESS_LOGGER, json_line, pend, utc

LOG_FORMAT_ENV = "GONGZHU_LOG_FORMAT"
LOG_LEVEL_ENV = "LOG_LEVEL"
JSON_FORMAT = "json"
TEXT_FORMAT = "text"

# The id of the request being served by this thread, for every line logged meanwhile.
REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)

_TEXT = "%(asctime)s %(levelname)s [%(process)d] %(name)s: %(message)s"
_TEXT_ACCESS = "{method} {path} {status} {duration_ms}ms {bytes}B op={operation}"


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, pid, request_id and
    the record's ``fields`` (a dict passed as ``extra={"fields": ...}``)."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"time": utc(record.created), "level": record.levelname.lower(),
                "logger": record.name, "message": record.getMessage(), "pid": record.process}
        request_id = REQUEST_ID.get()
        if request_id is not None:
            line["request_id"] = request_id
        fields = getattr(record, "fields", None)
        if fields:
            line.update(fields)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json_line(line)


# What a client sent (a path, a header) is logged with its control characters escaped: a raw
# newline would forge a line of its own, a raw ESC would drive the reader's terminal.
CONTROL_ESCAPES = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7f, 0xa0))}


class TextFormatter(logging.Formatter):
    """Plain text for a terminal: the usual prefix, then the access fields or the
    message, then the request id."""

    def __init__(self) -> None:
        super().__init__(_TEXT)

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 — logging's name
        fields = getattr(record, "fields", None)
        if fields:
            record.message = _TEXT_ACCESS.format(**fields)
        text = super().formatMessage(record).translate(CONTROL_ESCAPES)
        request_id = REQUEST_ID.get() or (fields or {}).get("request_id")
        return f"{text} request_id={request_id}" if request_id else text


class BatchedStreamHandler(logging.StreamHandler):
    """A stream handler that keeps formatted lines in memory until ``flush`` (called by
    the worker's flush thread, when ``max_lines`` are waiting, and at exit)."""

    def __init__(self, stream=None, max_lines: int = 512) -> None:
        super().__init__(stream)
        self.pending: list[str] = []
        self.max_lines = max_lines

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self.format(record)
        except Exception:  # noqa: BLE001 — logging's own contract: report, never raise
            self.handleError(record)
            return
        pend(self, text)

    def flush(self) -> None:
        with self.lock or nullcontext():
            lines, self.pending = self.pending, []
            if lines and self.stream is not None:
                self.stream.write("\n".join(lines) + "\n")
                self.stream.flush()


def flush_access() -> None:
    """Write the access lines waiting in memory."""
    for handler in logging.getLogger(ACCESS_LOGGER).handlers:
        if isinstance(handler, BatchedStreamHandler):
            handler.flush()


def logconfig() -> dict:
    """dictConfig for gunicorn (``logconfig_dict``): every logger to stdout through one formatter, the one
    ``GONGZHU_LOG_FORMAT`` asks for (JSON unless it says ``text``); gunicorn's own access log off (the access
    lines are ours)."""
    level = os.environ.get(LOG_LEVEL_ENV, "info").upper()
    text = os.environ.get(LOG_FORMAT_ENV, JSON_FORMAT).strip().lower() == TEXT_FORMAT
    klass = TextFormatter if text else JsonFormatter
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"gongzhu": {"()": f"{klass.__module__}.{klass.__qualname__}"}},
        "handlers": {"stdout": {"class": "logging.StreamHandler", "formatter": "gongzhu",
                                "stream": "ext://sys.stdout"},
                     "access": {"class": f"{__name__}.BatchedStreamHandler", "formatter": "gongzhu",
                                "stream": "ext://sys.stdout"}},
        "root": {"level": level, "handlers": ["stdout"]},
        "loggers": {
            "gunicorn.error": {"level": level, "handlers": ["stdout"], "propagate": False},
            "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False},
            ACCESS_LOGGER: {"level": "INFO", "handlers": ["access"], "propagate": False},
        },
    }


class GunicornLogger(Logger):
    """gunicorn's logger with ``logconfig()`` installed and its access log off."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        dictConfig(logconfig())

    def _compute_access_log_enabled(self) -> bool:
        return False

    def access(self, resp, req, environ, request_time) -> None:
        return None
