"""The review's exact open-card values (``OpenValues``, docs/bot.md, "Exact endgames") against what does not
search as the solver does: a plain minimax over the rules' own transitions on every decision of the last
tricks (one and two decks, individual and partnership, exposures); the values the solver before the one
search found 6 to 8 tricks from the end (``reference``); and each move's value against the value of the
position it leads to."""
from __future__ import annotations

import random

import pytest

from gongzhu import rules as engine
from gongzhu import solve

from . import reference
from .brute import brute_values, late_deals


@pytest.mark.parametrize("decks, deals, seed", [(1, 16, 21), (2, 12, 22)])
def test_every_decision_of_the_last_four_tricks_equals_a_plain_minimax(decks, deals, seed):
    rng = random.Random(seed)
    checked = {(False, False): 0, (False, True): 0, (True, False): 0, (True, True): 0}
    for state in late_deals(decks, deals, seed):
        # one OpenValues for the rest of the deal, as the review keeps it: its tables carry over
        solver = solve.OpenValues()
        seen: dict = {}
        exposing = any(state.exposed)
        while not state.finished:
            assert solver.values(state) == brute_values(state, seen)
            checked[state.rules.partnership, exposing] += 1
            state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
    # over 300 decisions in the two runs, every kind of deal among them
    assert sum(checked.values()) >= 160
    assert min(checked.values()) >= 40


@pytest.mark.parametrize("left", [6, 7, 8])
def test_values_equal_the_solver_before_the_one_search(left):
    stored = [p for p in reference.positions() if p["left"] == left]
    assert len(stored) >= 12
    for position in stored:
        state = reference.state_of(position)
        values = solve.OpenValues().values(state)
        assert values is not None
        assert sorted([list(move), value] for move, value in values.items()) == position["values"]


def test_the_stored_positions_are_many_and_of_every_kind():
    stored = reference.positions()
    assert len(stored) >= 50
    kinds = {(p["rules"]["decks"], p["rules"]["partnership"], any(p["exposed"])) for p in stored}
    assert kinds == {(d, p, e) for d in (1, 2) for p in (False, True) for e in (False, True)}


def test_each_move_is_worth_the_value_of_the_position_it_leads_to():
    # partnership: the side to act next values the position for itself, the other side's value its opposite;
    # individually a seat's own raw score is comparable only where the same seat acts again (it won the trick)
    compared = 0
    for position in reference.positions():
        if position["left"] > 6:
            continue
        state = reference.state_of(position)
        seat = state.seat
        solver = solve.OpenValues()
        values = solver.values(state)
        assert values is not None
        for move, value in values.items():
            state.apply(move)
            after = solver.values(state) if not state.finished else None
            if state.rules.partnership and after is not None:
                best = max(after.values())
                assert value == (best if state.seat % 2 == seat % 2 else -best)
                compared += 1
            elif after is not None and state.seat == seat:
                assert value == max(after.values())
                compared += 1
            state.undo()
    assert compared >= 60


def test_the_one_value_scale_is_the_review_s_and_the_bot_s():
    # the review's estimates score their playouts on the solver's scale itself: one scale, no copy
    from gongzhu.bot import fair_values
    assert fair_values.raw_value is solve.raw_value
    rng = random.Random(7)
    for _ in range(200):
        rules = engine.Rules(decks=rng.choice((1, 2)), partnership=rng.random() < 0.5)
        raw = [rng.randrange(-100, 100) * 10 for _ in range(4)]
        for seat in range(4):
            own = raw[seat] + raw[(seat + 2) % 4] - raw[(seat + 1) % 4] - raw[(seat + 3) % 4]
            assert solve.raw_value(rules, raw, seat) == (own if rules.partnership else raw[seat])
            assert solve.value_weights(seat, rules.partnership, True)[seat] == 1
