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
    DEFAULT_RULES,
    MATCH_TARGET,
    NO_EXPOSURE,
    PIG_TAKER,
    DealRecord,
    Rules,
)

from .json_text import JsonText, card_rows_in, card_rows_text, cards_in, cards_text


class Cards(fields.Field):
    """A list of card names -> tuple of cards."""

    def _deserialize(self, value, attr, data, **kwargs):
        return cards_in(value)


class CardRows(fields.Field):
    """A list of card-name lists (hands, exposures, plays) -> tuple of tuples of cards."""

    def _deserialize(self, value, attr, data, **kwargs):
        return card_rows_in(value)


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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # per field, what converts it; the fields with a default (a callable one is called each time)
        self._converters = {name: field._deserialize for name, field in self.load_fields.items()}
        self._defaults = tuple((name, field.load_default, callable(field.load_default))
                               for name, field in self.load_fields.items() if field.load_default is not missing)

    def convert(self, data: dict[str, Any]) -> Any:
        converters = self._converters
        out = {key: converters[key](value, key, data) for key, value in data.items()}
        for name, default, call in self._defaults:
            if name not in out:
                out[name] = default() if call else default
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
        if not data:
            return DEFAULT_RULES
        key = frozenset(data.items())
        rules = RULES_SEEN.get(key)
        if rules is None:
            rules = Rules(**data)
            # the contract's options admit a few hundred rule sets: each is built once
            if len(RULES_SEEN) < MAX_RULES_SEEN:
                RULES_SEEN[key] = rules
        return rules


# Rules are values: the same options give an equal Rules, kept here by their options.
RULES_SEEN: dict[frozenset, Rules] = {}
MAX_RULES_SEEN = 1024
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


# ---- responses: plain functions (a marshmallow dump would cost more than the engine); card
# names already as JSON text (json_text.py)

def cards(row) -> JsonText:
    """The names of a row of cards (a hand, a play)."""
    return cards_text(row)


def card_lists(rows) -> JsonText:
    """The names of rows of cards (moves, a trick's plays, hands)."""
    return card_rows_text(rows)


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
