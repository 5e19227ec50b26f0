"""The contract as platforms use it, with their own tools (npm packages pinned in
tests/contract/node, installed by ``make test``):

- Spectral (``spectral:oas``) and Redocly (``recommended-strict``: its
  recommended rules, every warning an error) report no error and no warning,
  no rule switched off;
- the default output of orval (axios functions) and of hey-api (fetch client
  and SDK) compiles under ``tsc --strict``: no two generated names collide
  (orval names each operation's answer ``<OperationId>Result``, hey-api
  ``<OperationId>Data``/``Response``/``Error``), and the schemas keep their
  names.

The SDKs built from the contract (openapi-python-client, openapi-typescript)
are checked in tests/sdk.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import CONTRACT, load_contract

NODE_DIR = Path(__file__).resolve().parent / "node"
BIN = NODE_DIR / "node_modules" / ".bin"
TIMEOUT = 300
EXPORTED = re.compile(r"^export (?:type|interface|const) (\w+)", re.M)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=NODE_DIR, capture_output=True, text=True, timeout=TIMEOUT)


@pytest.fixture(scope="module", autouse=True)
def node_tools():
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.fail("node and npm are needed: install Node.js 20 (make test runs npm ci)")
    if not (BIN / "orval").exists():
        result = run("npm", "ci", "--no-audit", "--no-fund")
        assert result.returncode == 0, result.stdout + result.stderr


def test_spectral_reports_no_error_and_no_warning():
    result = run(str(BIN / "spectral"), "lint", "--ruleset", ".spectral.yaml", "--fail-severity", "warn",
                 str(CONTRACT))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No results with a severity of 'warn' or higher" in result.stdout, result.stdout


def test_redocly_reports_no_error_and_no_warning():
    assert "recommended-strict" in (NODE_DIR / "redocly.yaml").read_text()
    result = run(str(BIN / "redocly"), "lint", "--config", "redocly.yaml", str(CONTRACT))
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert "Your API description is valid" in out
    # (its banner about Node.js versions is no finding)
    assert re.search(r"You have \d+ warning", out) is None, out


def test_orval_and_hey_api_default_output_compiles_strict():
    result = run("npm", "run", "--silent", "generators")
    assert result.returncode == 0, result.stdout + result.stderr
    orval = EXPORTED.findall((NODE_DIR / "build" / "orval" / "api.ts").read_text())
    # An enum is a type and a constant of one name; anything else named twice is a collision.
    enums = {name for name, schema in schemas().items() if "enum" in schema}
    assert [n for n in set(orval) if orval.count(n) > (2 if n in enums else 1)] == []
    # The schemas keep their names; each operation's answer is orval's own <OperationId>Result.
    assert {"PlayOutcome", "NewDeal", "ExposureSheet", "NextState", "Health"} <= set(orval)
    assert {"PlayResult", "DealResult", "ExposuresResult"} <= set(orval)
    hey_api = EXPORTED.findall((NODE_DIR / "build" / "hey-api" / "types.gen.ts").read_text())
    assert len(hey_api) == len(set(hey_api))
    assert set(schemas()) <= set(hey_api)


def schemas() -> dict:
    return load_contract()["components"]["schemas"]
