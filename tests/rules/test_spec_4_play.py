"""rules.md §4: following suit, pair leads in two-deck games, and the ranking
of a trick (examples 4.1–4.4, numbered by the test names; R's restored
sentence on pairs vs singles)."""

import gongzhu.rules as R
from gongzhu.rules import Rules, legal_moves, rank_trick, replay, running

from .helpers import build_hands, c, cs, normalized_moves, singles

ONE_DECK = Rules()
TWO_DECKS = Rules(decks=2)


def ranked(rules, leader, *plays):
    return rank_trick(rules, leader, [cs(p) for p in plays])


def test_spec_4_1_spade_pair_lead_two_singles_beat_pairs():
    result = ranked(TWO_DECKS, 0, "S4 S4", "SK SK", "SQ S8", "SJ HK")
    assert list(result.ranking) == [2, 1, 0, 3]
    assert result.winner == 2
    assert result.led_suit == "S"
    assert sorted(result.point_cards) == sorted(cs("SQ HK"))


def test_spec_4_1_seats_follow_the_leader():
    # Same plays, led by seat 3: the plays belong to seats 3, 0, 1, 2.
    result = ranked(TWO_DECKS, 3, "S4 S4", "SK SK", "SQ S8", "SJ HK")
    assert list(result.ranking) == [1, 0, 3, 2]
    assert result.winner == 1


def test_spec_4_2_diamond_pairs_beat_two_singles():
    result = ranked(TWO_DECKS, 0, "D4 D4", "DK DK", "DQ D8", "DJ HK")
    assert list(result.ranking) == [1, 0, 2, 3]
    assert result.winner == 1
    assert result.led_suit == "D"
    assert sorted(result.point_cards) == sorted(cs("DJ HK"))


def test_spec_4_3_equal_high_singles_go_to_the_earlier_play():
    result = ranked(TWO_DECKS, 0, "S9 S9", "S2 SQ", "S3 SQ", "SA SA")
    assert list(result.ranking) == [1, 2, 3, 0]
    assert result.winner == 1


def test_hearts_and_clubs_rank_like_spades():
    assert list(ranked(TWO_DECKS, 0, "H4 H4", "HK HK", "HQ H8", "HJ SK").ranking) == [2, 1, 0, 3]
    assert list(ranked(TWO_DECKS, 0, "C4 C4", "CK CK", "CQ C8", "CJ SK").ranking) == [2, 1, 0, 3]


def test_two_deck_identical_single_cards_go_to_the_earlier_play():
    result = ranked(TWO_DECKS, 0, "S9", "SK", "SK", "S2")
    assert list(result.ranking) == [1, 2, 0, 3]


def test_one_deck_discard_never_wins():
    result = ranked(ONE_DECK, 0, "S5", "HA", "S6", "S2")
    assert result.winner == 2
    assert list(result.ranking) == [2, 0, 3, 1]
    assert list(result.point_cards) == [c("HA")]


def pair_lead_state(follower_spades, follower_hand_extra=""):
    """Two decks: seat 0 leads S4 S4; seat 1 holds exactly the given spades."""
    hands = build_hands({0: "S4 S4", 1: follower_spades + " " + follower_hand_extra}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, plays=[cs("S4 S4")], first_deal=False, leader=0)
    return state, hands[1]


def test_spec_4_4_holding_a_pair_must_play_a_pair():
    state, _ = pair_lead_state("SK SK S7", "H3")
    assert legal_moves(state) == [cs("SK SK")]


def test_spec_4_4_holding_two_spades_without_a_pair_plays_both():
    state, _ = pair_lead_state("SK S7", "H3 H3")
    assert normalized_moves(legal_moves(state)) == [cs("S7 SK")]


def test_spec_4_4_holding_one_spade_plays_it_with_any_card():
    state, hand = pair_lead_state("S7", "H3 H5")
    expected = sorted({tuple(sorted((c("S7"), card))) for card in hand if card != c("S7")})
    assert normalized_moves(legal_moves(state)) == expected
    assert tuple(sorted(cs("H3 S7"))) in expected


def test_pair_lead_every_pair_of_the_suit_is_allowed():
    state, _ = pair_lead_state("SK SK S7 S7 S9")
    assert normalized_moves(legal_moves(state)) == [cs("S7 S7"), cs("SK SK")]


def test_pair_lead_void_seat_plays_any_two_cards():
    hands = build_hands({0: "S4 S4"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, plays=[cs("S4 S4")], first_deal=False, leader=0)
    hand = hands[1]
    expected = sorted(
        {(a, b) for i, a in enumerate(sorted(hand)) for b in sorted(hand)[i + 1:]}
    )
    assert normalized_moves(legal_moves(state)) == expected


def test_one_deck_must_follow_suit_else_discard_anything():
    hands = build_hands({0: "S5", 1: "S9 S2"}, avoid={1: "S", 2: "S"})
    state = replay(ONE_DECK, hands=hands, plays=[cs("S5")], first_deal=False, leader=0)
    assert normalized_moves(legal_moves(state)) == singles("S2 S9")
    state = R.apply_move(state, cs("S9"))
    assert normalized_moves(legal_moves(state)) == sorted((card,) for card in hands[2])


def test_two_deck_single_lead_follows_with_one_card():
    hands = build_hands({0: "S5", 1: "S9 S9 S2"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, plays=[cs("S5")], first_deal=False, leader=0)
    assert legal_moves(state) == singles("S2 S9")


def test_two_deck_leader_may_lead_a_card_or_a_pair():
    hands = build_hands({2: "S9 S9 S2"}, decks=2, avoid={2: "S"})
    state = replay(TWO_DECKS, hands=hands, first_deal=False, leader=2)
    spade_moves = [m for m in normalized_moves(legal_moves(state)) if m[0] // 13 == 0]
    assert spade_moves == [cs("S2"), cs("S9"), cs("S9 S9")]


def test_winner_takes_the_trick_and_leads_next():
    hands = build_hands({0: "S5", 1: "S9", 2: "HA", 3: "S2"}, avoid={2: "S"})
    state = replay(ONE_DECK, hands=hands, plays=[cs("S5"), cs("S9"), cs("HA"), cs("S2")], first_deal=False, leader=0)
    assert state.seat == 1
    assert running.completed_trick(state).winner == 1
    assert sorted(running.captured(state)[1]) == sorted(cs("S2 S5 S9 HA"))
    assert [len(taken) for taken in running.captured(state)] == [0, 4, 0, 0]
    assert running.trick_number(state) == 1


def test_legal_moves_are_in_the_documented_stable_order():
    # engine-api.md: singles ascending by card; pairs/two-card plays lexicographic.
    hands = build_hands({0: "S4 S4"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, plays=[cs("S4 S4")], first_deal=False, leader=0)
    moves = [tuple(m) for m in legal_moves(state)]
    assert moves == normalized_moves(moves)
    lead = replay(TWO_DECKS, hands=hands, first_deal=False, leader=0)
    moves = [tuple(m) for m in legal_moves(lead)]
    single_moves = [m for m in moves if len(m) == 1]
    pair_moves = [m for m in moves if len(m) == 2]
    assert moves == sorted(single_moves) + sorted(pair_moves)
    assert pair_moves and all(tuple(m) == tuple(sorted(m)) for m in pair_moves)
