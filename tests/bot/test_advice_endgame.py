"""suggest with few tricks left: every deal of the hidden cards solved exactly (docs/bot.md, "Exact
endgames") — legal, deterministic for a seed (under load too), honest about its reason, samples and
cuts, and falling back to playouts when a solve is too big."""
from __future__ import annotations

import random

import pytest

from gongzhu.bot import advice, knowledge, suggest
from gongzhu.bot.equivalence import distinct_plays
from gongzhu.rules import Rules, deal_hands, is_legal_move, legal_moves, replay
from gongzhu.rules.play import apply_move
from gongzhu.solve import tricks_left

from .load import CALLS, CLIENTS, answers_under_load


def endgame_position(seed: int, decks: int = 1, left: int | None = None):
    """A random deal played with random legal moves into the exact-endgame range, with two distinct
    plays or more for the seat to act."""
    rng = random.Random(seed)
    while True:
        rules = Rules(decks=decks, partnership=rng.random() < 0.3)
        state = replay(rules, hands=deal_hands(rules, rng=rng))
        stop = advice.EXACT_TRICKS[decks] if left is None else left
        while not state.finished and tricks_left(state) > stop:
            state = apply_move(state, rng.choice(legal_moves(state)))
        for _ in range(rng.randrange(4)):
            if state.finished or tricks_left(state) <= 1:
                break
            state = apply_move(state, rng.choice(legal_moves(state)))
        if not state.finished and len(distinct_plays(knowledge(state), state.trick, legal_moves(state))) > 1:
            return state


@pytest.mark.parametrize("decks", [1, 2])
def test_endgame_suggestions_are_legal_and_exact(decks):
    for seed in range(12):
        state = endgame_position(seed, decks)
        s = suggest(state, budget_ms=20, seed=seed)
        assert is_legal_move(state, s.move)
        assert s.reason == "exact_endgame"
        assert not s.budget_cut
        moves = distinct_plays(knowledge(state), state.trick, legal_moves(state))
        assert s.samples % len(moves) == 0 and 0 < s.samples <= 20 * advice.EXACT_DEALS_PER_MS[decks] * len(moves)


def test_the_same_seed_gives_the_same_answer():
    state = endgame_position(3)
    first = suggest(state, budget_ms=30, seed=5)
    assert first == suggest(state, budget_ms=30, seed=5)


def test_seeded_endgame_answers_are_identical_under_concurrent_load():
    # six clients at once, three seeded calls each, on one process: the clock counts for nothing, so
    # every answer equals the idle one and none is cut
    state = endgame_position(7)
    idle = suggest(state, budget_ms=30, seed=11)
    assert (idle.reason, idle.budget_cut) == ("exact_endgame", False)
    answers = answers_under_load(state, budget_ms=30, seed=11)
    assert len(answers) == CLIENTS * CALLS
    assert set(answers) == {idle}


def test_a_solve_past_its_node_limit_falls_back_to_playouts(monkeypatch):
    state = endgame_position(4)
    monkeypatch.setattr(advice, "EXACT_NODES_PER_MS", {1: 0, 2: 0})
    s = suggest(state, budget_ms=10, seed=1)
    assert s.reason == "monte_carlo" and is_legal_move(state, s.move)


def test_outside_the_endgame_the_search_plays_out(monkeypatch):
    state = endgame_position(5, left=advice.EXACT_TRICKS[1] + 1)
    if tricks_left(state) > advice.EXACT_TRICKS[1]:
        assert suggest(state, budget_ms=10, seed=1).reason == "monte_carlo"
    inside = endgame_position(6)
    monkeypatch.setattr(advice, "EXACT_TRICKS", {1: 0, 2: 0})
    assert suggest(inside, budget_ms=10, seed=1).reason == "monte_carlo"


def test_an_unseeded_endgame_cut_by_the_clock_says_so(monkeypatch):
    state = endgame_position(8)
    monkeypatch.setattr(advice, "DEADLINE_SHARE", 0.0)
    cut = suggest(state, budget_ms=40)
    moves = distinct_plays(knowledge(state), state.trick, legal_moves(state))
    # the first deal always completes; the clock drops the rest
    assert cut.reason == "exact_endgame" and cut.budget_cut and cut.samples == len(moves)
