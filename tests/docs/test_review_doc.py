"""docs/review.md is true to the code: its worked deal runs as written (the review's exact values in the
last tricks, an estimate from what the seat knew)."""
import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "review.md"


def test_review_doc_examples_run():
    result = doctest.testfile(str(DOC), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted >= 14
