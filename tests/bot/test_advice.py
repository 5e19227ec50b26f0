"""suggest: always legal, blind to hidden cards, deterministic for a seed."""
import itertools
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gongzhu.bot import advice, suggest
from gongzhu.bot.equivalence import distinct_plays
from gongzhu.rules import Rules, deal_hands, is_legal_move, legal_moves, parse_card, replay
from gongzhu.rules.play import apply_move

from .load import CALLS, CLIENTS, answers_under_load
from .states import random_position, reshuffled

FIXED = {"derandomize": True, "deadline": None, "database": None, "suppress_health_check": list(HealthCheck)}
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
# one Monte Carlo round only (2 playouts' cap), so no deadline can change the result
ONE_ROUND_MS = 1


@settings(max_examples=1500, **FIXED)
@given(seed=SEEDS)
def test_one_deck_suggestion_is_legal(seed):
    p = random_position(seed, decks=1)
    s = suggest(p.state, budget_ms=ONE_ROUND_MS, seed=seed, plays=p.plays)
    assert is_legal_move(p.state, s.move)
    assert s.reason in ("only_move", "interchangeable", "monte_carlo", "exact_endgame")


@settings(max_examples=600, **FIXED)
@given(seed=SEEDS)
def test_two_deck_suggestion_is_legal(seed):
    p = random_position(seed, decks=2)
    s = suggest(p.state, budget_ms=ONE_ROUND_MS, seed=seed)
    assert is_legal_move(p.state, s.move)
    assert s.reason in ("only_move", "interchangeable", "monte_carlo", "exact_endgame")


@settings(max_examples=400, **FIXED)
@given(seed=SEEDS, decks=st.sampled_from((1, 2)), with_history=st.booleans())
def test_suggestion_ignores_hidden_cards(seed, decks, with_history):
    p = random_position(seed, decks=decks)
    other = reshuffled(p, random.Random(seed))
    assume(other is not None)
    plays = p.plays if with_history else None
    assert suggest(p.state, budget_ms=ONE_ROUND_MS, seed=seed, plays=plays) == \
        suggest(other, budget_ms=ONE_ROUND_MS, seed=seed, plays=plays)


def test_same_seed_same_search(monkeypatch):
    # no deadline: the playout count alone (budget × PLAYOUTS_PER_MS) bounds the search
    monkeypatch.setattr(advice, "DEADLINE_SHARE", 1e6)
    p = next(p for p in map(random_position, range(100))
             if len(distinct_plays(p.state.view(), p.state.trick, legal_moves(p.state))) >= 3)
    moves = distinct_plays(p.state.view(), p.state.trick, legal_moves(p.state))
    first = suggest(p.state, budget_ms=20, seed=3, plays=p.plays)
    assert first == suggest(p.state, budget_ms=20, seed=3, plays=p.plays)
    assert first.samples == (20 * advice.PLAYOUTS_PER_MS[1] // len(moves)) * len(moves)


def test_only_move_is_the_opening_card():
    rules = Rules()
    state = replay(rules, hands=deal_hands(rules, seed=1))
    assert suggest(state, seed=0) == advice.Suggestion(move=(parse_card("C2"),), reason="only_move",
                                                               samples=0)


def test_finished_deal_has_no_suggestion():
    rules = Rules()
    state = replay(rules, hands=deal_hands(rules, seed=1))
    while not state.finished:
        state = apply_move(state, legal_moves(state)[0])
    with pytest.raises(ValueError):
        suggest(state, seed=0)


def test_history_must_match_the_state():
    p = random_position(11)
    assert p.plays
    with pytest.raises(ValueError):
        suggest(p.state, seed=0, plays=p.plays[:-1])
    wrong = (51,) if p.plays[-1] != (51,) else (50,)
    with pytest.raises(ValueError):
        suggest(p.state, seed=0, plays=p.plays[:-1] + [wrong])


def position_with_choices(seed: int):
    """The first one-deck position from ``random_position(seed)`` on (playing its first legal moves)
    where the seat to act has four legal moves or more."""
    for number in itertools.count(seed):
        state = random_position(number, decks=1).state
        while not state.finished and len(legal_moves(state)) < 4:
            state = apply_move(state, legal_moves(state)[0])
        if not state.finished:
            return state
    raise AssertionError("unreachable")


def test_seeded_answers_are_identical_under_concurrent_load():
    # Six clients at once, three seeded calls each, on one process (the threads share one
    # core's worth of interpreter): the clock does not decide how many playouts count, so
    # every answer equals the idle one and none is cut.
    state = position_with_choices(7)
    idle = suggest(state, budget_ms=40, seed=11)
    assert (idle.reason, idle.budget_cut) == ("monte_carlo", False)
    answers = answers_under_load(state, budget_ms=40, seed=11)
    assert len(answers) == CLIENTS * CALLS
    assert set(answers) == {idle}


def test_an_unseeded_search_cut_by_the_clock_says_so(monkeypatch):
    state = position_with_choices(7)
    monkeypatch.setattr(advice, "DEADLINE_SHARE", 0.0)
    cut = suggest(state, budget_ms=40)
    assert cut.budget_cut and cut.samples < 80
    assert not suggest(state, budget_ms=40, seed=3).budget_cut
