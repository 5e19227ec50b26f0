"""The running state (``/legal-moves``, ``/play``'s ``next``) and ``/view`` on random
one- and two-deck states (docs/rules.md §9).

The running state is checked against the independent oracle (tests/rules/oracle.py):
the cards each seat took, the seat winning the trick on the table, hand sizes,
effective exposures, and raw scores, which must also equal ``/score`` of the cards
taken. ``/view`` is checked for leaks two ways: no field carries a card another
seat holds unexposed, and the view does not change when the hidden cards are
dealt differently among the other seats.
"""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import gongzhu.rules as R
from gongzhu.api.pipeline import encode
from gongzhu.api.results import view_out
from gongzhu.rules import running
from tests.rules import oracle as O
from tests.rules.invariants import random_spec

NAMES = R.CARD_NAMES
ONE_DECK_STATES = 600
TWO_DECK_STATES = 500


def names(cards) -> list[str]:
    return [NAMES[c] for c in cards]


def random_state(rng: random.Random, decks: int):
    """A random legal state: a random deal (rule options, exposures, first deal or
    not) played by random legal moves for a random number of plays."""
    spec = random_spec(rng, decks=decks)
    rules = R.Rules(**spec.rules)
    state = R.replay(rules, hands=spec.hands, exposed=spec.exposed, first_deal=spec.first_deal,
                     leader=spec.leader)
    leader = state.seat
    model = O.Model(decks=decks, rules=spec.rules, hands=spec.hands, exposed=spec.exposed,
                    first_deal=spec.first_deal, leader=leader)
    plays = []
    for _ in range(rng.randrange(rules.hand_size * 4 + 1)):
        moves = R.legal_moves(state)
        if not moves:
            break
        move = rng.choice(moves)
        state = R.apply_move(state, move)
        model.apply(move)
        plays.append(move)
    body = {"rules": spec.rules, "first_deal": spec.first_deal, "hands": [names(h) for h in spec.hands],
            "exposed": [names(e) for e in spec.exposed], "plays": [names(p) for p in plays]}
    if spec.leader is not None:
        body["leader"] = spec.leader
    return body, state, model


def states(count: int, decks: int, seed: int):
    rng = random.Random(seed)
    return [random_state(rng, decks) for _ in range(count)]


@pytest.fixture(scope="module")
def random_states():
    return states(ONE_DECK_STATES, 1, 12) + states(TWO_DECK_STATES, 2, 13)


def expected_running(model: O.Model) -> dict:
    """The running state as the oracle computes it (cards taken, the seat winning, hand sizes)."""
    return {
        "taken": [names(sorted(taken)) for taken in model.captured],
        "winning": O.rank_plays(model.trick)[0][0] if model.trick else None,
        "hand_sizes": [sum(model.hand(s).values()) for s in range(4)],
    }


def test_running_state_equals_the_oracle_and_score(client, random_states):
    checked = 0
    for body, _state, model in random_states:
        answer = client.post("/legal-moves", json=body).get_json()
        expected = expected_running(model)
        assert answer["taken"] == expected["taken"], body
        assert answer["winning"] == expected["winning"], body
        assert answer["hand_sizes"] == expected["hand_sizes"], body
        effective = O.effective_exposure(model.decks, body_hands(body), body_exposed(body))
        assert [Counter(R.cards.CARD_BY_NAME[n] for n in e) for e in answer["exposed"]] == \
            [Counter(e) for e in effective], body
        counts = O.exposure_counts(effective)
        flips = body["rules"].get("pig_flips_with_all_hearts", False)
        assert answer["points"] == list(O.raw_scores(model.decks, model.captured, counts, pig_flips=flips)), body
        score = client.post("/score", json={"rules": body["rules"], "captured": answer["taken"],
                                            "exposed": answer["exposed"]}).get_json()
        assert answer["points"] == score["raw"], body
        checked += 1
    assert checked == ONE_DECK_STATES + TWO_DECK_STATES


def body_hands(body):
    return [[R.cards.CARD_BY_NAME[n] for n in h] for h in body["hands"]]


def body_exposed(body):
    return [[R.cards.CARD_BY_NAME[n] for n in e] for e in body["exposed"]]


def test_play_next_is_the_turn_legal_moves_gives(client, random_states):
    for body, state, _model in random_states[::10]:
        if state.finished:
            continue
        move = names(R.legal_moves(state)[0])
        after = client.post("/play", json={**body, "move": move}).get_json()
        turn = client.post("/legal-moves", json=after["state"]).get_json()
        assert after["next"] == turn


# ---- /view: what one seat may see --------------------------------------------------------------

PUBLIC_FIELDS = {"plays", "trick", "taken"}


def cards_in(value) -> Counter:
    """Every card name anywhere in a JSON value, with multiplicity."""
    found: Counter = Counter()
    if isinstance(value, str):
        if value in R.cards.CARD_BY_NAME:
            found[value] += 1
    elif isinstance(value, list):
        for item in value:
            found += cards_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            found += cards_in(item)
    return found


def hidden_cards(state: R.DealState, seat: int) -> Counter:
    """The copies other seats hold and have not exposed."""
    hidden: Counter = Counter()
    for other in range(4):
        if other != seat:
            hidden += Counter(names(R.cards.bits_cards(running.hands_bits(state)[other]))) - \
                Counter(names(R.cards.bits_cards(running.held_exposed(state)[other])))
    return hidden


def played_cards(state: R.DealState) -> Counter:
    return Counter(n for _seat, play in R.running.seated_plays(state) for n in names(play))


def redealt(state: R.DealState, seat: int, rng: random.Random) -> R.DealState:
    """The same state with the cards ``seat`` cannot see dealt anew among the other seats (each keeps
    its count and its exposed copies): ``DealState.resample``."""
    return state.resample(state.view(seat), rng)


@pytest.mark.slow
def test_view_never_shows_a_hidden_card(client, random_states):
    rng = random.Random(5)
    views = 0
    for body, state, _model in random_states:
        played = played_cards(state)
        exposed = Counter(n for e in state.exposed for n in names(e))
        for seat in range(4):
            answer = client.post("/view", json={**body, "seat": seat})
            assert answer.status_code == 200, answer.get_json()
            view = answer.get_json()
            own = Counter(names(R.cards.bits_cards(running.hands_bits(state)[seat])))
            # the seat's own cards, the cards played, the exposures: nothing else
            assert cards_in(view["hand"]) == own
            assert all(cards_in(move) <= own for move in view["moves"] or ())
            for field in PUBLIC_FIELDS:
                assert cards_in(view[field]) <= played, field
            assert cards_in(view["exposed"]) == exposed
            others = {k: v for k, v in view.items() if k not in {"hand", "moves", "exposed", *PUBLIC_FIELDS}}
            assert not cards_in(others), others
            hidden = hidden_cards(state, seat)
            if state.rules.decks == 1:
                assert not set(cards_in(view)) & set(hidden), (body, seat)
            # the view is the same whatever the hidden cards are
            assert view_out(redealt(state, seat, rng), seat) == view_out(state, seat)
            assert json.loads(encode(view_out(state, seat))) == view
            views += 1
    assert views >= 4 * 1000
