"""The ``gongzhu-service`` command: ``serve`` runs gunicorn as ``make run`` does (gunicorn's
options after it), ``--version`` names the service, the contract, the engine build and the
commit, ``--help`` is ours; ``python -m gongzhu`` is the same command. (Without the
server extra, ``serve`` says what to install: test_packaging.py.)"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from gongzhu import __version__, about, cli
from tests.servers import ROOT, expected_engine, free_port, start, stop


def test_make_run_is_gongzhu_service_serve_which_is_gunicorn_with_our_config():
    makefile = (ROOT / "Makefile").read_text()
    run = re.search(r"^run:.*\n\t(.*)$", makefile, flags=re.M).group(1)
    assert run.endswith("$(BIN)/gongzhu-service serve")
    assert cli.argv([]) == ["gunicorn", "-c", "python:gongzhu.gunicorn_conf", "gongzhu.wsgi:app"]
    assert cli.argv(["--workers", "3"])[-3:] == ["--workers", "3", "gongzhu.wsgi:app"]


def test_every_option_after_serve_goes_to_gunicorn(monkeypatch):
    ran = []
    monkeypatch.setattr("gunicorn.app.wsgiapp.run", lambda: ran.append(list(sys.argv)))
    monkeypatch.setattr(sys, "argv", ["gongzhu-service"])
    assert cli.main(["serve", "--workers", "4", "--bind", "127.0.0.1:9000", "--version"]) == 0
    assert cli.main(["serve", "--gunicorn-help"]) == 0
    assert ran == [
        ["gunicorn", "-c", "python:gongzhu.gunicorn_conf", "--workers", "4", "--bind", "127.0.0.1:9000",
         "--version", "gongzhu.wsgi:app"],
        ["gunicorn", "-c", "python:gongzhu.gunicorn_conf", "--help", "gongzhu.wsgi:app"],
    ]


def test_version_names_service_contract_engine_and_commit(capsys):
    assert cli.main(["--version"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"gongzhu-service {__version__}", f"contract {__version__}", f"engine {expected_engine()}",
                     f"commit {about.commit()}"]
    assert re.fullmatch(r"[0-9a-f]{40}", about.commit())


def test_help_is_ours_and_lists_serve(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: gongzhu-service [-h] [--version] {serve,conformance} ...")
    assert "gunicorn" not in text.split("\n")[0]
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    serve_help = capsys.readouterr().out
    assert serve_help.startswith("usage: gongzhu-service serve [-h] [gunicorn options ...]")
    assert "gunicorn -c python:gongzhu.gunicorn_conf [options] gongzhu.wsgi:app" in serve_help


def test_without_a_command_it_shows_the_usage_and_fails(capsys):
    assert cli.main([]) == 2
    assert capsys.readouterr().err.startswith("usage: gongzhu-service")


def test_python_dash_m_gongzhu_is_the_same_command():
    module = subprocess.run([sys.executable, "-m", "gongzhu", "--version"], capture_output=True, text=True,
                            check=True)
    script = subprocess.run([str(Path(sys.executable).parent / "gongzhu-service"), "--version"],
                            capture_output=True, text=True, check=True)
    assert module.stdout == script.stdout == about.version_text() + "\n"


@pytest.mark.live
def test_the_console_script_serves(tmp_path):
    script = Path(sys.executable).parent / "gongzhu-service"
    assert script.exists(), "pip install -e . installs the console script"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start([str(script), "serve", "--workers", "1"], tmp_path / "server.log", f"{base}/readyz",
                 {"PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "3"})
    try:
        version = requests.get(f"{base}/version", timeout=5)
        assert version.status_code == 200
        assert version.json()["service"] == __version__
        assert requests.get(f"{base}/healthz", timeout=5).json() == {"status": "ok"}
    finally:
        stop(proc)
    log = (tmp_path / "server.log").read_text()
    assert '"logger":"gunicorn.error"' in log
    # --workers 1 reached gunicorn over WEB_CONCURRENCY=3: one "Booting worker" line
    assert log.count("Booting worker") == 1
