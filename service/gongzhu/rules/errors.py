"""Errors of the engine, each with a stable machine code (docs/engine-api.md, "Errors").

A ``RuleError`` carries one or more ``Problem`` values; each names the JSON
pointer of the offending input as the API receives it (``/plays/17/0``), so
the HTTP layer can report it without knowing the rules.
"""
from __future__ import annotations

from dataclasses import dataclass

from .messages import AND_MORE


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input: a stable code, where, and why (``detail`` is a
    ``messages.Message`` where the engine wrote it, so it can be rendered in Chinese)."""

    code: str
    path: str
    detail: str


class RuleError(Exception):
    """Input the rules reject. ``code`` is stable; ``problems`` lists every fault."""

    default_code = "rule_error"

    def __init__(self, detail: str, *, code: str | None = None, path: str = "",
                 problems: tuple[Problem, ...] | None = None) -> None:
        super().__init__(detail)
        self.code = code or self.default_code
        self.detail = detail
        self.path = path
        self.problems = problems if problems else (Problem(self.code, path, detail),)


class InvalidDeal(RuleError):
    """The deal as sent is inconsistent; ``problems`` lists every fault found."""

    default_code = "invalid_deal"

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        problems = tuple(problems)
        first = problems[0]
        detail = AND_MORE(first=first.detail, more=len(problems) - 1) if len(problems) > 1 else first.detail
        super().__init__(detail, code="invalid_deal", path=first.path, problems=problems)


class IllegalMove(RuleError):
    """A play the rules forbid here; ``code`` names the rule it breaks.

    ``index``: for ``card_not_in_hand``, the position in the move as given of
    the first card the seat does not hold; else None.
    """

    default_code = "illegal_move"

    def __init__(self, detail: str, *, code: str | None = None, path: str = "",
                 index: int | None = None) -> None:
        super().__init__(detail, code=code, path=path)
        self.index = index
