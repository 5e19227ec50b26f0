"""The contract's card pattern, and the same set of strings spelled out as an enum.

Test-data generators (hypothesis-jsonschema, schemathesis) build a string of a regular
expression character by character, but draw from an enum at once; deals carry thousands of
cards, so the contract's tests give them the enum. ``test_the_card_enum_is_the_card_pattern``
(test_generated_bodies.py) proves both accept the same strings.
"""
CARD_PATTERN = "^[SHDC]([2-9]|10|[JQKA])$"
CARD_STRINGS = [suit + rank for suit in "SHDC" for rank in [*map(str, range(2, 11)), "J", "Q", "K", "A"]]
