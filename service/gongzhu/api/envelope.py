"""A batch's envelope read with each call's body left as the text it was sent in, so that each body meets
the limits a single request's body meets, and answers as that request would, one call at a time
(docs/operations.md, "Batch").

The stdlib's JSON scanner reads every value; this module only walks the punctuation of the two levels
around the bodies — the envelope object, its ``requests`` array, each call object — with the decoder's
own whitespace rule. A call's ``body`` is skipped by a decoder that keeps nothing (``SKIP``), which finds
where the value ends at a memory cost of a pointer or so per value, whatever the value holds; the body's
text is read into values only when its call runs, and only within the single request's size limit. A
hostile call of 700,000 empty objects in a 2 MiB batch so costs a list of pointers for a moment, where
reading it whole held every object at once (and 413 is its answer, as alone). Whatever the walk does not
expect is read again by the stdlib's decoder, whose error is the one a request alone would get.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .pipeline import DECODER, json_object

# The decoder's own whitespace (json.decoder.WHITESPACE).
SPACE = re.compile(r"[ \t\n\r]*")
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


@dataclass(frozen=True, slots=True)
class Body:
    """A call's body as sent: where it is in the envelope's text."""

    start: int
    end: int


class _Unexpected(Exception):
    """The walk met what the envelope's two outer levels do not hold: the stdlib says what it is."""


def read(text: str) -> tuple[Any, list[Body | None]]:
    """The envelope's JSON value, each call's ``body`` left out of it, and the bodies by the calls' order
    (None: the call has none; a call that is no object has none either). ``ValueError`` (the decoder's
    own, or a key written twice) for a text that is not JSON."""
    bodies: list[Body | None] = []
    try:
        return _Walk(text, bodies).envelope(), bodies
    except _Unexpected:
        SKIP.decode(text)  # the decoder's error for this text
        raise ValueError("the batch's envelope is not JSON") from None


class _Walk:
    def __init__(self, text: str, bodies: list[Body | None]) -> None:
        self.text = text
        self.at = 0
        self.bodies = bodies

    def envelope(self) -> Any:
        self.space()
        if not self.opens("{"):
            value = self.value(self.text, DECODER)
            self.end()
            return value
        value = self.object(self.member_of_envelope)
        self.end()
        return value

    def member_of_envelope(self, key: str) -> Any:
        if key == REQUESTS and self.peek() == "[":
            return self.calls()
        return self.value(self.text, DECODER)

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
                calls.append(self.value(self.text, DECODER))
                self.bodies.append(None)
            if not self.comma_or("]"):
                return calls

    def member_of_call(self, key: str, found: list[Body | None]) -> Any:
        if key != BODY:
            return self.value(self.text, DECODER)
        start = self.at
        self.value(self.text, SKIP)
        found[0] = Body(start, self.at)
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
            key = self.value(self.text, DECODER)
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

    def value(self, text: str, decoder: json.JSONDecoder) -> Any:
        try:
            value, self.at = decoder.raw_decode(text, self.at)
        except json.JSONDecodeError:
            raise _Unexpected from None
        return value

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
