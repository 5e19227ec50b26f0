"""How the engine in this installation was built: ``"pure"`` (Python source),
``"compiled"`` (every module an extension module, e.g. built with mypyc) or
``"mixed"``. Read from where each module of the package would be loaded from,
so the answer stays true whatever a build does. The package's own build (setup.py)
leaves two modules interpreted by design, which do not count: ``messages`` (a ``str``
subclass mypyc cannot compile) and this one."""
from __future__ import annotations

import pkgutil
from functools import lru_cache
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec
from pathlib import Path

PURE = "pure"
COMPILED = "compiled"
MIXED = "mixed"
# interpreted in every build (setup.py's INTERPRETED)
INTERPRETED = frozenset({"messages", "build"})


def _is_extension(module: str) -> bool:
    spec = find_spec(module)
    origin = spec.origin if spec is not None else None
    return origin is not None and origin.endswith(tuple(EXTENSION_SUFFIXES))


@lru_cache(maxsize=1)
def engine_build() -> str:
    """``"pure"``, ``"compiled"`` or ``"mixed"`` for the modules of ``gongzhu.rules``."""
    package = __name__.rpartition(".")[0]
    modules = [f"{package}.{found.name}" for found in pkgutil.iter_modules([str(Path(__file__).parent)])
               if found.name not in INTERPRETED]
    compiled = sum(_is_extension(module) for module in modules)
    if compiled == 0:
        return PURE
    return COMPILED if compiled == len(modules) else MIXED
