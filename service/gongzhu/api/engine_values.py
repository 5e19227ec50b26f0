"""A contract-valid request's values as engine values: card names to cards, and each field of an object
converted by its function (``schemas.py`` says which). Compiled with the engine when a C compiler is
there (setup.py): every request's cards are converted here (docs/deployment.md, "The request path:
decisions", has its cost either way)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from gongzhu.rules.cards import CARD_BY_NAME, CARD_NAMES

# a play of one card, the commonest row of a deal state, by the card's name
ONE_CARD_ROWS: Final[dict[str, tuple[int, ...]]] = {name: (card,) for card, name in enumerate(CARD_NAMES)}


def cards_in(row: list[str]) -> tuple[int, ...]:
    """The engine's cards of a row of card names (validated: each one of the contract's 52)."""
    cards = CARD_BY_NAME
    return tuple([cards[name] for name in row])


def card_rows_in(rows: list[list[str]]) -> tuple[tuple[int, ...], ...]:
    """The engine's cards of rows of card names (hands, exposures, plays)."""
    cards, single = CARD_BY_NAME, ONE_CARD_ROWS
    out: list[tuple[int, ...]] = []
    for row in rows:
        if len(row) == 1:
            out.append(single[row[0]])
        else:
            out.append(tuple([cards[name] for name in row]))
    return tuple(out)


def convert_fields(data: dict[str, Any], converters: dict[str, Callable[[Any], Any] | None],
                   defaults: dict[str, Any]) -> dict[str, Any]:
    """A contract-valid object's fields, each converted by its function in ``converters`` (None: taken as
    it is), over the ``defaults`` of the fields left out."""
    out = dict(defaults)
    for key, value in data.items():
        convert = converters[key]
        out[key] = value if convert is None else convert(value)
    return out
