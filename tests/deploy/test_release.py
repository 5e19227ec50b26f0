"""The release: .github/workflows/release.yml passes actionlint and publishes what `make dist` builds
(mk/dist.mk); cibuildwheel's settings cover CPython 3.11-3.13 on every platform asked for."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

from tests.servers import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def test_actionlint_passes_on_the_workflows():
    actionlint = Path(sys.executable).parent / "actionlint"
    assert actionlint.exists(), "the test extra installs actionlint"
    done = subprocess.run([str(actionlint), *map(str, sorted(WORKFLOW.parent.glob("*.yml")))], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_compiled_wheels_for_cpython_3_11_to_3_13_on_linux_macos_and_windows():
    jobs = workflow()["jobs"]
    systems = set(jobs["wheels"]["strategy"]["matrix"]["os"])
    assert {"ubuntu-24.04", "ubuntu-24.04-arm", "macos-14", "windows-2022"} <= systems
    assert any(step.get("uses", "").startswith("pypa/cibuildwheel@") for step in jobs["wheels"]["steps"])
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["cibuildwheel"]
    assert settings["build"].split() == ["cp311-*", "cp312-*", "cp313-*"]
    # manylinux and musllinux both built: neither is skipped
    assert "musllinux" not in settings.get("skip", "") and "manylinux" not in settings.get("skip", "")
    assert "engine_build()" in settings["test-command"]


def test_publishing_is_trusted_and_the_image_digest_reaches_the_chart():
    jobs = workflow()["jobs"]
    assert jobs["pypi"]["permissions"] == {"id-token": "write"}
    publish = [s for s in jobs["pypi"]["steps"] if s.get("uses", "").startswith("pypa/gh-action-pypi-publish@")]
    assert [s["with"]["packages-dir"] for s in publish] == ["service/", "sdk/"]
    assert all("password" not in s.get("with", {}) for s in publish)
    assert jobs["image"]["outputs"]["digest"] == "${{ steps.push.outputs.digest }}"
    assert "needs.image.outputs.digest" in str(jobs["chart"]["steps"])
    assert "helm push" in str(jobs["chart"]["steps"]) and "npm publish" in str(jobs["npm"]["steps"])
    # what can run anywhere is make's, the same targets `make dist` runs
    runs = [s["run"] for s in jobs["dist"]["steps"] if "run" in s]
    assert runs == ["make dist", "rm dist/gongzhu_service-*-cp3*.whl"]
