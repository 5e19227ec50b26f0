"""The worked examples and card values of the traditional rule text R (quoted
in docs/rules.md), each as a test named after it."""

import pytest

import gongzhu.rules as R
from gongzhu.rules import Rules, final_scores, legal_moves, rank_trick, replay, score_cards, settle_ingots
from gongzhu.rules.settlement import normalize

from .helpers import build_hands, c, cs

ONE_DECK = Rules()
TWO_DECKS = Rules(decks=2)
HEARTS = "H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK HA"

# R 【等级规则】
R_TITLES = {
    "八戒": -50000000, "猪圣": -10000000, "猪神": -5000000, "猪王": -1000000,
    "乳猪格格": -700000, "野猪": -500000, "架子猪": -300000, "微型猪": -100000,
    "猪小弟": 0, "猪倌": 10000, "猎人": 50000, "屠夫": 100000, "饲养员": 200000,
    "优秀饲养员": 300000, "养猪专业户": 400000, "地主": 600000, "知县": 800000,
    "知州": 1000000, "知府": 3000000, "巡抚": 5000000, "大学士": 7000000,
    "宰相": 10000000, "王爷": 50000000, "帝王": 100000000,
}


def raw_of(rules, taken, exposed=""):
    return score_cards(rules, [cs(taken), (), (), ()], [(), cs(exposed), (), ()]).raw[0]


def test_seed_normalization_example():
    raw = (-120, -280, 0, 160)
    assert tuple(normalize(raw)) == (-80, -293, 80, 293)
    assert tuple(final_scores(ONE_DECK, raw)) == (-960, -3516, 960, 3516)


def test_seed_partnership_example():
    assert tuple(final_scores(Rules(partnership=True), (-190, 50, -10, 0))) == (-1500, 1500, -1500, 1500)


def test_seed_ingots_example():
    assert tuple(settle_ingots((100, 0, -200, -200), 1, 0).net) == (700, -100, -300, -300)


def test_seed_two_deck_minus_3200():
    assert raw_of(TWO_DECKS, "HA C10 C10", "HA HA SQ SQ C10 C10") == -3200


def test_seed_two_deck_minus_12800():
    assert raw_of(TWO_DECKS, "SQ SQ C10 C10", "HA HA SQ SQ C10 C10") == -12800


def test_seed_two_deck_trick_example():
    result = rank_trick(TWO_DECKS, 0, [cs("S4 S4"), cs("SK SK"), cs("SQ S8"), cs("SJ HK")])
    assert list(result.ranking) == [2, 1, 0, 3]
    assert sorted(result.point_cards) == sorted(cs("SQ HK"))


@pytest.mark.parametrize(
    ("card", "plain", "exposed"),
    [
        ("SQ", -100, -200), ("DJ", 100, 200),
        ("H2", 0, 0), ("H3", 0, 0), ("H4", 0, 0),
        ("H5", -10, -20), ("H6", -10, -20), ("H7", -10, -20), ("H8", -10, -20), ("H9", -10, -20), ("H10", -10, -20),
        ("HJ", -20, -40), ("HQ", -30, -60), ("HK", -40, -80), ("HA", -50, -100),
        ("C10", 50, 100),
        ("S2", 0, 0), ("DA", 0, 0), ("CK", 0, 0), ("D10", 0, 0), ("SJ", 0, 0),
    ],
)
def test_seed_one_deck_values(card, plain, exposed):
    # "exposed": the card's own exposure (HA for a heart: all hearts ×2).
    doubling = "HA" if card.startswith("H") else card if card in ("SQ", "DJ", "C10") else ""
    assert raw_of(ONE_DECK, card) == plain
    assert raw_of(ONE_DECK, card, doubling) == exposed


def test_seed_all_hearts_200_and_400():
    assert raw_of(ONE_DECK, HEARTS) == 200
    assert raw_of(ONE_DECK, HEARTS, "HA") == 400


def test_seed_two_deck_all_hearts_400_800_1600():
    both = HEARTS + " " + HEARTS
    assert [raw_of(TWO_DECKS, both, e) for e in ("", "HA", "HA HA")] == [400, 800, 1600]


def test_seed_grand_slam_800_and_two_decks_1600():
    assert raw_of(ONE_DECK, HEARTS + " SQ DJ C10") == 800
    assert raw_of(TWO_DECKS, HEARTS + " SQ DJ C10 " + HEARTS + " SQ DJ C10") == 1600


def test_seed_transformer_alone_50_and_100():
    assert raw_of(ONE_DECK, "C10") == 50
    assert raw_of(ONE_DECK, "C10", "C10") == 100


def test_seed_transformer_with_others_summing_to_zero_is_zero():
    assert raw_of(ONE_DECK, "C10 SQ DJ") == 0
    assert raw_of(ONE_DECK, "C10 H2 H4") == 0


def test_seed_transformer_doubles_then_quadruples_the_others():
    assert raw_of(ONE_DECK, "C10 SQ") == -200
    assert raw_of(ONE_DECK, "C10 SQ", "C10") == -400


def test_seed_first_lead_must_be_the_club_two():
    hands = build_hands({2: "C2"})
    state = replay(ONE_DECK, hands=hands)
    assert state.seat == 2
    assert legal_moves(state) == [(c("C2"),)]


def test_seed_fourth_card_exposed_automatically():
    hands = build_hands({0: "C10", 1: "SQ", 2: "DJ", 3: "HA"})
    for missing, holder in (("C10", 0), ("SQ", 1), ("DJ", 2), ("HA", 3)):
        exposed = [cs(name) if name != missing else () for name in ("C10", "SQ", "DJ", "HA")]
        effective = R.exposure.effective_exposure(ONE_DECK, hands, exposed)
        assert [sorted(seat) for seat in effective] == [[c(n)] for n in ("C10", "SQ", "DJ", "HA")], missing
        assert list(effective[holder]) == [c(missing)]


def test_seed_two_exposures_do_not_expose_the_others():
    hands = build_hands({0: "C10", 1: "SQ", 2: "DJ", 3: "HA"})
    effective = R.exposure.effective_exposure(ONE_DECK, hands, [cs("C10"), cs("SQ"), (), ()])
    assert [list(seat) for seat in effective] == [[c("C10")], [c("SQ")], [], []]


def test_seed_titles_table():
    assert {title.name: title.points for title in R.titles.TITLES} == R_TITLES
    assert len(R.titles.TITLES) == len(R_TITLES)
