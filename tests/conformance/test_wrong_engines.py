"""The suite catches wrong engines: the pure build with one scoring rule or one legality rule changed in its
source fails the conformance run in process, and the report names the cases that caught it; sent through
batches (``--batch``) as well."""
from __future__ import annotations

import subprocess
import sys

import pytest

from bench._builds import pure_copy, pure_env

# (module, the rule's text, the wrong rule, a case that must catch it, the runner's options)
WRONG_RULES = [
    pytest.param("scoring.py", "TRANSFORMER_ALONE: Final = 25", "TRANSFORMER_ALONE: Final = 20",
                 "score-1d-transformer-alone", [], id="scoring-lone-transformer-20"),
    pytest.param("moves.py", "return _without_banned(options) if ban else options", "return options",
                 "ban-1d-follower-c10", [], id="legality-first-trick-ban-ignored"),
    pytest.param("tricks.py", "return (FIRST if suit == DIAMONDS else SECOND)",
                 "return (FIRST if suit != DIAMONDS else SECOND)", "trick-2d-hand-diamonds-pairs-win", [],
                 id="ranking-diamond-pairs-as-other-suits"),
    pytest.param("moves.py", "return _without_banned(options) if ban else options", "return options",
                 "ban-1d-follower-c10", ["--batch"], id="legality-first-trick-ban-ignored-through-batches"),
]


@pytest.mark.parametrize(("module", "rule", "wrong", "catcher", "options"), WRONG_RULES)
def test_a_changed_rule_fails_the_suite_and_is_named(tmp_path, module, rule, wrong, catcher, options):
    root = pure_copy(tmp_path / "src")
    path = root / "gongzhu" / "rules" / module
    source = path.read_text(encoding="utf-8")
    assert source.count(rule) == 1, f"{module} no longer states the rule as {rule!r}: update this test"
    path.write_text(source.replace(rule, wrong), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "gongzhu", "conformance", "--in-process", *options],
                          capture_output=True, text=True, env=pure_env(root) | {"PYTHONDONTWRITEBYTECODE": "1"},
                          timeout=600)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert f"FAIL {catcher} (" in done.stdout
    last = done.stdout.splitlines()[-1]
    passed, failed = (int(n) for n in last.replace(" passed, ", " ").replace(" failed", "").split())
    assert failed >= 1 and passed + failed > 400
