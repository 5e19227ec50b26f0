"""In a source checkout, a compiled module is never older than its source: Python would load its old build before
the edited ``.py``, silently (docs/engine-api.md, "Builds"). An installed wheel is not checked: its files' times
are the installer's. This module stays interpreted (setup.py compiles named modules only): a stale compiled copy
of the check could not report itself.
"""
from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
REBUILD = ("make venv (or: .venv/bin/python -m pip install --no-deps --no-build-isolation -e .); "
           "or remove the compiled modules for the pure build: find service -name '*.so' -delete")


class StaleBuildError(ImportError):
    """A compiled module of a source checkout is older than its source."""


def in_checkout(package: Path) -> bool:
    """Whether ``package`` is the source of an editable install: ``service/<package>`` beside ``setup.py``."""
    return package.parent.name == "service" and (package.parent.parent / "setup.py").is_file()


def stale_sources(package: Path) -> list[Path]:
    """The ``.py`` files under ``package`` modified after the extension module built from them."""
    stale = []
    for folder, dirs, files in os.walk(package):
        dirs[:] = [name for name in dirs if name != "__pycache__"]
        for name in files:
            suffix = next((s for s in EXTENSION_SUFFIXES if name.endswith(s)), None)
            if suffix is None:
                continue
            source = Path(folder) / (name[: -len(suffix)] + ".py")
            if source.is_file() and source.stat().st_mtime_ns > (Path(folder) / name).stat().st_mtime_ns:
                stale.append(source)
    return sorted(stale)


def check(package: Path = PACKAGE) -> None:
    """``StaleBuildError`` when ``package`` is a checkout's source with a compiled module older than its source."""
    if not in_checkout(package):
        return
    stale = stale_sources(package)
    if stale:
        names = ", ".join(str(path.relative_to(package.parent)) for path in stale)
        raise StaleBuildError(f"the compiled modules of {names} are older than their source and would run "
                              f"instead of it; rebuild: {REBUILD}")
