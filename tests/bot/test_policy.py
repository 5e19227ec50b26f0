"""The learned playout policy: the features a seat's cards switch on, read the same inside the play
loop as outside it; every play legal; the shipped weights' shape and a few plays every sensible
seat makes."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gongzhu.bot.policy import (
    D_CARD,
    D_ONTO_DOUBLED,
    D_TRANSFORMER_PILE,
    F_PIG,
    F_SURE,
    F_WIN_CARD,
    FEATURES,
    L_CARD,
    SCORINGS,
    Decision,
    PolicyChooser,
    best_card,
    card_features,
    decision,
    load_weights,
)
from gongzhu.bot.search import HeuristicChooser, playout_value
from gongzhu.rules import is_legal_move, legal_moves, parse_card, running
from gongzhu.rules.cards import hand_bits
from gongzhu.rules.table import LiveDeal, advance

from .states import random_position

FIXED = {"derandomize": True, "deadline": None, "database": None, "suppress_health_check": list(HealthCheck)}
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


def cards(text):
    return tuple(parse_card(name) for name in text.split())


def legal_mask(hand, trick):
    """The single cards a seat holding ``hand`` may play on ``trick`` (follow the led suit if it can)."""
    held = cards(hand)
    if trick:
        follow = [c for c in held if c // 13 == trick[0][0] // 13]
        held = follow or held
    return hand_bits(held)


def made(hand, trick=(), played="", seat=0, captured=("", "", "", ""), voids=(0, 0, 0, 0), partnership=False):
    """A hand-made one-deck decision: ``played`` are the cards of earlier tricks (the trick is added)."""
    trick = [cards(p) for p in trick]
    gone = hand_bits(cards(played)) | hand_bits([p[0] for p in trick])
    return Decision(hand_bits(cards(hand)), gone, trick, seat, list(voids), len(cards(played)) // 4, partnership,
                    [hand_bits(cards(c)) for c in captured], legal_mask(hand, trick))


def checked(state, weights):
    """The learned policy in the play loop, each chosen card checked to be one of the options."""
    inner = PolicyChooser(LiveDeal(state), weights, HeuristicChooser(LiveDeal(state)))

    def choose(singles, pairs, others):
        move = inner.choose(singles, pairs, others)
        assert move[0] in [c for c in range(52) if singles >> c & 1]
        return move
    return choose


@settings(max_examples=300, **FIXED)
@given(seed=SEEDS)
def test_the_loop_reads_each_decision_as_the_state_does(seed):
    """Stepping a deal one play at a time, the chooser's decision (built from the live lists) and
    ``decision(state)`` switch on the same features for every legal card, and the chosen play is legal."""
    p = random_position(seed, decks=1)
    state = p.state.clone()
    weights = [random.Random(seed).uniform(-1, 1) for _ in range(FEATURES)]
    chooser = PolicyChooser(LiveDeal(state), weights, HeuristicChooser(LiveDeal(state)))
    while not state.finished:
        moves = legal_moves(state)
        mask = sum(1 << m[0] for m in moves)
        inside, outside = chooser.decision(mask), decision(state, mask)
        for (card,) in moves:
            assert card_features(inside, card) == card_features(outside, card)
        move = chooser.choose(mask, 0, ()) if len(moves) > 1 else moves[0]
        assert is_legal_move(state, move)
        assert move == (best_card(outside, mask, weights),) or len(moves) == 1
        state.apply(move)


@settings(max_examples=300, **FIXED)
@given(seed=SEEDS)
def test_playouts_with_the_policy_play_legal_cards_to_the_end(seed):
    p = random_position(seed, decks=1)
    state = p.state.clone()
    advance(state, checked(state, load_weights(state.rules.partnership)))
    assert state.finished
    assert sum(c.bit_count() for c in running.captured_bits(state)) == 52


@settings(max_examples=100, **FIXED)
@given(seed=SEEDS)
def test_two_deck_playouts_fall_back_to_the_heuristic(seed):
    p = random_position(seed, decks=2)
    move = legal_moves(p.state)[0]
    weights = load_weights(p.rules.partnership)
    assert playout_value(p.state, move, p.state.seat, weights) == playout_value(p.state, move, p.state.seat)


def test_shipped_weights_fit_the_features():
    for partnership in (False, True):
        weights = load_weights(partnership)
        assert len(weights) == FEATURES
        assert any(weights), f"{SCORINGS[partnership]} weights are all zero"


def test_lead_features_name_the_card_and_its_block():
    d = made("S3 D9 C4")
    assert card_features(d, parse_card("D9"))[0] == L_CARD + parse_card("D9")


def test_a_winning_card_under_the_pig_knows_it_takes_the_pig():
    d = made("SK S2", trick=["S5", "SQ"], played="")
    features = card_features(d, parse_card("SK"))
    assert F_PIG in features and F_WIN_CARD + parse_card("SK") in features
    assert F_PIG not in card_features(d, parse_card("S2"))


def test_the_last_seat_winning_is_sure_to_win():
    d = made("D3 DQ", trick=["D5", "D7", "D9"])
    assert F_SURE + 2 in card_features(d, parse_card("DQ"))


def test_discards_know_the_winners_pile():
    # seat 3 follows a spade trick it cannot follow; seat 1 (SA) wins and has taken the transformer
    d = made("C10 H9 D2", trick=["S5", "SA", "S9"], seat=3, captured=("", "C10 H3", "", ""), voids=(0, 0, 0, 1))
    assert card_features(d, parse_card("C10"))[0] == D_CARD + parse_card("C10")
    assert D_ONTO_DOUBLED in card_features(d, parse_card("H9"))
    assert any(D_TRANSFORMER_PILE <= f < D_TRANSFORMER_PILE + 4 for f in card_features(d, parse_card("C10")))


def shipped_play(hand, trick=(), played="", **kw):
    d = made(hand, trick, played, **kw)
    return best_card(d, legal_mask(hand, [cards(p) for p in trick]), load_weights(False))


def test_the_shipped_policy_discards_the_pig_when_void():
    assert shipped_play("SQ H4 C3", trick=["D5", "DK"], seat=2, voids=(0, 0, 4, 0)) == parse_card("SQ")


def test_the_shipped_policy_ducks_the_pig_under_the_spade_ace():
    assert shipped_play("SQ S2 D4", trick=["S5", "SA"], seat=2) == parse_card("SQ")


def test_the_shipped_policy_takes_a_safe_sheep_last():
    assert shipped_play("DJ D3 C4", trick=["D5", "D7", "D9"], seat=3) == parse_card("DJ")
