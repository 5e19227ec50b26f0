"""rules.md §1 card notation (suit letter then rank, upper case, nothing else)
and the Card int encoding of docs/engine-api.md."""

from collections import Counter

import pytest

import service.rules as R
from service.rules import CARD_BY_NAME, CARD_NAMES, RuleError, format_card, format_cards, full_deck, parse_card

from .helpers import CARD, NAMES, c, cs


def test_card_encoding_is_suit_times_13_plus_rank():
    assert CARD_BY_NAME == CARD
    assert tuple(CARD_NAMES) == NAMES
    assert (CARD_BY_NAME["S2"], CARD_BY_NAME["SQ"], CARD_BY_NAME["C2"], CARD_BY_NAME["CA"]) == (0, 10, 39, 51)


def test_parse_and_format_round_trip_every_card():
    for name in NAMES:
        assert format_card(parse_card(name)) == name
        assert parse_card(name) == CARD[name]
    assert format_cards(cs("SQ DJ C10 HA")) == ["SQ", "DJ", "C10", "HA"]


@pytest.mark.parametrize(
    "text",
    ["sq", "S1", "S11", "10C", " SQ", "SQ ", "", "S", "Q", "X5", "SQQ", "S02", "S+2", "S٢", "Ｓ2", "S10\n",
     "H0", "C1O", "s10", "Sq", "T10", "S 2", "DJ,", "♠Q"],
)
def test_invalid_notation_is_rejected_with_invalid_card(text):
    with pytest.raises(RuleError) as caught:
        parse_card(text)
    assert caught.value.code == "invalid_card"


def test_full_decks():
    assert tuple(full_deck(1)) == tuple(range(52))
    assert Counter(full_deck(2)) == Counter(dict.fromkeys(range(52), 2))
    assert len(full_deck(2)) == 104


def test_named_cards_and_suits():
    assert (R.PIG, R.SHEEP, R.TRANSFORMER, R.HEART_ACE) == cs("SQ DJ C10 HA")
    assert tuple(R.EXPOSABLE) == cs("SQ DJ C10 HA")
    assert [R.suit_of(card) for card in cs("SQ HA D2 C10")] == ["S", "H", "D", "C"]
    assert c("SQ") == 10
