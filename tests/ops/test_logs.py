"""Log lines: JSON by default, plain text on request; gunicorn's own lines through
the same formatter and its access log off (the access lines are nginx's: tests/ops/test_access_lines.py)."""
from __future__ import annotations

import json
import logging
import sys

import pytest

from gongzhu import settings
from gongzhu.server import logs


def record(message="hello", **extra) -> logging.LogRecord:
    rec = logging.LogRecord("gongzhu.api", logging.INFO, __file__, 1, message, None, None)
    for key, val in extra.items():
        setattr(rec, key, val)
    return rec


def test_json_line_has_its_fields_and_the_pid():
    rec = record("hello")
    rec.created = 1_800_000_000.0425
    line = json.loads(logs.JsonFormatter().format(rec))
    assert line == {"time": "2027-01-15T08:00:00.042Z", "level": "info", "logger": "gongzhu.api",
                    "message": "hello", "pid": rec.process}


def test_json_line_carries_the_current_request_id():
    token = settings.REQUEST_ID.set("ctx-1")
    try:
        line = json.loads(logs.JsonFormatter().format(record()))
    finally:
        settings.REQUEST_ID.reset(token)
    assert line["request_id"] == "ctx-1"
    assert "request_id" not in json.loads(logs.JsonFormatter().format(record()))


def test_json_line_keeps_the_traceback():
    try:
        raise ValueError("bad")
    except ValueError:
        rec = record(exc_info=sys.exc_info())
    assert "ValueError: bad" in json.loads(logs.JsonFormatter().format(rec))["exception"]


def test_text_line_for_local_runs():
    token = settings.REQUEST_ID.set("r-9")
    try:
        text = logs.TextFormatter().format(record("line one\nCRITICAL forged \x1b[31m"))
    finally:
        settings.REQUEST_ID.reset(token)
    assert text.endswith(f" INFO [{record().process}] gongzhu.api: line one\\x0aCRITICAL forged \\x1b[31m "
                         "request_id=r-9")


@pytest.mark.parametrize("setting, formatter", [(None, "JsonFormatter"), ("json", "JsonFormatter"),
                                                ("text", "TextFormatter"), ("TEXT", "TextFormatter")])
def test_the_setting_picks_the_formatter(monkeypatch, setting, formatter):
    if setting is None:
        monkeypatch.delenv(settings.LOG_FORMAT_ENV, raising=False)
    else:
        monkeypatch.setenv(settings.LOG_FORMAT_ENV, setting)
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
        logging.getLogger().handlers[:] = [h for h in logging.getLogger().handlers
                                           if not isinstance(h.formatter, logs.JsonFormatter)]
