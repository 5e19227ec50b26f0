"""rules.md §2: dealing, the first lead (opening card variants, two-deck first
copy by deal order, `leader` for later deals) and the first-trick options."""

from collections import Counter

import pytest

import gongzhu.rules as R
from gongzhu.rules import InvalidDeal, Rules, deal_hands, legal_moves, replay, running
from gongzhu.rules.cards import hand_bits
from gongzhu.rules.deal import first_leader

from . import oracle as O
from .helpers import advance, build_hands, c, cs, normalized_moves, singles


def place(hand, card, index):
    """The hand with `card` moved to position `index` (deal order)."""
    cards = list(hand)
    cards.remove(card)
    cards.insert(index, card)
    return tuple(cards)


@pytest.mark.parametrize("decks", [1, 2])
def test_deal_is_reproducible_with_a_seed_and_complete(decks):
    rules = Rules(decks=decks)
    hands = deal_hands(rules, seed=20240607)
    assert deal_hands(rules, seed=20240607) == hands
    assert deal_hands(rules, seed=20240608) != hands
    assert [len(hand) for hand in hands] == [13 * decks] * 4
    assert Counter(card for hand in hands for card in hand) == Counter(dict.fromkeys(range(52), decks))


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("seed", [0, 1, 20240607, 2**53 - 1, "3f" * 32, "c0ffee" * 10 + "abcd"])
def test_seed_the_oracles_deal_is_the_engines(seed, decks):
    # rules.md §2 "Seeds": the oracle re-derives a deal from its seed without the engine
    assert O.seeded_deal(seed, decks) == deal_hands(Rules(decks=decks), seed=seed)


@pytest.mark.parametrize("decks", [1, 2])
def test_deal_without_seed_is_complete(decks):
    hands = deal_hands(Rules(decks=decks))
    assert Counter(card for hand in hands for card in hand) == Counter(dict.fromkeys(range(52), decks))
    assert deal_hands(Rules(decks=decks)) != hands


@pytest.mark.parametrize("opening", ["C2", "S2", "S3", "S7"])
def test_opening_card_holder_leads_and_must_lead_it(opening):
    rules = Rules(opening_card=opening)
    hands = build_hands({1: opening})
    assert first_leader(rules, hands) == 1
    state = replay(rules, hands=hands)
    assert (state.seat, running.leader(state)) == (1, 1)
    assert legal_moves(state) == [(c(opening),)]


def test_opening_card_holder_leads_anything_when_not_forced():
    rules = Rules(must_lead_opening_card=False)
    hands = build_hands({3: "C2 SQ C10"})
    state = replay(rules, hands=hands)
    assert state.seat == 3
    assert normalized_moves(legal_moves(state)) == sorted((card,) for card in hands[3])


def test_first_trick_ban_keeps_transformer_back_when_other_clubs_held():
    rules = Rules(first_trick_ban=True)
    hands = build_hands({0: "C2", 1: "C10 C5"}, avoid={1: "C"})
    state = replay(rules, hands=hands, plays=[cs("C2")])
    assert legal_moves(state) == singles("C5")


def test_first_trick_ban_transformer_alone_in_clubs_must_be_played():
    rules = Rules(first_trick_ban=True)
    hands = build_hands({0: "C2", 1: "C10"}, avoid={1: "C"})
    state = replay(rules, hands=hands, plays=[cs("C2")])
    assert legal_moves(state) == singles("C10")


def test_first_trick_ban_no_pig_discard_in_trick_1_but_allowed_in_trick_2():
    rules = Rules(first_trick_ban=True)
    clubs = "C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK CA"
    hands = build_hands({0: clubs, 1: "SQ"})
    state = replay(rules, hands=hands, plays=[cs("C2")])
    assert normalized_moves(legal_moves(state)) == sorted((card,) for card in hands[1] if card != c("SQ"))
    state = advance(R, state, None, None, None, cs("C3"))
    assert state.seat == 1
    assert (c("SQ"),) in legal_moves(state)
    assert normalized_moves(legal_moves(state)) == sorted((card,) for card in set(state.hands[1]))


def test_first_trick_ban_applies_to_a_free_opening_lead():
    rules = Rules(must_lead_opening_card=False, first_trick_ban=True)
    hands = build_hands({3: "C2 SQ C10"})
    state = replay(rules, hands=hands)
    assert normalized_moves(legal_moves(state)) == sorted((card,) for card in hands[3] if card not in cs("SQ C10"))


def test_without_first_trick_ban_pig_may_be_discarded_in_trick_1():
    clubs = "C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK CA"
    hands = build_hands({0: clubs, 1: "SQ"})
    state = replay(Rules(), hands=hands, plays=[cs("C2")])
    assert normalized_moves(legal_moves(state)) == sorted((card,) for card in hands[1])


@pytest.mark.parametrize(
    ("positions", "leader"),
    [
        ({3: 0, 1: 1}, 3),  # dealt at times 3 and 5
        ({2: 0, 0: 1}, 2),  # times 2 and 4
        ({0: 0, 3: 0}, 0),  # times 0 and 3
        ({1: 12, 0: 13}, 1),  # times 49 and 52
    ],
)
def test_two_decks_first_club_two_dealt_leads(positions, leader):
    rules = Rules(decks=2)
    hands = list(build_hands(dict.fromkeys(positions, "C2"), decks=2))
    for seat, index in positions.items():
        hands[seat] = place(hands[seat], c("C2"), index)
    assert first_leader(rules, hands) == leader
    assert first_leader(rules, hands, [hand_bits(hand) for hand in hands]) == leader   # its holders searched only
    state = replay(rules, hands=hands)
    assert state.seat == leader
    assert legal_moves(state) == [cs("C2")]


def test_two_decks_holder_of_both_club_twos_may_lead_one_or_the_pair():
    rules = Rules(decks=2)
    hands = build_hands({2: "C2 C2"}, decks=2)
    state = replay(rules, hands=hands)
    assert state.seat == 2
    assert normalized_moves(legal_moves(state)) == [cs("C2"), cs("C2 C2")]


def test_later_deal_needs_a_leader():
    hands = build_hands({})
    with pytest.raises(InvalidDeal) as caught:
        replay(Rules(), hands=hands, first_deal=False)
    assert ("missing_leader", "/leader") in [(p.code, p.path) for p in caught.value.problems]


def test_later_deal_leader_leads_any_card():
    hands = build_hands({2: "C2"})
    state = replay(Rules(), hands=hands, first_deal=False, leader=1)
    assert (state.seat, running.leader(state)) == (1, 1)
    assert normalized_moves(legal_moves(state)) == sorted((card,) for card in hands[1])


def test_first_deal_with_the_wrong_leader_is_rejected():
    hands = build_hands({2: "C2"})
    with pytest.raises(InvalidDeal) as caught:
        replay(Rules(), hands=hands, leader=0)
    assert ("wrong_leader", "/leader") in [(p.code, p.path) for p in caught.value.problems]
    assert replay(Rules(), hands=hands, leader=2).seat == 2


def test_two_decks_an_explicit_leader_may_hold_either_club_two():
    # rules.md §2: an explicit leader stands when it holds the opening card (either
    # copy with two decks), so hands may be sent sorted; without leader, the seat
    # dealt the first C2 leads.
    rules = Rules(decks=2)
    hands = list(build_hands({1: "C2", 3: "C2"}, decks=2))
    hands[3] = place(hands[3], c("C2"), 0)
    hands[1] = place(hands[1], c("C2"), 1)
    assert replay(rules, hands=hands).seat == 3
    assert replay(rules, hands=hands, leader=3).seat == 3
    assert replay(rules, hands=hands, leader=1).seat == 1
    with pytest.raises(InvalidDeal) as caught:
        replay(rules, hands=hands, leader=0)
    assert [(p.code, p.path) for p in caught.value.problems] == [("wrong_leader", "/leader")]
    assert caught.value.problems[0].detail == (
        "in the first deal the leader must hold C2: seat 0 does not (it is held by seats 1 and 3); "
        "without leader, the seat dealt the first C2 leads")
