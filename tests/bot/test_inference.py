"""What the bot infers from the plays (the pig's absence) and the plays it treats as one."""
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gongzhu.bot import heuristic_suggestion
from gongzhu.bot.equivalence import distinct_plays
from gongzhu.bot.knowledge import _passed_up, absent_cards
from gongzhu.rules import PIG, Rules, deal_hands, is_legal_move, legal_moves, parse_card, replay, running
from gongzhu.rules.information import sample_hidden
from gongzhu.rules.play import apply_move
from gongzhu.rules.running import score_state

from .states import random_position
from .test_knowledge import HANDS, PLAYS

FIXED = {"derandomize": True, "deadline": None, "database": None, "suppress_health_check": list(HealthCheck)}
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
PIG_BIT = 1 << PIG


def cards(text):
    return tuple(parse_card(name) for name in text.split())


def test_seats_that_discarded_another_card_hold_no_pig():
    # trick 1: seat 2 (no clubs) discards D2; trick 2: seat 0 plays SA on S5 (the pig was not safe yet),
    # seat 1 (no spades) discards H2
    state = replay(Rules(), hands=HANDS, plays=PLAYS)
    assert absent_cards(state) == (0, PIG_BIT, PIG_BIT, 0)


def test_the_first_trick_says_nothing_under_the_first_trick_ban():
    state = replay(Rules(first_trick_ban=True), hands=HANDS, plays=PLAYS)
    assert absent_cards(state) == (0, PIG_BIT, 0, 0)


def test_following_under_a_spade_king_without_the_pig():
    # seat 0 leads S5, seat 1 tops it with SK, seat 2 follows S3 where the pig would have been safe;
    # seat 3 plays SA: the pig was safe for it too
    plays = (cards("S5"), cards("SK"), cards("S3"), cards("SA"))
    assert _passed_up(0, plays, partnership=False)[0] == 1 << 2 | 1 << 3
    # seat 1's SK was played on S5 (the pig would have won): nothing said of seat 1
    assert _passed_up(0, plays[:2], partnership=False)[0] == 0


def test_partners_keep_the_pig_off_each_other():
    # seat 0 leads C5 and is winning when seat 2, its partner, discards D2
    plays = (cards("C5"), cards("C3"), cards("D2"), cards("C4"))
    assert _passed_up(0, plays, partnership=False)[0] == 1 << 2
    assert _passed_up(0, plays, partnership=True)[0] == 0


def test_a_seat_that_dumps_the_pig_is_not_marked():
    plays = (cards("C5"), cards("SQ"), cards("C3"), cards("C4"))
    assert _passed_up(0, plays, partnership=False)[0] == 0


def test_the_last_seat_of_a_clean_diamond_trick_without_the_sheep():
    # the sheep would have won D5 D7 D9 with no points in the trick: seat 3 played D10, so it has no sheep
    assert _passed_up(0, (cards("D5"), cards("D7"), cards("D9"), cards("D10")), partnership=False)[1] == 1 << 3
    # points in the trick (H2 discarded), or a DQ already on it, or not yet last: nothing said
    assert _passed_up(0, (cards("D5"), cards("H2"), cards("D9"), cards("D10")), partnership=False)[1] == 0
    assert _passed_up(0, (cards("D5"), cards("DQ"), cards("D9"), cards("D10")), partnership=False)[1] == 0
    assert _passed_up(0, (cards("D5"), cards("D7"), cards("D9")), partnership=False)[1] == 0
    assert _passed_up(0, (cards("D5"), cards("D7"), cards("D9"), cards("DJ")), partnership=False)[1] == 0


def test_the_sampler_keeps_the_pig_from_seats_believed_without_it():
    # seen from seat 3: seat 1 is void in spades, seat 2 kept the pig off trick 1 (so it has none)
    state = replay(Rules(), hands=HANDS, plays=PLAYS)
    view = state.view(3)
    absent = absent_cards(state)
    rng = random.Random(1)
    holders = {next(s for s, h in enumerate(sample_hidden(view, rng, absent)) if h >> PIG & 1) for _ in range(300)}
    assert holders == {0}
    holders = {next(s for s, h in enumerate(sample_hidden(view, rng)) if h >> PIG & 1) for _ in range(300)}
    assert holders == {0, 2}


def test_a_belief_no_deal_can_honour_is_dropped():
    state = replay(Rules(), hands=HANDS, plays=PLAYS)
    view = state.view()
    hands = sample_hidden(view, random.Random(2), (PIG_BIT, PIG_BIT, 0, PIG_BIT))
    assert sum(h >> PIG & 1 for h in hands) == 1
    assert [h.bit_count() for h in hands] == list(view.sizes) == [11, 11, 12, 11]


def _distinct_cards(hand, played, legal_text, trick=()):
    """Singles kept by distinct_plays for a seat holding ``hand`` after the cards ``played`` fell."""
    view = replay(Rules(), hands=HANDS, plays=PLAYS).view()
    unseen = tuple(c for c in range(52) if c not in cards(hand) + cards(played))
    view = type(view)(seat=0, hand=sum(1 << c for c in cards(hand)), known=(0, 0, 0, 0),
                      sizes=view.sizes, voids=view.voids, unseen=unseen, played=0)
    return tuple(m[0] for m in distinct_plays(view, trick, [(c,) for c in cards(legal_text)]))


def test_touching_cards_are_one_play():
    assert _distinct_cards("D2 D3 D5 C7", "", "D2 D3 D5") == cards("D2 D5")
    # D4 played: D2 D3 D5 touch
    assert _distinct_cards("D2 D3 D5 C7", "D4", "D2 D3 D5") == cards("D2")
    # a card of the current trick between them still counts: D3 loses to D4, D5 beats it
    assert _distinct_cards("D2 D3 D5 C7", "D4", "D2 D3 D5", trick=[cards("D4")]) == cards("D2 D5")


def test_cards_of_different_value_stay_apart():
    # H4 scores 0, H5 and H6 score -10 each; the sheep, the pig and the transformer are unique
    assert _distinct_cards("H4 H5 H6", "", "H4 H5 H6") == cards("H4 H5")
    assert _distinct_cards("D10 DJ DQ", "", "D10 DJ DQ") == cards("D10 DJ DQ")
    assert _distinct_cards("SJ SQ SK", "", "SJ SQ SK") == cards("SJ SQ SK")
    assert _distinct_cards("C9 C10 CJ", "", "C9 C10 CJ") == cards("C9 C10 CJ")


def _swap(play, low, high):
    """The play with the first copy of ``high`` replaced by ``low`` (and the other way round)."""
    out = list(play)
    for i, c in enumerate(out):
        if c in (low, high):
            out[i] = high if c == low else low
            return tuple(sorted(out))
    return play


def check_interchangeable(seed, decks):
    p = random_position(seed, decks=decks)
    state, view = p.state, p.state.view()
    moves = legal_moves(state)
    kept = distinct_plays(view, state.trick, moves)
    dropped = [m[0] for m in moves if m not in kept]
    assume(dropped)
    high = random.Random(seed).choice(dropped)
    # the single it was merged with: the next lower one, leaving out cards held twice (two decks)
    twice = view.hand >> 52
    low = max(m[0] for m in moves if len(m) == 1 and m[0] < high and not twice >> m[0] & 1)
    seat, rng = state.seat, random.Random(seed)
    a, b = apply_move(state, (low,)), apply_move(state, (high,))
    # the same continuation on both lines, the seat's own low and high swapped on line b
    swapped = False
    while not a.finished:
        move = rng.choice(legal_moves(a))
        other = move
        if a.seat == seat and not swapped and (low in move or high in move):
            other, swapped = _swap(move, low, high), True
        assert is_legal_move(b, other), (move, other)
        a, b = apply_move(a, move), apply_move(b, other)
    assert [t.winner for t in a.history] == [t.winner for t in b.history]
    assert score_state(a).raw == score_state(b).raw


@pytest.mark.slow
@settings(max_examples=600, **FIXED)
@given(seed=SEEDS)
def test_interchangeable_plays_give_the_same_deal_one_deck(seed):
    check_interchangeable(seed, 1)


@pytest.mark.slow
@settings(max_examples=300, **FIXED)
@given(seed=SEEDS)
def test_interchangeable_plays_give_the_same_deal_two_decks(seed):
    check_interchangeable(seed, 2)


@settings(max_examples=300, **FIXED)
@given(seed=SEEDS, partnership=st.booleans())
def test_beliefs_never_exclude_the_true_deal_of_sensible_seats(seed, partnership):
    """In deals the baseline heuristic plays in every seat (it drops the pig on a trick it cannot win and
    takes a safe sheep), the beliefs read from the plays never deny a seat a card it holds, and the
    voids never either: the true deal is always one the sampler may deal."""
    rules = Rules(partnership=partnership)
    state = replay(rules, hands=deal_hands(rules, seed=seed))
    while not state.finished:
        absent = absent_cards(state)
        for seat in range(4):
            assert not absent[seat] & running.hands_bits(state)[seat], (seat, absent, running.plays(state))
            for suit in range(4):
                if running.voids(state)[seat] >> suit & 1:
                    assert not running.hands_bits(state)[seat] >> suit * 13 & 0x1FFF
        state = apply_move(state, heuristic_suggestion(state).move)

