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


def member(engine: ModuleType, name: str) -> Any:
    """``engine``'s ``name``: from the package itself in a checkout that exports it there, else from
    the module of the package that defines it (the package exports an embedder's names only)."""
    if hasattr(engine, name):
        return getattr(engine, name)
    for module in ("table", "deal", "information"):
        found = getattr(engine, module, None)
        if found is not None and hasattr(found, name):
            return getattr(found, name)
    raise AttributeError(f"{engine.__name__} has no {name}")


def initial_state(engine: ModuleType) -> Callable[..., Any]:
    """The engine's deal state before the first play: ``initial_state``, or ``new_table`` in a checkout
    from before the one deal state type."""
    return getattr(engine, "initial_state", None) or engine.new_table


def playout(search: ModuleType) -> Callable[[Any, list[int] | None, tuple[int, ...]], float]:
    """``search.playout_value`` as ``(state, hidden hands, move) -> value``. A checkout with
    ``DealState.resample`` is handed the determinized state itself (hands None); one with the one deal
    state but no resample plays out a copy of ``state`` with the hands dealt (its engine has no other
    way to take them); one from before takes the hands itself."""
    value = search.playout_value
    if "root" not in inspect.signature(value).parameters:
        return value

    def run(state: Any, hands: list[int] | None, move: tuple[int, ...]) -> float:
        if hands is None:
            return value(state, move, state.seat)
        root = state.clone()
        root.hands_bits[:] = hands
        return value(root, move, state.seat)
    return run
