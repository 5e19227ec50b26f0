"""Shared fixtures: the Flask app and test client, and a live gunicorn server.

The live server runs the real entry point (``service.wsgi:app`` with
``service.gunicorn_conf``) on a free loopback port and is stopped after the
session. Tests that use it are marked ``live``.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from service.api import create_app

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT / "service" / "openapi.yaml"
LIVE_START_TIMEOUT = 30.0


@pytest.fixture(scope="session")
def app():
    return create_app()


@pytest.fixture()
def client(app):
    return app.test_client()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """Base URL of a gunicorn server (2 workers) on 127.0.0.1; its log is kept in a file."""
    port = _free_port()
    log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "2"}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:service.gunicorn_conf",
             "service.wsgi:app"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + LIVE_START_TIMEOUT
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {proc.returncode}:\n{log.read_text()}")
            try:
                if requests.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn not ready in {LIVE_START_TIMEOUT}s:\n{log.read_text()}")
            time.sleep(0.1)
        yield base
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
