"""The build compiles the rules engine with mypyc and writes the commit it was built from
into the wheel. Everything else about the package is in pyproject.toml.

The modules of ``service/gongzhu/rules`` (but ``messages.py``, a ``str`` subclass mypyc
cannot compile, and ``build.py``, which reads how the others were built), the exact searches of
``service/gongzhu/solve`` (all of them), the bot's search
(``gongzhu.bot``: its playout policy, search, inference and equivalent cards, ``COMPILED_BOT``)
and the HTTP layer's per-request work (its request pipeline, cards and answers: ``COMPILED_API``) become C
extension modules next to their ``.py`` source, from that same source (docs/engine-api.md,
"Builds").
``GONGZHU_PURE=1`` at build time, or a build without a working C compiler, gives the pure
package; ``gongzhu.rules.engine_build()`` says which build runs.

The commit goes into ``gongzhu/COMMIT``, so ``/version``, ``gongzhu-service --version`` and
``gongzhu_build_info`` name it from an installed wheel too (``gongzhu.about``). The commit is
``GONGZHU_COMMIT`` when set (the Dockerfile passes its ``REVISION`` build argument), else
``git rev-parse HEAD`` when building from a git checkout, else none."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
RULES = Path("service") / "gongzhu" / "rules"
SOLVE = Path("service") / "gongzhu" / "solve"
BOT = Path("service") / "gongzhu" / "bot"
API = Path("service") / "gongzhu" / "api"
SERVER = Path("service") / "gongzhu" / "server"
# left interpreted: a str subclass (Message), and the module that tells the builds apart
INTERPRETED = {"messages.py", "build.py"}
# the bot's modules on the search's path (the others, advice and exposures, call them a few times a request)
COMPILED_BOT = {"heuristic.py", "search.py", "knowledge.py", "equivalence.py", "policy.py"}
# the HTTP layer's request path: the pipeline every operation takes, a batch's envelope and loop over its calls,
# telemetry, the request's engine values and the answers (the rest of it is glue around Flask, marshmallow, ...)
COMPILED_API = {"pipeline.py", "batch.py", "envelope.py", "telemetry.py", "results.py", "engine_values.py"}
# none: the server's modules are glue around gunicorn and nginx (kept here so that a build removes an
# extension module an earlier one left in gongzhu.server)
COMPILED_SERVER: set[str] = set()
PURE_ENV = "GONGZHU_PURE"

COMMIT = re.compile(r"[0-9a-f]{7,64}")
# The classifiers every build shares; the operating system and implementation are the build's (classifiers()).
CLASSIFIERS = [
    "Development Status :: 3 - Alpha",
    "Environment :: Web Environment",
    "Framework :: Flask",
    "Intended Audience :: Developers",
    "Natural Language :: Chinese (Simplified)",
    "Natural Language :: English",
    "Programming Language :: Python :: 3",
    "Programming Language :: Python :: 3 :: Only",
    "Programming Language :: Python :: 3.11",
    "Programming Language :: Python :: 3.12",
    "Programming Language :: Python :: 3.13",
    "Topic :: Games/Entertainment",
    "Topic :: Internet :: WWW/HTTP :: WSGI :: Application",
    "Topic :: Software Development :: Libraries :: Python Modules",
    "Typing :: Typed",
]
PLATFORMS = {"linux": "Operating System :: POSIX :: Linux", "darwin": "Operating System :: MacOS",
             "win32": "Operating System :: Microsoft :: Windows"}
# Commands that build no extension: the sdist carries the source (never the generated C), egg_info only
# tells the requirements. mypyc's type check and C generation are skipped for them.
SOURCE_ONLY = {"sdist", "egg_info"}


def source_commit() -> str | None:
    given = os.environ.get("GONGZHU_COMMIT", "").strip()
    if given:
        return given if COMMIT.fullmatch(given) else None
    try:
        found = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent,
                               capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    commit = found.stdout.strip()
    return commit if found.returncode == 0 and COMMIT.fullmatch(commit) else None


class BuildWithCommit(build_py):
    def run(self) -> None:
        super().run()
        commit = source_commit()
        if commit and not getattr(self, "editable_mode", False):
            target = Path(self.build_lib) / "gongzhu" / "COMMIT"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(commit + "\n", encoding="ascii")


def compiled_paths() -> list[str]:
    rules = [p for p in RULES.glob("*.py") if p.name not in INTERPRETED] + sorted(SOLVE.glob("*.py"))
    chosen = [folder / name for folder, names in ((BOT, COMPILED_BOT), (API, COMPILED_API), (SERVER, COMPILED_SERVER))
              for name in names]
    return sorted(str(p) for p in rules + chosen)


def compile_side_by_side(compiler) -> None:
    """``compiler`` compiles an extension's C files (mypyc writes one a module) on every core at once,
    not one after another: most of the build's time is the C compiler's. Only where the compiler has a
    per-file step (``_compile``: gcc, clang); MSVC's compiles as distutils does."""
    if not hasattr(compiler, "_compile"):
        return
    def compile(sources, output_dir=None, macros=None, include_dirs=None, debug=False, extra_preargs=None,
                extra_postargs=None, depends=None):
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj: str) -> None:
            src, ext = build[obj]
            compiler._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            list(pool.map(one, [obj for obj in objects if obj in build]))
        return objects
    compiler.compile = compile


class OptionalBuildExt(build_ext):
    """Builds the compiled engine, or none of it: without a C compiler the package is pure Python."""

    def build_extensions(self) -> None:
        compile_side_by_side(self.compiler)
        # the small per-module extensions side by side too
        self.parallel = os.cpu_count() or 1
        try:
            super().build_extensions()
        except Exception as error:  # noqa: BLE001 - any compiler failure falls back to the pure package
            # all or nothing: a compiled module needs the group's shared library
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            print(f"gongzhu-service: no compiled engine ({error}); the package is pure Python", file=sys.stderr)


def remove_stale_builds() -> None:
    """An editable install builds next to the source: a module interpreted by design (or a pure build) must
    not load an extension module an earlier build left there."""
    keep_compiled = os.environ.get(PURE_ENV, "") in ("", "0")
    for folder, compiled in ((RULES, lambda name: name not in INTERPRETED), (SOLVE, lambda name: True),
                             (BOT, COMPILED_BOT.__contains__),
                             (API, COMPILED_API.__contains__), (SERVER, COMPILED_SERVER.__contains__)):
        for path in (ROOT / folder).glob("*.so"):
            if not (keep_compiled and compiled(path.name.split(".")[0] + ".py")):
                path.unlink()


def extensions() -> list:
    remove_stale_builds()
    if os.environ.get(PURE_ENV, "") not in ("", "0") or sys.argv[1:2] and sys.argv[1] in SOURCE_ONLY:
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("gongzhu-service: mypyc is not installed; the package is pure Python", file=sys.stderr)
        return []
    os.chdir(ROOT)
    # One C file a module (multi_file), so that the C compiler runs on every core (compile_side_by_side).
    # --no-site-packages: the type check behind the compile reads no installed package (Flask, pydantic,
    # OpenTelemetry, ... ~900 modules, 20 of its 27 s); a third-party name is Any to the compiled code
    # either way (the generated C is byte-identical), and the build no longer depends on whether pip has
    # installed the extras yet. debug_level 0: no line tables for gdb, ~14% less of the C compiler's time.
    return mypycify(["--no-site-packages", *compiled_paths()], opt_level="3", debug_level="0",
                    group_name="gongzhu_rules", multi_file=True)


def classifiers(compiled: bool) -> list[str]:
    """A compiled build is CPython's on this platform (mypyc's extension modules); a pure one runs anywhere."""
    if not compiled:
        return sorted([*CLASSIFIERS, "Operating System :: OS Independent"])
    system = PLATFORMS.get(sys.platform, "Operating System :: POSIX")
    return sorted([*CLASSIFIERS, system, "Programming Language :: Python :: Implementation :: CPython"])


EXTENSIONS = extensions()
setup(ext_modules=EXTENSIONS, classifiers=classifiers(bool(EXTENSIONS)),
      cmdclass={"build_py": BuildWithCommit, "build_ext": OptionalBuildExt})
