"""The conformance cases' drafts (mk/conformance_cases.py) checked, as ``--check`` does: every scenario sent to
the app in process agrees with its hand-worked answer and with the rules oracle (tests/rules/oracle.py: the
seeded deal, scores, ingots and trick rankings), so the oracle that drafted the committed cases is the one the
rules tests run, and it runs here."""
from __future__ import annotations

import re
import subprocess
import sys

from tests.conftest import ROOT

DRAFTS = ROOT / "mk" / "conformance_cases.py"


def test_every_drafted_case_agrees_with_the_app_and_the_oracle():
    done = subprocess.run([sys.executable, str(DRAFTS), "--check"], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    drafted = re.fullmatch(r"(\d+) cases, (\d+) two-deck, in (\d+) files", done.stdout.strip().splitlines()[-1])
    assert drafted and int(drafted[1]) > int(drafted[2]) > 0, done.stdout[-500:]
