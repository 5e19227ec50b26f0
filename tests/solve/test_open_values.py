"""The review's exact open-card values (``gongzhu.solve.OpenValues``, docs/bot.md, "Exact endgames"):
every decision of a deal's last three tricks against a brute-force minimax over every legal play, one
``OpenValues`` a deal as the review keeps it; the deadline and node cap; the state left as found."""
from __future__ import annotations

import itertools
import random
import time

from gongzhu import rules as engine
from gongzhu import solve
from gongzhu.solve.endgame import MOST_DEALT_SPECIALS, deal_extremes, pile_extremes, taken_key

from .brute import brute_values, late_deals
from .test_endgame import endgames


def test_a_deal_valued_last_position_first_equals_brute_force():
    # the review's order: each position's value goes to the tables (the side's own, and the other side's
    # negated with partnership), and the position before finds its played move's value there
    rng = random.Random(13)
    checked = 0
    for state in late_deals(1, 6, 13):
        states = []
        while not state.finished:
            states.append(state)
            state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
        solver = solve.OpenValues()
        seen: dict = {}
        for state in reversed(states):
            assert solver.values(state) == brute_values(state, seen)
            checked += 1
    assert checked >= 6 * 7


def test_values_are_raw_points_of_a_hand_made_deal():
    # Seat 1 leads S5, seat 2 must follow with the pig, seat 3 plays S7; seat 0, last, holds SK and S2.
    # Taking with SK, seat 0 takes the pig, then leads S2 and takes H5 on it: -110. Ducking with S2 leaves
    # the pig to seat 2, who leads D4 and takes H5 too: seat 0 ends with 0.
    hands = ["SK S2", "S5 D3", "SQ D4", "S7 H5"]
    state = engine.DealState(rules=engine.Rules(), hands_bits=[engine.cards.hand_bits(map(engine.parse_card, h.split()))
                                                               for h in hands],
                             held_exposed=[0, 0, 0, 0], exposed=engine.state.NO_EXPOSURE,
                             doublings=engine.scoring.NO_DOUBLINGS, leader=1, opening_lead=None)
    for card in ("S5", "SQ", "S7"):
        state.apply(card)
    take, duck = (engine.parse_card("SK"),), (engine.parse_card("S2"),)
    assert solve.OpenValues().values(state) == {duck: 0, take: -110}


def test_a_node_cap_or_a_past_deadline_gives_none_and_leaves_the_state():
    state = endgames(1, 5, 1, 21)[0]
    before = state.clone()
    solver = solve.OpenValues()
    assert solver.values(state, max_nodes=3) is None
    assert state == before
    assert solver.values(state, deadline=time.monotonic() - 1) is None
    assert state == before
    deep = endgames(2, 9, 1, 22)[0]
    copy = deep.clone()
    assert solver.values(deep, deadline=time.monotonic() + 0.001) is None
    assert deep == copy
    # the tables a cut search leaves behind keep the next answer exact
    assert solver.values(state) == solve.OpenValues().values(state)


def test_pile_extremes_are_the_extremes_over_every_part_of_the_rest():
    rng = random.Random(31)
    scoring = [c for c in range(engine.cards.PLANE) if engine.cards.SCORING_MASK >> c & 1]
    for _ in range(400):
        decks = rng.choice((1, 2))
        rules = engine.Rules(decks=decks, pig_flips_with_all_hearts=rng.random() < 0.5)
        k = tuple(rng.randrange(decks + 1) if rng.random() < 0.3 else 0 for _ in range(4))
        copies = [c for c in scoring for _ in range(decks)]
        rng.shuffle(copies)
        pile, rest = 0, []
        for card in copies:
            draw = rng.random()
            if draw < 0.6:
                pile = engine.cards.add_card(pile, card)
            elif draw < 0.75 and len(rest) < 8:
                rest.append(card)
        rest_bits = 0
        for card in rest:
            rest_bits = engine.cards.add_card(rest_bits, card)
        raws = []
        for part in range(1 << len(rest)):
            taken = pile
            for i, card in enumerate(rest):
                if part >> i & 1:
                    taken = engine.cards.add_card(taken, card)
            raws.append(engine.scoring.seat_raw(rules, taken, k))
        assert pile_extremes(rules, k, pile, rest_bits) == (min(raws), max(raws))


def _split_scoring(rng: random.Random, decks: int, most_rest: int) -> tuple[list[int], list[int]]:
    """Every scoring card's copies at random: to one of the four piles, or (at most ``most_rest``) still in play."""
    scoring = [c for c in range(engine.cards.PLANE) if engine.cards.SCORING_MASK >> c & 1]
    copies = [c for c in scoring for _ in range(decks)]
    rng.shuffle(copies)
    piles, rest = [0, 0, 0, 0], []
    share = rng.random()
    for card in copies:
        if rng.random() < share and len(rest) < most_rest:
            rest.append(card)
        else:
            seat = rng.randrange(4)
            piles[seat] = engine.cards.add_card(piles[seat], card)
    return piles, rest


def _weights(rng: random.Random, partnership: bool) -> tuple[int, ...]:
    """A search's weights (``AtLeast.weights``): a side's difference, the review's own raw score, or the
    bot's score units (3·own − the others)."""
    seat = rng.randrange(4)
    if partnership:
        return tuple(1 if s % 2 == seat % 2 else -1 for s in range(4))
    if rng.random() < 0.5:
        return tuple(1 if s == seat else 0 for s in range(4))
    return tuple(3 if s == seat else -1 for s in range(4))


def _random_case(rng: random.Random, n: int, most_rest: int) -> tuple:
    """The ``n``-th case: rules (two decks every third, partnership every other), exposed copies, a search's
    weights, the four piles and the cards still in play (``_split_scoring``)."""
    decks = 1 if n % 3 else 2
    rules = engine.Rules(decks=decks, partnership=n % 2 == 1, pig_flips_with_all_hearts=rng.random() < 0.5)
    k = tuple(rng.randrange(decks + 1) if rng.random() < 0.3 else 0 for _ in range(4))
    piles, rest = _split_scoring(rng, decks, most_rest)
    return rules, k, _weights(rng, rules.partnership), piles, rest


def _weighted(rules, k, weights, piles, rest, owners) -> int:
    """The weighted raw scores once each card of ``rest`` went to its owner in ``owners``."""
    taken = list(piles)
    for card, owner in zip(rest, owners):
        taken[owner] = engine.cards.add_card(taken[owner], card)
    return sum(w * engine.scoring.seat_raw(rules, pile, k) for w, pile in zip(weights, taken))


def test_deal_extremes_hold_every_way_the_rest_can_go_and_are_within_the_piles_own():
    # every way the cards still in play can go to the four seats scores within the bounds; the bounds are
    # never wider than each pile bounded on its own, and reached where no heart is shared
    rng = random.Random(41)
    for n in range(300):
        rules, k, weights, piles, rest = _random_case(rng, n, 6)
        rest_bits = 0
        for card in rest:
            rest_bits = engine.cards.add_card(rest_bits, card)
        found = deal_extremes(rules, k, weights, piles, rest_bits)
        if found is None:
            assert sum(1 for c in rest if not engine.cards.HEART_MASK >> c & 1) > MOST_DEALT_SPECIALS
            continue
        low, high = found
        values = [_weighted(rules, k, weights, piles, rest, owners)
                  for owners in itertools.product(range(4), repeat=len(rest))]
        assert low <= min(values) and max(values) <= high
        alone_low = alone_high = 0
        for w, pile in zip(weights, piles):
            lo, hi = pile_extremes(rules, k, pile, rest_bits)
            alone_low += min(w * lo, w * hi)
            alone_high += max(w * lo, w * hi)
        assert alone_low <= low and high <= alone_high
        if sum(1 for c in rest if engine.cards.HEART_MASK >> c & 1) < 2:
            assert (low, high) == (min(values), max(values))


def test_the_key_of_the_cards_taken_leaves_what_the_rest_of_the_deal_adds_the_same():
    # AtLeast.scored (taken_key): piles with the same key (and the same cards in play) end at the same value, counted
    # from each one's offset, whichever way the cards in play go. Cards moved between piles at random
    # find pairs with one key.
    rng = random.Random(43)
    compared = 0
    for n in range(600):
        rules, k, weights, piles, rest = _random_case(rng, n, 5)
        key, offset = taken_key(rules, k, weights, piles)
        moved = list(piles)
        source, target = rng.sample(range(4), 2)
        cards = [c for c in range(engine.cards.PLANE) for _ in range(engine.cards.count_of(moved[source], c))]
        if not cards:
            continue
        card = rng.choice(cards)
        moved[source] = engine.cards.remove_card(moved[source], card)
        moved[target] = engine.cards.add_card(moved[target], card)
        other, other_offset = taken_key(rules, k, weights, moved)
        if other != key:
            continue
        compared += 1
        for owners in itertools.product(range(4), repeat=len(rest)):
            assert (_weighted(rules, k, weights, piles, rest, owners) - offset
                    == _weighted(rules, k, weights, moved, rest, owners) - other_offset)
    assert compared >= 100
