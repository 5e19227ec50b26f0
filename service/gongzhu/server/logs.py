"""Log lines on stdout: one JSON object per line, or text with ``GONGZHU_LOG_FORMAT=text`` (docs/operations.md,
"Logs", has their fields). The access lines are nginx's (``nginx.conf``), in the same shape. ``GunicornLogger``
(gunicorn's ``logger_class``) puts gunicorn's error log through the same formatter and its access log off.
"""
from __future__ import annotations

import logging
import time
from logging.config import dictConfig

import orjson
from gunicorn.glogging import Logger

from gongzhu.settings import REQUEST_ID, log_level, text_lines

_TEXT = "%(asctime)s %(levelname)s [%(process)d] %(name)s: %(message)s"


def utc(created: float) -> str:
    """ISO 8601 UTC with milliseconds, as nginx's access lines write it."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created)) + f".{int(created % 1 * 1000):03d}Z"


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, pid, request_id (a value of no JSON type as
    its ``str``)."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"time": utc(record.created), "level": record.levelname.lower(),
                "logger": record.name, "message": record.getMessage(), "pid": record.process}
        request_id = REQUEST_ID.get()
        if request_id is not None:
            line["request_id"] = request_id
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


# What a client sent (a path, a header) is logged with its control characters escaped: a raw
# newline would forge a line of its own, a raw ESC would drive the reader's terminal.
CONTROL_ESCAPES = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7f, 0xa0))}


# What a client sent, quoted in a line of the application's (gunicorn's refusal of a request, which may quote a
# whole request line): its first characters only, so that the line stays within 4 KiB however they are escaped
# (6 bytes each at most in JSON); "..." marks the cut, as in nginx's access lines.
QUOTED_CHARS = 256


def quoted(text: str) -> str:
    """``text`` cut after ``QUOTED_CHARS`` characters, "..." marking the cut."""
    return text if len(text) <= QUOTED_CHARS else text[:QUOTED_CHARS] + "..."


class TextFormatter(logging.Formatter):
    """Plain text for a terminal: the usual prefix, the message, then the request id."""

    def __init__(self) -> None:
        super().__init__(_TEXT)

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 — logging's name
        text = super().formatMessage(record).translate(CONTROL_ESCAPES)
        request_id = REQUEST_ID.get()
        return f"{text} request_id={request_id}" if request_id else text


def line(logger: str, message: str) -> str:
    """One log line of ``logger`` at info, in the format ``GONGZHU_LOG_FORMAT`` asks for (a process that logs no
    other line, such as serve itself)."""
    record = logging.LogRecord(logger, logging.INFO, __file__, 0, message, None, None)
    return (TextFormatter() if text_lines() else JsonFormatter()).format(record)


def logconfig() -> dict:
    """dictConfig for gunicorn (``logconfig_dict``): every logger to stdout through one formatter, the one
    ``GONGZHU_LOG_FORMAT`` asks for (JSON unless it says ``text``); gunicorn's own access log off (nginx
    writes the access lines)."""
    level = log_level().upper()
    klass = TextFormatter if text_lines() else JsonFormatter
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"gongzhu": {"()": f"{klass.__module__}.{klass.__qualname__}"}},
        "handlers": {"stdout": {"class": "logging.StreamHandler", "formatter": "gongzhu",
                                "stream": "ext://sys.stdout"}},
        "root": {"level": level, "handlers": ["stdout"]},
        "loggers": {
            "gunicorn.error": {"level": level, "handlers": ["stdout"], "propagate": False},
            "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False},
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
