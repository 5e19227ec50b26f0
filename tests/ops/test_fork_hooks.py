"""The gunicorn master freezes what it built out of the workers' collections before each fork
(service/gongzhu/server/gunicorn_hooks.py)."""
from __future__ import annotations

import gc
import importlib
import sys

from gongzhu.server import gunicorn_hooks


def test_pre_fork_moves_the_masters_objects_to_the_permanent_generation():
    kept = [object() for _ in range(10)]
    gc.unfreeze()
    try:
        gunicorn_hooks.pre_fork(None, None)
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.unfreeze()


def test_the_gunicorn_settings_call_it_before_each_fork(monkeypatch, tmp_path):
    # the settings module prepares the metrics directory and exports the master's pid when loaded
    monkeypatch.setenv(gunicorn_hooks.MULTIPROC_ENV, str(tmp_path))
    monkeypatch.setenv(gunicorn_hooks.SERVER_PID_ENV, "0")
    monkeypatch.delitem(sys.modules, "gongzhu.server.gunicorn_conf", raising=False)
    settings = importlib.import_module("gongzhu.server.gunicorn_conf")
    assert settings.pre_fork is gunicorn_hooks.pre_fork
