"""rules.md §3 (亮牌): the exposure restriction, examples 3.1–3.6 (numbered by
the test names), and the per-copy rule of two-deck games (R: "如果 Q 只亮过一张 …")."""

import gongzhu.rules as R
from gongzhu.rules import Rules, legal_moves, replay

from .helpers import advance, build_hands, c, cs, normalized_moves, singles

ONE_DECK = Rules()
TWO_DECKS = Rules(decks=2)
NO_EXPOSURE = ((), (), (), ())
# Seats: N 0, E 1, S 2, W 3 (play order N, E, S, W).


def exposure(**by_seat):
    seats = {"n": 0, "e": 1, "s": 2, "w": 3}
    lists = [(), (), (), ()]
    for seat, text in by_seat.items():
        lists[seats[seat]] = cs(text)
    return tuple(lists)


def test_spec_3_1_exposed_pig_held_back_when_spades_first_led():
    hands = build_hands({2: "SQ S9 S3", 1: "S5"}, avoid={2: "S"})
    state = replay(ONE_DECK, hands=hands, exposed=exposure(s="SQ"), plays=[cs("S5")], first_deal=False, leader=1)
    assert state.seat == 2
    assert normalized_moves(legal_moves(state)) == singles("S3 S9")


def test_spec_3_2_exposed_pig_may_not_be_led_in_a_suit_not_yet_led():
    hands = build_hands({2: "SQ S9 S3"}, avoid={2: "S"})
    state = replay(ONE_DECK, hands=hands, exposed=exposure(s="SQ"), first_deal=False, leader=2)
    expected = sorted((card,) for card in hands[2] if card != c("SQ"))
    assert normalized_moves(legal_moves(state)) == expected
    assert (c("S9"),) in expected and (c("S3"),) in expected


def test_spec_3_3_exposed_pig_alone_in_spades_must_be_played():
    hands = build_hands({2: "SQ", 1: "S5"}, avoid={2: "S"})
    state = replay(ONE_DECK, hands=hands, exposed=exposure(s="SQ"), plays=[cs("S5")], first_deal=False, leader=1)
    assert legal_moves(state) == [(c("SQ"),)]


def test_spec_3_4_exposed_pig_may_be_discarded_on_hearts():
    hands = build_hands({2: "SQ S9", 1: "H5"}, avoid={2: "SH"})
    state = replay(ONE_DECK, hands=hands, exposed=exposure(s="SQ"), plays=[cs("H5")], first_deal=False, leader=1)
    assert normalized_moves(legal_moves(state)) == sorted((card,) for card in hands[2])


def test_spec_3_5_fourth_exposable_card_is_exposed_automatically():
    hands = build_hands({0: "SQ", 1: "DJ HA", 3: "C10"})
    exposed = exposure(n="SQ", e="DJ HA")
    effective = R.exposure.effective_exposure(ONE_DECK, hands, exposed)
    assert [sorted(seat) for seat in effective] == [[c("SQ")], sorted(cs("DJ HA")), [], [c("C10")]]
    state = replay(ONE_DECK, hands=hands, exposed=exposed, first_deal=False, leader=0)
    assert [sorted(seat) for seat in state.exposed] == [[c("SQ")], sorted(cs("DJ HA")), [], [c("C10")]]


def test_spec_3_5_automatic_exposure_restricts_the_transformer():
    # W (3) holds C10 and other clubs; N leads clubs for the first time.
    hands = build_hands({0: "SQ C3", 1: "DJ HA", 3: "C10 C9"})
    state = replay(ONE_DECK, hands=hands, exposed=exposure(n="SQ", e="DJ HA"), first_deal=False, leader=0)
    state = advance(R, state, cs("C3"), None, None)
    assert state.seat == 3
    moves = normalized_moves(legal_moves(state))
    assert (c("C9"),) in moves
    assert (c("C10"),) not in moves


def test_spec_3_5_automatic_exposure_doubles_the_transformer_score():
    sheet = R.score_cards(ONE_DECK, [[c("C10")], [], [], []], exposure(n="SQ", e="DJ HA"))
    assert tuple(sheet.raw) == (100, 0, 0, 0)


def test_two_decks_have_no_automatic_exposure():
    hands = build_hands({0: "SQ", 1: "DJ HA", 3: "C10"}, decks=2)
    effective = R.exposure.effective_exposure(TWO_DECKS, hands, exposure(n="SQ", e="DJ HA"))
    assert [sorted(seat) for seat in effective] == [[c("SQ")], sorted(cs("DJ HA")), [], []]


def test_spec_3_6_two_decks_pair_lead_uses_the_unexposed_pig():
    hands = build_hands({0: "S4 S4", 1: "SQ SQ S5"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, exposed=exposure(e="SQ"), plays=[cs("S4 S4")], first_deal=False, leader=0)
    assert normalized_moves(legal_moves(state)) == [cs("S5 SQ")]


def test_two_decks_exposed_copy_held_back_breaks_the_pair():
    # Unexposed spades SQ S5 S6: no pair among them, so any two of those three.
    hands = build_hands({0: "S4 S4", 1: "SQ SQ S5 S6"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, exposed=exposure(e="SQ"), plays=[cs("S4 S4")], first_deal=False, leader=0)
    assert normalized_moves(legal_moves(state)) == [cs("S5 S6"), cs("S5 SQ"), cs("S6 SQ")]


def test_two_decks_exposed_copy_comes_back_only_when_too_few():
    # Only unexposed spade is S5; one exposed SQ completes the two cards.
    hands = build_hands({0: "S4 S4", 1: "SQ S5"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, exposed=exposure(e="SQ"), plays=[cs("S4 S4")], first_deal=False, leader=0)
    assert normalized_moves(legal_moves(state)) == [cs("S5 SQ")]


def test_two_decks_single_lead_allows_the_unexposed_copy():
    hands = build_hands({0: "S4", 1: "SQ SQ S5"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, exposed=exposure(e="SQ"), plays=[cs("S4")], first_deal=False, leader=0)
    assert normalized_moves(legal_moves(state)) == singles("S5 SQ")


def test_two_decks_leader_may_lead_unexposed_copy_but_not_the_pair():
    hands = build_hands({1: "SQ SQ S9"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, exposed=exposure(e="SQ"), first_deal=False, leader=1)
    spade_moves = [m for m in normalized_moves(legal_moves(state)) if m[0] // 13 == 0]
    assert spade_moves == [cs("S9"), cs("SQ")]


def test_two_decks_both_copies_exposed_and_only_spades_must_be_played_as_pair():
    hands = build_hands({0: "S4 S4", 1: "SQ SQ"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, exposed=exposure(e="SQ SQ"), plays=[cs("S4 S4")], first_deal=False, leader=0)
    assert legal_moves(state) == [cs("SQ SQ")]


def test_two_decks_discard_uses_the_exposed_copy_first():
    # E (1) discards SQ on hearts: the exposed copy goes, so the remaining
    # SQ is unexposed and free in the first spade round.
    hands = build_hands({0: "H2", 1: "SQ SQ S5", 2: "HA S4", 3: "H3"}, decks=2, avoid={1: "SH"})
    state = replay(
        TWO_DECKS, hands=hands, exposed=exposure(e="SQ"),
        plays=[cs("H2"), cs("SQ"), cs("HA"), cs("H3"), cs("S4")], first_deal=False, leader=0,
    )
    state = advance(R, state, None, None)
    assert state.seat == 1
    assert normalized_moves(legal_moves(state)) == singles("S5 SQ")


def test_exposed_card_is_free_from_the_second_round_of_its_suit():
    # W (3) gets the other spades S7 S8 S10 SJ SK SA.
    hands = build_hands({0: "S2 S3", 1: "S4 S5", 2: "SQ S9 S6"}, avoid={0: "S", 1: "S", 2: "S"})
    state = replay(ONE_DECK, hands=hands, exposed=exposure(s="SQ"), first_deal=False, leader=0)
    state = advance(R, state, cs("S2"), cs("S4"), cs("S9"), cs("S7"))
    assert state.seat == 2
    assert normalized_moves(legal_moves(state)) == sorted((card,) for card in hands[2] if card != c("S9"))


def test_leader_holding_only_the_exposed_card_of_a_suit_may_lead_it():
    hands = build_hands({2: "SQ"}, avoid={2: "S"})
    state = replay(ONE_DECK, hands=hands, exposed=exposure(s="SQ"), first_deal=False, leader=2)
    assert normalized_moves(legal_moves(state)) == sorted((card,) for card in hands[2])


def test_two_decks_leader_holding_only_both_exposed_copies_may_lead_the_pair():
    hands = build_hands({1: "SQ SQ"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, exposed=exposure(e="SQ SQ"), first_deal=False, leader=1)
    spade_moves = [m for m in normalized_moves(legal_moves(state)) if m[0] // 13 == 0]
    assert spade_moves == [cs("SQ"), cs("SQ SQ")]


def test_two_decks_only_one_of_two_exposed_copies_comes_back():
    # Unexposed spades: S5 only; one of the two exposed SQ completes the play.
    hands = build_hands({0: "S4 S4", 1: "SQ SQ S5"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, exposed=exposure(e="SQ SQ"), plays=[cs("S4 S4")], first_deal=False, leader=0)
    assert normalized_moves(legal_moves(state)) == [cs("S5 SQ")]


def test_two_decks_exposed_pair_held_back_behind_an_unexposed_pair():
    hands = build_hands({0: "S4 S4", 1: "SQ SQ S5 S5"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, exposed=exposure(e="SQ SQ"), plays=[cs("S4 S4")], first_deal=False, leader=0)
    assert legal_moves(state) == [cs("S5 S5")]


def test_two_decks_both_copies_exposed_single_lead_must_follow_with_one():
    hands = build_hands({0: "S4", 1: "SQ SQ"}, decks=2, avoid={1: "S"})
    state = replay(TWO_DECKS, hands=hands, exposed=exposure(e="SQ SQ"), plays=[cs("S4")], first_deal=False, leader=0)
    assert legal_moves(state) == [cs("SQ")]
