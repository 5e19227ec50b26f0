"""Which build of the engine runs: its modules compiled by mypyc, or the Python source as it is."""
from __future__ import annotations

import importlib.machinery
import sys

COMPILED = "compiled"
PURE = "pure"


def engine_build() -> str:
    """``"compiled"`` when the rules modules are extension modules (mypyc, setup.py), else ``"pure"``."""
    path = str(getattr(sys.modules[__name__], "__file__", None) or "")
    return COMPILED if path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) else PURE
