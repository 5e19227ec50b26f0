"""Property tests (hypothesis, derandomized) over random legal deals, one
and two decks, all rule options, random exposures: the invariants of
invariants.py checked at every play (≈2,000 deals per run), plus the
settlement invariants of rules.md §6 over arbitrary raw scores."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gongzhu.rules import Rules, deal_hands, settle_ingots
from gongzhu.rules.settlement import normalize, partnership

from . import oracle as O
from .invariants import Checker, check_deal, check_settlement, random_spec

FIXED = dict(derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


def play(seed, *, decks, options):
    rng = random.Random(seed)
    spec = random_spec(rng, decks=decks, options=options)
    try:
        check_deal(spec, rng, Checker(), apply_limit=24)
    except AssertionError as error:
        raise AssertionError(f"{error}\n  deal: {spec.describe()}") from None


@pytest.mark.slow
@settings(max_examples=600, **FIXED)
@given(seed=SEEDS)
def test_one_deck_default_rules(seed):
    play(seed, decks=1, options=False)


@pytest.mark.slow
@settings(max_examples=700, **FIXED)
@given(seed=SEEDS)
def test_one_deck_all_rule_options(seed):
    play(seed, decks=1, options=True)


@pytest.mark.slow
@settings(max_examples=300, **FIXED)
@given(seed=SEEDS)
def test_two_decks_default_rules(seed):
    play(seed, decks=2, options=False)


@pytest.mark.slow
@settings(max_examples=450, **FIXED)
@given(seed=SEEDS)
def test_two_decks_all_rule_options(seed):
    play(seed, decks=2, options=True)


# Raw scores of real deals are multiples of 10 (one deck) or 50·k (two).
RAW = st.integers(min_value=-2000, max_value=2000).map(lambda n: n * 10)


@settings(max_examples=500, **FIXED)
@given(raw=st.tuples(RAW, RAW, RAW, RAW), decks=st.sampled_from((1, 2)), pairs=st.booleans(), seed=SEEDS)
def test_settlement_of_any_raw_scores(raw, decks, pairs, seed):
    check_settlement(Rules(decks=decks, partnership=pairs), decks, raw, random.Random(seed), Checker())


@settings(max_examples=300, **FIXED)
@given(raw=st.tuples(*[st.integers(min_value=-10**7, max_value=10**7)] * 4))
def test_normalize_any_integers_sums_to_zero_by_largest_remainder(raw):
    assert tuple(normalize(raw)) == O.normalize(raw)


@settings(max_examples=300, **FIXED)
@given(raw=st.tuples(*[st.integers(min_value=-10**6, max_value=10**6)] * 4),
       multiplier=st.integers(min_value=1, max_value=100), fee=st.integers(min_value=0, max_value=1000))
def test_ingots_sum_to_minus_four_fees(raw, multiplier, fee):
    ingots = settle_ingots(raw, multiplier, fee)
    assert sum(ingots.net) == -4 * fee
    assert tuple(ingots.net) == O.ingots(raw, multiplier, fee)[1]


@settings(max_examples=200, **FIXED)
@given(raw=st.tuples(*[RAW] * 4))
def test_partnership_is_antisymmetric(raw):
    scores = tuple(partnership(raw))
    assert scores[0] == scores[2] == -scores[1] == -scores[3]
    assert scores[0] * 2 == raw[0] + raw[2] - raw[1] - raw[3]


@settings(max_examples=200, **FIXED)
@given(seed=SEEDS, decks=st.sampled_from((1, 2)))
def test_seeded_deal_is_reproducible_and_complete(seed, decks):
    rules = Rules(decks=decks)
    hands = deal_hands(rules, seed=seed)
    assert deal_hands(rules, seed=seed) == hands
    assert sorted(card for hand in hands for card in hand) == sorted(O.deck(decks))
    assert [len(hand) for hand in hands] == [13 * decks] * 4
