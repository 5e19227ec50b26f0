"""The contract's cards are the engine's: the ``Card`` schema's enum is the 52 card names in card order
(docs/rules.md: S2 … SA, H2 … HA, D2 … DA, C2 … CA), so generated clients get that typed union."""
from gongzhu.rules import CARD_NAMES
from tests.conftest import load_contract


def test_the_card_enum_is_the_engines_card_names_in_order():
    card = load_contract()["components"]["schemas"]["Card"]
    assert card["enum"] == list(CARD_NAMES)
    assert CARD_NAMES[:13] == ("S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "SJ", "SQ", "SK", "SA")
    assert [name[0] for name in CARD_NAMES[::13]] == ["S", "H", "D", "C"]
    assert "pattern" not in card and card["type"] == "string"
