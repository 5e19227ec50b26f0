"""The card enum the contract's generators draw from (cards.py) is the contract's card pattern."""
import re

from tests.conftest import load_contract
from tests.contract.cards import CARD_PATTERN, CARD_STRINGS, with_card_enum


def test_the_card_enum_is_the_card_pattern():
    assert load_contract()["components"]["schemas"]["Card"]["pattern"] == CARD_PATTERN
    pattern = re.compile(CARD_PATTERN)
    assert len(set(CARD_STRINGS)) == 52 and all(pattern.fullmatch(c) for c in CARD_STRINGS)
    # every string the pattern matches: a suit letter and one of 13 ranks, nothing else
    candidates = {s + r for s in "SHDCX" for r in [*map(str, range(12)), "J", "Q", "K", "A", "1", "B"]}
    assert {c for c in candidates if pattern.fullmatch(c)} == set(CARD_STRINGS)


def test_only_the_card_schema_changes():
    original, changed = load_contract(), with_card_enum(load_contract())
    card = changed["components"]["schemas"].pop("Card")
    assert card == {**{k: v for k, v in original["components"]["schemas"].pop("Card").items() if k != "pattern"},
                    "enum": CARD_STRINGS}
    assert changed == original
