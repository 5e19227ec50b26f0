"""The distribution as a user installs it: the wheel built from this tree carries the
licence, ``py.typed`` and the commit, and needs no third-party package; in a fresh
venv holding that wheel alone, a host application with its own ``service`` package
imports the engine and the bot, ``gongzhu-service --version`` answers, and starting
the server says, in one line, what to install."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from tests.servers import ROOT

INSTALL_LINE = "pip install 'gongzhu-service[server]'"


def git_head() -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


# What the Dockerfile copies to build the wheel, too (.dockerignore).
SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "service")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """``pip wheel`` of a copy of the sources, as the image builds it (no .git: the commit comes
    from GONGZHU_COMMIT); its isolated build gets setuptools from PyPI, as any user's does. It is
    the pure build (GONGZHU_PURE=1): what is checked here does not depend on the engine's build, and
    compiling takes a minute and a half of the suite's critical path; the compiled build of the same
    setup.py is the one ``make venv`` installs and the whole suite runs on (test_version checks it)."""
    tree = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, tree / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "COMMIT", "*.so"))
        else:
            shutil.copy2(ROOT / name, tree / name)
    out = tmp_path_factory.mktemp("wheel")
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "GONGZHU_COMMIT": git_head(), "GONGZHU_PURE": "1"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out),
                    str(tree)], check=True, env=env, cwd=out, timeout=300)
    (found,) = out.glob("gongzhu_service-*.whl")
    return found


@pytest.fixture(scope="module")
def engine_only(wheel, tmp_path_factory) -> Path:
    """A fresh venv (no system site-packages, no pip) with the wheel installed from no index."""
    venv = tmp_path_factory.mktemp("venv") / "engine-only"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                    "--quiet", "--no-index", "--disable-pip-version-check", str(wheel)], check=True, timeout=120)
    return venv


def metadata(wheel: Path):
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return Parser().parsestr(archive.read(name).decode("utf-8"))


def test_the_wheel_carries_the_licence_py_typed_the_contract_the_table_page_and_the_commit(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert "gongzhu/py.typed" in names
        assert "gongzhu/openapi.yaml" in names
        assert {f"gongzhu/table_page/{name}" for name in ("index.html", "table.css", "table.js")} <= names
        licence = f"gongzhu_service-{wheel.name.split('-')[1]}.dist-info/licenses/LICENSE"
        assert licence in names
        assert archive.read(licence).decode().startswith("MIT License")
        assert archive.read("gongzhu/COMMIT").decode().strip() == git_head()


def test_the_pure_wheel_is_for_any_platform_and_says_so(wheel):
    assert wheel.name.endswith("-py3-none-any.whl")
    meta = metadata(wheel)
    classifiers = meta.get_all("Classifier")
    assert "Operating System :: OS Independent" in classifiers
    assert "Programming Language :: Python :: Implementation :: CPython" not in classifiers
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert urls["Source"] == "https://github.com/gongzhu-service/gongzhu-service"
    assert {"Homepage", "Documentation", "Issues", "Changelog"} <= set(urls)


def test_the_pure_wheel_installs_without_a_compiler(wheel, tmp_path):
    """A fresh venv whose PATH has no C compiler, pip from no index (bench/install.py, which also times it)."""
    from bench.install import install_without_compiler

    _, version = install_without_compiler(wheel, tmp_path / "venv")
    assert version[2] == "engine pure"
    assert version[0] == f"gongzhu-service {wheel.name.split('-')[1]}"


def test_the_base_distribution_has_no_runtime_dependency(wheel):
    meta = metadata(wheel)
    requires = meta.get_all("Requires-Dist") or []
    assert requires, "the extras list their packages"
    assert [r for r in requires if "extra ==" not in r] == []
    assert {"server", "otel", "test"} <= set(meta.get_all("Provides-Extra"))
    server = sorted(r.split("<")[0].split(">")[0].split(";")[0].strip().lower() for r in requires
                    if 'extra == "server"' in r)
    assert server == ["flask", "flask-swagger-ui", "gunicorn", "jsonschema-rs", "marshmallow",
                      "openapi-spec-validator", "orjson", "prometheus-client", "pyyaml"]
    assert meta["License-Expression"] == "MIT"
    assert "Typing :: Typed" in meta.get_all("Classifier")


def run_in(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "GIT_COMMIT")}
    return subprocess.run([str(venv / "bin" / args[0]), *args[1:]], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)


def test_a_host_with_its_own_service_package_embeds_the_engine_with_the_standard_library_only(
        engine_only, tmp_path):
    (tmp_path / "service").mkdir()
    (tmp_path / "service" / "__init__.py").write_text("OWNER = 'the host'\n")
    program = textwrap.dedent("""
        import json, sys, importlib.metadata as md
        import service
        import gongzhu.rules as engine, gongzhu.bot as bot
        rules = engine.Rules()
        state = engine.replay(rules, hands=engine.deal_hands(rules, seed=1))
        suggestion = bot.suggest(state, budget_ms=5, seed=1)
        third_party = sorted({d.metadata["Name"] for d in md.distributions()} - {"gongzhu-service"})
        print(json.dumps({"host": service.OWNER, "engine": engine.__file__, "moves": [engine.format_cards(m)
              for m in engine.legal_moves(state)], "suggested": engine.format_cards(suggestion.move),
              "third_party": third_party, "flask": "flask" in sys.modules}))
    """)
    done = run_in(engine_only, "python", "-c", program, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["host"] == "the host"
    assert found["engine"].startswith(str(engine_only))
    assert found["moves"] == [["C2"]] and found["suggested"] == ["C2"]
    assert found["third_party"] == [] and found["flask"] is False


def test_version_answers_without_the_server_extra(engine_only, wheel, tmp_path):
    done = run_in(engine_only, "gongzhu-service", "--version", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    version = wheel.name.split("-")[1]
    assert done.stdout.splitlines() == [f"gongzhu-service {version}", f"contract {version}", "engine pure",
                                        f"commit {git_head()}"]


@pytest.mark.parametrize("command", [("gongzhu-service", "serve"), ("python", "-m", "gongzhu", "serve")])
def test_serving_without_the_server_extra_says_what_to_install(engine_only, tmp_path, command):
    done = run_in(engine_only, *command, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "gongzhu-service: the gongzhu-service HTTP server needs the server extra (flask, flask_swagger_ui, "
        f"marshmallow, gunicorn, jsonschema_rs, orjson, prometheus_client, yaml not installed): {INSTALL_LINE}"]


@pytest.mark.parametrize("module", ["gongzhu.server.wsgi", "gongzhu.api"])
def test_importing_the_server_without_the_extra_names_the_install(engine_only, tmp_path, module):
    done = run_in(engine_only, "python", "-c", f"import {module}", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1].startswith("gongzhu.server_extra.ServerExtraMissing: the "
                                                   "gongzhu-service HTTP server needs the server extra (flask,")
    assert done.stderr.splitlines()[-1].endswith(INSTALL_LINE)
