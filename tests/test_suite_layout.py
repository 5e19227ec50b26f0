"""The tests by layer: no two test files share a name (underscores aside: ``test_logpipe.py`` and
``test_log_pipe.py`` read as one), no test under tests/ imports the lab's scripts (bench/README.md:
nothing there runs in ``make test``; the lab's own tests stand beside it, under bench/), and the rules are
read without the engine in one place, tests/rules/oracle.py."""
from __future__ import annotations

import ast
from collections import defaultdict

from tests.conftest import ROOT

ORACLE = "tests/rules/oracle.py"
# the seeded deal's SHA-256 stream as code writes it (docstrings name it without the braces), in two
# pieces so that this file does not hold it
SEED_STREAM = 'sha256(f"gongzhu-deal:' + "{"

# what a test shares with the lab (bench/README.md): the pure copy of the package (a shared helper) and the
# install without a compiler that bench/install.py times; tests/faults loads the drills' helper by its path
LAB_HELPERS = {"bench._builds", "bench.install"}


def test_no_two_test_files_share_a_name():
    found = defaultdict(list)
    for folder in ("tests", "bench"):
        for path in (ROOT / folder).rglob("test_*.py"):
            found[path.name.replace("_", "")].append(str(path.relative_to(ROOT)))
    assert [sorted(paths) for paths in found.values() if len(paths) > 1] == []


def lab_modules(path) -> set[str]:
    """The bench/ modules (files) ``path`` imports: ``from bench.bot import arena`` is ``bench.bot.arena``."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return {name for name in names
            if name.split(".")[0] == "bench" and (ROOT / name.replace(".", "/")).with_suffix(".py").exists()}


def test_no_test_imports_the_labs_scripts():
    reading = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if lab := lab_modules(path) - LAB_HELPERS:
            reading[str(path.relative_to(ROOT))] = sorted(lab)
    assert reading == {}


def test_outside_the_engine_only_the_oracle_derives_a_seeded_deal():
    # a second reading of the rules (the conformance drafts had one) drifts from the one the tests run
    found = {str(path.relative_to(ROOT)) for folder in ("tests", "bench", "mk", "sdk")
             for path in (ROOT / folder).rglob("*.py") if SEED_STREAM in path.read_text(encoding="utf-8")}
    assert found == {ORACLE}
