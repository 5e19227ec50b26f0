"""A batch's envelope read so that each call's body meets the limits a single request's body meets, and
answers as that request would, one call at a time (docs/operations.md, "Batch").

The stdlib's JSON scanner reads every value; this module only walks the punctuation of the two levels
around the bodies — the envelope object, its ``requests`` array, each call object — with the decoder's
own whitespace rule, so that it knows where each body begins and ends in the text it was sent in. A body is
read by the strict decoder as any body is, counting its objects: past the most a body within the size limit
can hold (one for every 3 bytes), its objects are no longer built. So a hostile call of 700,000 empty objects
in a 2 MiB batch costs no more than a body at the limit for a moment, where reading it whole held every object
at once; its size then answers it (413, as alone). A body the strict decoder refuses (a key written twice,
``NaN``, too many fields) is found to its end by a decoder that keeps nothing (``SKIP``) and read again when
its call runs, so its problem is the call's. Whatever the walk does not expect is read again by ``SKIP``,
whose error is the one the stdlib's decoder gives for the whole text.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

from .pipeline import DECODER, json_object
from .problems import ApiProblem

# The decoder's own whitespace (json.decoder.WHITESPACE).
SPACE = re.compile(r"[ \t\n\r]*")
SPACES = frozenset(" \t\n\r")
BODY = "body"
REQUESTS = "requests"
# One value for every object a skipped body holds: nothing of it is kept.
_NOTHING: dict = {}
# The value a call's body has in the envelope's walk: taken out of the call once the call is read.
_SKIPPED = object()


def _nothing(_value: Any) -> Any:
    return _NOTHING


# Reads a value to its end, keeping nothing of its objects, numbers or constants (NaN is read, as the
# strict decoder's own error is the body's answer when its call runs).
SKIP = json.JSONDecoder(object_pairs_hook=_nothing, parse_float=_nothing, parse_int=_nothing,
                        parse_constant=_nothing)
# A decoder's scanner, as ``raw_decode`` calls it: (value, end), StopIteration where no value begins.
Scan = Callable[[str, int], tuple[Any, int]]


def scanner(decoder: json.JSONDecoder) -> Scan:
    return getattr(decoder, "scan_once")  # noqa: B009 — not in the stubs


# The fewest bytes an object takes in a body's text (``{},``): a body within a size limit holds at most one an
# object for each.
OBJECT_BYTES = 3


@dataclass(frozen=True, slots=True)
class Body:
    """A call's body as sent: where it is in the envelope's text, and its value when the strict decoder read
    it whole (``whole``)."""

    start: int
    end: int
    value: Any = None
    whole: bool = False


class _Counted:
    """The strict decoder's object hook, counting the objects of one body: past ``most`` they are not built."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.count = 0

    def __call__(self, pairs: list[tuple[str, Any]]) -> Any:
        self.count += 1
        return _NOTHING if self.count > self.most else json_object(pairs)


class _Unexpected(Exception):
    """The walk met what the envelope's two outer levels do not hold: the stdlib says what it is."""


READ = scanner(DECODER)
SKIPPING = scanner(SKIP)


def read(text: str, limit: int | None) -> tuple[Any, list[Body | None]]:
    """The envelope's JSON value, each call's ``body`` left out of it, and the bodies by the calls' order
    (None: the call has none; a call that is no object has none either), each read whole if it is within
    ``limit`` bytes' worth of objects. ``ValueError`` (the decoder's own, or a key written twice) for a text
    that is not JSON."""
    bodies: list[Body | None] = []
    most = len(text) if limit is None else limit // OBJECT_BYTES + 1
    try:
        return _Walk(text, bodies, most).envelope(), bodies
    except _Unexpected:
        SKIP.decode(text)  # the decoder's error for this text
        raise ValueError("the batch's envelope is not JSON") from None


class _Walk:
    def __init__(self, text: str, bodies: list[Body | None], most: int) -> None:
        self.text = text
        self.at = 0
        self.bodies = bodies
        self.counted = _Counted(most)
        self.strict = scanner(json.JSONDecoder(object_pairs_hook=self.counted, parse_float=DECODER.parse_float,
                                               parse_constant=DECODER.parse_constant))

    def envelope(self) -> Any:
        self.space()
        if not self.opens("{"):
            value = self.value(self.text, READ)
            self.end()
            return value
        value = self.object(self.member_of_envelope)
        self.end()
        return value

    def member_of_envelope(self, key: str) -> Any:
        if key == REQUESTS and self.peek() == "[":
            return self.calls()
        return self.value(self.text, READ)

    def calls(self) -> list[Any]:
        self.at += 1
        calls: list[Any] = []
        self.space()
        if self.closes("]"):
            return calls
        while True:
            self.space()
            if self.opens("{"):
                found: list[Body | None] = [None]
                calls.append(self.object(lambda key: self.member_of_call(key, found)))
                self.bodies.append(found[0])
            else:
                calls.append(self.value(self.text, READ))
                self.bodies.append(None)
            if not self.comma_or("]"):
                return calls

    def member_of_call(self, key: str, found: list[Body | None]) -> Any:
        if key != BODY:
            return self.value(self.text, READ)
        start = self.at
        self.counted.count = 0
        try:
            value, self.at = self.strict(self.text, start)
        except (StopIteration, ValueError, ApiProblem):  # refused by the strict decoder, or no JSON (SKIP says so)
            self.value(self.text, SKIPPING)
            found[0] = Body(start, self.at)
            return _SKIPPED
        whole = self.counted.count <= self.counted.most
        found[0] = Body(start, self.at, value if whole else None, whole)
        return _SKIPPED

    def object(self, member: Any) -> dict:
        """The object opening here, each member's value read by ``member(key)``; a body is left out."""
        self.at += 1
        pairs: list[tuple[str, Any]] = []
        self.space()
        if self.closes("}"):
            return json_object(pairs)
        while True:
            self.space()
            if self.peek() != '"':
                raise _Unexpected
            key = self.key()
            self.space()
            if not self.closes(":"):
                raise _Unexpected
            self.space()
            pairs.append((key, member(key)))
            if not self.comma_or("}"):
                obj = json_object(pairs)  # a key written twice, or too many, as any object
                if obj.get(BODY) is _SKIPPED:
                    del obj[BODY]
                return obj

    def value(self, text: str, scan: Scan) -> Any:
        """The value beginning here, read by a decoder's scanner."""
        try:
            value, self.at = scan(text, self.at)
        except (StopIteration, json.JSONDecodeError):
            raise _Unexpected from None
        return value

    def key(self) -> str:
        """The object key beginning here (its opening quote)."""
        try:
            key, self.at = scanstring(self.text, self.at + 1)
        except json.JSONDecodeError:
            raise _Unexpected from None
        return key

    def comma_or(self, close: str) -> bool:
        """True past a comma, False past ``close``."""
        self.space()
        if self.closes(","):
            return True
        if self.closes(close):
            return False
        raise _Unexpected

    def end(self) -> None:
        self.space()
        if self.at != len(self.text):
            raise _Unexpected

    def space(self) -> None:
        if self.text[self.at:self.at + 1] in SPACES:  # compact JSON has none: no regex to run
            self.at = SPACE.match(self.text, self.at).end()  # type: ignore[union-attr]

    def peek(self) -> str:
        return self.text[self.at:self.at + 1]

    def opens(self, mark: str) -> bool:
        return self.peek() == mark

    def closes(self, mark: str) -> bool:
        if self.peek() == mark:
            self.at += 1
            return True
        return False
