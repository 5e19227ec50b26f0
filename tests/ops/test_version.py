"""One version, pyproject.toml's: the package metadata, /version, the contract's
info.version (the contract is released with the service, so it is the same), the
chart's appVersion, the newest CHANGELOG release and every example that names it."""
from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import platform
import re
import tomllib
from pathlib import Path

import yaml

from gongzhu import __version__

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
    assert body["commit"] is None or re.fullmatch(r"[0-9a-f]{40}", body["commit"])
    assert body["engine"] == expected_engine()


def expected_engine() -> str:
    """The build make test asked for (GONGZHU_EXPECT_ENGINE), else the one the play loop's module file shows."""
    if os.environ.get("GONGZHU_EXPECT_ENGINE"):
        return os.environ["GONGZHU_EXPECT_ENGINE"]
    origin = importlib.util.find_spec("gongzhu.rules.table").origin or ""
    return "compiled" if origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) else "pure"


def test_the_build_info_metric_names_the_engine_build(client):
    text = client.get("/metrics").get_data(as_text=True)
    assert f'gongzhu_build_info{{engine="{expected_engine()}",version="{VERSION}"}} 1.0' in text


def test_commit_from_the_environment(monkeypatch):
    from gongzhu.api import ops

    ops.git_commit.cache_clear()
    monkeypatch.setenv("GIT_COMMIT", "abc123")
    try:
        assert ops.version_info()["commit"] == "abc123"
    finally:
        ops.git_commit.cache_clear()


def test_the_contract_version_is_the_service_version():
    contract = yaml.safe_load((ROOT / "service" / "gongzhu" / "openapi.yaml").read_text(encoding="utf-8"))
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
