"""The greedy-trick player (tests/players.py; an arena opponent too): legal, blind to hidden cards, seeded, and the
one-trick tactics its evaluation stands for, on hand-made tricks with the exact play expected."""
import random

import pytest

from gongzhu.rules import Rules, is_legal_move, legal_moves, parse_card, replay
from tests.players import _short_suit_preference, _TrickSearch, greedy_trick_play

from .states import random_position, reshuffled

FEW_SAMPLES = 2
SAMPLES = 20
SEATS = 4
DECK = [s + r for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


def cards(text):
    return [parse_card(name) for name in text.split()]


def position(seat0, plays, voids=None, leader=1, holds=None, exposed=None):
    """A one-deck deal that is not a match's first, ``leader`` leading the first trick: seat 0 holds
    ``seat0`` (13 cards); each other seat holds the cards it plays in ``plays`` (names, in play order,
    ``leader`` winning every trick) and the rest of the deck, lowest first to the first seat with room
    and not void in its suit (``voids``: seat -> suit letters), after the cards ``holds`` gives it (seat ->
    names); ``exposed``: seat -> names; the state after ``plays``."""
    voids, holds, exposed = voids or {}, holds or {}, exposed or {}
    seats = [(leader + i) % SEATS for i in range(len(plays))]
    hands = {0: seat0.split()}
    for s in (1, 2, 3):
        hands[s] = [name for name, by in zip(plays, seats) if by == s] + holds.get(s, "").split()
    for name in DECK:
        if all(name not in hand for hand in hands.values()):
            seat = next(s for s in (1, 2, 3) if len(hands[s]) < 13 and name[0] not in voids.get(s, ""))
            hands[seat].append(name)
    return replay(Rules(), hands=[cards(" ".join(hands[s])) for s in range(SEATS)],
                  exposed=[cards(exposed.get(s, "")) for s in range(SEATS)],
                  plays=[cards(name) for name in plays], first_deal=False, leader=leader)


def play(state):
    (card,) = greedy_trick_play(state, samples=SAMPLES, seed=0)
    return card


@pytest.mark.parametrize(("decks", "count"), [(1, 300), (2, 100)])
def test_greedy_trick_plays_legal_moves_in_random_positions(decks, count):
    # random rules (partnership or not, first-trick ban, opening card), exposures, any point of the deal
    for seed in range(count):
        state = random_position(seed, decks=decks).state
        assert is_legal_move(state, greedy_trick_play(state, samples=FEW_SAMPLES, seed=seed)), (decks, seed)


@pytest.mark.parametrize("decks", [1, 2])
def test_greedy_trick_ignores_hidden_cards(decks):
    # the other seats' unexposed cards dealt anew, consistently with the same public history: same play
    compared = 0
    for seed in range(60):
        p = random_position(seed, decks=decks)
        other = reshuffled(p, random.Random(seed))
        if other is None:
            continue
        compared += 1
        assert greedy_trick_play(p.state, samples=FEW_SAMPLES, seed=seed) == \
            greedy_trick_play(other, samples=FEW_SAMPLES, seed=seed), (decks, seed)
    assert compared >= 40


@pytest.mark.parametrize(("decks", "count"), [(1, 150), (2, 40)])
def test_plays_that_share_a_search_of_the_replies_have_the_same_outcome_as_searched_apart(decks, count):
    # on a sampled deal, as the search sees it: every play's outcome (winner, points), and so every reply
    # chosen, is the same with the replies of equivalent plays searched once or each apart
    for seed in range(count):
        p = random_position(seed, decks=decks)
        state = p.state.resample(p.state.view(), random.Random(seed))
        moves = legal_moves(state)
        shared, apart = _TrickSearch(state), _TrickSearch(state)
        apart.share = False
        assert shared.outcomes(state, moves) == apart.outcomes(state, moves), (decks, seed)


def test_greedy_trick_is_reproducible_for_a_seed():
    states = [random_position(seed).state for seed in range(20)]
    first = [greedy_trick_play(s, samples=3, seed=7) for s in states]
    assert [greedy_trick_play(s, samples=3, seed=7) for s in states] == first


def test_last_on_a_spade_trick_an_opponent_wins_with_sk_it_drops_the_pig():
    # seat 1 leads S5, seat 2 (partner) S3, seat 3 (opponent) SK: the pig goes to seat 3
    state = position("S2 SQ H2 H3 D2 D3 D4 C2 C3 C4 C5 C6 C7", ["S5", "S3", "SK"])
    assert play(state) == parse_card("SQ")


def test_last_on_a_spade_trick_its_partner_wins_it_keeps_the_pig():
    # seat 2, its partner, wins with SK: the pig would cost the side 100, S2 nothing
    state = position("S2 SQ H2 H3 D2 D3 D4 C2 C3 C4 C5 C6 C7", ["S5", "SK", "S3"])
    assert play(state) == parse_card("S2")


VOID_IN_DIAMONDS = "SQ S2 S3 H2 H5 HK C2 C3 C4 C5 C6 C7 C8"


def test_discarding_on_an_opponent_trick_it_drops_the_pig():
    # seat 3 (opponent) wins the diamond trick: the pig (+100 for the side) beats HK (+40)
    state = position(VOID_IN_DIAMONDS, ["D5", "D3", "DA"])
    assert play(state) == parse_card("SQ")


def test_discarding_on_its_partner_trick_it_sheds_a_card_without_points():
    # seat 2 (partner) wins with DA: no pig, no heart on it; the highest burden without points, C8 (4)
    state = position(VOID_IN_DIAMONDS, ["D5", "DA", "D3"])
    assert play(state) == parse_card("C8")


def test_last_on_a_clean_diamond_trick_it_takes_the_sheep():
    # D5 D8 D10 carry no points: DJ wins the trick and the sheep (+100)
    state = position("DJ D2 S2 S3 H2 H3 C2 C3 C4 C5 C6 C7 C8", ["D5", "D8", "D10"])
    assert play(state) == parse_card("DJ")


def test_it_does_not_take_the_sheep_with_the_pig_on_the_trick():
    # seat 2 (partner, void in diamonds) discarded the pig: taking it with the sheep nets 0, D2 leaves
    # the pig with seat 3 (+100 for the side)
    state = position("DJ D2 S2 S3 H2 H3 C2 C3 C4 C5 C6 C7 C8", ["D5", "SQ", "D10"], voids={2: "D"})
    assert play(state) == parse_card("D2")


VOID_WITH_HIGH_SPADES = "S5 SA SK S2 HA H2 C2 C3 C4 C5 C6 C7 C8"


def test_it_sheds_sa_on_a_discard_while_the_pig_is_out():
    # trick 1: S6 by seat 1 takes S3 S4 S5; trick 2: D5 D7 D9, seat 3 (opponent) winning, seat 0 void:
    # SA (11 + 50 while the pig is out) before HA (+50 on the opponent)
    state = position(VOID_WITH_HIGH_SPADES, ["S6", "S3", "S4", "S5", "D5", "D7", "D9"])
    assert play(state) == parse_card("SA")


def test_with_the_pig_gone_it_sheds_ha_before_sa():
    # the same, but seat 1 led the pig and took it in trick 1: SA is only a high card (11), HA +50
    state = position(VOID_WITH_HIGH_SPADES, ["SQ", "S3", "S4", "S5", "D5", "D7", "D9"])
    assert play(state) == parse_card("HA")


# seat 1 exposed the pig (so every sample leaves it with seat 1, and it scores -200); trick 1 (seat 3 leads SJ)
# was a spade trick, so the exposed pig may be played now; seat 3 leads S6 to trick 2, seat 0 to play second
PIG_BEHIND = {"seat0": "SK S5 S2 H2 H3 D2 D3 D4 C2 C3 C4 C5 C6", "plays": ["SJ", "S2", "S3", "S4", "S6"],
              "leader": 3, "exposed": {1: "SQ"},
              "holds": {1: "SQ SA S7 S8 S9 S10 H4 H5 H6 H7 H8 H9", 2: "HA HK HQ HJ H10 DJ D5 D6 D7 D8 D9 D10"}}


def test_the_later_seats_each_reply_best_for_their_side():
    # the search over the rest of the trick, on the dealt hands: after SK, seat 1 drops the pig on it (-200)
    # and seat 2, void in spades, gives its partner the sheep (+100); after S5, seat 1 takes the trick with
    # SA (its highest burden) and seat 2 dumps HA on it (-50)
    seat0, plays = PIG_BEHIND["seat0"], PIG_BEHIND["plays"]
    state = position(seat0, plays, leader=3, holds=PIG_BEHIND["holds"], exposed=PIG_BEHIND["exposed"])
    assert legal_moves(state) == [(parse_card("S5"),), (parse_card("SK"),)]
    assert _TrickSearch(state).outcomes(state, legal_moves(state)) == [(1, -50.0), (0, -100.0)]


def test_second_to_play_it_ducks_where_the_next_seat_would_drop_the_pig_on_its_king():
    # with the other hands hidden (only the exposed pig is known): SK would take the pig (relief 39 does not
    # pay for it); S5 ducks under S6 and seat 1 keeps the pig off its partner
    seat0, plays = PIG_BEHIND["seat0"], PIG_BEHIND["plays"]
    state = position(seat0, plays, leader=3, holds={1: "SQ"}, exposed=PIG_BEHIND["exposed"])
    assert play(state) == parse_card("S5")


def test_leading_early_it_prefers_its_short_suits():
    # seat 1 took trick 1 with CA and leads trick 2 with 1 spade, 4 hearts, 3 diamonds, 4 clubs; the 4 clubs
    # of trick 1 are gone, so the other hands hold (13 - 1) / 3 = 4 spades, 3 hearts, 10 / 3 diamonds and
    # 5 / 3 clubs on average: 30 a card shorter than that
    state = position("C2 H2 H3 D2 D3 D4 S2 S3 S4 S5 S6 S7 S8", ["CA", "C3", "C4", "C2"], leader=1,
                     holds={1: "SA HA HK HQ HJ DA DK DQ CK CQ CJ C10"})
    assert state.seat == 1
    assert _short_suit_preference(state.view(), 1) == pytest.approx([90, -30, 10, -70])
