"""The build writes the commit it was built from into the wheel (``gongzhu/COMMIT``),
so ``/version``, ``gongzhu-service --version`` and ``gongzhu_build_info`` name it
from an installed wheel too (``gongzhu.about``). The commit is ``GONGZHU_COMMIT``
when set (the Dockerfile passes its ``REVISION`` build argument), else
``git rev-parse HEAD`` when building from a git checkout, else none. Everything
else about the package is in pyproject.toml."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

COMMIT = re.compile(r"[0-9a-f]{7,64}")


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


setup(cmdclass={"build_py": BuildWithCommit})
