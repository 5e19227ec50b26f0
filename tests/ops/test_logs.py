"""Log lines: JSON by default, plain text on request; gunicorn's own lines through
the same formatter and its access log off (the access lines are the app's)."""
from __future__ import annotations

import json
import logging
import re
import sys
import time

import pytest

from gongzhu.server import log_lines, logs


def record(message="hello", **extra) -> logging.LogRecord:
    rec = logging.LogRecord("gongzhu.access", logging.INFO, __file__, 1, message, None, None)
    for key, val in extra.items():
        setattr(rec, key, val)
    return rec


ACCESS = {"method": "POST", "path": "/legal-moves", "operation": "legal_moves", "status": 200,
          "duration_ms": 1.25, "bytes": 88, "request_id": "r-9"}


def test_json_line_has_the_access_fields_and_the_pid():
    line = json.loads(logs.JsonFormatter().format(record("request", fields=ACCESS)))
    assert line["time"].endswith("Z") and line["level"] == "info"
    assert (line["logger"], line["message"], line["pid"]) == ("gongzhu.access", "request", record().process)
    assert {k: line[k] for k in ACCESS} == ACCESS


def test_json_line_carries_the_current_request_id():
    token = logs.REQUEST_ID.set("ctx-1")
    try:
        line = json.loads(logs.JsonFormatter().format(record()))
    finally:
        logs.REQUEST_ID.reset(token)
    assert line["request_id"] == "ctx-1"
    assert "request_id" not in json.loads(logs.JsonFormatter().format(record()))


def test_json_line_keeps_the_traceback():
    try:
        raise ValueError("bad")
    except ValueError:
        rec = record(exc_info=sys.exc_info())
    assert "ValueError: bad" in json.loads(logs.JsonFormatter().format(rec))["exception"]


def test_text_line_for_local_runs():
    text = logs.TextFormatter().format(record("request", fields=ACCESS))
    assert text.endswith("POST /legal-moves 200 1.25ms 88B op=legal_moves request_id=r-9")


@pytest.mark.parametrize("setting, formatter", [(None, "JsonFormatter"), ("json", "JsonFormatter"),
                                                ("text", "TextFormatter"), ("TEXT", "TextFormatter")])
def test_the_setting_picks_the_formatter(monkeypatch, setting, formatter):
    if setting is None:
        monkeypatch.delenv(logs.LOG_FORMAT_ENV, raising=False)
    else:
        monkeypatch.setenv(logs.LOG_FORMAT_ENV, setting)
    config = logs.logconfig()
    assert config["formatters"]["gongzhu"]["()"] == f"gongzhu.server.logs.{formatter}"
    assert config["handlers"]["stdout"]["stream"] == "ext://sys.stdout"


def test_gunicorn_access_log_is_off():
    from gunicorn.config import Config

    cfg = Config()
    cfg.set("logger_class", "gongzhu.server.logs.GunicornLogger")
    logger = logs.GunicornLogger(cfg)
    try:
        assert logger.access_log_enabled is False
        assert logging.getLogger("gunicorn.error").handlers[0].formatter.__class__ is logs.JsonFormatter
    finally:
        logging.getLogger("gunicorn.error").handlers.clear()
        logging.getLogger(logs.ACCESS_LOGGER).handlers.clear()
        logging.getLogger(logs.ACCESS_LOGGER).propagate = True
        logging.getLogger().handlers[:] = [h for h in logging.getLogger().handlers
                                           if not isinstance(h.formatter, logs.JsonFormatter)]


@pytest.mark.parametrize("fields", [
    {"method": "POST", "path": "/legal-moves", "operation": "legal_moves", "status": 200,
     "duration_ms": 0.5, "bytes": 321, "request_id": "r-1"},
    # what a client controls: quotes, backslashes, control and non-ASCII characters; and every value type
    {"method": "GET", "path": '/a"b\\c\n\t\x00\u00e9\u2028\U0001f437', "operation": "none", "status": 404,
     "duration_ms": 12.125, "bytes": 0, "request_id": 'id "quoted" \\', "problem": "not_found",
     "trace_id": "0af7651916cd43dd8448eb211c80319c", "parent_id": "b7ad6b7169203331", "flag": True, "none": None,
     "big": 2 ** 64 - 1, "tiny": 1e-07},
])
def test_an_access_line_written_directly_is_the_formatters_line(fields):
    import io

    handler = logs.BatchedStreamHandler(io.StringIO())
    handler.setFormatter(logs.JsonFormatter())
    log_lines.pend(handler, log_lines.access_line(time.time(), fields))
    record = logging.LogRecord(logs.ACCESS_LOGGER, logging.INFO, __file__, 0, "request", (), None)
    record.fields = fields
    handler.handle(record)
    handler.flush()
    direct, formatted = handler.stream.getvalue().rstrip("\n").split("\n")
    # byte for byte the same line but for the time
    assert re.sub(r'"time":"[^"]*"', "", direct) == re.sub(r'"time":"[^"]*"', "", formatted)
    assert json.loads(direct)["time"].endswith("Z") and json.loads(direct)["path"] == fields["path"]


@pytest.mark.parametrize("micros", [0, 7, 123, 999, 1000, 12_345, 10_000_001])
def test_an_access_lines_duration_is_its_microseconds_in_milliseconds(micros):
    """A request's duration (``telemetry``: whole microseconds / 1000) is written as Python writes the float,
    and the line written directly is the formatter's."""
    import io

    handler = logs.BatchedStreamHandler(io.StringIO())
    handler.setFormatter(logs.JsonFormatter())
    fields = {"method": "POST", "path": '/a"b\\c\n\u00e9', "operation": "legal_moves", "status": 200,
              "duration_ms": micros / 1000, "bytes": 321, "request_id": 'id "q"'}
    log_lines.pend(handler, log_lines.access_line(time.time(), fields))
    record = logging.LogRecord(logs.ACCESS_LOGGER, logging.INFO, __file__, 0, "request", (), None)
    record.fields = fields
    handler.handle(record)
    handler.flush()
    direct, formatted = handler.stream.getvalue().rstrip("\n").split("\n")
    assert re.sub(r'"time":"[^"]*"', "", direct) == re.sub(r'"time":"[^"]*"', "", formatted)
    assert f'"duration_ms":{micros / 1000!r},' in direct
