"""One door into the engine (docs/engine-api.md, "Deal state"): outside ``gongzhu.rules`` no code writes a
deal state's field or plays a move but through ``DealState.apply``, the one checked call.

Read from the source (its syntax trees), over the package outside ``rules/``, the tests, the benchmarks and
``mk/``: no attribute of the state's private names is read or written (``state._hands``, ``state._play``);
no attribute named as one of its fields, old or new, is assigned on anything but ``self`` (``state.seat = 1``,
``state.hands_bits = ...``); ``apply_unchecked`` is gone; the views ``running`` hands the searches (the state's
own lists) are not changed in place. The engine's certified fast paths are the one
exception, named here with the files that take them: ``table.advance`` (the whole-deal play loops) and
``table.play_option`` (the searches' step down a tree, walked back with ``undo``), each pinned to
``apply`` by tests/rules/test_play_loops.py.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "service" / "gongzhu" / "rules"
SCANNED = [ROOT / "service" / "gongzhu", ROOT / "tests", ROOT / "bench", ROOT / "mk"]

# the fields a deal state had before its door was narrowed: public names that must not come back as writes
OLD_FIELDS = {"hands_bits", "held_exposed", "captured_bits", "history_plays", "winners", "first_leader", "leader",
              "suits_led", "first_round", "opening_lead", "frames", "doublings"}
# the views ``running`` hands the searches (the state's own lists: read, never changed)
VIEWS = {"hands_bits", "held_exposed", "captured_bits", "winners", "trick"}
IN_PLACE = {"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "__setitem__"}

# the certified fast paths and every file outside rules/ that takes them (tests/rules/test_play_loops.py pins both)
FAST_PATHS = {
    "advance": {
        "service/gongzhu/bot/search.py",          # the bot's playouts
        "bench/bot/ismcts.py", "bench/perf/engine.py", "bench/perf/instructions.py", "bench/perf/engine_ab.py",
        "bench/perf/match.py",
        "tests/bot/test_heuristic_reference.py", "tests/bot/test_policy.py", "tests/rules/matches.py",
        "tests/rules/test_options.py", "tests/rules/test_play_loops.py",
    },
    "play_option": {
        "service/gongzhu/solve/andor.py", "service/gongzhu/solve/endgame.py", "service/gongzhu/solve/values.py",
        "service/gongzhu/bot/search.py", "service/gongzhu/bot/deal_review.py",   # the searches and the review walk
        "tests/rules/test_play_loops.py",
    },
}


def private_names() -> set[str]:
    """The private attributes and methods of ``DealState`` (from rules/state.py's source)."""
    tree = ast.parse((RULES / "state.py").read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "DealState":
            for item in ast.walk(node):
                if isinstance(item, ast.FunctionDef) and item.name.startswith("_") and not item.name.startswith("__"):
                    found.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    found.add(item.target.id)
    return found


def sources() -> list[tuple[str, ast.Module]]:
    out = []
    for top in SCANNED:
        for path in sorted(top.rglob("*.py")):
            if RULES in path.parents or ".venv" in path.parts or "build" in path.relative_to(ROOT).parts[:1]:
                continue
            out.append((str(path.relative_to(ROOT)), ast.parse(path.read_text(), str(path))))
    return out


def _receiver_is_self(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")


def _is_view(node: ast.expr) -> bool:
    """Whether ``node`` is a call of one of ``running``'s read-only views (``running.hands_bits(state)``)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in VIEWS


def door_problems(name: str, tree: ast.Module, private: set[str]) -> list[str]:
    """Every way ``tree`` (the file ``name``) goes past the door."""
    problems = []
    for node in ast.walk(tree):
        where = f"{name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute) and not _receiver_is_self(node):
            if node.attr in private:
                problems.append(f"{where}: reads or writes the deal state's private {node.attr}")
            elif node.attr == "apply_unchecked":
                problems.append(f"{where}: apply_unchecked (play through DealState.apply)")
            elif isinstance(node.ctx, ast.Store | ast.Del) and node.attr in OLD_FIELDS | {"seat", "trick", "rules",
                                                                                          "exposed", "hands"}:
                problems.append(f"{where}: assigns {node.attr} on an object outside the engine")
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del) and _is_view(node.value):
            problems.append(f"{where}: changes a read-only view of the deal state")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in IN_PLACE \
                and _is_view(node.func.value):
            problems.append(f"{where}: changes a read-only view of the deal state")
    return problems


def fast_paths_taken(tree: ast.Module) -> set[str]:
    """The fast paths (``table.advance``, ``table.play_option``) a file imports or reaches by name."""
    taken = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("table"):
            taken |= {alias.name for alias in node.names} & set(FAST_PATHS)
        elif isinstance(node, ast.Attribute) and node.attr in FAST_PATHS and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "table":
            taken.add(node.attr)
        elif isinstance(node, ast.Constant) and node.value in FAST_PATHS:
            taken.add(str(node.value))   # looked up by name in another checkout's engine (bench/_checkout.py)
    return taken


def test_the_private_names_are_found():
    # the scan below is only as good as this list: the state's fields and its private transitions are in it
    assert {"_hands", "_held", "_captured", "_trick", "_plays", "_winners", "_seat", "_leader", "_frames",
            "_play", "_lend", "_commit"} <= private_names()


def test_nothing_outside_rules_writes_a_deal_states_field_or_plays_past_apply():
    private = private_names()
    problems = [problem for name, tree in sources() for problem in door_problems(name, tree, private)]
    assert problems == []


def test_the_door_check_catches_each_way_past_it():
    private = private_names()
    bad = ("state._hands[0] = 1\nstate.seat = None\nstate.hands_bits = []\nstate.apply_unchecked((3,))\n"
           "state._play((3,))\nrunning.hands_bits(state)[0] = 0\nrunning.winners(state).append(1)\nx = state._trick\n")
    assert len(door_problems("bad.py", ast.parse(bad), private)) == 8
    good = "state.apply('SQ')\nself.seat = 1\nx = running.hands_bits(state)[0]\nstate.undo()\n"
    assert door_problems("good.py", ast.parse(good), private) == []


def test_only_the_named_files_take_the_fast_paths():
    this = str(Path(__file__).resolve().relative_to(ROOT))   # names the fast paths as strings
    taken = {name: fast_paths_taken(tree) for name, tree in sources() if name != this}
    for path, users in FAST_PATHS.items():
        assert {name for name, found in taken.items() if path in found} == users, path
