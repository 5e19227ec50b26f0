"""docs/engine-api.md is true to the code: every ``>>>`` example of its embedding
section runs (dealing, legal moves, applying a move, scoring, claims, the bot, and
the HTTP semantics in process), in order, in one namespace."""
import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine-api.md"


def doctested(doc: Path) -> doctest.TestResults:
    """Every ``>>>`` example of ``doc`` run, in order, in one namespace."""
    return doctest.testfile(str(doc), module_relative=False,
                            optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)


def test_engine_api_doc_examples_run():
    result = doctested(DOC)
    assert result.failed == 0
    assert result.attempted >= 50


def test_every_example_block_is_doctested():
    """A ```pycon block is only run when it ends with a blank line before its fence."""
    text = DOC.read_text(encoding="utf-8")
    blocks = text.split("```pycon\n")[1:]
    assert len(blocks) >= 8
    for block in blocks:
        body = block.split("```", 1)[0]
        assert body.startswith(">>> ") and body.endswith("\n\n"), body[:80]
