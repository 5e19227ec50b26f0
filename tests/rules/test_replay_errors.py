"""replay() checks the whole deal history and reports every problem with a
stable code and a JSON pointer (docs/engine-api.md, rules.md §7 errors)."""

import pytest

import gongzhu.rules as R
from gongzhu.rules import InvalidDeal, Rules, replay

from .helpers import build_hands, c, cs

ONE_DECK = Rules()
TWO_DECKS = Rules(decks=2)


def problems_of(**kwargs):
    rules = kwargs.pop("rules", ONE_DECK)
    with pytest.raises(InvalidDeal) as caught:
        replay(rules, **kwargs)
    assert caught.value.code == "invalid_deal"
    return [(p.code, p.path) for p in caught.value.problems]


def test_wrong_card_count_names_each_hand():
    hands = [list(hand) for hand in build_hands({})]
    hands[2].append(hands[1].pop())
    found = problems_of(hands=hands)
    assert ("wrong_card_count", "/hands/1") in found
    assert ("wrong_card_count", "/hands/2") in found


def test_duplicate_card_is_reported():
    hands = [list(hand) for hand in build_hands({2: "SQ"})]
    hands[0][5] = c("SQ")
    found = problems_of(hands=hands)
    assert any(code == "duplicate_card" and path.startswith("/hands/") for code, path in found), found


def test_third_copy_in_two_decks_is_a_duplicate():
    hands = [list(hand) for hand in build_hands({0: "SQ", 2: "SQ"}, decks=2)]
    hands[1][3] = c("SQ")
    found = problems_of(rules=TWO_DECKS, hands=hands)
    assert any(code == "duplicate_card" and path.startswith("/hands/") for code, path in found), found


def test_card_played_not_held():
    hands = build_hands({0: "C2", 1: "C3", 2: "SA"}, avoid={2: "C"})
    assert problems_of(hands=hands, plays=[cs("C2"), cs("SA")]) == [("card_not_in_hand", "/plays/1/0")]


def test_illegal_play_reported_at_the_play():
    hands = build_hands({0: "C2", 1: "C3 SA"})
    assert problems_of(hands=hands, plays=[cs("C2"), cs("SA")]) == [("must_follow_suit", "/plays/1")]


def test_later_illegal_play_is_found_after_legal_ones():
    hands = build_hands({0: "C2", 1: "C3", 2: "C4", 3: "C5 HA"})
    found = problems_of(hands=hands, plays=[cs("C2"), cs("C3"), cs("C4"), cs("HA")])
    assert found == [("must_follow_suit", "/plays/3")]


def test_second_card_of_a_two_card_play_not_held():
    hands = build_hands({0: "S4 S4", 1: "S9 S8"}, decks=2, avoid={1: "S"})
    found = problems_of(rules=TWO_DECKS, hands=hands, plays=[cs("S4 S4"), cs("S8 SA")], first_deal=False, leader=0)
    assert found == [("card_not_in_hand", "/plays/1/1")]


def test_exposing_a_card_that_is_not_exposable():
    hands = build_hands({3: "S5"})
    found = problems_of(hands=hands, exposed=[(), (), (), cs("S5")])
    assert found == [("illegal_exposure", "/exposed/3/0")]


def test_exposing_a_card_not_held():
    hands = build_hands({2: "SQ", 1: "DJ"})
    found = problems_of(hands=hands, exposed=[(), cs("DJ SQ"), (), ()])
    assert found == [("illegal_exposure", "/exposed/1/1")]


def test_exposing_more_copies_than_held():
    hands = build_hands({2: "SQ"})
    assert problems_of(hands=hands, exposed=[(), (), cs("SQ SQ"), ()]) == [("illegal_exposure", "/exposed/2/1")]
    hands2 = build_hands({2: "SQ", 0: "SQ"}, decks=2)
    found = problems_of(rules=TWO_DECKS, hands=hands2, exposed=[(), (), cs("SQ SQ"), ()])
    assert found == [("illegal_exposure", "/exposed/2/1")]


def test_every_problem_is_reported_at_once():
    hands = [list(hand) for hand in build_hands({3: "S5"})]
    hands[2].append(hands[1].pop())
    found = problems_of(hands=hands, exposed=[(), (), (), cs("S5")])
    assert ("wrong_card_count", "/hands/1") in found
    assert ("wrong_card_count", "/hands/2") in found
    assert ("illegal_exposure", "/exposed/3/0") in found


def test_play_after_the_deal_is_finished():
    hands = build_hands({})
    state = replay(ONE_DECK, hands=hands, first_deal=False, leader=0)
    plays = []
    while not state.finished:
        move = R.legal_moves(state)[0]
        plays.append(move)
        state = R.apply_move(state, move)
    assert len(plays) == 52
    found = problems_of(hands=hands, plays=plays + [plays[0]], first_deal=False, leader=0)
    assert found == [("deal_finished", "/plays/52")]


def test_wrong_leader_for_first_deal():
    hands = build_hands({1: "C2"})
    assert problems_of(hands=hands, leader=3) == [("wrong_leader", "/leader")]
