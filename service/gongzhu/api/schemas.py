"""Request bodies turned into engine values (``Rules``, card ints).

A body reaches these shapes only after it matched its request schema in ``openapi.yaml``
(``validation.py``), so they check nothing: each field converts by one function (card names to
cards, integral numbers such as ``5.0`` to ints, ``rules`` to ``Rules``) and absent optional fields
take the defaults the contract describes. Each names exactly the fields of its contract schema (a test
checks it). Plain declarations, no schema library: docs/deployment.md, "The request path: decisions".
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from gongzhu.bot.advice import DEFAULT_BUDGET_MS
from gongzhu.rules import DEFAULT_RULES, Rules
from gongzhu.rules.match import MATCH_TARGET, PIG_TAKER, DealRecord
from gongzhu.rules.state import NO_EXPOSURE

from .engine_values import card_rows_in, cards_in, convert_fields

# the default of a field that has none: left out, it stays out
NO_DEFAULT: Any = object()


class Call(NamedTuple):
    """One request's input: the converted body, the body as sent, the path parameters."""

    data: Any
    body: Any
    params: dict[str, Any]


class Field(NamedTuple):
    """How one field converts: by ``to_engine`` of its value (None: taken as it is), to ``default`` when
    it is left out."""

    to_engine: Callable[[Any], Any] | None = None
    default: Any = NO_DEFAULT


class Shape:
    """Converts a contract-valid object: each field present by its own function, defaults for the rest;
    ``finish`` (when given) builds the value from the converted fields."""

    def __init__(self, fields: dict[str, Field], finish: Callable[[dict[str, Any]], Any] | None = None) -> None:
        self.fields = fields
        self.finish = finish
        self._converters = {name: field.to_engine for name, field in fields.items()}
        self._defaults = tuple((name, field.default) for name, field in fields.items()
                               if field.default is not NO_DEFAULT)

    def convert(self, data: dict[str, Any]) -> Any:
        out = convert_fields(data, self._converters, self._defaults)
        return out if self.finish is None else self.finish(out)


def _integers(value) -> tuple[int, ...]:
    return tuple(map(int, value))


def _deal_seed(value) -> int | str:
    """An integer seed as an int; a 256-bit seed's 64 hexadecimal digits in lower case."""
    return value.lower() if isinstance(value, str) else int(value)


def _claim(value) -> tuple[int, str]:
    return int(value["seat"]), value["kind"]


def _rules_value(data: dict[str, Any]) -> Rules:
    return Rules(**data) if data else DEFAULT_RULES


RULES = Shape({
    "decks": Field(int),
    "partnership": Field(),
    "opening_card": Field(),
    "must_lead_opening_card": Field(),
    "first_trick_ban": Field(),
    "pig_flips_with_all_hearts": Field(),
}, finish=_rules_value)
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


RULES_FIELD = Field(rules_in, default=DEFAULT_RULES)
CARD_ROWS = Field(card_rows_in)
EXPOSED = Field(card_rows_in, default=NO_EXPOSURE)
INTEGER = Field(int)
# A deal's history as a deal state and a match's deal share it: who leads, the hands as dealt, exposures,
# plays.
HISTORY = {"leader": INTEGER, "hands": CARD_ROWS, "exposed": EXPOSED, "plays": Field(card_rows_in, default=())}
# each shape typed: the compiled build's type check meets this module in an import cycle, where it may
# not have inferred them when operations.py reads them
DEAL_STATE: Shape = Shape({"rules": RULES_FIELD, "first_deal": Field(default=True), **HISTORY})
PLAY: Shape = Shape({**DEAL_STATE.fields, "move": Field(cards_in), "seat": INTEGER})
VIEW: Shape = Shape({**DEAL_STATE.fields, "seat": INTEGER})
SUGGEST: Shape = Shape({**DEAL_STATE.fields, "budget_ms": Field(int, default=DEFAULT_BUDGET_MS), "seed": INTEGER})
CLAIM: Shape = Shape({**DEAL_STATE.fields, "claim": Field(_claim)})
TRICK: Shape = Shape({"rules": RULES_FIELD, "leader": INTEGER, "plays": CARD_ROWS})
SCORE: Shape = Shape({"rules": RULES_FIELD, "captured": CARD_ROWS, "exposed": EXPOSED})
EXPOSURES: Shape = Shape({"rules": RULES_FIELD, "hands": CARD_ROWS, "exposed": EXPOSED})
DEAL: Shape = Shape({"rules": RULES_FIELD, "seed": Field(_deal_seed), "first_deal": Field(default=True)})
INGOTS: Shape = Shape({"scores": Field(_integers), "multiplier": Field(int, default=1),
                       "fee": Field(int, default=0)})
SUGGEST_EXPOSURES: Shape = Shape({"rules": RULES_FIELD, "hand": Field(cards_in)})


def _deal_record(data: dict[str, Any]) -> DealRecord:
    return DealRecord(**data)


# one deal of a match: a deal state without its rules (the match's apply), its first deal flag stated
DEAL_RECORD: Shape = Shape({"first_deal": Field(), **HISTORY}, finish=_deal_record)


def _deal_records(value) -> tuple[DealRecord, ...]:
    return tuple(map(DEAL_RECORD.convert, value))


MATCH: Shape = Shape({
    "rules": RULES_FIELD,
    "target": Field(int, default=MATCH_TARGET),
    "leader_rule": Field(default=PIG_TAKER),
    "multiplier": Field(int, default=1),
    "fee": Field(int, default=0),
    "deals": Field(_deal_records),
})
