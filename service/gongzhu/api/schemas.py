"""Request bodies turned into engine values (``Rules``, card ints). A body reaches these schemas only after it
matched its request schema in ``openapi.yaml`` (``validation.py``), so they check nothing: each field converts by
one function and absent optional fields take the defaults the contract describes. marshmallow declares them, its
``load`` is not run (docs/deployment.md, "The request path: decisions"). They name exactly the fields of their
contract schemas (a test checks it).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from marshmallow import Schema, missing
from marshmallow.fields import Function, Raw

from gongzhu.bot.advice import DEFAULT_BUDGET_MS
from gongzhu.bot.deal_review import DEFAULT_BUDGET_MS as REVIEW_BUDGET_MS
from gongzhu.rules import DEFAULT_RULES, Rules
from gongzhu.rules.match import MATCH_TARGET, PIG_TAKER, DealRecord
from gongzhu.rules.state import NO_EXPOSURE

from .engine_values import card_rows_in, cards_in, convert_fields

# /solve's budget when none is sent (openapi.yaml, ``SolveRequest``): a few times what 8 tricks left take
SOLVE_BUDGET_MS = 2000


class Call(NamedTuple):
    """One request's input: the converted body, the body as sent, the path parameters, and the WSGI environ
    it came in (None outside a request: a long search asks it whether its client still waits)."""

    data: Any
    body: Any
    params: dict[str, Any]
    environ: dict | None = None


def _integers(value) -> tuple[int, ...]:
    return tuple(map(int, value))


def _deal_seed(value) -> int | str:
    """An integer seed as an int; a 256-bit seed's 64 hexadecimal digits in lower case."""
    return value.lower() if isinstance(value, str) else int(value)


def _claim(value) -> tuple[int, str]:
    return int(value["seat"]), value["kind"]


class ConvertingSchema(Schema):
    """Converts a contract-valid body: each field present by its function (a ``Function`` field's ``deserialize``;
    a ``Raw`` one is taken as it is), defaults for the rest; ``finish`` (when set) builds the value."""

    finish: Callable[[dict[str, Any]], Any] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # per field, what converts it; the fields' defaults
        self._converters = {name: getattr(field, "deserialize_func", None) for name, field in self.load_fields.items()}
        self._defaults = {name: field.load_default for name, field in self.load_fields.items()
                          if field.load_default is not missing}

    def convert(self, data: dict[str, Any]) -> Any:
        out = convert_fields(data, self._converters, self._defaults)
        return out if self.finish is None else self.finish(out)


def _rules_value(data: dict[str, Any]) -> Rules:
    return Rules(**data) if data else DEFAULT_RULES


class RulesSchema(ConvertingSchema):
    decks = Function(deserialize=int)
    partnership = Raw()
    opening_card = Raw()
    must_lead_opening_card = Raw()
    first_trick_ban = Raw()
    pig_flips_with_all_hearts = Raw()

    finish = staticmethod(_rules_value)


RULES: RulesSchema = RulesSchema()
# Rules are values, kept by the options as sent (validated scalars: ``1`` and ``1.0`` are one key): the
# contract's options admit a few hundred rule sets, each built once.
RULES_SENT: dict[frozenset, Rules] = {}
MAX_RULES_SEEN = 1024


def rules_in(sent: dict[str, Any]) -> Rules:
    """The ``Rules`` of a request's ``rules`` object: a rule set seen before costs one lookup."""
    key = frozenset(sent.items())
    rules = RULES_SENT.get(key)
    if rules is None:
        rules = RULES.convert(sent)
        if len(RULES_SENT) < MAX_RULES_SEEN:
            RULES_SENT[key] = rules
    return rules


def _rules() -> Function:
    return Function(deserialize=rules_in, load_default=DEFAULT_RULES)


def _deal_record(data: dict[str, Any]) -> DealRecord:
    return DealRecord(**data)


class DealRecordSchema(ConvertingSchema):
    """One deal of a match: a deal state without its rules (the match's apply)."""

    first_deal = Raw()
    leader = Function(deserialize=int)
    hands = Function(deserialize=card_rows_in)
    exposed = Function(deserialize=card_rows_in, load_default=NO_EXPOSURE)
    plays = Function(deserialize=card_rows_in, load_default=())

    finish: Callable[[dict[str, Any]], Any] | None = staticmethod(_deal_record)


DEAL_RECORD: DealRecordSchema = DealRecordSchema()


class DealStateSchema(DealRecordSchema):
    """A deal's history: rules, who leads, the hands as dealt, exposures, plays."""

    rules = _rules()
    first_deal = Raw(load_default=True)

    finish = None


class PlaySchema(DealStateSchema):
    move = Function(deserialize=cards_in)
    seat = Function(deserialize=int)


class TrickSchema(ConvertingSchema):
    rules = _rules()
    leader = Function(deserialize=int)
    plays = Function(deserialize=card_rows_in)


class ScoreSchema(ConvertingSchema):
    rules = _rules()
    captured = Function(deserialize=card_rows_in)
    exposed = Function(deserialize=card_rows_in, load_default=NO_EXPOSURE)


class ExposuresSchema(ConvertingSchema):
    rules = _rules()
    hands = Function(deserialize=card_rows_in)
    exposed = Function(deserialize=card_rows_in, load_default=NO_EXPOSURE)


class DealSchema(ConvertingSchema):
    rules = _rules()
    seed = Function(deserialize=_deal_seed)
    first_deal = Raw(load_default=True)


class IngotsSchema(ConvertingSchema):
    scores = Function(deserialize=_integers)
    multiplier = Function(deserialize=int, load_default=1)
    fee = Function(deserialize=int, load_default=0)


class SuggestSchema(DealStateSchema):
    budget_ms = Function(deserialize=int, load_default=DEFAULT_BUDGET_MS)
    seed = Function(deserialize=int)


class ReviewSchema(DealStateSchema):
    budget_ms = Function(deserialize=int, load_default=REVIEW_BUDGET_MS)
    seed = Function(deserialize=int)


class SolveSchema(DealStateSchema):
    budget_ms = Function(deserialize=int, load_default=SOLVE_BUDGET_MS)


class ClaimSchema(DealStateSchema):
    claim = Function(deserialize=_claim)


class ViewSchema(DealStateSchema):
    seat = Function(deserialize=int)


class SuggestExposuresSchema(ConvertingSchema):
    rules = _rules()
    hand = Function(deserialize=cards_in)


def _deal_records(value) -> tuple[DealRecord, ...]:
    return tuple(map(DEAL_RECORD.convert, value))


class MatchSchema(ConvertingSchema):
    rules = _rules()
    target = Function(deserialize=int, load_default=MATCH_TARGET)
    leader_rule = Raw(load_default=PIG_TAKER)
    multiplier = Function(deserialize=int, load_default=1)
    fee = Function(deserialize=int, load_default=0)
    deals = Function(deserialize=_deal_records)


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
REVIEW: ReviewSchema = ReviewSchema()
SOLVE: SolveSchema = SolveSchema()
VIEW: ViewSchema = ViewSchema()
MATCH: MatchSchema = MatchSchema()
