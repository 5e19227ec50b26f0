"""Cards and answers on the wire: card names in a request to engine cards, and answers written
as JSON text (UTF-8, compact, as ``json`` would write them).

Most of an answer is cards: legal moves, the trick, the cards taken, hands, each a list of
card names. So that the answer is not mostly the encoding of names, a list of cards is written
as JSON text when the answer is built
(``cards_text``, ``card_rows_text``: a card's quoted name is written once, a short row —
a play, at most ``SHORT_ROW`` cards — once per process) and ``encode`` puts the answer
together from such pieces (``JsonText``) and its other values, as ``json.dumps`` (compact,
``ensure_ascii=False``) would (a test checks it byte for byte): strings quoted by the
``json`` module's C quoting, the rest written here (each call of a ``JSONEncoder`` builds
its C encoder anew).

A request's card names (validated against the contract already) become engine cards
here too (``card_rows_in``, ``cards_in``; each field by its function: ``convert_fields``), and its
JSON objects are made here as the parser reads them (``json_object``: no key twice, a bounded number
of keys). The module is compiled with the engine when a C
compiler is there (setup.py): every request runs through it.
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from typing import Any, Final

from gongzhu.rules import CARD_NAMES
from gongzhu.rules.cards import ONE_PLANE, PLANE, SUIT_SIZE, SUITS

from . import messages as text
from .problems import ApiProblem

# the C encoder's string quoting (ensure_ascii=False)
_quoted: Final[Callable[[str], str]] = json.encoder.encode_basestring
_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
CARD_TEXT: Final[tuple[str, ...]] = tuple([_quoted(name) for name in CARD_NAMES])
# rows of two cards (plays): each written once, kept by its cards (at most 52 + 1,326)
SHORT_ROW: Final = 2
_SHORT_ROWS: Final[dict[int, str]] = {}
# a play of one card, the commonest row of a deal state, by its card
SINGLE_PLAYS: Final[tuple[tuple[int, ...], ...]] = tuple([(card,) for card in range(len(CARD_NAMES))])


class JsonText:
    """A value already written as JSON text (``text``)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JsonText) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"JsonText({self.text!r})"


# No object of the contract has more than a dozen fields: a body with thousands of keys is refused
# as it is parsed, before it costs memory and a report (a server limit, like the body size).
MAX_OBJECT_KEYS: Final = 64


def json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A request's JSON object from its (key, value) pairs, as the parser finds them: 422
    ``too_many_fields`` past ``MAX_OBJECT_KEYS``, ``ValueError`` naming a key written twice."""
    if len(pairs) > MAX_OBJECT_KEYS:
        raise ApiProblem(422, "too_many_fields", text.TOO_MANY_FIELDS(count=len(pairs), limit=MAX_OBJECT_KEYS))
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate object key {key[:100]!r}")
            seen.add(key)
    return obj


def _card_codes() -> tuple[int, ...]:
    """The card of each card name, at the code of its first character shifted by ``CODE_BITS`` and or-ed
    with the code of its last."""
    codes = [0] * (1 << 2 * CODE_BITS)
    for card, name in enumerate(CARD_NAMES):
        codes[ord(name[0]) << CODE_BITS | ord(name[-1])] = card
    return tuple(codes)


# A card name's first character and its last ("10" ends in "0") tell the card: one lookup by the two
# characters' codes, without hashing the name (the names are the contract's, validated, so ASCII).
CODE_BITS: Final = 7
CARD_CODES: Final = _card_codes()


def cards_in(row: list[str]) -> tuple[int, ...]:
    """The engine's cards of a row of card names (a JSON array)."""
    codes = CARD_CODES
    return tuple([codes[ord(name[0]) << CODE_BITS | ord(name[-1])] for name in row])


def card_rows_in(rows: list[list[str]]) -> tuple[tuple[int, ...], ...]:
    """The engine's cards of rows of card names (hands, exposures, plays: JSON arrays)."""
    codes, single = CARD_CODES, SINGLE_PLAYS
    out: list[tuple[int, ...]] = []
    for row in rows:
        if len(row) == 1:
            name = row[0]
            out.append(single[codes[ord(name[0]) << CODE_BITS | ord(name[-1])]])
        else:
            out.append(tuple([codes[ord(name[0]) << CODE_BITS | ord(name[-1])] for name in row]))
    return tuple(out)


def convert_fields(data: dict[str, Any], converters: dict[str, Callable[[Any], Any] | None],
                   defaults: tuple[tuple[str, Any, bool], ...]) -> dict[str, Any]:
    """A contract-valid object's fields, each converted by its function in ``converters`` (None: taken as
    it is), and the fields left out with their defaults (``(name, default, call)``: ``call``, a default to
    call each time): the loop of ``schemas.ConvertingSchema``, compiled."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        convert = converters[key]
        out[key] = value if convert is None else convert(value)
    for name, default, call in defaults:
        if name not in out:
            out[name] = default() if call else default
    return out


def _row(row: tuple[int, ...]) -> str:
    if not row:
        return "[]"
    names = CARD_TEXT
    return f"[{','.join([names[c] for c in row])}]"


def cards_text(row: Sequence[int]) -> JsonText:
    """``[name, ...]`` of a row of cards, as JSON text."""
    return JsonText(_row(row if type(row) is tuple else tuple(row)))


QUOTE_COMMA_QUOTE: Final = '","'


def names_rows_text(rows: list[list[str]]) -> JsonText:
    """``[[name, ...], ...]`` of rows of card names as a request sent them (hands, exposures, plays), as JSON
    text: each name matched the contract's card pattern (letters and digits), so its JSON text is the
    name between quotes."""
    return JsonText(f"[{','.join([_names_row(row) for row in rows])}]")


def _names_row(row: list[str]) -> str:
    return f'["{QUOTE_COMMA_QUOTE.join(row)}"]' if row else "[]"


# a row of one card (a play), by the card
ONE_CARD_ROWS: Final[tuple[str, ...]] = tuple([f"[{text}]" for text in CARD_TEXT])


def card_rows_text(rows: Sequence[Sequence[int]]) -> JsonText:
    """``[[name, ...], ...]`` of rows of cards (moves, a trick's plays, hands), as JSON text."""
    parts: list[str] = []
    short, singles = _SHORT_ROWS, ONE_CARD_ROWS
    for sent in rows:
        row: tuple[int, ...] = sent if type(sent) is tuple else tuple(sent)
        size = len(row)
        if size == 1:
            parts.append(singles[row[0]])
        elif size == SHORT_ROW:
            # kept by the two cards (the number of a card below PLANE, then the other)
            key = row[0] * PLANE + row[1]
            text = short.get(key)
            if text is None:
                text = short[key] = _row(row)
            parts.append(text)
        else:
            parts.append(_row(row))
    return JsonText(f"[{','.join(parts)}]")


# a suit's cards of one copy each, as JSON text without brackets, by suit and 13-bit rank mask
# (written when first asked; at most 4 x 8,192)
_SUIT_MASK: Final = (1 << SUIT_SIZE) - 1
_SUIT_TEXTS: Final[list[str | None]] = [None] * (len(SUITS) << SUIT_SIZE)
# a card's name written twice (a card taken twice)
CARD_TWICE: Final[tuple[str, ...]] = tuple([f"{text},{text}" for text in CARD_TEXT])


def _suit_text(first: int, ranks: int, twice: int) -> str:
    """The names of one suit's cards (``first``: its first card) in ``ranks``, a card of ``twice``
    written twice, ascending, comma-separated."""
    names, doubled = CARD_TEXT, CARD_TWICE
    parts: list[str] = []
    while ranks:
        low = ranks & -ranks
        card = first + low.bit_length() - 1
        parts.append(doubled[card] if twice & low else names[card])
        ranks ^= low
    return ",".join(parts)


def bits_text(bits: int) -> str:
    """``[name, ...]`` of the cards of two-plane ``bits`` (a pile taken), as JSON text: the cards
    ``bits_cards(bits)`` gives, in its order (ascending, a card held twice twice)."""
    one = bits & ONE_PLANE
    two = bits >> PLANE
    texts = _SUIT_TEXTS
    parts: list[str] = []
    for suit in range(len(SUITS)):
        shift = suit * SUIT_SIZE
        ranks = one >> shift & _SUIT_MASK
        if not ranks:
            continue
        twice = two >> shift & _SUIT_MASK
        if twice & ranks:
            parts.append(_suit_text(shift, ranks, twice))
            continue
        key = suit << SUIT_SIZE | ranks
        text = texts[key]
        if text is None:
            text = texts[key] = _suit_text(shift, ranks, 0)
        parts.append(text)
    return f"[{','.join(parts)}]"


def bits_rows_text(rows: Sequence[int]) -> JsonText:
    """``[[name, ...], ...]`` of two-plane bits (the piles each seat has taken), as JSON text: the
    text ``card_rows_text`` writes of their ``bits_cards``."""
    return JsonText(f"[{','.join([bits_text(bits) for bits in rows])}]")


def _write(value: Any, out: list[str]) -> None:
    """``value``'s JSON text, appended to ``out`` in pieces (one join for the whole answer)."""
    # exact types (a bool is an int, a message a str: each is written by its own branch); each branch
    # narrows the value's type, so the compiled build reads a text or an int without a generic call
    if type(value) is JsonText:
        out.append(value.text)
    elif type(value) is str:
        out.append(_quoted(value))
    elif type(value) is int:
        out.append(str(value))
    elif type(value) is dict:
        _object(value, out)
    elif type(value) is list or type(value) is tuple:
        _array(value, out)
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    else:
        if type(value) is float and not math.isfinite(value):
            raise ValueError(f"{value!r} is no JSON number")
        out.append(_ENCODER.encode(value))


def _object(value: dict[str, Any], out: list[str]) -> None:
    # the commonest values written in place, the others by _write
    if not value:
        out.append("{}")
        return
    first = True
    for key, item in value.items():
        # the key with what comes before it: "{" for the first, "," for the others
        if first:
            out.append(_key(key, _FIRST_KEYS, "{"))
            first = False
        else:
            out.append(_key(key, _KEYS, ","))
        if type(item) is JsonText:
            out.append(item.text)
        elif type(item) is int:
            out.append(str(item))
        else:
            _write(item, out)
    out.append("}")


def _key(key: str, known: dict[str, str], before: str) -> str:
    """``before`` then ``"key":`` (an answer's keys are few: each is written once)."""
    text = known.get(key)
    if text is None:
        text = before + _quoted(key) + ":"
        if len(known) < MAX_KEYS:
            known[key] = text
    return text


_FIRST_KEYS: Final[dict[str, str]] = {}
_KEYS: Final[dict[str, str]] = {}
MAX_KEYS: Final = 256


def _array(items: list[Any] | tuple[Any, ...], out: list[str]) -> None:
    # ints (scores, seats) and strings (card names as sent) in place, the rest by _write
    if not items:
        out.append("[]")
        return
    separator = "["
    for item in items:
        out.append(separator)
        separator = ","
        if type(item) is int:
            out.append(str(item))
        elif type(item) is str:
            out.append(_quoted(item))
        else:
            _write(item, out)
    out.append("]")


def encode(value: Any) -> bytes:
    """``value`` (an answer: objects, lists, strings, numbers, booleans, null and ``JsonText``)
    as one line of UTF-8 JSON text."""
    out: list[str] = []
    _write(value, out)
    out.append("\n")
    return "".join(out).encode()
