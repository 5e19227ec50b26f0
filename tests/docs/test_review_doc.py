"""docs/review.md is true to the code: its worked deal runs as written (the review's exact values in the
last tricks, an estimate from what the seat knew)."""
from pathlib import Path

from tests.docs.test_engine_api_doc import doctested

DOC = Path(__file__).resolve().parents[2] / "docs" / "review.md"


def test_review_doc_examples_run():
    result = doctested(DOC)
    assert result.failed == 0
    assert result.attempted >= 14
