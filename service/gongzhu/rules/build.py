"""How the engine in this installation was built: ``"pure"`` (Python source),
``"compiled"`` (every module an extension module, e.g. built with mypyc) or
``"mixed"``. Read from where each module of the engine (``gongzhu.rules`` and the
exact searches of ``gongzhu.solve``, compiled together) would be loaded from, so the
answer stays true whatever a build does; found on disk, without importing ``gongzhu.solve``
(the rules import no layer above them). The package's own build (setup.py)
leaves two modules interpreted by design, which do not count: ``messages`` (a ``str``
subclass mypyc cannot compile) and this one."""
from __future__ import annotations

import pkgutil
from functools import lru_cache
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec, PathFinder
from pathlib import Path

PURE = "pure"
COMPILED = "compiled"
MIXED = "mixed"
# interpreted in every build (setup.py's INTERPRETED)
INTERPRETED = frozenset({"messages", "build"})
# the engine's packages: this one and the exact searches built on it
PACKAGES = ("rules", "solve")
ROOT = Path(__file__).resolve().parent.parent


def find_spec(module: str) -> ModuleSpec | None:
    """Where ``module`` (``gongzhu.<package>.<name>``) would be loaded from, without importing its package."""
    package = module.split(".")[-2]
    return PathFinder.find_spec(module, [str(ROOT / package)])


def engine_modules() -> list[str]:
    """Every module of the engine that a compiled build compiles."""
    top = __name__.split(".")[0]
    return [f"{top}.{package}.{found.name}" for package in PACKAGES
            for found in pkgutil.iter_modules([str(ROOT / package)]) if found.name not in INTERPRETED]


def _is_extension(module: str) -> bool:
    spec = find_spec(module)
    origin = spec.origin if spec is not None else None
    return origin is not None and origin.endswith(tuple(EXTENSION_SUFFIXES))


@lru_cache(maxsize=1)
def engine_build() -> str:
    """``"pure"``, ``"compiled"`` or ``"mixed"`` for the modules of ``gongzhu.rules`` and ``gongzhu.solve``."""
    modules = engine_modules()
    compiled = sum(_is_extension(module) for module in modules)
    if compiled == 0:
        return PURE
    return COMPILED if compiled == len(modules) else MIXED
