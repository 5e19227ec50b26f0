"""The contract's card pattern, and the same set of strings spelled out as an enum.

Test-data generators (hypothesis-jsonschema, schemathesis) build a string of a regular
expression character by character, but draw from an enum at once; deals carry thousands of
cards, so the contract's tests give them the contract with the enum (``with_card_enum``).
test_cards.py proves both accept the same strings.
"""
CARD_PATTERN = "^[SHDC]([2-9]|10|[JQKA])$"
CARD_STRINGS = [suit + rank for suit in "SHDC" for rank in [*map(str, range(2, 11)), "J", "Q", "K", "A"]]


def with_card_enum(document: dict) -> dict:
    """``document`` (the contract, as data) with its ``Card`` schema's pattern replaced by the enum of
    the strings the pattern matches: the same set of cards, changed in place and returned."""
    card = document["components"]["schemas"]["Card"]
    assert card.pop("pattern") == CARD_PATTERN, "the contract's card pattern is not the one cards.py spells out"
    card["enum"] = list(CARD_STRINGS)
    return document
