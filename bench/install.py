"""What installing the pure wheel costs where there is no C compiler: a fresh venv, ``PATH`` holding
the venv's ``bin`` alone (no ``cc``, ``gcc`` or ``clang`` on it), ``pip install --no-index`` of the wheel,
then ``gongzhu-service --version``, which must say ``engine pure``.

    make dist && python3 bench/install.py                  # the newest dist/*-py3-none-any.whl
    python3 bench/install.py path/to/gongzhu_service-0.1.0-py3-none-any.whl --runs 5

Prints the seconds of each install (pip's alone, not the venv's creation) and their median, and the
``--version`` lines. Per-run venvs go to build/install/ (git-ignored).
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILERS = ("cc", "gcc", "clang", "c99")


def install_without_compiler(wheel: Path, folder: Path) -> tuple[float, list[str]]:
    """A fresh venv in ``folder`` with ``wheel`` installed from no index and no compiler on ``PATH``:
    pip's seconds and ``gongzhu-service --version``'s lines."""
    shutil.rmtree(folder, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, timeout=300)
    bin_dir = folder / "bin"
    env = {"PATH": str(bin_dir), "HOME": str(folder), "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}
    found = [c for c in COMPILERS if shutil.which(c, path=env["PATH"])]
    if found:
        raise RuntimeError(f"a C compiler is on the install's PATH: {found}")
    started = time.perf_counter()
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--no-index", "--no-cache-dir",
                    str(wheel)], check=True, env=env, timeout=300)
    seconds = time.perf_counter() - started
    version = subprocess.run([str(bin_dir / "gongzhu-service"), "--version"], check=True, env=env,
                             capture_output=True, text=True, timeout=60).stdout.splitlines()
    return seconds, version


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", type=Path, nargs="?", help="default: the newest dist/*-py3-none-any.whl")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    wheel = args.wheel or max((ROOT / "dist").glob("gongzhu_service-*-py3-none-any.whl"),
                              key=lambda p: p.stat().st_mtime)
    times = []
    for run in range(args.runs):
        seconds, version = install_without_compiler(wheel, ROOT / "build" / "install" / f"venv-{run}")
        times.append(seconds)
        print(f"run {run + 1}: pip install --no-index {wheel.name}: {seconds:.2f} s")
    print(f"median {statistics.median(times):.2f} s over {args.runs} runs; --version: {'; '.join(version)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
