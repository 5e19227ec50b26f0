"""Answers are written by orjson (``pipeline.encode``, ``problems.render``) byte for byte as ``json.dumps``
(compact, ``ensure_ascii=False``) wrote them before: every JSON value an answer holds (the contract's answers
have integers, never a float), and answers built from engine values."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu.api.engine_values import card_rows_in, cards_in
from gongzhu.api.pipeline import encode
from gongzhu.api.results import card_lists, cards
from gongzhu.rules import CARD_NAMES
from gongzhu.rules.cards import CARD_BY_NAME

SCALARS = st.none() | st.booleans() | st.integers(-(2 ** 63), 2 ** 64 - 1) | st.text()
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=30)


def dumps(value) -> bytes:
    return (json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


@settings(max_examples=600, deadline=None)
@given(value=VALUES)
def test_answer_values_are_written_as_json_dumps_writes_them(value):
    assert encode(value) == dumps(value)


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.lists(st.integers(0, 51), max_size=14).map(tuple), max_size=15),
       row=st.lists(st.integers(0, 51), max_size=26).map(tuple))
def test_rows_of_cards_are_written_as_their_names(rows, row):
    answer = {"moves": card_lists(rows), "hand": cards(row), "plays": [{"seat": 1, "cards": cards(row)}]}
    expected = {"moves": [[CARD_NAMES[c] for c in r] for r in rows], "hand": [CARD_NAMES[c] for c in row],
                "plays": [{"seat": 1, "cards": [CARD_NAMES[c] for c in row]}]}
    assert encode(answer) == dumps(expected)


def test_card_names_in_rows_are_the_engines_cards():
    rows = [[name] for name in CARD_NAMES] + [list(CARD_NAMES), [], ["C10", "C10"], ["HA", "H10", "SQ"]]
    assert card_rows_in(rows) == tuple(tuple(CARD_BY_NAME[n] for n in row) for row in rows)
    assert cards_in(list(CARD_NAMES)) == tuple(range(len(CARD_NAMES)))


def test_a_pile_is_written_as_the_names_of_its_cards():
    import random

    from gongzhu.api.results import pile
    from gongzhu.rules.cards import PLANE, bits_cards, hand_bits

    rng = random.Random(7)
    deck = list(range(52))
    for decks in (1, 2, 2):
        for _ in range(300):
            taken = rng.sample(deck * decks, rng.randrange(0, 52 * decks + 1))
            for bits in (hand_bits(taken), 0, rng.getrandbits(2 * PLANE) & hand_bits(deck * 2)):
                assert pile(bits) == cards(bits_cards(bits))
