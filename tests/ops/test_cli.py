"""The ``gongzhu-service`` console script starts gunicorn as ``make run`` does."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import requests

from gongzhu import __version__, cli
from tests.servers import ROOT, free_port, start, stop


def test_the_command_line_is_make_runs():
    makefile = (ROOT / "Makefile").read_text()
    run = re.search(r"^run:.*\n\t(.*)$", makefile, flags=re.M).group(1)
    assert "-c python:gongzhu.gunicorn_conf gongzhu.wsgi:app" in run
    assert cli.argv([]) == ["gunicorn", "-c", "python:gongzhu.gunicorn_conf", "gongzhu.wsgi:app"]
    assert cli.argv(["--workers", "3"])[-3:] == ["--workers", "3", "gongzhu.wsgi:app"]


@pytest.mark.live
def test_the_console_script_serves(tmp_path):
    script = Path(sys.executable).parent / "gongzhu-service"
    assert script.exists(), "pip install -e . installs the console script"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start([str(script)], tmp_path / "server.log", f"{base}/readyz",
                 {"PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "1"})
    try:
        version = requests.get(f"{base}/version", timeout=5)
        assert version.status_code == 200
        assert version.json()["service"] == __version__
    finally:
        stop(proc)
    assert '"logger":"gunicorn.error"' in (tmp_path / "server.log").read_text()
