"""Imports go one way (STYLE.md): service.rules is pure stdlib; nothing in it imports the API."""
import ast
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[1] / "service" / "rules"


def _imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def test_rules_engine_imports_only_the_standard_library():
    modules = sorted(RULES.glob("*.py"))
    assert len(modules) >= 10
    outside = {(m.name, name) for m in modules for name in _imports(m)
               if name.split(".")[0] not in sys.stdlib_module_names and name != "__future__"}
    assert outside == set()
