"""The solvers' positions pinned to the rules' own transitions (``DealState.apply``, ``legal_moves``): where no
card is special any more (``DealState.plain``, the one definition) the legal plays are the follow rule's alone,
as every search below a plain position plays them; and the ints position of ``plain_open.PlainOpen`` takes a
trick as the engine does."""
from __future__ import annotations

import random

from gongzhu import rules as engine
from gongzhu.rules import running
from gongzhu.rules.cards import SCORING_MASK
from gongzhu.rules.moves import follow_single_mask, option_list, play_options
from gongzhu.solve.andor import Nodes
from gongzhu.solve.plain_open import PlainOpen, plain_open
from gongzhu.solve.scale import value_weights

from . import reference


def walked(decks: int, deals: int, seed: int):
    """Every position of random deals played with random legal moves, exposures in most of them."""
    rng = random.Random(seed)
    for n in range(deals):
        rules = engine.Rules(decks=decks, partnership=n % 2 == 1, first_trick_ban=rng.random() < 0.3)
        hands = engine.deal_hands(rules, seed=rng.randrange(1 << 30))
        exposed = tuple(tuple(c for c in hand if c in reference.EXPOSABLE and rng.random() < 0.7) for hand in hands)
        state = engine.replay(rules, hands=hands, exposed=exposed, plays=(), first_deal=True)
        while not state.finished:
            yield state
            state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))


def test_a_plain_position_plays_by_the_follow_rule_alone():
    held_plain = 0
    for decks in (1, 2):
        for state in walked(decks, 12, 30 + decks):
            if not running.plain(state):
                continue
            seat = state.seat
            lead = state.trick[0] if state.trick else None
            free = play_options(running.hands_bits(state)[seat], 0, lead, running.suits_led(state), False, None, False)
            assert engine.legal_moves(state) == option_list(free)
            held_plain += bool(running.held_exposed(state)[seat])
    # the exposed copies of suits already led play as any other, and that is checked here
    assert held_plain >= 200


def test_the_ints_position_takes_each_trick_as_the_engine():
    checked = 0
    for state in walked(1, 16, 40):
        if len(state.trick) != 3 or not plain_open(state):
            continue
        weights = value_weights(state.seat, state.rules.partnership, True)
        search = PlainOpen(state.rules, running.doublings(state), weights, Nodes(1 << 30))
        hand = running.hands_bits(state)[state.seat]
        options = follow_single_mask(hand, 0, state.trick[0][0] // 13, False)
        assert [(c,) for c in range(52) if options >> c & 1] == engine.legal_moves(state)
        for (card,) in engine.legal_moves(state):
            search.load(state)
            search.trick.put(3, card)
            winner, _ = search.taken_by()
            after = engine.apply_move(state, (card,))
            assert winner == running.winners(after)[-1]
            assert search.piles.listed() == [pile & SCORING_MASK for pile in running.captured_bits(after)]
            checked += 1
    assert checked >= 200
