"""Answers' JSON text (``gongzhu.api.json_text``) is what ``json.dumps`` (compact,
``ensure_ascii=False``) writes for the same values, byte for byte: plain values of every
JSON type, and answers whose card lists were written as text when they were built."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu.api import json_text
from gongzhu.api.schemas import card_lists, cards
from gongzhu.rules import CARD_NAMES

SCALARS = st.none() | st.booleans() | st.integers(-(10 ** 20), 10 ** 20) | st.text() \
    | st.floats(allow_nan=False, allow_infinity=False)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=30)
# rows as the engine gives them (tuples) and as lists; plays of one and two cards most often
ROWS = st.lists(st.one_of(st.lists(st.integers(0, 51), max_size=14), st.lists(st.integers(0, 51), min_size=1,
                                                                               max_size=2))
                .flatmap(lambda row: st.sampled_from([tuple(row), row])), max_size=15)


def dumps(value) -> bytes:
    return (json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


@settings(max_examples=600, deadline=None)
@given(value=VALUES)
def test_plain_values_are_written_as_json_dumps_writes_them(value):
    assert json_text.encode(value) == dumps(value)


@settings(max_examples=300, deadline=None)
@given(rows=ROWS, row=st.lists(st.integers(0, 51), max_size=26).map(tuple), extra=VALUES)
def test_card_lists_written_as_text_are_the_lists_of_names(rows, row, extra):
    names = [[CARD_NAMES[c] for c in r] for r in rows]
    answer = {"moves": card_lists(rows), "hand": cards(row), "plays": [{"seat": 1, "cards": cards(row)}],
              "extra": extra}
    expected = {"moves": names, "hand": [CARD_NAMES[c] for c in row],
                "plays": [{"seat": 1, "cards": [CARD_NAMES[c] for c in row]}], "extra": extra}
    assert json_text.encode(answer) == dumps(expected)


def test_a_number_json_cannot_write_is_refused():
    import math

    import pytest

    for value in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError):
            json_text.encode({"x": value})


def test_card_names_in_rows_are_the_engines_cards():
    from gongzhu.rules.cards import CARD_BY_NAME
    rows = [[name] for name in CARD_NAMES] + [list(CARD_NAMES), [], ["C10", "C10"], ["HA", "H10", "SQ"]]
    assert json_text.card_rows_in(rows) == tuple(tuple(CARD_BY_NAME[n] for n in row) for row in rows)
    assert json_text.cards_in(list(CARD_NAMES)) == tuple(range(len(CARD_NAMES)))


def test_rows_of_names_as_sent_are_written_as_json_writes_them():
    rows = [list(CARD_NAMES[:13]), [], ["C10"], ["SQ", "SQ"], list(CARD_NAMES)]
    assert json_text.names_rows_text(rows).text + "\n" == dumps(rows).decode()
    assert json_text.card_rows_text(((), (), (), ())).text == "[[],[],[],[]]"
