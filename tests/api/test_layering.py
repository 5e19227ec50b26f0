"""The project's structure: imports go one way (api → bot → rules) with no circle
among the modules, the engine is stdlib only, the bot and the API reach the engine
only through its package's public names, and operations stay thin (5–15 lines:
call the engine, answer)."""
from __future__ import annotations

import ast
import inspect
import sys
from pathlib import Path

from gongzhu.api import operations, searches

ROOT = Path(__file__).resolve().parents[2]
MAX_VIEW_LINES = 15


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module)
    return names


def runtime_imports(path: Path, module: str) -> set[str]:
    """The ``gongzhu`` modules ``path`` (module ``module``) imports when it runs: anywhere in it (a
    function's import too), but not under ``if TYPE_CHECKING:``. ``from .x import y`` counts as
    ``x`` (and ``x.y`` when that is a module)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    typing_only = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            typing_only |= {id(inner) for inner in ast.walk(node)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return {name for name in found if name.startswith("gongzhu")}


def test_no_import_circle_among_the_modules():
    root = ROOT / "service"
    paths = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
             for p in (root / "gongzhu").rglob("*.py")}
    graph = {module: runtime_imports(path, module) & paths.keys() for module, path in paths.items()}
    # a package imports its modules; a module importing its own package (or a sibling through it) is not a circle
    for module in graph:
        graph[module] -= {m for m in graph[module] if m == module or module.startswith(m + ".")}
    done: set[str] = set()

    def visit(module: str, trail: list[str]) -> None:
        assert module not in trail, " -> ".join(trail[trail.index(module):] + [module])
        if module in done:
            return
        for name in sorted(graph[module]):
            visit(name, trail + [module])
        done.add(module)
    for module in sorted(graph):
        visit(module, [])


def test_engine_imports_only_the_standard_library_and_itself():
    for path in sorted((ROOT / "service" / "gongzhu" / "rules").glob("*.py")):
        for name in imported_modules(path):
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or name.startswith("gongzhu.rules"), (path.name, name)


def test_api_reaches_the_engine_only_through_its_package():
    for path in sorted((ROOT / "service" / "gongzhu" / "api").glob("*.py")):
        for name in imported_modules(path):
            assert not name.startswith("gongzhu.rules."), (path.name, name)


def test_bot_uses_the_standard_library_and_the_engine_package_only():
    import gongzhu.rules as engine

    for path in sorted((ROOT / "service" / "gongzhu" / "bot").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in imported_modules(path):
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or name == "gongzhu.rules", (path.name, name)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "gongzhu.rules":
                for alias in node.names:
                    assert alias.name in engine.__all__, (path.name, alias.name)


def test_operations_are_thin():
    # the operations that search live beside the processes their searches run in
    answering = {handler.answer for handler in operations.HANDLERS.values()}
    functions = [f for f in vars(operations).values()
                 if inspect.isfunction(f) and f.__module__ == operations.__name__] \
        + [f for f in vars(searches).values() if inspect.isfunction(f) and f in answering]
    assert {f.__name__ for f in functions} == set(operations.HANDLERS)
    for function in functions:
        lines = inspect.getsource(function).strip().splitlines()
        body = [line for line in lines if not line.lstrip().startswith("@")]
        assert len(body) <= MAX_VIEW_LINES, function.__name__
