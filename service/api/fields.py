"""Marshmallow fields for the request bodies of SPEC.md §7.

They check shape and notation only (rules live in the engine) and fail with
coded messages, so every error becomes an RFC 9457 ``errors[]`` entry with a
stable ``code`` and an exact JSON pointer.

Card lists are the hot part of every deal state: one field checks a whole
nested list in one pass against ``CARD_BY_NAME`` (STYLE.md: a per-element
``List(List(CardField))`` costs six times as much) and, only when something is
wrong, walks it again to name every bad element.
"""
from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields

from service.rules import CARD_BY_NAME

CARD_HINT = "write suit S/H/D/C then rank 2-10/J/Q/K/A, upper case, e.g. 'SQ', 'C10'"


class CodedMessage(str):
    """An error message that carries the stable code of the problem it reports."""

    code: str

    def __new__(cls, code: str, text: str) -> CodedMessage:
        message = super().__new__(cls, text)
        message.code = code
        return message


def coded_error(code: str, text: str) -> ValidationError:
    return ValidationError(CodedMessage(code, text))


def _json_type(value: Any) -> str:
    """The JSON name of a decoded value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def card_message(value: Any) -> CodedMessage:
    if isinstance(value, str):
        return CodedMessage("invalid_card", f"{value!r} is not a card: {CARD_HINT}")
    return CodedMessage("invalid_card", f"a card is a string, not {_json_type(value)}: {CARD_HINT}")


def _card_errors(row: list) -> dict[int, list[CodedMessage]]:
    """Every bad element of a card list, by index (the slow path, errors only)."""
    return {i: [card_message(c)] for i, c in enumerate(row)
            if not (isinstance(c, str) and c in CARD_BY_NAME)}


def _parse_cards(row: list) -> tuple[int, ...]:
    """The cards of a list of notations; KeyError/TypeError when any is not a card."""
    return tuple(map(CARD_BY_NAME.__getitem__, row))


class StrictBoolean(fields.Field):
    """JSON ``true``/``false`` only: no ``"yes"``, no ``1``."""

    def _deserialize(self, value, attr, data, **kwargs):
        if value is True or value is False:
            return value
        raise coded_error("invalid_type", f"must be a boolean, not {_json_type(value)}")


class StrictInteger(fields.Field):
    """A JSON integer (not a float, string or boolean) within ``[minimum, maximum]``."""

    def __init__(self, *, minimum: int, maximum: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.minimum = minimum
        self.maximum = maximum

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is not int:
            raise coded_error("invalid_type", f"must be an integer, not {_json_type(value)}")
        if not self.minimum <= value <= self.maximum:
            raise coded_error("out_of_range",
                              f"must be between {self.minimum} and {self.maximum}, not {value}")
        return value


class Enum(fields.Field):
    """One of a fixed set of JSON values (compared by type and value)."""

    def __init__(self, choices: tuple, **kwargs) -> None:
        super().__init__(**kwargs)
        self.choices = choices

    def _deserialize(self, value, attr, data, **kwargs):
        for choice in self.choices:
            if type(value) is type(choice) and value == choice:
                return value
        listed = ", ".join(repr(c) for c in self.choices)
        raise coded_error("invalid_value", f"must be one of {listed}")


def _check_list(value: Any, what: str, min_items: int, max_items: int) -> None:
    if type(value) is not list:
        raise coded_error("invalid_type", f"{what} must be an array, not {_json_type(value)}")
    if not min_items <= len(value) <= max_items:
        size = f"exactly {min_items}" if min_items == max_items else f"{min_items} to {max_items}"
        raise coded_error("wrong_length", f"{what} must have {size} items, not {len(value)}")


def _row_error(row: Any, what: str, min_items: int, max_items: int):
    """The message(s) for one bad inner card list: its shape, or its bad cards."""
    try:
        _check_list(row, what, min_items, max_items)
    except ValidationError as error:
        return error.messages
    return _card_errors(row)


class CardList(fields.Field):
    """A list of card notations (a move, a play) -> tuple of engine cards."""

    def __init__(self, *, min_items: int, max_items: int, what: str = "a card list", **kwargs):
        super().__init__(**kwargs)
        self.min_items = min_items
        self.max_items = max_items
        self.what = what

    def _deserialize(self, value, attr, data, **kwargs):
        _check_list(value, self.what, self.min_items, self.max_items)
        try:
            return _parse_cards(value)
        except (KeyError, TypeError):
            raise ValidationError(_card_errors(value)) from None


class CardLists(fields.Field):
    """A list of card lists (hands, exposures, plays) checked in one pass.

    ``rows`` bounds the outer list; ``min_cards``/``max_cards`` bound each inner
    list. Returns a tuple of tuples of engine cards; on error, a message per bad
    inner list or per bad card (pointer ``/<field>/<i>/<j>``).
    """

    def __init__(self, *, min_rows: int, max_rows: int, min_cards: int, max_cards: int,
                 what: str, row_what: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.min_rows = min_rows
        self.max_rows = max_rows
        self.min_cards = min_cards
        self.max_cards = max_cards
        self.what = what
        self.row_what = row_what

    def _deserialize(self, value, attr, data, **kwargs):
        _check_list(value, self.what, self.min_rows, self.max_rows)
        low, high = self.min_cards, self.max_cards
        card_of = CARD_BY_NAME.__getitem__
        # Fast path: every row a list of the right length, every card known.
        if all(type(row) is list and low <= len(row) <= high for row in value):
            try:
                return tuple([tuple(map(card_of, row)) for row in value])
            except (KeyError, TypeError):
                pass
        errors = {}
        for i, row in enumerate(value):
            problem = _row_error(row, self.row_what, low, high)
            if problem:
                errors[i] = problem
        raise ValidationError(errors)
