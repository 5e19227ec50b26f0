"""The settings the application and the server share (``gongzhu.settings``): their defaults, the environment
over them, a value that is no number named with its setting, the one reading nginx and the application make of
each, and each name written in one module of the code."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from gongzhu import settings
from gongzhu.api import create_app
from gongzhu.server import front

ROOT = Path(__file__).resolve().parents[2]


def test_the_defaults_are_the_documented_ones(monkeypatch):
    for name in (settings.MAX_BODY_ENV, settings.MAX_BATCH_BODY_ENV, settings.REQUEST_TIMEOUT_ENV,
                 settings.THREADS_ENV, settings.HOST_ENV, settings.PORT_ENV):
        monkeypatch.delenv(name, raising=False)
    assert (settings.max_body(), settings.max_batch_body()) == (262_144, 2_097_152)
    assert (settings.request_timeout_s(), settings.threads()) == (10.0, 4)
    assert (settings.host(), settings.port()) == ("127.0.0.1", 8080)


def test_nginx_and_the_application_read_the_same_limits(monkeypatch, tmp_path):
    monkeypatch.setenv(settings.MAX_BODY_ENV, "1000")
    monkeypatch.setenv(settings.MAX_BATCH_BODY_ENV, "5000")
    monkeypatch.setenv(settings.REQUEST_TIMEOUT_ENV, "3")
    placeholders = front.settings(tmp_path, tmp_path / "gunicorn.sock")
    assert (placeholders["max_body"], placeholders["max_batch_body"], placeholders["timeout"]) == ("1000", "5000", "3")
    app = create_app()
    assert (app.config["MAX_CONTENT_LENGTH"], app.config["MAX_BATCH_BODY"]) == (1000, 5000)


def test_a_setting_that_is_no_whole_number_is_named(monkeypatch):
    monkeypatch.setenv(settings.MAX_BODY_ENV, "1m")
    with pytest.raises(ValueError, match=r"^GONGZHU_MAX_BODY='1m' is not a whole number$"):
        settings.max_body()


def test_a_header_is_read_under_its_wsgi_key():
    assert (settings.REQUEST_ID_KEY, settings.REQUEST_START_KEY) == ("HTTP_X_REQUEST_ID", "HTTP_X_REQUEST_START")


# An environment variable's or a header's name as a string of its own in the code (not in prose).
SETTING_NAME = re.compile(r"(GONGZHU|GUNICORN|PROMETHEUS|OTEL)_[A-Z_]+|WEB_CONCURRENCY|HOST|PORT|LOG_LEVEL"
                          r"|X-[A-Za-z-]+|HTTP_X_[A-Z_]+")


def test_each_setting_and_header_name_is_written_in_one_module():
    written: dict[str, set[str]] = {}
    for path in sorted((ROOT / "service" / "gongzhu").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SETTING_NAME.fullmatch(node.value):
                written.setdefault(node.value, set()).add(str(path.relative_to(ROOT)))
    assert written and {name: files for name, files in written.items() if len(files) > 1} == {}
