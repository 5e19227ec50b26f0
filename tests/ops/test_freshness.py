"""A checkout's compiled module older than its source fails the import, loudly (gongzhu.freshness): an
editable install compiles in place, and Python would load the old extension module before the edited
``.py``. An installed package is not checked."""
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from gongzhu.freshness import StaleBuildError, check, stale_sources

ROOT = Path(__file__).resolve().parents[2]
SUFFIX = EXTENSION_SUFFIXES[0]


def write(path: Path, text: str, mtime_ns: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(mtime_ns, mtime_ns))
    return path


def checkout(tmp_path: Path) -> Path:
    """An empty checkout's layout: setup.py at the root, the package under service/."""
    write(tmp_path / "setup.py", "", 0)
    package = tmp_path / "service" / "gongzhu"
    write(package / "__init__.py", "", 0)
    return package


def test_a_source_newer_than_its_extension_module_is_stale(tmp_path):
    package = checkout(tmp_path)
    write(package / "rules" / f"state{SUFFIX}", "", 1_000)
    edited = write(package / "rules" / "state.py", "", 2_000)
    write(package / "rules" / f"cards{SUFFIX}", "", 2_000)
    write(package / "rules" / "cards.py", "", 1_000)       # built after its last edit
    write(package / "api" / f"alone{SUFFIX}", "", 1_000)     # no source beside it
    write(package / "bot" / "search.py", "", 2_000)           # never compiled
    assert stale_sources(package) == [edited]


def test_check_names_the_stale_modules_and_the_rebuild(tmp_path):
    package = checkout(tmp_path)
    write(package / "rules" / f"state{SUFFIX}", "", 1_000)
    write(package / "rules" / "state.py", "", 2_000)
    with pytest.raises(StaleBuildError, match=r"gongzhu/rules/state\.py .*make venv") as raised:
        check(package)
    assert isinstance(raised.value, ImportError)


def test_check_passes_a_build_newer_than_its_source(tmp_path):
    package = checkout(tmp_path)
    write(package / "rules" / "state.py", "", 1_000)
    write(package / "rules" / f"state{SUFFIX}", "", 2_000)
    check(package)


def test_an_installed_package_is_not_checked(tmp_path):
    """In site-packages the files' times are the installer's: no setup.py beside service/, no check."""
    package = tmp_path / "site-packages" / "gongzhu"
    write(package / "rules" / f"state{SUFFIX}", "", 1_000)
    write(package / "rules" / "state.py", "", 2_000)
    check(package)


def test_importing_a_stale_checkout_fails_before_any_old_module_runs(tmp_path):
    """The real package, copied as a checkout, with a module edited after its (here unloadable) build."""
    shutil.copy(ROOT / "setup.py", tmp_path / "setup.py")
    shutil.copytree(ROOT / "service" / "gongzhu", tmp_path / "service" / "gongzhu",
                    ignore=shutil.ignore_patterns("__pycache__", *(f"*{s}" for s in EXTENSION_SUFFIXES)))
    cards = tmp_path / "service" / "gongzhu" / "rules" / "cards.py"
    built = write(cards.with_name(f"cards{SUFFIX}"), "not an extension module", 1_000)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "service")}
    code = "import gongzhu.rules"
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert "StaleBuildError: the compiled modules of gongzhu/rules/cards.py are older" in run.stderr
    os.utime(built)   # rebuilt after the edit: the check passes, and Python loads the (broken) extension
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert "StaleBuildError" not in run.stderr
    assert "cards" in run.stderr and run.returncode == 1
