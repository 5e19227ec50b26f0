"""Where a checkout keeps its engine, for the scripts that compare this checkout with another one.

Since the import package became ``gongzhu`` (its source under ``service/gongzhu``), a
checkout from before keeps it as ``service`` (under ``service/``). Both are found here,
so ``--root``/``--base`` can name a checkout from either side of the rename.
"""
from __future__ import annotations

import importlib
import inspect
import operator
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


def determinized(engine: ModuleType, state: Any, hands: list[int]) -> tuple[Any, list[int] | None]:
    """What ``playout`` plays out from ``state`` with the hidden cards dealt as ``hands`` (bits), for a
    checkout whose state has no ``resample``. One with the one deal state type (``Trick`` history, an
    unchecked ``apply``) builds that state through its own functions, as if those hands had been dealt:
    ``initial_state`` with each seat's hand plus the cards it played, then every play of the history
    (nothing outside the engine writes a state's fields). One from before takes the hands itself."""
    first_leader = query(engine, "first_leader")
    if not hasattr(state, "history") or not hasattr(state, "undo"):
        return state, hands
    bits_cards = member(engine, "bits_cards")
    dealt = [list(bits_cards(bits)) for bits in hands]
    tricks = [(trick.leader, trick.plays) for trick in state.history]
    tricks.append((query(engine, "leader")(state), tuple(state.trick)))
    for leader, plays in tricks:
        for i, play in enumerate(plays):
            dealt[(leader + i) % 4] += play
    rebuilt = initial_state(engine)(state.rules, [sorted(cards) for cards in dealt], state.exposed,
                                    leader=first_leader(state))
    for play in query(engine, "plays")(state):
        rebuilt.apply(play)
    return rebuilt, None


def playout(search: ModuleType) -> Callable[[Any, list[int] | None, tuple[int, ...]], float]:
    """``search.playout_value`` as ``(state, hidden hands, move) -> value``. A checkout with the one deal
    state is handed the determinized state itself (hands None: ``DealState.resample``, or
    ``determinized``); one from before takes the hands itself."""
    value = search.playout_value
    if "root" not in inspect.signature(value).parameters:
        return value

    def run(state: Any, hands: list[int] | None, move: tuple[int, ...]) -> float:
        assert hands is None, "the hidden cards are dealt into the state (determinized)"
        return value(state, move, state.seat)
    return run


def query(engine: ModuleType, name: str) -> Callable[..., Any]:
    """The query ``name`` over a deal state, as a function of the state (and its arguments): ``running``'s,
    or in a checkout from before the state's one door the state's own method or field of that name."""
    running = getattr(engine, "running", None)
    if running is not None and hasattr(running, name):
        return getattr(running, name)
    found = getattr(engine.DealState, name, None)
    return found if callable(found) else operator.attrgetter(name)
