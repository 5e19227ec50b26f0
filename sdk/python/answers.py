"""A typed answer or an exception: ``answer(play.sync(...))`` is the ``PlayOutcome``.

Each operation's ``sync`` returns its model, a ``Problem`` (an RFC 9457 problem answer) or
``None`` (a status the contract does not list, with ``raise_on_unexpected_status`` off). ``answer``
narrows that union for a type checker and raises on the other two: ``ApiProblem`` carries the
``Problem`` (its stable ``code``, ``detail`` and the JSON pointers of ``errors``).
"""
from __future__ import annotations

from typing import TypeVar

from .models.problem import Problem

__all__ = ["ApiProblem", "NoAnswer", "answer"]

T = TypeVar("T")


class ApiProblem(Exception):
    """The service answered with a problem; ``problem`` is it, parsed."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(f"{problem.status} {problem.code}: {problem.detail}")
        self.problem = problem
        self.code = problem.code


class NoAnswer(Exception):
    """No parsed answer: the status is none the contract lists."""


def answer(result: T | Problem | None) -> T:
    """``result`` when it is the operation's answer; raises ``ApiProblem`` for a problem, ``NoAnswer`` for none."""
    if isinstance(result, Problem):
        raise ApiProblem(result)
    if result is None:
        raise NoAnswer("the service gave no answer the contract lists (Client(raise_on_unexpected_status=True) "
                       "raises with the status instead)")
    return result
