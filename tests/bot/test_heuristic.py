"""The baseline heuristic seat on hand-made tricks (one deck)."""
from gongzhu.bot import heuristic_play
from gongzhu.rules import parse_card
from gongzhu.rules.cards import hand_bits


def cards(text):
    return tuple(parse_card(name) for name in text.split())


def play(hand, legal, trick=(), played=()):
    return heuristic_play(hand_bits(cards(hand)), hand_bits(cards(legal)), [],
                          [cards(p) for p in trick], hand_bits(cards(" ".join(played))))


def test_void_seat_discards_the_pig_first():
    assert play("SQ HA C3", "SQ HA C3", trick=["D5"]) == cards("SQ")


def test_void_seat_discards_the_highest_heart_next():
    assert play("H9 HA C3", "H9 HA C3", trick=["D5"]) == cards("HA")


def test_follower_ducks_under_the_winning_card():
    assert play("D2 D9 DK", "D2 D9 DK", trick=["D10"]) == cards("D9")


def test_pig_goes_under_the_spade_king():
    assert play("S2 SQ", "S2 SQ", trick=["S5", "SK"]) == cards("SQ")


def test_last_seat_takes_the_sheep_on_a_clean_trick():
    assert play("D2 DJ", "D2 DJ", trick=["D5", "D7", "D9"]) == cards("DJ")


def test_leader_avoids_hearts_and_the_pig():
    assert play("H2 SQ D7 C9", "H2 SQ D7 C9") == cards("D7")
