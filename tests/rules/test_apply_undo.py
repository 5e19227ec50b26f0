"""The deal state's apply/undo (docs/engine-api.md, "Deal state"): ``DealState.apply`` plays a move as
``apply_legal_move`` does, and ``DealState.undo`` gives back exactly the state before it, through
completed tricks and the end of the deal, one and two decks, with exposures and the first-trick ban."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import gongzhu.rules as engine

RULES = st.sampled_from([engine.Rules(), engine.Rules(decks=2), engine.Rules(first_trick_ban=True),
                         engine.Rules(decks=2, partnership=True)])


def start(rules: engine.Rules, rng: random.Random) -> engine.DealState:
    hands = engine.deal_hands(rules, rng.getrandbits(32))
    # a seat exposes every exposable card it holds (one copy), so exposed copies are in play
    exposed = [sorted({c for c in hand if c in engine.EXPOSABLE}) for hand in hands]
    return engine.replay(rules, hands=hands, exposed=exposed)


@settings(max_examples=40, deadline=None)
@given(rules=RULES, seed=st.integers(0, 2**32 - 1))
def test_apply_plays_as_apply_legal_move_and_undo_restores_every_field(rules, seed):
    rng = random.Random(seed)
    state = start(rules, rng)
    walked = state.clone()
    before: list[engine.DealState] = []
    while not state.finished:
        moves = engine.legal_moves(state)
        # every move applied and undone leaves the state as it was
        for move in moves:
            walked.apply(move)
            walked.undo()
            assert walked == state
        move = rng.choice(moves)
        before.append(walked.clone())
        walked.apply(move)
        state = engine.apply_legal_move(state, move)
        assert walked == state
        assert walked.plays() == state.plays() and walked.history == state.history
    assert walked.seat is None and walked.raw_scores() == engine.score_state(state).raw
    # back to the first play, one undo at a time
    while before:
        walked.undo()
        assert walked == before.pop()
    assert not walked.frames


def test_a_copy_starts_with_no_move_to_undo():
    rules = engine.Rules()
    state = start(rules, random.Random(3))
    walked = state.clone()
    walked.apply(engine.legal_moves(state)[0])
    clone = walked.clone()
    assert clone == walked and clone.frames == [] and len(walked.frames) == 1
