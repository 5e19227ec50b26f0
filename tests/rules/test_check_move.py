"""check_move / is_legal_move / apply_move report each illegal play with
its specific code (docs/engine-api.md errors)."""

import pytest

import gongzhu.rules as R
from gongzhu.rules import IllegalMove, Rules, apply_move, check_move, is_legal_move, replay, running

from .helpers import build_hands, cs

ONE_DECK = Rules()
TWO_DECKS = Rules(decks=2)


def rejected(state, move, seat=None):
    with pytest.raises(IllegalMove) as caught:
        check_move(state, move, seat)
    assert is_legal_move(state, move) is False or seat is not None
    with pytest.raises(IllegalMove) as applied:
        apply_move(state, move) if seat is None else check_move(state, move, seat)
    assert applied.value.code == caught.value.code
    return caught.value.code


def first_deal_state(rules=ONE_DECK, **fixed):
    hands = build_hands({int(k[1:]): v for k, v in fixed.items()}, decks=rules.decks)
    return replay(rules, hands=hands)


def test_not_your_turn():
    state = first_deal_state(s0="C2")
    assert state.seat == 0
    check_move(state, cs("C2"), 0)
    assert rejected(state, cs("C2"), seat=1) == "not_your_turn"


def test_card_not_in_hand():
    hands = build_hands({1: "SA"})
    state = replay(ONE_DECK, hands=hands, first_deal=False, leader=0)
    assert rejected(state, cs("SA")) == "card_not_in_hand"


def test_card_not_in_hand_for_a_pair_of_a_single_copy():
    hands = build_hands({0: "S9", 1: "S9"}, decks=2)
    state = replay(TWO_DECKS, hands=hands, first_deal=False, leader=0)
    assert rejected(state, cs("S9 S9")) == "card_not_in_hand"


def test_must_follow_suit():
    hands = build_hands({0: "C2", 1: "C3 SA"})
    state = replay(ONE_DECK, hands=hands, plays=[cs("C2")])
    assert rejected(state, cs("SA")) == "must_follow_suit"


def test_must_follow_pair():
    hands = build_hands({0: "S4 S4", 1: "SK SK S7"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, plays=[cs("S4 S4")], first_deal=False, leader=0)
    assert rejected(state, cs("S7 SK")) == "must_follow_pair"


def test_exposed_card_first_round():
    hands = build_hands({2: "SQ S9 S3", 1: "S5"}, avoid={2: "S"})
    state = replay(ONE_DECK, hands=hands, exposed=[(), (), cs("SQ"), ()], plays=[cs("S5")], first_deal=False, leader=1)
    assert rejected(state, cs("SQ")) == "exposed_card_first_round"


def test_exposed_card_first_round_on_lead():
    hands = build_hands({2: "SQ S9 S3"}, avoid={2: "S"})
    state = replay(ONE_DECK, hands=hands, exposed=[(), (), cs("SQ"), ()], first_deal=False, leader=2)
    assert rejected(state, cs("SQ")) == "exposed_card_first_round"


def test_must_lead_opening_card():
    state = first_deal_state(s0="C2 C3 SA")
    assert rejected(state, cs("C3")) == "must_lead_opening_card"
    assert rejected(state, cs("SA")) == "must_lead_opening_card"


def test_first_trick_ban():
    clubs = "C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK CA"
    hands = build_hands({0: clubs, 1: "SQ"})
    state = replay(Rules(first_trick_ban=True), hands=hands, plays=[cs("C2")])
    assert rejected(state, cs("SQ")) == "first_trick_ban"


def test_first_trick_ban_on_a_free_lead():
    hands = build_hands({3: "C2 C10"})
    state = replay(Rules(must_lead_opening_card=False, first_trick_ban=True), hands=hands)
    assert rejected(state, cs("C10")) == "first_trick_ban"


def test_deal_finished():
    hands = build_hands({})
    state = replay(ONE_DECK, hands=hands, first_deal=False, leader=0)
    while not state.finished:
        state = apply_move(state, R.legal_moves(state)[0])
    assert state.seat is None
    assert R.legal_moves(state) == []
    assert rejected(state, (hands[0][0],)) == "deal_finished"


@pytest.mark.parametrize(
    ("rules", "plays", "move"),
    [
        (ONE_DECK, [], ()),
        (ONE_DECK, [], "S2 S3"),
        (ONE_DECK, ["S4"], "S5 S6"),
        (TWO_DECKS, [], "S2 S3"),  # a two-card lead must be a pair
        (TWO_DECKS, [], "S2 S2 S3"),
        (TWO_DECKS, ["S4"], "S5 S5"),  # one card after a single lead
        (TWO_DECKS, ["S4 S4"], "S5"),  # two cards after a pair lead
    ],
)
def test_invalid_move_wrong_number_of_cards(rules, plays, move):
    decks = rules.decks
    leader_cards = "S4 S4" if decks == 2 else "S4"
    hands = build_hands({0: leader_cards, 1: "S2 S2 S3 S5 S5 S6" if decks == 2 else "S2 S3 S5 S6"}, decks=decks)
    leader = 0 if plays else 1
    state = replay(rules, hands=hands, plays=[cs(p) for p in plays], first_deal=False, leader=leader)
    assert state.seat == 1
    assert rejected(state, cs(move) if move else ()) == "invalid_move"


def test_apply_move_returns_a_new_state():
    hands = build_hands({0: "C2"})
    state = replay(ONE_DECK, hands=hands)
    after = apply_move(state, cs("C2"))
    assert (running.plays_count(state), state.seat, len(state.hands[0])) == (0, 0, 13)
    assert (running.plays_count(after), after.seat, len(after.hands[0])) == (1, 1, 12)
    assert is_legal_move(state, cs("C2")) is True
