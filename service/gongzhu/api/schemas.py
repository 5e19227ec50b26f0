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

from collections.abc import Callable
from typing import Any, NamedTuple

from marshmallow import Schema, fields, missing

from gongzhu.bot.advice import DEFAULT_BUDGET_MS
from gongzhu.rules import DEFAULT_RULES, Rules
from gongzhu.rules.match import MATCH_TARGET, PIG_TAKER, DealRecord
from gongzhu.rules.state import NO_EXPOSURE

from .engine_values import card_rows_in, cards_in, convert_fields


class Call(NamedTuple):
    """One request's input: the converted body, the body as sent, the path parameters."""

    data: Any
    body: Any
    params: dict[str, Any]


class Field(fields.Field):
    """A field converting a contract-valid value with one function of it, ``to_engine``
    (``None``: the value as it is): one call a field, no marshmallow machinery."""

    to_engine: Callable[[Any], Any] | None = None

    def _deserialize(self, value, attr, data, **kwargs):
        convert = self.to_engine
        return value if convert is None else convert(value)


def _integers(value) -> tuple[int, ...]:
    return tuple(map(int, value))


def _deal_seed(value) -> int | str:
    return value.lower() if isinstance(value, str) else int(value)


def _claim(value) -> tuple[int, str]:
    return int(value["seat"]), value["kind"]


def _to_engine(field: fields.Field) -> Callable[[Any], Any] | None:
    if not isinstance(field, Field):
        raise TypeError(f"{field!r} is no converting field")
    return field.to_engine


class Cards(Field):
    """A list of card names -> tuple of cards."""

    to_engine = staticmethod(cards_in)


class CardRows(Field):
    """A list of card-name lists (hands, exposures, plays) -> tuple of tuples of cards."""

    to_engine = staticmethod(card_rows_in)


class Integer(Field):
    """A JSON integer, written ``5`` or ``5.0``, as an int."""

    to_engine = int


class Integers(Field):
    to_engine = staticmethod(_integers)


class DealSeed(Field):
    """An integer seed as an int; a 256-bit seed's 64 hexadecimal digits in lower case."""

    to_engine = staticmethod(_deal_seed)


class ClaimField(Field):
    """``{"seat": s, "kind": k}`` as (seat, kind)."""

    to_engine = staticmethod(_claim)


class Plain(Field):
    """A boolean or string taken as it is."""


class ConvertingSchema(Schema):
    """Converts a contract-valid body: each field present by its own field,
    defaults for the rest, ``finish`` builds the value."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # per field, what converts it (None: taken as it is); the fields with a default (a
        # callable one is called each time)
        self._converters = {name: _to_engine(field) for name, field in self.load_fields.items()}
        self._defaults = tuple((name, field.load_default, callable(field.load_default))
                               for name, field in self.load_fields.items() if field.load_default is not missing)
        # whether ``finish`` does anything (most schemas answer the dict itself)
        self._finishes = type(self).finish is not ConvertingSchema.finish

    def convert(self, data: dict[str, Any]) -> Any:
        out = convert_fields(data, self._converters, self._defaults)
        return self.finish(out) if self._finishes else out

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
RULES: RulesSchema = RulesSchema()


def rules_in(sent: dict[str, Any]) -> Rules:
    """The ``Rules`` of a request's ``rules`` object, kept by the options as sent (validated:
    scalars, and ``1`` and ``1.0`` convert alike), so a rule set seen before costs one lookup."""
    key = frozenset(sent.items())
    rules = RULES_SENT.get(key)
    if rules is None:
        rules = RULES.convert(sent)
        if len(RULES_SENT) < MAX_RULES_SEEN:
            RULES_SENT[key] = rules
    return rules


RULES_SENT: dict[frozenset, Rules] = {}


class RulesField(Field):
    to_engine = staticmethod(rules_in)


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


DEAL_RECORD: DealRecordSchema = DealRecordSchema()


def _deal_records(value) -> tuple[DealRecord, ...]:
    return tuple(map(DEAL_RECORD.convert, value))


class DealRecords(Field):
    to_engine = staticmethod(_deal_records)


class MatchSchema(ConvertingSchema):
    rules = _rules()
    target = Integer(load_default=MATCH_TARGET)
    leader_rule = Plain(load_default=PIG_TAKER)
    multiplier = Integer(load_default=1)
    fee = Integer(load_default=0)
    deals = DealRecords()


# each instance typed: the compiled build's type check meets this module in an import cycle, where it
# may not have inferred them when operations.py reads them
DEAL_STATE: DealStateSchema = DealStateSchema()
PLAY: PlaySchema = PlaySchema()
TRICK: TrickSchema = TrickSchema()
SCORE: ScoreSchema = ScoreSchema()
INGOTS: IngotsSchema = IngotsSchema()
EXPOSURES: ExposuresSchema = ExposuresSchema()
DEAL: DealSchema = DealSchema()
SUGGEST: SuggestSchema = SuggestSchema()
SUGGEST_EXPOSURES: SuggestExposuresSchema = SuggestExposuresSchema()
CLAIM: ClaimSchema = ClaimSchema()
VIEW: ViewSchema = ViewSchema()
MATCH: MatchSchema = MatchSchema()


# ---- responses: built in ``results.py`` (compiled with the engine), named here too

from .results import card_lists, cards, rules_out, trick_out  # noqa: E402,F401
