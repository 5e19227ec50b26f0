"""What this installation is: the service version, the contract version, the commit it was built from
and how the engine was built (docs/operations.md, "Versions: GET /version", says where each comes from).
Standard library only, so ``gongzhu-service --version`` answers without the ``server`` extra;
``/version`` and the ``gongzhu_build_info`` metric read the same functions.
"""
from __future__ import annotations

import os
import re
import subprocess
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TypedDict

from gongzhu import __version__
from gongzhu.rules import engine_build

COMMIT_ENV = "GIT_COMMIT"
COMMIT_FILE = "COMMIT"
CONTRACT_FILE = "openapi.yaml"
SOURCE_ROOT = Path(__file__).resolve().parents[2]
GIT_TIMEOUT_S = 2
# openapi.yaml's info.version: the first two-space-indented `version:` after `info:`.
_INFO_VERSION = re.compile(r"^info:\n(?:  .*\n|\s*\n)*?  version: *['\"]?([^'\"\s#]+)", re.M)


def contract_version() -> str:
    """``info.version`` of the packaged contract, read without a YAML parser."""
    text = resources.files("gongzhu").joinpath(CONTRACT_FILE).read_text(encoding="utf-8")
    found = _INFO_VERSION.search(text)
    return found.group(1) if found else "unknown"


def _packaged_commit() -> str | None:
    try:
        text = resources.files("gongzhu").joinpath(COMMIT_FILE).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return None
    return text.strip() or None


def _git_commit() -> str | None:
    if not (SOURCE_ROOT / ".git").exists():
        return None
    try:
        found = subprocess.run(["git", "-C", str(SOURCE_ROOT), "rev-parse", "HEAD"],
                               capture_output=True, text=True, timeout=GIT_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    commit = found.stdout.strip()
    return commit if found.returncode == 0 and commit else None


class BuildInfo(TypedDict):
    service: str
    contract: str
    commit: str | None
    engine: str


@lru_cache(maxsize=1)
def commit() -> str | None:
    """The commit this installation was built from, first found wins: ``GIT_COMMIT``, the ``COMMIT`` file a
    wheel built by ``setup.py`` carries, ``git`` in a source checkout; else None."""
    return os.environ.get(COMMIT_ENV) or _packaged_commit() or _git_commit()


def build_info() -> BuildInfo:
    """``service``, ``contract``, ``commit`` (or None) and ``engine`` (``pure``, ``compiled``, ``mixed``)."""
    return BuildInfo(service=__version__, contract=contract_version(), commit=commit(),
                     engine=engine_build())


def version_text() -> str:
    """What ``gongzhu-service --version`` prints."""
    info = build_info()
    return (f"gongzhu-service {info['service']}\ncontract {info['contract']}\n"
            f"engine {info['engine']}\ncommit {info['commit'] or 'unknown'}")
