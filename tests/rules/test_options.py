"""The play loop's inlined option sets are the one definition's (``moves.play_options``).

``table.advance`` computes the commonest option sets inline; here every set
it hands a chooser, over random deals with every rule option and random
exposures, is compared with ``play_options`` of the same position and with
``legal_moves`` of a copy of the state.
"""
import random

import pytest

from gongzhu.rules import Rules, deal_hands, initial_state, legal_moves, running
from gongzhu.rules.cards import EXPOSABLE
from gongzhu.rules.moves import is_option, option_list, play_options
from gongzhu.rules.table import advance

DEALS = 150


def random_rules(rng: random.Random, decks: int) -> Rules:
    return Rules(decks=decks, opening_card=rng.choice(("C2", "S2", "S3", "S7")),
                 must_lead_opening_card=rng.random() < 0.8, first_trick_ban=rng.random() < 0.4)


def expected(t) -> tuple:
    hand, held = running.hands_bits(t)[t.seat], running.held_exposed(t)[t.seat]
    lead = t.trick[0] if t.trick else None
    return play_options(hand, held, lead, running.suits_led(t), running.first_round(t), running.opening_lead(t),
                        t.rules.first_trick_ban and not running.winners(t))


@pytest.mark.parametrize("decks", [1, 2])
def test_every_option_set_the_loop_hands_out_is_play_options(decks):
    rng = random.Random(decks)
    for _ in range(DEALS):
        checked = 0
        rules = random_rules(rng, decks)
        hands = deal_hands(rules, rng=rng)
        exposed = [tuple(c for c in EXPOSABLE if c in hand and rng.random() < 0.3) for hand in hands]
        t = initial_state(rules, hands, exposed, first_deal=rng.random() < 0.7, leader=None)
        while t.seat is not None:
            want = expected(t)
            state = t.clone()

            def choose(singles, pairs, others, want=want, state=state):
                assert (singles, pairs, sorted(others)) == (want[0], want[1], sorted(want[2]))
                moves = option_list((singles, pairs, others))
                assert moves == legal_moves(state)
                move = rng.choice(moves)
                assert is_option(move, want)
                return move
            advance(t, choose, 1)
            checked += 1
        assert t.hands == ((), (), (), ())
        assert checked == running.plays_count(t) >= 52
