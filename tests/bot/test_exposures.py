"""suggest_exposures: only exposable cards the hand holds, by the documented thresholds."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gongzhu.bot import suggest_exposures
from gongzhu.rules import Rules, deal_hands, parse_card, replay
from gongzhu.rules.cards import EXPOSABLE

FIXED = {"derandomize": True, "deadline": None, "database": None, "suppress_health_check": list(HealthCheck)}


def cards(text):
    return tuple(parse_card(name) for name in text.split())


def test_guarded_sheep_is_exposed():
    hand = cards("DJ DQ DK D2 S3 S4 S5 H2 H3 C4 C5 C6 C7")
    assert suggest_exposures(Rules(), hand) == (cards("DJ"), "sheep_guarded")


def test_sheep_with_one_guard_is_kept_back():
    hand = cards("DJ DQ D3 D2 S3 S4 S5 H2 H3 C4 C5 C6 C7")
    assert suggest_exposures(Rules(), hand) == ((), "none")


def test_pig_with_four_low_spades_is_exposed():
    hand = cards("SQ S2 S3 S4 S5 H2 H3 C4 C5 C6 C7 D2 D3")
    assert suggest_exposures(Rules(), hand) == (cards("SQ"), "pig_protected")


def test_pig_beside_the_spade_king_is_kept_back():
    hand = cards("SQ SK S2 S3 S4 S5 H2 C4 C5 C6 C7 D2 D3")
    assert suggest_exposures(Rules(), hand) == ((), "none")


def test_long_hearts_expose_the_heart_ace_and_transformer_never():
    # the sheep has two guards but only three diamonds: kept back
    hand = cards("HA HK HQ H2 H3 H4 H5 C10 C2 DJ DA DK S2")
    assert suggest_exposures(Rules(), hand) == (cards("HA"), "hearts_long")


def test_two_reasons_join_with_plus():
    hand = cards("HA HK HQ H2 H3 H4 H5 DJ DA DK D2 S2 C2")
    assert suggest_exposures(Rules(), hand) == (cards("HA DJ"), "sheep_guarded+hearts_long")


@settings(max_examples=500, **FIXED)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1), decks=st.sampled_from((1, 2)))
def test_exposures_are_held_exposable_cards_the_engine_accepts(seed, decks):
    rules = Rules(decks=decks)
    hands = deal_hands(rules, rng=random.Random(seed))
    chosen = [suggest_exposures(rules, hand)[0] for hand in hands]
    for hand, shown in zip(hands, chosen):
        assert all(c in EXPOSABLE and c in hand for c in shown)
    replay(rules, hands=hands, exposed=chosen)
