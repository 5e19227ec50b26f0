"""make test's last lines (mk/summary.py): each part and whether it passed, the run's status from them."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SUMMARY = Path(__file__).resolve().parents[2] / "mk" / "summary.py"


def summary(*parts: str) -> tuple[int, list[str]]:
    done = subprocess.run([sys.executable, str(SUMMARY), *parts], capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout.splitlines()


def test_every_part_passed_and_an_empty_selection_counts_as_passed():
    assert summary("main run=0", "drills=5", "pure pass=0") == (0, [
        "--- make test: each part", "main run   passed", "drills     passed", "pure pass  passed",
        "make test: every part passed"])


def test_the_last_line_names_each_part_that_failed_or_did_not_run():
    status, lines = summary("main run=1", "drills=skipped", "pure pass=2")
    assert status == 1
    assert lines[1:] == ["main run   FAILED (exit status 1: its report is above)",
                         "drills     not run (the main run failed)",
                         "pure pass  FAILED (exit status 2: its report is above)",
                         "make test: FAILED: main run, drills, pure pass"]
