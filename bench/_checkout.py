"""Where a checkout keeps its engine, for the scripts that compare this checkout with another one.

Since the import package became ``gongzhu`` (its source under ``service/gongzhu``), a
checkout from before keeps it as ``service`` (under ``service/``). Both are found here,
so ``--root``/``--base`` can name a checkout from either side of the rename.
"""
from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any


def package_name(root: Path) -> str:
    """The import name of ``root``'s package: ``gongzhu``, or ``service`` before the rename."""
    return "gongzhu" if (root / "service" / "gongzhu").is_dir() else "service"


def package_dir(root: Path) -> Path:
    """The folder of ``root``'s package source."""
    name = package_name(root)
    return root / "service" / name if name == "gongzhu" else root / "service"


def search_path(root: Path) -> str:
    """The sys.path entry that makes ``root``'s package importable."""
    return str(root / "service") if package_name(root) == "gongzhu" else str(root)


def import_from(root: Path, module: str) -> ModuleType:
    """``root``'s ``<package>.<module>`` (e.g. ``rules.simulate``), with ``root`` put first on sys.path."""
    entry = search_path(root)
    if entry not in sys.path:
        sys.path.insert(0, entry)
    return importlib.import_module(f"{package_name(root)}.{module}")


def initial_state(engine: ModuleType) -> Callable[..., Any]:
    """The engine's deal state before the first play: ``initial_state``, or ``new_table`` in a checkout
    from before the one deal state type."""
    return getattr(engine, "initial_state", None) or engine.new_table


def playout(search: ModuleType) -> Callable[[Any, list[int], tuple[int, ...]], float]:
    """``search.playout_value`` as ``(state, hidden hands, move) -> value``: a checkout with the one deal
    state plays out a copy of ``state`` with the hands dealt, one from before takes the hands itself."""
    value = search.playout_value
    if "root" not in inspect.signature(value).parameters:
        return value

    def run(state: Any, hands: list[int], move: tuple[int, ...]) -> float:
        root = state.clone()
        root.hands_bits[:] = hands
        return value(root, move, state.seat)
    return run
