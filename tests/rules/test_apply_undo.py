"""The deal state's apply/undo (docs/engine-api.md, "Deal state"): ``DealState.apply`` plays a move as
``apply_move`` does, and ``DealState.undo`` gives back exactly the state before it, through
completed tricks and the end of the deal, one and two decks, with exposures and the first-trick ban."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import gongzhu.rules as engine
from gongzhu.rules import running

RULES = st.sampled_from([engine.Rules(), engine.Rules(decks=2), engine.Rules(first_trick_ban=True),
                         engine.Rules(decks=2, partnership=True)])


def start(rules: engine.Rules, rng: random.Random) -> engine.DealState:
    hands = engine.deal_hands(rules, rng.getrandbits(32))
    # a seat exposes every exposable card it holds (one copy), so exposed copies are in play
    exposed = [sorted({c for c in hand if c in engine.cards.EXPOSABLE}) for hand in hands]
    return engine.replay(rules, hands=hands, exposed=exposed)


def nothing_to_undo(state: engine.DealState) -> bool:
    """Whether ``state`` has no move to take back (its undo raises ``nothing_to_undo`` and changes nothing)."""
    try:
        state.undo()
    except engine.RuleError as error:
        return error.code == "nothing_to_undo"
    return False


@settings(max_examples=40, deadline=None)
@given(rules=RULES, seed=st.integers(0, 2**32 - 1))
def test_apply_plays_as_apply_move_and_undo_restores_every_field(rules, seed):
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
        state = engine.apply_move(state, move)
        assert walked == state
        assert running.plays(walked) == running.plays(state) and walked.history == state.history
    assert walked.seat is None and running.raw_scores(walked) == engine.running.score_state(state).raw
    # back to the first play, one undo at a time
    while before:
        walked.undo()
        assert walked == before.pop()
    assert nothing_to_undo(walked)


def test_a_copy_starts_with_no_move_to_undo():
    rules = engine.Rules()
    state = start(rules, random.Random(3))
    walked = state.clone()
    walked.apply(engine.legal_moves(state)[0])
    clone = walked.clone()
    assert clone == walked and nothing_to_undo(clone)
    walked.undo()
    assert walked == state and nothing_to_undo(walked)


def test_an_illegal_move_raises_and_leaves_the_state_as_it_was():
    # seat 3 holds C2 and must lead it; seat 0 holds the pig
    state = engine.replay(engine.Rules(), hands=engine.deal_hands(engine.Rules(), 1))
    walked = state.clone()
    assert walked.seat == 3
    for move, code in ((engine.PIG,), "card_not_in_hand"), (("HA",), "card_not_in_hand"), (["C3"], "card_not_in_hand"):
        try:
            walked.apply(move)
        except engine.IllegalMove as error:
            assert error.code == code
        else:
            raise AssertionError(move)
        assert walked == state and nothing_to_undo(walked)
    held = [engine.CARD_NAMES[c] for c in walked.hands[3]]
    wrong = next(name for name in held if name != "C2")
    try:
        walked.apply(wrong)
    except engine.IllegalMove as error:
        assert error.code == "must_lead_opening_card"
    assert walked == state
    assert not walked.is_legal(wrong) and walked.is_legal("C2") and walked.legal_moves() == [(engine.parse_card("C2"),)]


def test_moves_are_accepted_as_card_names_or_ints():
    state = engine.replay(engine.Rules(), hands=engine.deal_hands(engine.Rules(), 1))
    by_name, by_int, by_list = state.clone(), state.clone(), state.clone()
    by_name.apply("C2")
    by_int.apply(engine.parse_card("C2"))
    by_list.apply(["C2"])
    assert by_name == by_int == by_list == engine.apply_move(state, ("C2",))
    assert repr(by_name).endswith("plays=[['C2']], seat=0)")
    for bad, code in (("C1", "invalid_card"), (99, "invalid_card"), (None, "invalid_move")):
        try:
            state.clone().apply(bad)
        except engine.RuleError as error:
            assert error.code == code
        else:
            raise AssertionError(bad)


def test_undo_with_nothing_to_undo_is_a_rule_error():
    state = engine.replay(engine.Rules(), hands=engine.deal_hands(engine.Rules(), 1))
    for fresh in (state, state.clone()):
        try:
            fresh.undo()
        except engine.RuleError as error:
            assert error.code == "nothing_to_undo"
        else:
            raise AssertionError("undo of a fresh state")
    walked = state.clone()
    walked.apply("C2")
    walked.undo()
    assert walked == state


@settings(max_examples=30, deadline=None)
@given(rules=RULES, seed=st.integers(0, 2**32 - 1))
def test_resample_keeps_what_the_seat_knows_and_changes_nothing_else(rules, seed):
    rng = random.Random(seed)
    state = start(rules, rng)
    for _ in range(rng.randrange(rules.hand_size * 2)):
        state.apply(rng.choice(state.legal_moves()))
    view = state.view()
    again = state.resample(view, random.Random(seed))
    assert again.hands == state.resample(view, random.Random(seed)).hands
    assert again.view() == view and running.plays(again) == running.plays(state)
    assert running.captured(again) == running.captured(state)
    assert again.hands[view.seat] == state.hands[view.seat]
    assert sorted(c for s, h in enumerate(again.hands) for c in h) == sorted(c for h in state.hands for c in h)
    other = start(rules, random.Random(seed + 1))
    try:
        other.resample(view, rng)
    except engine.RuleError as error:
        assert error.code == "view_of_other_deal"
    else:
        raise AssertionError("a view of another deal")
