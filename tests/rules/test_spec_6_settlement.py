"""rules.md §6: normalization (largest remainder), ×12 final, partnership,
ingots (元宝) and titles (等级), examples 6.1–6.7 (numbered by the test names)."""

import pytest

from gongzhu.rules import Rules, final_scores, settle_ingots, title_for
from gongzhu.rules.settlement import normalize, partnership

from . import oracle as O


def transfers_of(ingots):
    return sorted((t.payer, t.payee, t.amount) for t in ingots.transfers)


def test_spec_6_1_normalize_largest_remainder():
    assert tuple(normalize((-290, -10, 100, 0))) == (-320, 53, 200, 67)


def test_spec_6_2_normalize_ties_go_to_the_lower_seat():
    assert tuple(normalize((800, 0, 0, 0))) == (800, -266, -267, -267)


def test_spec_6_1_final_one_deck_is_twelve_times_two_decks_is_normalized():
    raw = (-290, -10, 100, 0)
    assert tuple(final_scores(Rules(), raw)) == (-3840, 636, 2400, 804)
    assert tuple(final_scores(Rules(decks=2), raw)) == (-320, 53, 200, 67)


def test_spec_6_3_partnership():
    raw = (-190, 50, -10, 0)
    assert tuple(partnership(raw)) == (-125, 125, -125, 125)
    assert tuple(final_scores(Rules(partnership=True), raw)) == (-1500, 1500, -1500, 1500)
    assert tuple(final_scores(Rules(decks=2, partnership=True), raw)) == (-125, 125, -125, 125)


def test_spec_6_4_ingots_single_winner():
    ingots = settle_ingots((100, 0, -200, -200), 1)
    assert tuple(ingots.net) == (700, -100, -300, -300)
    assert list(ingots.winners) == [0]
    assert transfers_of(ingots) == [(1, 0, 100), (2, 0, 300), (3, 0, 300)]


def test_spec_6_5_ingots_two_winners():
    ingots = settle_ingots((100, 100, -200, 0), 1)
    assert tuple(ingots.net) == (400, 400, -600, -200)
    assert list(ingots.winners) == [0, 1]
    assert transfers_of(ingots) == [(2, 0, 300), (2, 1, 300), (3, 0, 100), (3, 1, 100)]


def test_spec_6_6_ingots_room_multiplier():
    ingots = settle_ingots((0, 0, -300, 100), 2)
    assert tuple(ingots.net) == (-200, -200, -800, 1200)
    assert list(ingots.winners) == [3]


def test_ingots_room_fee_is_deducted_from_every_seat():
    ingots = settle_ingots((100, 0, -200, -200), 1, fee=10)
    assert tuple(ingots.net) == (690, -110, -310, -310)


def test_ingots_all_equal_everyone_wins_nothing_moves():
    ingots = settle_ingots((-50, -50, -50, -50), 3)
    assert tuple(ingots.net) == (0, 0, 0, 0)
    assert list(ingots.winners) == [0, 1, 2, 3]
    assert transfers_of(ingots) == []


@pytest.mark.parametrize(
    ("points", "name"),
    [
        (-50, "猪小弟"),
        (10000, "猪倌"),
        (-100000, "微型猪"),
        (-300000, "架子猪"),
        (-60000000, "八戒"),
        (250000000, "帝王"),
    ],
)
def test_spec_6_7_titles(points, name):
    assert title_for(points).name == name


@pytest.mark.parametrize(
    ("points", "name"),
    [
        (-99999, "猪小弟"),
        (0, "猪小弟"),
        (9999, "猪小弟"),
        (-100001, "微型猪"),
        (-299999, "微型猪"),
        (-300001, "架子猪"),
        (49999, "猪倌"),
        (50000, "猎人"),
        (99999999, "王爷"),
        (100000000, "帝王"),
        (-49999999, "猪圣"),
        (-50000000, "八戒"),
    ],
)
def test_title_boundaries(points, name):
    assert title_for(points).name == name


@pytest.mark.parametrize("points", sorted({p for _, at in O.TITLES for p in (at - 1, at, at + 1)}))
def test_every_title_threshold_is_the_oracles(points):
    assert title_for(points).name == O.title_for(points)
