"""Request schemas (SPEC.md §7, openapi.yaml ``components.schemas``) and response
builders.

Loading turns a JSON body into engine values (``Rules``, card ints); unknown
fields are rejected. Schemas check shape and notation only: whether a deal is
consistent or a move legal is the engine's call. Bounds here mirror the
contract exactly (tests/contract checks the two agree on every example).
"""
from __future__ import annotations

from marshmallow import RAISE, Schema, ValidationError, fields, missing, post_load

from service.rules import CARD_NAMES, OPENING_CARDS, Rules

from .fields import CardList, CardLists, CodedMessage, Enum, StrictBoolean, StrictInteger

SEATS = 4
MAX_HAND = 26          # two decks: 104 cards / 4 seats
MAX_EXPOSED = 8        # SQ DJ C10 HA, two copies each
MAX_PLAYS = 104        # two decks, every play a single card
MAX_CAPTURED = 104     # a seat may have taken every card of two decks
MAX_SEED = 2**53 - 1   # exact in every JSON client
MAX_SCORE = 1_000_000  # far beyond any raw score (two-deck 满贯 with all exposed: 25,600)
MAX_MULTIPLIER = 1_000_000
MAX_FEE = 1_000_000_000

DEFAULT_RULES = Rules()
NO_EXPOSURE: tuple[tuple[int, ...], ...] = ((), (), (), ())


class StrictSchema(Schema):
    """Unknown fields are an error, with the message that names them.

    ``load`` first tries a direct pass: each field present is deserialized by
    its own field, defaults fill the rest, ``finish`` builds the value. Any
    doubt (an unknown or null field, a missing required one, a field error)
    hands the body to marshmallow's full load, which reports every error. The
    direct pass skips marshmallow's bookkeeping, the larger part of the cost
    of loading a valid deal state; tests/api/test_schemas.py checks both agree.
    """

    class Meta:
        unknown = RAISE

    error_messages = {
        "unknown": CodedMessage("unknown_field", "unknown field: not part of this request"),
        "type": CodedMessage("invalid_type", "must be a JSON object"),
    }

    def load(self, data, *, many=None, partial=None, unknown=None):
        if type(data) is dict and many is None and partial is None and unknown is None:
            loaded = self.direct_load(data)
            if loaded is not None:
                return loaded
        return super().load(data, many=many, partial=partial, unknown=unknown)

    def direct_load(self, data: dict):
        """The loaded value of a valid body, or None when only the full load can tell."""
        fields_ = self.load_fields
        out = {}
        try:
            for key, value in data.items():
                if value is None:
                    return None
                out[key] = fields_[key]._deserialize(value, key, data)
        except (KeyError, ValidationError):
            return None
        for name, field in fields_.items():
            if name not in out:
                if field.required:
                    return None
                default = field.load_default
                if default is not missing:
                    out[name] = default() if callable(default) else default
        return self.finish(out)

    def finish(self, data: dict):
        """The loaded value (both passes): the field dict, unless a schema builds more."""
        return data


def _required(field_cls, *args, **kwargs):
    return field_cls(*args, required=True, error_messages={
        "required": CodedMessage("missing_field", "required field is missing"),
        "null": CodedMessage("invalid_type", "may not be null"),
    }, **kwargs)


def _optional(field_cls, *args, **kwargs):
    return field_cls(*args, error_messages={
        "null": CodedMessage("invalid_type", "may not be null"),
    }, **kwargs)


class RulesSchema(StrictSchema):
    decks = _optional(Enum, (1, 2))
    partnership = _optional(StrictBoolean)
    opening_card = _optional(Enum, OPENING_CARDS)
    must_lead_opening_card = _optional(StrictBoolean)
    first_trick_ban = _optional(StrictBoolean)
    pig_flips_with_all_hearts = _optional(StrictBoolean)

    @post_load
    def make_rules(self, data, **kwargs) -> Rules:
        return self.finish(data)

    def finish(self, data: dict) -> Rules:
        return Rules(**data) if data else DEFAULT_RULES


def _rules():
    return _optional(fields.Nested, RulesSchema, load_default=DEFAULT_RULES)


def _hands():
    return _required(CardLists, min_rows=SEATS, max_rows=SEATS, min_cards=0, max_cards=MAX_HAND,
                     what="hands", row_what="a hand")


def _exposed():
    return _optional(CardLists, min_rows=SEATS, max_rows=SEATS, min_cards=0,
                     max_cards=MAX_EXPOSED, what="exposed", row_what="a seat's exposed cards",
                     load_default=NO_EXPOSURE)


def _seat(**kwargs):
    return StrictInteger(minimum=0, maximum=SEATS - 1, error_messages={
        "required": CodedMessage("missing_field", "required field is missing"),
        "null": CodedMessage("invalid_type", "may not be null"),
    }, **kwargs)


class DealStateSchema(StrictSchema):
    """A deal's history: rules, who leads, the hands as dealt, exposures, plays."""

    rules = _rules()
    first_deal = _optional(StrictBoolean, load_default=True)
    leader = _seat()
    hands = _hands()
    exposed = _exposed()
    plays = _optional(CardLists, min_rows=0, max_rows=MAX_PLAYS, min_cards=1, max_cards=2,
                      what="plays", row_what="a play", load_default=())


class PlaySchema(DealStateSchema):
    """A deal state plus the move to append (and, optionally, the seat making it)."""

    move = _required(CardList, min_items=1, max_items=2, what="a move")
    seat = _seat()


class TrickSchema(StrictSchema):
    rules = _rules()
    leader = _seat(required=True)
    plays = _required(CardLists, min_rows=SEATS, max_rows=SEATS, min_cards=1, max_cards=2,
                      what="plays", row_what="a play")


class ScoreSchema(StrictSchema):
    rules = _rules()
    captured = _required(CardLists, min_rows=SEATS, max_rows=SEATS, min_cards=0,
                         max_cards=MAX_CAPTURED, what="captured", row_what="a seat's cards")
    exposed = _exposed()


class ExposuresSchema(StrictSchema):
    rules = _rules()
    hands = _hands()
    exposed = _exposed()


class DealSchema(StrictSchema):
    rules = _rules()
    seed = _optional(StrictInteger, minimum=0, maximum=MAX_SEED)
    first_deal = _optional(StrictBoolean, load_default=True)


SCORE_CHECK = StrictInteger(minimum=-MAX_SCORE, maximum=MAX_SCORE)


class ScoresField(fields.Field):
    """Exactly four integer raw scores."""

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is not list or len(value) != SEATS:
            raise ValidationError(CodedMessage("wrong_length", "scores must be an array of 4 integers"))
        errors = {}
        for i, score in enumerate(value):
            try:
                SCORE_CHECK._deserialize(score, attr, data)
            except ValidationError as error:
                errors[i] = error.messages
        if errors:
            raise ValidationError(errors)
        return tuple(value)


class IngotsSchema(StrictSchema):
    scores = _required(ScoresField)
    multiplier = _optional(StrictInteger, minimum=1, maximum=MAX_MULTIPLIER, load_default=1)
    fee = _optional(StrictInteger, minimum=0, maximum=MAX_FEE, load_default=0)


MAX_BUDGET_MS = 2000


class SuggestSchema(DealStateSchema):
    """A deal state, the thinking budget and an optional seed for the bot (托管)."""

    budget_ms = _optional(StrictInteger, minimum=1, maximum=MAX_BUDGET_MS, load_default=100)
    seed = _optional(StrictInteger, minimum=0, maximum=MAX_SEED)


class SuggestExposuresSchema(StrictSchema):
    rules = _rules()
    hand = _required(CardList, min_items=1, max_items=MAX_HAND, what="a hand")


DEAL_STATE = DealStateSchema()
SUGGEST = SuggestSchema()
SUGGEST_EXPOSURES = SuggestExposuresSchema()
PLAY = PlaySchema()
TRICK = TrickSchema()
SCORE = ScoreSchema()
EXPOSURES = ExposuresSchema()
DEAL = DealSchema()
INGOTS = IngotsSchema()


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
