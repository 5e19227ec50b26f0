"""The review's solver for positions where no card is special (``solve.plain_open``): the same values as
the search on the engine's deal state, and the positions it takes (docs/bot.md, "Exact endgames")."""
from __future__ import annotations

import random

import pytest

from gongzhu import rules as engine
from gongzhu import solve
from gongzhu.rules import running
from gongzhu.rules.cards import HEART_MASK, lowest_of_runs
from gongzhu.solve.andor import Nodes
from gongzhu.solve.endgame import AtLeast, exact_units
from gongzhu.solve.plain_open import plain_open
from gongzhu.solve.vocabulary import ALONE, HEART_CLASSES, distinct_cards

from .test_claims import EXPOSABLE


def deal_state_values(state: engine.DealState) -> dict[tuple[int, ...], int]:
    """Each legal move's exact value by the search on the deal state (``endgame.AtLeast``), the review's
    scale: what ``OpenValues`` gives where no card is special is checked against it."""
    seat = state.seat
    assert seat is not None
    partnership = state.rules.partnership
    search = AtLeast(seat % 2 if partnership else seat, Nodes(1 << 62), partnership, raw_points=True)
    out = {}
    for move in engine.legal_moves(state):
        pos = state.clone()
        pos.apply(move)
        out[move] = exact_units(search, pos, 0)
    return out


def plain_positions(count: int, left: int, seed: int) -> list[engine.DealState]:
    """Random one-deck positions with ``left`` tricks left or fewer, anywhere in a trick, individual and
    partnership by turns, exposures (doubling what they expose) in half of them, that ``plain_open`` takes."""
    rng = random.Random(seed)
    found: list[engine.DealState] = []
    while len(found) < count:
        n = len(found)
        rules = engine.Rules(partnership=n % 2 == 1, pig_flips_with_all_hearts=rng.random() < 0.5)
        hands = engine.deal_hands(rules, seed=rng.randrange(1 << 30))
        exposed = tuple(tuple(c for c in hand if c in EXPOSABLE and n % 4 >= 2 and rng.random() < 0.5)
                        for hand in hands)
        state = engine.replay(rules, hands=hands, exposed=exposed, plays=(), first_deal=True)
        while solve.tricks_left(state) > left or rng.random() < 0.5 and not state.finished:
            state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
        if not state.finished and plain_open(state):
            found.append(state)
    return found


@pytest.mark.parametrize("left, count, seed", [(4, 40, 21), (5, 12, 22)])
def test_plain_values_equal_the_deal_state_search(left, count, seed):
    exposures = 0
    for state in plain_positions(count, left, seed):
        before = state.clone()
        assert solve.OpenValues().values(state) == deal_state_values(state)
        assert state == before
        exposures += any(state.exposed)
    assert exposures >= count // 4


def test_a_deal_valued_last_position_first_keeps_the_plain_tables_exact():
    # positions of one deal share one solver, as the review's do: what an earlier (later in play) position
    # settled, the next finds in its tables
    rng = random.Random(23)
    for start in plain_positions(4, 5, 23):
        states = []
        state = start
        while not state.finished:
            states.append(state)
            state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
        solver = solve.OpenValues()
        for state in reversed(states):
            assert solver.values(state) == deal_state_values(state)


def test_plain_open_takes_positions_where_no_card_is_special_any_more():
    rules = engine.Rules()
    hands = engine.deal_hands(rules, seed=5)
    pig_holder = next(s for s, hand in enumerate(hands) if engine.PIG in hand)
    exposed = tuple((engine.PIG,) if s == pig_holder else () for s in range(4))
    state = engine.replay(rules, hands=hands, exposed=exposed, plays=(), first_deal=False, leader=0)
    # the exposed pig is held back while spades have not been led
    assert not plain_open(state)
    while not running.suits_led(state) >> engine.cards.SPADES & 1:
        moves = engine.legal_moves(state)
        spade = [m for m in moves if m[0] // 13 == engine.cards.SPADES] if not state.trick else []
        state = engine.apply_move(state, spade[0] if spade else moves[0])
    # the first round of spades is on the table: still held back
    assert state.trick and not plain_open(state)
    while state.trick:
        state = engine.apply_move(state, engine.legal_moves(state)[0])
    assert plain_open(state)
    # no exposure: plain from the first lead on, but for the first-trick ban and two decks
    assert plain_open(engine.replay(rules, hands=hands, exposed=((),) * 4, plays=(), first_deal=False, leader=0))
    banned = engine.Rules(first_trick_ban=True)
    assert not plain_open(engine.replay(banned, hands=hands, exposed=((),) * 4, plays=(), first_deal=False,
                                        leader=0))
    two = engine.Rules(decks=2)
    assert not plain_open(engine.replay(two, hands=engine.deal_hands(two, seed=5), exposed=((),) * 4, plays=(),
                                        first_deal=False, leader=0))


def test_heart_values_are_ranks_in_a_row_and_distinct_cards_keeps_one_of_each_class_run():
    # ``distinct_cards`` cuts runs where a heart value begins: that is each value's hearts in a row
    for cls in HEART_CLASSES:
        low = cls & -cls
        assert (cls + low) & cls == 0
    assert sum(HEART_CLASSES) == HEART_MASK
    rng = random.Random(24)
    for _ in range(3000):
        cards = rng.sample(range(52), 40)
        singles = sum(1 << c for c in cards[:13])
        rivals = sum(1 << c for c in cards[13:rng.randrange(13, 40)])
        apart = sum(1 << c for c in cards[:13] if rng.random() < 0.1) | ALONE
        # the rule, class by class: each scoring class's runs apart, the rest's together
        expected = lowest_of_runs(singles & ~HEART_MASK, rivals, apart)
        for cls in HEART_CLASSES:
            expected += lowest_of_runs(singles & cls, rivals, apart)
        assert distinct_cards(singles, rivals, apart) == sorted(expected)
