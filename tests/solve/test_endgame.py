"""Exact endgames (docs/bot.md, "Exact endgames"): the values of the claims' AND/OR search asked
"at least t?" against a brute-force minimax over every legal play, a hand-made endgame, and the
node limit."""
from __future__ import annotations

import random

import pytest

from gongzhu import rules as engine
from gongzhu import solve
from gongzhu.rules import running
from gongzhu.rules.scoring import NO_DOUBLINGS
from gongzhu.solve import endgame, scale
from gongzhu.solve.endgame import endgame_values

from .test_claims import EXPOSABLE


def brute_force(state: engine.DealState, seat: int) -> float:
    """``seat``'s exact score at the end of the deal, ``seat`` (and with partnership its partner)
    maximizing and every other seat minimizing, over every legal play: nothing merged, nothing cached,
    no threshold."""
    if state.finished:
        return engine.exact_score(state.rules, running.raw_scores(state), seat)
    values = []
    for move in engine.legal_moves(state):
        state.apply(move)
        values.append(brute_force(state, seat))
        state.undo()
    ours = state.seat == seat or state.rules.partnership and state.seat % 2 == seat % 2
    return max(values) if ours else min(values)


def endgames(decks: int, left: int, count: int, seed: int) -> list[engine.DealState]:
    """Random deals played with random legal moves until at most ``left`` tricks remain (as the claims'
    tests do), with exposures, the first-trick ban, partnership and the pig's flip at random."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        rules = engine.Rules(decks=decks, partnership=rng.random() < 0.4, first_trick_ban=rng.random() < 0.3,
                             pig_flips_with_all_hearts=rng.random() < 0.5)
        hands = engine.deal_hands(rules, seed=rng.randrange(1 << 30))
        exposing = rng.random() < 0.5
        exposed = tuple(tuple(c for c in hand if c in EXPOSABLE and exposing and rng.random() < 0.5)
                        for hand in hands)
        state = engine.replay(rules, hands=hands, exposed=exposed, plays=(), first_deal=True)
        while not state.finished and solve.tricks_left(state) > left:
            state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
        for _ in range(rng.randrange(4)):
            if state.finished or solve.tricks_left(state) <= 1:
                break
            state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
        if not state.finished:
            found.append(state)
    return found


@pytest.mark.parametrize("decks, left, count, seed", [(1, 2, 60, 1), (1, 3, 40, 2), (2, 2, 40, 3), (2, 3, 6, 4)])
def test_exact_values_equal_brute_force(decks, left, count, seed):
    rng = random.Random(seed)
    for state in endgames(decks, left, count, seed):
        moves = engine.legal_moves(state)
        # a guess far off as often as a close one: the value must not depend on it
        guesses = [rng.choice((0.0, 500.0, -700.0, rng.uniform(-100, 100))) for _ in moves]
        values, _ = endgame_values(state, moves, max_nodes=10**7, guesses=guesses)
        assert values == [brute_force_move(state, move) for move in moves]


def brute_force_move(state: engine.DealState, move) -> float:
    """The brute-force value of ``move`` for the seat to act."""
    seat = state.seat
    state.apply(move)
    value = brute_force(state, seat)
    state.undo()
    return value


def test_the_state_is_left_as_it_was():
    state = endgames(1, 3, 1, 9)[0]
    before = state.clone()
    endgame_values(state, engine.legal_moves(state))
    assert state == before


def _open_deal(hands: list[str], leader: int, rules: engine.Rules) -> engine.DealState:
    return engine.DealState(rules=rules, hands_bits=[engine.cards.hand_bits(map(engine.parse_card, h.split()))
                                                     for h in hands],
                            held_exposed=[0, 0, 0, 0], exposed=engine.state.NO_EXPOSURE, doublings=NO_DOUBLINGS,
                            leader=leader, opening_lead=None)


def test_ducking_the_pig_is_worth_its_exact_value():
    # Seat 1 leads S5, seat 2 must follow with the pig, seat 3 plays S7; seat 0, last, holds SK and S2.
    # Ducking with S2 leaves the pig with seat 2, who then leads D4 and takes H5 too: seat 2 ends
    # with -110 and seat 0 with (0·4 + 110)/3. Taking with SK, seat 0 wins the pig, then leads S2 and
    # wins H5 on it: -110, so (4·(-110) + 110)/3 = -110.
    state = _open_deal(["SK S2", "S5 D3", "SQ D4", "S7 H5"], 1, engine.Rules())
    for card in ("S5", "SQ", "S7"):
        state.apply((engine.parse_card(card),))
    duck, take = (engine.parse_card("S2"),), (engine.parse_card("SK"),)
    values, _ = endgame_values(state, [take, duck])
    assert values == [-110.0, 110 / 3]


def test_the_transformer_alone_is_not_worth_taking_twice():
    # Seat 0 leads from C10 C5. Leading C10 wins it alone (+50), but seat 0 must then lead C5 and take
    # the H5 seat 2 discards on it: the transformer doubles it, -20, so (4·(-20) + 20)/3 = -20. Leading
    # C5 loses the trick to C6; seat 1 leads D3 and seat 0 discards C10, taken by seat 3's D5 with
    # H5: seat 3 -20, seat 0 (0 + 20)/3.
    state = _open_deal(["C10 C5", "C6 D3", "C3 H5", "C4 D5"], 0, engine.Rules())
    low, high = (engine.parse_card("C5"),), (engine.parse_card("C10"),)
    assert engine.legal_moves(state) == [low, high]
    values, _ = endgame_values(state, [low, high])
    assert values == [20 / 3, -20.0]
    assert values == [brute_force_move(state, move) for move in (low, high)]


def test_the_search_stops_at_its_node_limit():
    state = endgames(1, 4, 1, 5)[0]
    values, nodes = endgame_values(state, engine.legal_moves(state), max_nodes=3)
    assert values is None and nodes == 4
    values, nodes = endgame_values(state, engine.legal_moves(state), max_nodes=10**7)
    assert values is not None and nodes > 3


def test_score_units_are_exact_scores_on_a_grid_of_ten():
    rng = random.Random(6)
    for _ in range(300):
        rules = engine.Rules(decks=rng.choice((1, 2)), partnership=rng.random() < 0.5)
        raw = [rng.randrange(-100, 100) * endgame.UNIT for _ in range(4)]
        for seat in range(4):
            units = scale.score_units(rules, raw, seat)
            assert units % endgame.UNIT == 0
            assert units / scale.units_per_point(rules) == engine.exact_score(rules, raw, seat)
