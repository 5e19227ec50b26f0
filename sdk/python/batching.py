"""Many calls in one request (``POST /batch``), each answered exactly as its own call, typed.

``gongzhu_client.calls`` (written by ``make sdk`` from the contract) has one builder per operation a
batch can carry, named after it: ``calls.legal_moves(DealState(...))`` is a ``Call[LegalMoves]``.
``batch(client, [moves, played])`` sends them in one request; ``answers[moves]`` is then that call's
``LegalMoves`` or its ``Problem`` (``answer(answers[moves])`` narrows it as for a single call), and
``answers.status(moves)`` its status.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .answers import ApiProblem, NoAnswer
from .client import AuthenticatedClient, Client
from .models.problem import Problem

__all__ = ["Answers", "Call", "batch"]

T = TypeVar("T")
# a call of a NewDeal is a call of anything a NewDeal is (answer() asks for T | Problem | None)
T_co = TypeVar("T_co", covariant=True)
BATCH_PATH = "/batch"
# The status of every answer a call parses to its operation's model; any other is a problem.
OK = 200


class Body(Protocol):
    """A generated request model: what it sends is ``to_dict()``."""

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True, eq=False)
class Call(Generic[T_co]):
    """One item of a batch: the operation at ``url`` with ``body``; ``parse`` reads its answer (a model's
    ``from_dict``). ``id`` is the item's id (its position in the batch when ``None``);
    ``accept_language`` localizes this item's problem alone. Compared by identity: a key of ``Answers``."""

    url: str
    body: Body | dict[str, Any]
    parse: Callable[[dict[str, Any]], T_co]
    id: str | None = None
    accept_language: str | None = None

    def item(self, position: int) -> dict[str, Any]:
        """The batch item the call sends."""
        body = self.body if isinstance(self.body, dict) else self.body.to_dict()
        sent: dict[str, Any] = {"id": str(position) if self.id is None else self.id, "method": "POST",
                                "url": self.url, "body": body}
        if self.accept_language is not None:
            sent["headers"] = {"Accept-Language": self.accept_language}
        return sent

    def read(self, status: int, body: Any) -> T_co | Problem:
        """The call's answer from its item in the batch's answer."""
        if status == OK:
            return self.parse(body)
        return Problem.from_dict(body)


class Answers:
    """A batch's answers, in the calls' order: ``answers[call]`` is that call's model or ``Problem``."""

    def __init__(self, calls: Sequence[Call[Any]], items: Sequence[dict[str, Any]]) -> None:
        self._items = {id(call): item for call, item in zip(calls, items, strict=True)}
        self._answers = {id(call): call.read(item["status"], item["body"]) for call, item in zip(calls, items)}

    def __getitem__(self, call: Call[T]) -> T | Problem:
        found: T | Problem = self._answers[id(call)]
        return found

    def status(self, call: Call[Any]) -> int:
        """The status the call was answered with, as its own request would have been."""
        status: int = self._items[id(call)]["status"]
        return status

    def __len__(self) -> int:
        return len(self._answers)

    def __iter__(self) -> Iterator[Any]:
        """Each call's answer (its model or ``Problem``), in the calls' order."""
        return iter(self._answers.values())


def batch(client: Client | AuthenticatedClient, calls: Sequence[Call[Any]]) -> Answers:
    """``calls`` in one ``POST /batch``. Raises ``ApiProblem`` when the batch itself is refused (a duplicate
    id, more items than the service takes, a body over its limit), ``NoAnswer`` for a status the contract
    does not list."""
    envelope = {"requests": [call.item(position) for position, call in enumerate(calls)]}
    response = client.get_httpx_client().post(BATCH_PATH, json=envelope)
    if response.status_code != OK:
        if response.headers.get("content-type", "").startswith("application/problem+json"):
            raise ApiProblem(Problem.from_dict(response.json()))
        raise NoAnswer(f"/batch answered {response.status_code}")
    items: list[dict[str, Any]] = response.json()["responses"]
    sent_ids = [item["id"] for item in envelope["requests"]]
    if [item["id"] for item in items] != sent_ids:
        raise NoAnswer("/batch answered other ids than the calls' (or in another order)")
    return Answers(calls, items)
