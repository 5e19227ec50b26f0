"""docs/rules.md is true to the code: every ``>>>`` example in it runs."""
import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_rules_doc_examples_run():
    result = doctest.testfile(str(DOC), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 30
    assert result.failed == 0
