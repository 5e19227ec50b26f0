"""The requirements pyproject.toml names, for the Makefile's bootstrap.

    python mk/requirements.py build                  # [build-system] requires, one a line
    python mk/requirements.py server test            # the union of those extras, one a line
    python mk/requirements.py --install server test  # install them into this interpreter's venv

``--install`` installs with uv (``UV`` in the Makefile puts it in the venv first) and falls back to
pip when uv is missing or fails, e.g. where only a pip-configured index is reachable. uv installs
the test extras in about 5 s where pip took about a minute of a 2-core machine, beside the
engine's C compile. ``make`` installs the build requirements first, then the extras' packages and the
compiled engine (``pip install --no-deps --no-build-isolation -e .``) side by side.
"""
import os
import subprocess
import sys
import tomllib
from pathlib import Path


def requirements(names: list[str]) -> list[str]:
    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text("utf-8"))
    wanted: list[str] = []
    for name in names:
        extras = project["project"]["optional-dependencies"]
        found = project["build-system"]["requires"] if name == "build" else extras[name]
        wanted += [r for r in found if r not in wanted]
    return wanted


def uv_environment() -> dict[str, str]:
    """pip's index settings for uv, which reads only its own."""
    env = dict(os.environ)
    for pip_name, uv_name in (("PIP_INDEX_URL", "UV_DEFAULT_INDEX"), ("PIP_EXTRA_INDEX_URL", "UV_INDEX")):
        if env.get(pip_name) and uv_name not in env:
            env[uv_name] = env[pip_name]
    return env


def install(wanted: list[str]) -> int:
    # system certificates, as pip uses; .pyc files written now, not by three test processes at once
    uv = [sys.executable, "-m", "uv", "pip", "install", "--quiet", "--native-tls", "--compile-bytecode",
          "--python", sys.executable, *wanted]
    try:
        if subprocess.run(uv, env=uv_environment(), check=False).returncode == 0:
            return 0
    except OSError:
        pass
    print("mk/requirements.py: uv could not install; installing with pip", file=sys.stderr)
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *wanted]
    return subprocess.run(pip, check=False).returncode


def main(argv: list[str]) -> int:
    if argv[:1] == ["--install"]:
        return install(requirements(argv[1:]))
    print("\n".join(requirements(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
