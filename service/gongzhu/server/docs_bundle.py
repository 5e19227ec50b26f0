"""The documentation's files (Swagger UI as the flask-swagger-ui package ships it) laid out for nginx, which
sends them itself (``nginx.conf``, ``gzip_static``): each file copied into the run directory and each text
file compressed beside it when serve starts, so that no request compresses it again. The package is
installed apart from this one, at any version pyproject.toml allows: its files are compressed where they
are, never shipped precompressed beside a version they may not match. docs/deployment.md, "Limits and the
server's own answers".
"""
from __future__ import annotations

import gzip
import os
import shutil
from importlib.util import find_spec
from pathlib import Path

# the files nginx sends (nginx.conf's types), and of them those worth compressing (a PNG is compressed already)
SUFFIXES = (".css", ".js", ".png", ".html")
TEXT = (".css", ".js", ".html")
FOLDER = "docs"


def dist() -> Path:
    """flask-swagger-ui's ``dist`` folder, found without importing the package (and Flask with it)."""
    spec = find_spec("flask_swagger_ui")
    assert spec is not None and spec.submodule_search_locations, "the server extra is installed (cli.serve)"
    return Path(next(iter(spec.submodule_search_locations))) / "dist"


def lay_out(run_dir: Path) -> Path:
    """``run_dir``/docs: a copy of each file of the bundle and a ``.gz`` of each text file, both written again
    only when the file changed (a run directory kept between starts compresses once); returns it."""
    folder = run_dir / FOLDER
    folder.mkdir(exist_ok=True)
    folder.chmod(0o755)  # nginx's workers (nobody, under root) read it
    for source in sorted(dist().iterdir()):
        if source.suffix not in SUFFIXES:
            continue
        # a copy, not a link: nginx's workers (nobody, under root) may not reach the package's folder
        copy = folder / source.name
        packed = folder / f"{source.name}.gz"
        copied = not _same(copy, source)
        if copied:
            shutil.copy2(source, copy)
            copy.chmod(0o644)
        if source.suffix in TEXT and (copied or not packed.exists()):
            packed.write_bytes(gzip.compress(copy.read_bytes(), compresslevel=9, mtime=0))
            packed.chmod(0o644)
    return folder


def _same(copy: Path, source: Path) -> bool:
    """Whether ``copy`` is ``source`` as copied: its size and modification time (``shutil.copy2`` keeps it)."""
    try:
        made, original = os.stat(copy), os.stat(source)
    except FileNotFoundError:
        return False
    return (made.st_size, made.st_mtime_ns) == (original.st_size, original.st_mtime_ns)
