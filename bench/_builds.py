"""The two builds of the engine side by side: the installed package, and a pure copy of its source.

    python bench/_builds.py DIR    # copies service/ into DIR without the compiled modules

An editable install compiles the rules modules in place (setup.py), next to their ``.py``
source; a copy of ``service/`` without the extension modules, first on ``PYTHONPATH``,
imports the same source as pure Python. ``bench/perf/engine.py --builds`` and ``make test``'s
pure run use it.
"""
from __future__ import annotations

import importlib.machinery
import os
import shutil
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "service"
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def pure_copy(dest: Path) -> Path:
    """``service/`` copied into ``dest`` without extension modules or bytecode; returns ``dest``."""
    if dest.exists():
        shutil.rmtree(dest)

    def ignore(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if n.endswith(SUFFIXES) or n == "__pycache__" or n.endswith(".egg-info")}

    shutil.copytree(SOURCE, dest, ignore=ignore)
    return dest


def pure_env(dest: Path) -> dict[str, str]:
    """The environment that imports ``gongzhu`` from the pure copy at ``dest``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(dest), env.get("PYTHONPATH", "")]))
    return env


if __name__ == "__main__":
    print(pure_copy(Path(sys.argv[1]).resolve()))
