"""rules.md §5: raw scores (hearts, pig, sheep, transformer, 满红, 满贯), one deck
and two decks, examples 5.1–5.18 (numbered by the test names), via score_cards."""

import pytest

from gongzhu.rules import Rules, score_cards

from .helpers import cs

ONE_DECK = Rules()
TWO_DECKS = Rules(decks=2)
HEARTS = "H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK HA"
ALL_SCORING = HEARTS + " SQ DJ C10"


def raw_of(rules, taken, exposed=""):
    """Seat 0 takes the cards; the exposures are listed under seat 1 (the
    effect belongs to the card, not to the seat that exposed it)."""
    sheet = score_cards(rules, [cs(taken), (), (), ()], [(), cs(exposed), (), ()])
    assert tuple(sheet.raw[1:]) == (0, 0, 0)
    return sheet.raw[0]


def test_spec_5_1_transformer_alone():
    assert raw_of(ONE_DECK, "C10", "") == 50


def test_spec_5_2_transformer_alone_exposed():
    assert raw_of(ONE_DECK, "C10", "C10") == 100


def test_spec_5_3_transformer_with_zero_heart_is_zero():
    assert raw_of(ONE_DECK, "C10 H3", "") == 0


def test_spec_5_4_transformer_with_pig_and_sheep_is_zero():
    assert raw_of(ONE_DECK, "C10 SQ DJ", "") == 0


def test_spec_5_5_transformer_with_exposed_pig_and_sheep():
    assert raw_of(ONE_DECK, "C10 SQ DJ", "SQ") == -200


def test_spec_5_6_transformer_doubles_hearts():
    assert raw_of(ONE_DECK, "C10 HK H5", "") == -100


def test_spec_5_7_everything_exposed_quadruples():
    assert raw_of(ONE_DECK, "C10 SQ HA", "C10 SQ HA") == -1200


def test_spec_5_8_exposed_heart_ace_doubles_hearts():
    assert raw_of(ONE_DECK, HEARTS.replace(" HA", ""), "HA") == -300


def test_spec_5_9_all_hearts():
    assert raw_of(ONE_DECK, HEARTS, "") == 200


def test_spec_5_10_all_hearts_pig_stays_negative():
    assert raw_of(ONE_DECK, HEARTS + " SQ", "") == 100


def test_spec_5_11_all_hearts_with_exposed_transformer():
    assert raw_of(ONE_DECK, HEARTS + " C10", "HA C10") == 1600


def test_spec_5_12_grand_slam():
    assert raw_of(ONE_DECK, ALL_SCORING, "") == 800


def test_spec_5_13_grand_slam_all_exposed():
    assert raw_of(ONE_DECK, ALL_SCORING, "SQ DJ HA C10") == 3200


def test_spec_5_14_grand_slam_sheep_exposed():
    assert raw_of(ONE_DECK, ALL_SCORING, "DJ") == 1000


def test_spec_5_15_two_decks_heart_ace_and_both_transformers():
    assert raw_of(TWO_DECKS, "HA C10 C10", "HA HA SQ SQ C10 C10") == -3200


def test_spec_5_16_two_decks_both_pigs_and_both_transformers():
    assert raw_of(TWO_DECKS, "SQ SQ C10 C10", "HA HA SQ SQ C10 C10") == -12800


def test_spec_5_17_two_decks_both_transformers_alone():
    assert raw_of(TWO_DECKS, "C10 C10") == 100


def test_spec_5_18_two_decks_all_hearts_one_heart_ace_exposed():
    assert raw_of(TWO_DECKS, HEARTS + " " + HEARTS, "HA") == 800


def test_spec_5_9_and_5_12_breakdown_flags():
    sheet = score_cards(ONE_DECK, [cs(HEARTS), cs("SQ DJ C10"), (), ()], [(), (), (), ()])
    assert (sheet.seats[0].all_hearts, sheet.seats[0].grand_slam) == (True, False)
    assert sheet.seats[1].all_hearts is False
    sheet = score_cards(ONE_DECK, [cs(ALL_SCORING), (), (), ()], [(), (), (), ()])
    assert (sheet.seats[0].all_hearts, sheet.seats[0].grand_slam) == (True, True)
    assert sheet.seats[0].raw == 800


@pytest.mark.parametrize(
    ("rules", "taken", "exposed", "factor"),
    [
        (ONE_DECK, "C10", "", 2),
        (ONE_DECK, "C10 H5", "C10", 4),
        (TWO_DECKS, "C10 C10", "", 4),
        (TWO_DECKS, "HA C10 C10", "HA HA SQ SQ C10 C10", 16),
    ],
)
def test_transformer_factor_in_breakdown(rules, taken, exposed, factor):
    sheet = score_cards(rules, [cs(taken), (), (), ()], [(), cs(exposed), (), ()])
    assert sheet.seats[0].transformer_factor == factor


@pytest.mark.parametrize(
    ("tens", "exposed", "raw"),
    [
        # ♥5 (−10) with the transformer: n = 1 → ×2 (k=0), ×4 (k≥1);
        # n = 2 → ×4, ×8, ×16 (k = 0, 1, 2).
        ("C10", "", -20),
        ("C10", "C10", -40),
        ("C10", "C10 C10", -40),
        ("C10 C10", "", -40),
        ("C10 C10", "C10", -80),
        ("C10 C10", "C10 C10", -160),
    ],
)
def test_two_deck_transformer_factors(tens, exposed, raw):
    assert raw_of(TWO_DECKS, tens + " H5", exposed) == raw


@pytest.mark.parametrize(
    ("taken", "exposed", "raw"),
    [
        ("SQ", "", -100),
        ("SQ SQ", "SQ", -400),
        ("SQ SQ", "SQ SQ", -800),
        ("DJ DJ", "DJ", 400),
        ("H5 H5 HA", "HA HA", -280),
        ("C10", "", 50),
        ("C10", "C10", 100),
        ("C10", "C10 C10", 100),
        ("C10 SQ DJ", "", 0),
    ],
)
def test_two_deck_card_values(taken, exposed, raw):
    assert raw_of(TWO_DECKS, taken, exposed) == raw


def test_two_deck_grand_slam_is_1600():
    assert raw_of(TWO_DECKS, ALL_SCORING + " " + ALL_SCORING) == 1600


def test_two_deck_grand_slam_with_everything_exposed():
    # (400·4 + 200·4 + 200·4) × 2^(1+2)
    both = "HA HA SQ SQ DJ DJ C10 C10"
    assert raw_of(TWO_DECKS, ALL_SCORING + " " + ALL_SCORING, both) == 25600


def test_two_deck_all_hearts_without_exposure_is_400_and_1600_with_both_aces():
    assert raw_of(TWO_DECKS, HEARTS + " " + HEARTS) == 400
    assert raw_of(TWO_DECKS, HEARTS + " " + HEARTS, "HA HA") == 1600


def test_all_hearts_pig_stays_negative_by_default():
    assert raw_of(ONE_DECK, HEARTS + " SQ", "SQ") == 0


def test_all_hearts_pig_flips_with_the_rule_option():
    flips = Rules(pig_flips_with_all_hearts=True)
    assert raw_of(flips, HEARTS + " SQ") == 300
    assert raw_of(Rules(decks=2, pig_flips_with_all_hearts=True), HEARTS + " " + HEARTS + " SQ SQ") == 600


def test_all_hearts_with_sheep_on_top():
    assert raw_of(ONE_DECK, HEARTS + " DJ", "DJ HA") == 600


def test_twelve_hearts_are_not_all_hearts():
    assert raw_of(ONE_DECK, HEARTS.replace("H2 ", "")) == -200
    assert raw_of(TWO_DECKS, HEARTS + " " + HEARTS.replace("H2 ", "")) == -400


def test_scores_of_several_seats_at_once():
    sheet = score_cards(ONE_DECK, [cs("SQ H5"), cs("DJ"), cs("C10"), cs("HA S2")], [(), (), (), ()])
    assert tuple(sheet.raw) == (-110, 100, 50, -50)
