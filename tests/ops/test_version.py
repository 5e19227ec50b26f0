"""One version, pyproject.toml's: the package metadata, /version, the contract's
info.version (the contract is released with the service, so it is the same), the
chart's appVersion, the newest CHANGELOG release and every example that names it."""
from __future__ import annotations

import pkgutil
import platform
import re
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

from gongzhu import __version__
from tests.conftest import load_contract
from tests.servers import expected_engine

ROOT = Path(__file__).resolve().parents[2]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
SEMVER = re.compile(r"\d+\.\d+\.\d+")


def test_the_package_reports_pyprojects_version():
    assert __version__ == VERSION


def test_version_endpoint(client):
    response = client.get("/version")
    assert response.status_code == 200
    body = response.get_json()
    assert body["service"] == VERSION
    assert body["contract"] == VERSION
    assert body["python"] == platform.python_version()
    assert body["engine"] == expected_engine()
    assert list(body) == ["service", "contract", "commit", "engine", "python"]
    # the tests run from a git checkout (an editable install): its HEAD
    assert body["commit"] == git_head()


def git_head() -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.fixture()
def fresh_commit():
    from gongzhu import about

    about.commit.cache_clear()
    yield about
    about.commit.cache_clear()


def test_commit_from_the_environment_first(monkeypatch, fresh_commit):
    from gongzhu.api import pages

    monkeypatch.setenv("GIT_COMMIT", "abc123")
    assert pages.version_info()["commit"] == "abc123"


def test_commit_from_the_wheels_file_before_git(monkeypatch, fresh_commit, tmp_path):
    """An installed wheel carries gongzhu/COMMIT (setup.py writes it); outside a checkout, nothing."""
    monkeypatch.delenv("GIT_COMMIT", raising=False)
    monkeypatch.setattr(fresh_commit, "_packaged_commit", lambda: "f" * 40)
    assert fresh_commit.commit() == "f" * 40
    fresh_commit.commit.cache_clear()
    monkeypatch.setattr(fresh_commit, "_packaged_commit", lambda: None)
    assert fresh_commit.commit() == git_head()
    fresh_commit.commit.cache_clear()
    monkeypatch.setattr(fresh_commit, "SOURCE_ROOT", tmp_path)
    assert fresh_commit.commit() is None


def test_the_contract_version_is_read_without_a_yaml_parser_as_yaml_reads_it():
    from gongzhu import about

    contract = load_contract()
    assert about.contract_version() == contract["info"]["version"] == VERSION


def test_the_contract_version_is_the_service_version():
    contract = load_contract()
    assert contract["info"]["version"] == VERSION


def test_the_chart_app_version_is_the_service_version():
    chart = yaml.safe_load((ROOT / "helm" / "gongzhu-service" / "Chart.yaml").read_text())
    assert chart["appVersion"] == VERSION


def test_the_changelog_names_the_version():
    text = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[([^\]]+)\]", text, flags=re.M)
    assert releases[0] == "Unreleased"
    assert releases[1] == VERSION


def test_every_other_mention_is_the_version():
    """Image tags in the docs and the chart tests, and no version literal in the code."""
    mentions = []
    for path in [ROOT / "docs" / "deployment.md", ROOT / "README.md",
                 ROOT / "helm" / "gongzhu-service" / "README.md",
                 ROOT / "tests" / "deploy" / "test_deploy.py"]:
        mentions += re.findall(r"gongzhu-service:(\d+\.\d+\.\d+)", path.read_text())
        mentions += re.findall(r"image\.tag=(\d+\.\d+\.\d+)", path.read_text())
    assert mentions and set(mentions) == {VERSION}
    for path in (ROOT / "service").rglob("*.py"):
        assert not re.search(r"__version__\s*=\s*['\"]\d+\.\d+", path.read_text()), path


def test_the_engine_build_is_read_from_where_each_engine_module_loads(monkeypatch):
    """As make test built it here (compiled, or pure); compiled when every module is an extension
    module (messages and build are interpreted in every build and do not count), mixed when some
    are: the answer follows the files, whatever a build does."""
    from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec

    from gongzhu.rules import build

    assert build.engine_build() == expected_engine()

    def as_extension(names):
        def find_spec(module):
            suffix = EXTENSION_SUFFIXES[0] if module.rsplit(".", 1)[1] in names else ".py"
            return ModuleSpec(module, None, origin=f"/site/{module.replace('.', '/')}{suffix}")
        return find_spec

    # every module of the package, as the build reads them (a new engine module counts without a test edit)
    every = {found.name for package in build.PACKAGES
             for found in pkgutil.iter_modules([str(Path(build.__file__).parent.parent / package)])}
    assert {"andor", "cards", "claims", "endgame", "state", "messages", "build"} <= every
    try:
        cases = ((every, "compiled"), (every - {"messages", "build"}, "compiled"), ({"moves", "play"}, "mixed"),
                 ({"messages"}, "pure"), (set(), "pure"))
        for names, expected in cases:
            build.engine_build.cache_clear()
            monkeypatch.setattr(build, "find_spec", as_extension(names))
            assert build.engine_build() == expected
    finally:
        monkeypatch.undo()
        build.engine_build.cache_clear()
