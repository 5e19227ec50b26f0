"""The schemas' direct load pass agrees with marshmallow's full load on any
body: the same value when the body is valid, the same errors when it is not."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError

from service.api import schemas
from service.rules import CARD_NAMES

from .deals import FULL_PLAYS, SEED1, Y

CARDS = st.sampled_from(CARD_NAMES)
NOT_CARDS = st.sampled_from(["sq", "10C", "S1", "", "HA ", "X"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 6), st.floats(allow_nan=False, allow_infinity=False),
                    CARDS, NOT_CARDS)
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=12)
SEAT = st.integers(0, 3)
PLAY = st.lists(CARDS, min_size=1, max_size=2)
FOUR_LISTS = st.lists(st.lists(CARDS, max_size=8), min_size=4, max_size=4)
# Valid values of every request field (within the contract's bounds).
VALID = {
    "rules": st.fixed_dictionaries({}, optional={
        "decks": st.sampled_from([1, 2]), "partnership": st.booleans(),
        "opening_card": st.sampled_from(["C2", "S2", "S3", "S7"]),
        "must_lead_opening_card": st.booleans(), "first_trick_ban": st.booleans(),
        "pig_flips_with_all_hearts": st.booleans()}),
    "first_deal": st.booleans(), "leader": SEAT, "seat": SEAT,
    "hands": st.lists(st.lists(CARDS, max_size=26), min_size=4, max_size=4),
    "exposed": FOUR_LISTS, "captured": FOUR_LISTS,
    "plays": st.one_of(st.lists(PLAY, max_size=8), st.lists(PLAY, min_size=4, max_size=4)),
    "move": PLAY,
    "scores": st.lists(st.integers(-10**6, 10**6), min_size=4, max_size=4),
    "multiplier": st.integers(1, 10**6), "fee": st.integers(0, 10**9),
    "seed": st.integers(0, 2**53 - 1),
    "decks": st.sampled_from([1, 2]), "partnership": st.booleans(),
    "opening_card": st.sampled_from(["C2", "S2", "S3", "S7"]),
    "must_lead_opening_card": st.booleans(), "first_trick_ban": st.booleans(),
    "pig_flips_with_all_hearts": st.booleans(),
}
ANY = st.one_of(JSON, st.lists(st.one_of(CARDS, NOT_CARDS, JSON), max_size=5),
                st.lists(st.lists(st.one_of(CARDS, CARDS, NOT_CARDS, JSON), max_size=4), max_size=5))


def bodies(schema):
    """Bodies for ``schema``: all valid; or some fields wrong, unknown or missing; or any JSON."""
    def messy(name):
        return st.one_of(VALID[name], VALID[name], VALID[name], ANY)
    required = [n for n, f in schema.fields.items() if f.required]
    optional = [n for n, f in schema.fields.items() if not f.required]
    valid = st.fixed_dictionaries({n: VALID[n] for n in required},
                                  optional={n: VALID[n] for n in optional})
    wrong = st.fixed_dictionaries({}, optional={**{n: messy(n) for n in schema.fields},
                                                "extra": JSON})
    return st.one_of(valid, wrong, JSON)


SCHEMAS = [schemas.DEAL_STATE, schemas.PLAY, schemas.TRICK, schemas.SCORE, schemas.INGOTS,
           schemas.EXPOSURES, schemas.DEAL, schemas.RulesSchema()]


def full_load(schema, body):
    """marshmallow's own load, without the direct pass."""
    try:
        return "ok", Schema.load(schema, body)
    except ValidationError as error:
        return "error", error.messages


def fast_load(schema, body):
    try:
        return "ok", schema.load(body)
    except ValidationError as error:
        return "error", error.messages


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: type(s).__name__)
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_direct_pass_agrees_with_marshmallow(schema, data):
    body = data.draw(bodies(schema))
    assert fast_load(schema, body) == full_load(schema, body)


@pytest.mark.parametrize("body", [
    {"hands": SEED1},
    {"hands": SEED1, "plays": FULL_PLAYS, "exposed": [["SQ"], [], [], []], "leader": 3,
     "first_deal": True, "rules": {"decks": 1, "partnership": True}},
    {"rules": {"decks": 2}, "first_deal": False, "leader": 0, "hands": Y, "plays": [["S9", "S9"]]},
])
def test_valid_deal_states_take_the_direct_pass(body):
    schema = schemas.DEAL_STATE
    assert schema.direct_load(body) is not None
    assert schema.load(body) == Schema.load(schema, body)
