"""Build of gongzhu-service: the rules engine compiled with mypyc, from the same Python source.

Everything else is declared in pyproject.toml. The modules of ``service/gongzhu/rules`` (but
``messages.py``, a ``str`` subclass mypyc cannot compile) become C extension modules next to
their ``.py`` source; the package stays importable as pure Python. ``GONGZHU_PURE=1`` at build
time, or a build without a working C compiler, gives the pure package; ``gongzhu.rules.engine_build()``
says which build runs (docs/performance.md).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
RULES = Path("service") / "gongzhu" / "rules"
# mypyc compiles typed Python; a str subclass (Message) stays interpreted
PURE_MODULES = {"messages.py"}
PURE_ENV = "GONGZHU_PURE"


def compiled_paths() -> list[str]:
    return sorted(str(p) for p in RULES.glob("*.py") if p.name not in PURE_MODULES)


class OptionalBuildExt(build_ext):
    """Builds the extensions, or none: without a C compiler the package is pure Python."""

    def build_extensions(self) -> None:
        try:
            super().build_extensions()
        except Exception as error:  # noqa: BLE001 - any compiler failure falls back to the pure package
            # all or nothing: a compiled module needs the group's shared library
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            print(f"gongzhu-service: no compiled engine ({error}); the package is pure Python", file=sys.stderr)


def extensions() -> list:
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("gongzhu-service: mypyc is not installed; the package is pure Python", file=sys.stderr)
        return []
    os.chdir(ROOT)
    return mypycify(compiled_paths(), opt_level="3", group_name="gongzhu_rules")


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
