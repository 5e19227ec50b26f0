"""rules.md §1 card notation (suit letter then rank, upper case, nothing else)
and the Card int encoding of docs/engine-api.md."""

import random
from collections import Counter

import pytest

import gongzhu.rules as R
from gongzhu.rules import CARD_NAMES, RuleError, format_cards, parse_card
from gongzhu.rules.cards import CARD_BY_NAME, format_card, full_deck, lowest_of_runs, plane_count

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
    assert (R.PIG, R.SHEEP, R.TRANSFORMER, R.cards.HEART_ACE) == cs("SQ DJ C10 HA")
    assert tuple(R.cards.EXPOSABLE) == cs("SQ DJ C10 HA")
    assert [R.cards.suit_of(card) for card in cs("SQ HA D2 C10")] == ["S", "H", "D", "C"]
    assert c("SQ") == 10


def _bits_by_loop(cards):
    """hand_bits as its definition: the first copy of a card on plane one, the second on plane two."""
    one = two = 0
    for card in cards:
        if one >> card & 1:
            two |= 1 << card
        else:
            one |= 1 << card
    return one | two << 52


def test_hand_bits_equals_its_definition_for_every_size_and_repeat():
    import random
    rng = random.Random(3)
    for _ in range(3000):
        size = rng.randrange(0, 30)
        # up to three copies: hands of one deck, two decks, and input with a card too often
        cards = [rng.randrange(52) for _ in range(size)]
        cards += rng.sample(cards, min(len(cards), rng.randrange(0, 4)))
        rng.shuffle(cards)
        assert R.cards.hand_bits(cards) == R.cards.hand_bits(tuple(cards)) == _bits_by_loop(cards), cards
    assert R.cards.hand_bits([]) == 0
    assert R.cards.hand_bits([c("SQ")]) == 1 << c("SQ")
    assert R.cards.hand_bits(cs("SQ SQ")) == 1 << c("SQ") | 1 << (c("SQ") + 52)
    assert R.cards.hand_bits(cs("SQ SQ SQ")) == R.cards.hand_bits(cs("SQ SQ"))


def test_lowest_of_runs_keeps_one_card_per_run():
    def bits(text):
        return sum(1 << parse_card(name) for name in text.split())

    def names(cards):
        return [format_card(c) for c in cards]
    # D2 D3 touch; D5 is apart from them by the D4 another seat holds; C2 is another suit
    assert names(lowest_of_runs(bits("D2 D3 D5 C2"), bits("D4"))) == ["D2", "D5", "C2"]
    # a boundary card in the run itself (two decks: the other copy is out) ends it there
    assert names(lowest_of_runs(bits("D2 D3 D5"), bits("D3"))) == ["D2", "D3", "D5"]
    # a card apart stands alone and does not join its neighbours either
    assert names(lowest_of_runs(bits("D2 D3 D5"), 0, bits("D3"))) == ["D2", "D3", "D5"]
    assert names(lowest_of_runs(bits("S9 S10 SJ SQ SK"), 0, bits("SQ"))) == ["S9", "SQ", "SK"]


def test_plane_count_counts_every_one_plane_mask_as_bit_count():
    rng = random.Random(5)
    masks = [0, (1 << 52) - 1, 1, 1 << 51] + [rng.getrandbits(rng.randrange(1, 53)) for _ in range(20000)]
    for mask in masks:
        assert plane_count(mask) == mask.bit_count(), mask
    assert plane_count(sum(1 << card for card in cs("S2 SQ HA DJ C10 CA"))) == 6
