"""The acting seat's information set: voids from discards, trick leaders, and
determinizations that respect hand sizes, exposed cards and voids."""
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gongzhu.bot import knowledge
from gongzhu.rules import Rules, parse_card, replay, running
from gongzhu.rules.cards import bits_cards
from gongzhu.rules.information import sample_hidden as deal_unseen
from gongzhu.rules.play import apply_move

from .states import random_position

FIXED = {"derandomize": True, "deadline": None, "database": None, "suppress_health_check": list(HealthCheck)}
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
SPADES_VOID, CLUBS_VOID = 1 << 0, 1 << 3


def cards(text):
    return tuple(parse_card(name) for name in text.split())


# seat 0 leads C2; seat 2 (no clubs) discards; seat 3 wins with CA and leads S5; seat 1 discards
HANDS = (cards("C2 S2 S3 S4 S6 S7 S8 S9 S10 SJ SQ SK SA"),
         cards("C3 H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK"),
         cards("HA D2 D3 D4 D5 D6 D7 D8 D9 D10 DJ DQ DK"),
         cards("CA DA S5 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK"))
PLAYS = [cards("C2"), cards("C3"), cards("D2"), cards("CA"), cards("S5"), cards("SA"), cards("H2")]


def test_discards_show_voids():
    state = replay(Rules(), hands=HANDS, plays=PLAYS)
    assert [running.trick_leader(state, 0), running.leader(state)] == [0, 3]
    assert running.voids(state) == (0, SPADES_VOID, CLUBS_VOID, 0)


def test_knowledge_of_seat_two():
    state = replay(Rules(), hands=HANDS, plays=PLAYS)
    assert state.seat == 2
    k = knowledge(state, PLAYS)
    assert k.voids == (0, SPADES_VOID, CLUBS_VOID, 0)
    assert k.sizes == (11, 11, 12, 11)
    assert k.hand == running.hands_bits(state)[2]
    assert Counter(k.unseen) == Counter(c for s in (0, 1, 3) for c in state.hands[s])


def test_the_state_keeps_the_history_so_every_trick_counts():
    state = replay(Rules(), hands=HANDS, plays=PLAYS)
    assert knowledge(state).voids == (0, SPADES_VOID, CLUBS_VOID, 0)
    # seat 2 discards on spades too; the trick before it is still known without the plays
    later = apply_move(state, cards("D3"))
    assert knowledge(later).voids == (0, SPADES_VOID, SPADES_VOID | CLUBS_VOID, 0)
    assert knowledge(later, PLAYS + [cards("D3")]).voids == (0, SPADES_VOID, SPADES_VOID | CLUBS_VOID, 0)


@settings(max_examples=300, **FIXED)
@given(seed=SEEDS, decks=st.sampled_from((1, 2)))
def test_determinization_is_consistent(seed, decks):
    p = random_position(seed, decks=decks)
    k = knowledge(p.state, p.plays)
    hands = deal_unseen(k, random.Random(seed))
    me = p.state.seat
    assert hands[me] == running.hands_bits(p.state)[me]
    guessed = Counter(c for s in range(4) if s != me for c in bits_cards(hands[s]))
    actual = Counter(c for s in range(4) if s != me for c in p.state.hands[s])
    assert guessed == actual
    for s in range(4):
        assert len(bits_cards(hands[s])) == len(p.state.hands[s])
        held = Counter(bits_cards(hands[s]))
        assert all(held[c] >= n for c, n in Counter(bits_cards(running.held_exposed(p.state)[s])).items())
        # the true deal respects the voids, so a consistent guess exists and is found
        assert not any(k.voids[s] >> (c // 13) & 1 for c in bits_cards(hands[s]))
