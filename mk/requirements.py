"""The requirements pyproject.toml names, one a line, for the Makefile's bootstrap.

    python mk/requirements.py build          # [build-system] requires
    python mk/requirements.py server test    # the union of those extras

``make`` installs the build requirements first, then the extras' packages and the compiled
engine (``pip install --no-deps --no-build-isolation -e .``) side by side: the engine's
C compile and pip's downloads and unpacking no longer wait for each other.
"""
import sys
import tomllib
from pathlib import Path

project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text("utf-8"))
wanted: list[str] = []
for name in sys.argv[1:]:
    extras = project["project"]["optional-dependencies"]
    found = project["build-system"]["requires"] if name == "build" else extras[name]
    wanted += [r for r in found if r not in wanted]
print("\n".join(wanted))
