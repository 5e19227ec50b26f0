"""Operational endpoints for a platform: ``GET /metrics`` (Prometheus) and ``GET /version``.

``/version`` reports the service version (the installed package's, which
pyproject.toml sets), the contract version (openapi.yaml ``info.version``), the
git commit the code was built from when known (``GIT_COMMIT``, or ``git`` asked
once in a source checkout), the Python version, and the engine's build
(``gongzhu.rules.engine_build()``: ``compiled`` or ``pure``).
"""
from __future__ import annotations

import os
import platform
import subprocess
from functools import lru_cache
from pathlib import Path

import yaml
from flask import Blueprint, Response, current_app, has_app_context

from gongzhu import __version__
from gongzhu.rules import engine_build

from . import metrics as metric_values
from .contract import load_contract
from .meta import CONTRACT_KEY

ops = Blueprint("ops", __name__)

COMMIT_ENV = "GIT_COMMIT"
SOURCE_ROOT = Path(__file__).resolve().parents[2]
GIT_TIMEOUT_S = 2


def contract_version() -> str:
    """``info.version`` of the contract the app loaded (read again if it has none)."""
    contract = current_app.extensions.get(CONTRACT_KEY) if has_app_context() else None
    if contract is not None:
        return contract.version
    return str(yaml.safe_load(load_contract())["info"]["version"])


@lru_cache(maxsize=1)
def git_commit() -> str | None:
    """The commit from ``GIT_COMMIT``, else from git in a source checkout, else None."""
    if os.environ.get(COMMIT_ENV):
        return os.environ[COMMIT_ENV]
    if not (SOURCE_ROOT / ".git").exists():
        return None
    try:
        found = subprocess.run(["git", "-C", str(SOURCE_ROOT), "rev-parse", "HEAD"],
                               capture_output=True, text=True, timeout=GIT_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    commit = found.stdout.strip()
    return commit if found.returncode == 0 and commit else None


def version_info() -> dict:
    return {"service": __version__, "contract": contract_version(), "commit": git_commit(),
            "python": platform.python_version(), "engine": engine_build()}


@ops.get("/version")
def version():
    return version_info()


@ops.get("/metrics")
def metrics():
    text, content_type = metric_values.render()
    return Response(text, content_type=content_type)
