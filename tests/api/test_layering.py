"""The project's structure: imports go one way (server → api → settings → bot → solve → rules)
with no circle among the modules (type-checking imports included), the engine, its searches
and the service's settings are stdlib only, the HTTP layer made in process loads nothing of the
server (gunicorn included), nothing imports an engine module's private names, the public
surface of ``gongzhu.rules`` stays small, and operations stay thin (5–15 lines: call
the engine, answer)."""
from __future__ import annotations

import ast
import inspect
import subprocess
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


# the layers, lowest first: a module imports its own layer's modules and lower layers' only. Above the server,
# the command line and the conformance runner (which serve or call the app); the package itself and its build
# check are below every layer; the settings the HTTP layer and the server share, and the check that the server
# extra is installed, below both; ``about`` (versions, engine build) is read by the HTTP layer.
LAYERS = ("rules", "solve", "bot", "settings", "api", "server", "command")
TOP_LEVEL = {"gongzhu": "rules", "gongzhu.freshness": "rules", "gongzhu.settings": "settings",
             "gongzhu.server_extra": "settings", "gongzhu.about": "api"}
MAX_PUBLIC_NAMES = 40


def layer(module: str) -> int:
    """The layer of a ``gongzhu`` module: its subpackage's, the command line's for the rest."""
    parts = module.split(".")
    if module in TOP_LEVEL:
        return LAYERS.index(TOP_LEVEL[module])
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else LAYERS.index("command")


def all_imports(path: Path, module: str) -> set[str]:
    """The ``gongzhu`` modules ``path`` (module ``module``) imports: anywhere in it (a function's
    import, a type-checking import too). ``from .x import y`` counts as ``x`` (and ``x.y`` when that
    is a module)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
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


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the package modules it imports."""
    root = ROOT / "service"
    paths = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
             for p in (root / "gongzhu").rglob("*.py")}
    return {module: all_imports(path, module) & paths.keys() for module, path in paths.items()}


def test_imports_go_one_way_server_api_bot_solve_rules():
    graph = import_graph()
    assert {layer(m) for m in graph} == set(range(len(LAYERS)))
    for module, imported in graph.items():
        for name in imported:
            assert layer(name) <= layer(module), f"{module} ({LAYERS[layer(module)]}) imports {name}"


def test_the_settings_import_only_the_standard_library():
    graph = import_graph()
    settings = {m for m in graph if layer(m) == LAYERS.index("settings")}
    assert settings == {"gongzhu.settings", "gongzhu.server_extra"}
    for module in settings:
        assert graph[module] == set(), (module, graph[module])
        path = ROOT / "service" / Path(*module.split(".")).with_suffix(".py")
        for name in imported_modules(path):
            assert name.split(".")[0] in sys.stdlib_module_names, (module, name)


# What a fresh interpreter has loaded of the server once it has made the app: the last line it prints.
LOADED_OF_THE_SERVER = """
import sys
from gongzhu.api import create_app
create_app()
print(sorted(m for m in sys.modules if m.partition(".")[0] == "gunicorn" or m.startswith("gongzhu.server.")
             or m == "gongzhu.server"))
"""


def test_an_app_made_in_process_loads_nothing_of_the_server():
    # a fresh interpreter: this one has imported the server already (other tests)
    done = subprocess.run([sys.executable, "-c", LOADED_OF_THE_SERVER], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.splitlines()[-1] == "[]", done.stdout


def test_no_import_circle_among_the_modules():
    graph = import_graph()
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


def test_engine_and_its_searches_import_only_the_standard_library_and_themselves():
    for package in ("rules", "solve"):
        for path in sorted((ROOT / "service" / "gongzhu" / package).glob("*.py")):
            for name in imported_modules(path):
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names, (package, path.name, name)


def test_bot_uses_the_standard_library_and_the_engine_only():
    for path in sorted((ROOT / "service" / "gongzhu" / "bot").glob("*.py")):
        for name in imported_modules(path):
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or name.startswith(("gongzhu.rules", "gongzhu.solve")), \
                (path.name, name)


def test_no_module_imports_an_engine_modules_private_name():
    for path in sorted((ROOT / "service" / "gongzhu").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(("gongzhu.rules", "gongzhu.solve")):
                assert not [a.name for a in node.names if a.name.startswith("_")], (path.name, node.module)


def test_the_engine_exports_what_an_embedder_uses_and_no_more():
    import gongzhu.rules as engine

    assert len(engine.__all__) <= MAX_PUBLIC_NAMES
    public = {name for name in vars(engine) if not name.startswith("_")}
    # the package's namespace is its __all__ and its modules (bit helpers are imported from those)
    assert public - set(engine.__all__) == {name for name in public if inspect.ismodule(getattr(engine, name))}


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


def test_the_table_page_is_a_client_beside_the_http_layer_with_no_module_to_import():
    import gongzhu
    from gongzhu.api.pages import PAGE_DIR

    # its files are the package's (served at /table, shipped in the wheel), not the HTTP layer's
    assert PAGE_DIR == Path(gongzhu.__file__).parent / "table_page"
    # static files only: it reaches the engine through the public API, never by an import
    assert sorted(p.suffix for p in PAGE_DIR.iterdir()) == [".css", ".html", ".js"]
