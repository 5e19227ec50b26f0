"""Request bodies turned into engine values (``Rules``, card ints), and the
small response builders they share.

A body reaches these schemas only after it matched its request schema in
``openapi.yaml`` (``validation.py``), so they check nothing: every field
converts (card names to cards, integral numbers such as ``5.0`` to ints,
``rules`` to ``Rules``) and absent optional fields take the defaults the
contract describes. The schemas name exactly the fields of their contract
schemas (a test checks it).
"""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, missing

from gongzhu.bot.advice import DEFAULT_BUDGET_MS
from gongzhu.rules import (
    CARD_BY_NAME,
    CARD_NAMES,
    DEFAULT_RULES,
    MATCH_TARGET,
    NO_EXPOSURE,
    PIG_TAKER,
    DealRecord,
    Rules,
)


class Cards(fields.Field):
    """A list of card names -> tuple of cards."""

    def _deserialize(self, value, attr, data, **kwargs):
        return tuple(map(CARD_BY_NAME.__getitem__, value))


# A play of one card, the commonest row of a deal state, converted by one lookup.
SINGLE_PLAY = {name: (card,) for name, card in CARD_BY_NAME.items()}


class CardRows(fields.Field):
    """A list of card-name lists (hands, exposures, plays) -> tuple of tuples of cards."""

    def _deserialize(self, value, attr, data, **kwargs):
        card_of, single = CARD_BY_NAME.__getitem__, SINGLE_PLAY
        return tuple([single[row[0]] if len(row) == 1 else tuple(map(card_of, row)) for row in value])


class Integer(fields.Field):
    """A JSON integer, written ``5`` or ``5.0``, as an int."""

    def _deserialize(self, value, attr, data, **kwargs):
        return int(value)


class Integers(fields.Field):
    def _deserialize(self, value, attr, data, **kwargs):
        return tuple(map(int, value))


class DealSeed(fields.Field):
    """An integer seed as an int; a 256-bit seed's 64 hexadecimal digits in lower case."""

    def _deserialize(self, value, attr, data, **kwargs):
        return value.lower() if isinstance(value, str) else int(value)


class ClaimField(fields.Field):
    """``{"seat": s, "kind": k}`` as (seat, kind)."""

    def _deserialize(self, value, attr, data, **kwargs):
        return int(value["seat"]), value["kind"]


class Plain(fields.Field):
    """A boolean or string taken as it is."""

    def _deserialize(self, value, attr, data, **kwargs):
        return value


class ConvertingSchema(Schema):
    """Converts a contract-valid body: each field present by its own field,
    defaults for the rest, ``finish`` builds the value."""

    def convert(self, data: dict[str, Any]) -> Any:
        fields_ = self.load_fields
        out = {key: fields_[key]._deserialize(value, key, data) for key, value in data.items()}
        for name, field in fields_.items():
            if name not in out and field.load_default is not missing:
                default = field.load_default
                out[name] = default() if callable(default) else default
        return self.finish(out)

    def finish(self, data: dict[str, Any]) -> Any:
        return data


class RulesSchema(ConvertingSchema):
    decks = Integer()
    partnership = Plain()
    opening_card = Plain()
    must_lead_opening_card = Plain()
    first_trick_ban = Plain()
    pig_flips_with_all_hearts = Plain()

    def finish(self, data: dict[str, Any]) -> Rules:
        return Rules(**data) if data else DEFAULT_RULES


RULES = RulesSchema()


class RulesField(fields.Field):
    def _deserialize(self, value, attr, data, **kwargs):
        return RULES.convert(value)


def _rules():
    return RulesField(load_default=DEFAULT_RULES)


class DealStateSchema(ConvertingSchema):
    """A deal's history: rules, who leads, the hands as dealt, exposures, plays."""

    rules = _rules()
    first_deal = Plain(load_default=True)
    leader = Integer()
    hands = CardRows()
    exposed = CardRows(load_default=NO_EXPOSURE)
    plays = CardRows(load_default=())


class PlaySchema(DealStateSchema):
    move = Cards()
    seat = Integer()


class TrickSchema(ConvertingSchema):
    rules = _rules()
    leader = Integer()
    plays = CardRows()


class ScoreSchema(ConvertingSchema):
    rules = _rules()
    captured = CardRows()
    exposed = CardRows(load_default=NO_EXPOSURE)


class ExposuresSchema(ConvertingSchema):
    rules = _rules()
    hands = CardRows()
    exposed = CardRows(load_default=NO_EXPOSURE)


class DealSchema(ConvertingSchema):
    rules = _rules()
    seed = DealSeed()
    first_deal = Plain(load_default=True)


class IngotsSchema(ConvertingSchema):
    scores = Integers()
    multiplier = Integer(load_default=1)
    fee = Integer(load_default=0)


class SuggestSchema(DealStateSchema):
    budget_ms = Integer(load_default=DEFAULT_BUDGET_MS)
    seed = Integer()


class ClaimSchema(DealStateSchema):
    claim = ClaimField()


class ViewSchema(DealStateSchema):
    seat = Integer()


class SuggestExposuresSchema(ConvertingSchema):
    rules = _rules()
    hand = Cards()


class DealRecordSchema(ConvertingSchema):
    """One deal of a match: a deal state without its rules (the match's apply)."""

    first_deal = Plain()
    leader = Integer()
    hands = CardRows()
    exposed = CardRows(load_default=NO_EXPOSURE)
    plays = CardRows(load_default=())

    def finish(self, data: dict[str, Any]) -> DealRecord:
        return DealRecord(**data)


DEAL_RECORD = DealRecordSchema()


class DealRecords(fields.Field):
    def _deserialize(self, value, attr, data, **kwargs):
        return tuple(map(DEAL_RECORD.convert, value))


class MatchSchema(ConvertingSchema):
    rules = _rules()
    target = Integer(load_default=MATCH_TARGET)
    leader_rule = Plain(load_default=PIG_TAKER)
    multiplier = Integer(load_default=1)
    fee = Integer(load_default=0)
    deals = DealRecords()


DEAL_STATE = DealStateSchema()
PLAY = PlaySchema()
TRICK = TrickSchema()
SCORE = ScoreSchema()
INGOTS = IngotsSchema()
EXPOSURES = ExposuresSchema()
DEAL = DealSchema()
SUGGEST = SuggestSchema()
SUGGEST_EXPOSURES = SuggestExposuresSchema()
CLAIM = ClaimSchema()
VIEW = ViewSchema()
MATCH = MatchSchema()


# ---- responses: plain functions (a marshmallow dump would cost more than the engine)

def cards(row) -> list[str]:
    names = CARD_NAMES
    return [names[c] for c in row]


def card_lists(rows) -> list[list[str]]:
    names = CARD_NAMES
    return [[names[c] for c in row] for row in rows]


def rules_out(rules: Rules) -> dict:
    return {
        "decks": rules.decks,
        "partnership": rules.partnership,
        "opening_card": rules.opening_card,
        "must_lead_opening_card": rules.must_lead_opening_card,
        "first_trick_ban": rules.first_trick_ban,
        "pig_flips_with_all_hearts": rules.pig_flips_with_all_hearts,
    }


def trick_out(trick) -> dict:
    return {
        "leader": trick.leader,
        "plays": card_lists(trick.plays),
        "led_suit": trick.led_suit,
        "winner": trick.winner,
        "ranking": list(trick.ranking),
        "points_cards": cards(trick.point_cards),
    }
