"""The fast play loops (``table.advance``, one deck and two) against the state's own transition: a whole
deal played by the loop reaches the same state, history included, as the same moves played one by one
with ``DealState.apply_unchecked`` (and, checked, with ``DealState.apply``), from any point of a deal
and for any number of plays."""
from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

import gongzhu.rules as engine
from gongzhu.rules import running
from gongzhu.rules.cards import EXPOSABLE, PLANE
from gongzhu.rules.table import advance, play_option

RULES = st.sampled_from([engine.Rules(), engine.Rules(decks=2), engine.Rules(first_trick_ban=True),
                         engine.Rules(decks=2, partnership=True), engine.Rules(decks=2, first_trick_ban=True)])


class Recorder:
    """Chooses uniformly among the options and records each play."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.moves: list[tuple[int, ...]] = []

    def __call__(self, singles: int, pairs: int, others: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
        options = [(c,) for c in range(PLANE) if singles >> c & 1] + [(c, c) for c in range(PLANE) if pairs >> c & 1]
        move = self.rng.choice(options + list(others))
        self.moves.append(move)
        return move


@settings(max_examples=60, deadline=None)
@given(rules=RULES, seed=st.integers(0, 2**32 - 1), exposures=st.booleans(), start=st.integers(0, 40),
       limit=st.integers(-1, 110))
def test_the_loop_plays_as_repeated_apply(rules, seed, exposures, start, limit):
    rng = random.Random(seed)
    hands = engine.deal_hands(rules, rng.getrandbits(32))
    exposed = [sorted({c for c in hand if c in EXPOSABLE}) if exposures else [] for hand in hands]
    state = engine.replay(rules, hands=hands, exposed=exposed)
    for _ in range(start):
        if state.finished:
            break
        play_option(state, rng.choice(state.legal_moves()))
    looped, stepped, checked = state.clone(), state.clone(), state.clone()
    recorder = Recorder(rng)
    advance(looped, recorder, limit)
    assert limit < 0 and looped.finished or len(recorder.moves) == max(limit, 0) or looped.finished
    for move in recorder.moves:
        play_option(stepped, move)
        checked.apply(move)
    assert looped == stepped == checked
    assert looped.history == stepped.history and running.held_exposed(looped) == running.held_exposed(stepped)
    # every play the loop made can be taken back one by one from the stepped state
    for _ in recorder.moves:
        stepped.undo()
    assert stepped == state
