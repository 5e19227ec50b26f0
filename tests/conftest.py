"""Shared fixtures: the Flask app and test client, and a live gunicorn server.

The live server runs the real entry point (``gongzhu.server.wsgi:app`` with
``gongzhu.server.gunicorn_conf``) on a free loopback port and is stopped after the
session. Tests that use it are marked ``live``.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gongzhu.api import create_app
from tests.servers import SERVE, free_port, start, stop

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT / "service" / "gongzhu" / "openapi.yaml"


def load_contract() -> dict:
    """openapi.yaml as data, parsed anew (the caller may change it) by libyaml: PyYAML's pure-Python
    parser takes over a second for it, and a dozen test modules read it as they are collected."""
    return yaml.load(CONTRACT.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


# A test's report property naming the folder its screenshots went to (tests/browser/).
SCREENSHOTS = "screenshots"


def pytest_terminal_summary(terminalreporter):
    """The folders of the browser tests' screenshots, from the reports of every process."""
    reports = [r for reports in terminalreporter.stats.values() for r in reports if hasattr(r, "user_properties")]
    folders = sorted({value for r in reports for name, value in r.user_properties if name == SCREENSHOTS})
    for folder in folders:
        terminalreporter.write_line(f"screenshots of the /table page: {folder}")


DRILLS = ROOT / "tests" / "faults"


# The files that take longest (wall time of each file in make test's main run, longest first), run
# first: pytest-xdist hands whole files (--dist loadfile) to its processes in this order (the Makefile
# passes --no-loadscope-reorder: xdist's own order, most tests first, put the one-test schemathesis
# file last and kept one process busy ~45 s after the others were done).
LONGEST_FIRST = ("tests/rules/test_properties.py", "tests/contract/test_generated_bodies.py",
                 "tests/browser/test_table_browser.py", "tests/contract/test_schemathesis.py",
                 "tests/solve/test_claims.py", "tests/sdk/test_sdk.py", "tests/api/test_answer_json.py",
                 "tests/api/test_robustness.py", "tests/contract/test_node_tools.py",
                 "tests/api/test_running_state.py", "tests/ops/test_packaging.py", "tests/deploy/test_deploy.py",
                 "tests/bot/test_inference.py")


def pytest_collection_modifyitems(config, items):
    """make test collects the drills (marker ``faults``) from tests/faults alone, so a drill anywhere else
    would never run there: refuse it. The longest files go first (``LONGEST_FIRST``)."""
    astray = [item.nodeid for item in items if item.get_closest_marker("faults") and DRILLS not in item.path.parents]
    if astray:
        raise pytest.UsageError(f"drills (mark faults) belong under tests/faults: {', '.join(astray[:5])}")
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))


@pytest.fixture(scope="session")
def app():
    return create_app()


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """Base URL of a server as make run starts it (2 workers) on 127.0.0.1; its log is kept in a file."""
    port = free_port()
    log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    base = f"http://127.0.0.1:{port}"
    # Reviews capped at 300 ms (the server's setting, as an operator may set it): a seeded review does the work
    # its budget buys whatever the clock says, and beside the suite's other processes one at 1 s outlasted its
    # stuck bound (2 x the budget + 5 s) and answered 503 to the fuzzer.
    # Ahead of the suite's own runners, as a pod owns its cores (where nice may not raise it, as it is): its
    # search processes, niced 10 below its workers, were starved to 503 busy behind the test processes.
    proc = start(["nice", "-n", "-10", *SERVE], log, f"{base}/readyz",
                 {"PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "2",
                  "GONGZHU_MAX_REVIEW_BUDGET_MS": "300"})
    try:
        yield base
    finally:
        stop(proc)
