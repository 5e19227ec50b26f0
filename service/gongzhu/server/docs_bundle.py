"""The documentation's files (Swagger UI as the flask-swagger-ui package ships it) laid out for nginx, which
sends them itself (``nginx.conf``, ``gzip_static``): each file linked into the run directory and each text
file compressed beside it, once, when serve starts, so that no request compresses it again. The package is
installed apart from this one, at any version pyproject.toml allows: its files are compressed where they
are, never shipped precompressed beside a version they may not match. docs/deployment.md, "Limits and the
server's own answers".
"""
from __future__ import annotations

import gzip
import os
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
    """``run_dir``/docs: a link to each file of the bundle and a ``.gz`` of each text file (written again only
    when missing or older than its file); returns it."""
    folder = run_dir / FOLDER
    folder.mkdir(exist_ok=True)
    folder.chmod(0o755)  # nginx's workers (nobody, under root) read it
    for source in sorted(dist().iterdir()):
        if source.suffix not in SUFFIXES:
            continue
        link = folder / source.name
        link.unlink(missing_ok=True)
        link.symlink_to(source)
        packed = folder / f"{source.name}.gz"
        if source.suffix in TEXT and not _fresh(packed, source):
            packed.write_bytes(gzip.compress(source.read_bytes(), compresslevel=9, mtime=0))
            packed.chmod(0o644)
    return folder


def _fresh(packed: Path, source: Path) -> bool:
    try:
        return os.stat(packed).st_mtime >= os.stat(source).st_mtime
    except FileNotFoundError:
        return False
