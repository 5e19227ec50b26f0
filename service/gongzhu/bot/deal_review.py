"""Deal review (复盘): every play of a deal valued, what it cost and what was best (docs/review.md).

The review walks the deal's history on its own state (``DealState.undo``, then ``table.play_option`` back),
from the last play to the first, and values every legal move of each decision in one scale: raw-score
points at the end of the deal, the acting seat's own raw score, or with partnership its side's raw scores
less the other side's (``solve.raw_value``, the exact search's one scale). Two kinds of value:

- estimated (``exact: false``, the fair lens), every play with a choice: the fair value from what the seat knew
  at the time (its hand, the plays, the exposures, the voids shown and the inferences of
  ``knowledge.absent_cards``), hidden cards dealt anew and every move valued on the same deals (``fair_values``:
  played out by the baseline heuristic, or near the end solved exactly), with each value's standard error. The
  deals' number depends only on the budget, the deck count and what they found, and the deals on the seed and
  the play's index, so the same seed gives the same estimate whatever the hidden cards are.
- exact (the hindsight lens): the open-card value of each move, every hand seen and every seat playing best
  (``solve.OpenValues``); always with ``EXACT_TRICKS`` tricks left or fewer, and further back while the
  solver finishes within the positions the budget gives it. Going backwards lets the solver's tables, kept
  across the positions of the deal, serve the earlier ones. It is a decision's ``hindsight``, beside the fair
  values; a forced play (one legal move, nothing to judge) it reached is valued by it alone (``exact: true``).

``best`` is every move whose (rounded) value is the highest; ``loss`` the best value less the value of the
move played; ``verdict`` its class (``verdicts``). A play is judged by what its seat could know: hindsight
finds a decent seat's late plays nearly as costly as random ones (docs/review.md, "How stable an estimate is").
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gongzhu.rules import DealState, Play, running
from gongzhu.rules.cards import SEATS
from gongzhu.rules.table import play_option
from gongzhu.solve import OpenValues, tricks_left

from .fair_values import DECIMALS, FairValues, fair_values
from .verdicts import VERDICTS, Verdict, accuracy, verdict

DEFAULT_BUDGET_MS = 3000
# With this many tricks left or fewer (the trick on the table included) every decision is valued exactly,
# whatever the budget: the open-card solver finishes them in milliseconds.
EXACT_TRICKS = 3
# Positions the exact search may visit over the decisions further back, per millisecond of budget, by the number
# of decks (a two-deck position costs several times a one-deck one): a count, so a seed fixes which decisions are
# exact. The exact part ends at the first decision it does not finish, or before one it is not expected to: when
# what is left is under GROWTH times what the decision after it took (a position a play earlier mostly costs
# more; the rest then goes to the estimates rather than to a search that would fail). Without a seed the exact
# part also stops at EXACT_SHARE of the budget of wall-clock time. bench/perf/review.py measures the split
# (docs/performance.md).
EXACT_NODES_PER_MS = {1: 250, 2: 37}
GROWTH = 1
EXACT_SHARE = 0.5
# Past the budget, without a seed, the remaining estimates get the fewest deals (``fair_values.MIN_DEALS``).
CUT_PLAYOUTS = 0
MS = 1e-3
# Most mistakes listed per seat.
MISTAKES = 3


# A value or a loss: an int when exact, a float (one decimal) when estimated; the union keeps a compiled reader
# from turning the ints into floats (an answer writes 100, not 100.0, for an exact value).
Value = int | float


@dataclass(frozen=True, slots=True, kw_only=True)
class Hindsight:
    """The hindsight lens of an estimated decision the exact search reached: every legal move's open-card value
    (``values``, ``legal_moves`` order), the value of the move played, the best moves, the loss and its verdict."""

    values: tuple[tuple[Play, int], ...]
    value: int
    best: tuple[Play, ...]
    loss: int
    verdict: Verdict


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """One play of the deal reviewed: every legal move's value (``values``, None when the move was forced); when
    estimated, the standard errors of the value played (``error``), of the loss (``loss_error``) and of each
    move's value (``errors``, beside ``values``), the deals the move played was valued on, and the hindsight
    lens where the exact search reached it (``hindsight``)."""

    play: int
    trick: int
    seat: int
    played: Play
    value: Value
    best: tuple[Play, ...]
    loss: Value
    exact: bool
    values: tuple[tuple[Play, Value], ...] | None
    verdict: Verdict
    error: float | None = None
    loss_error: float | None = None
    errors: tuple[float, ...] | None = None
    deals: int | None = None
    hindsight: Hindsight | None = None

    @property
    def lens(self) -> str:
        """``hindsight`` (exact: every card open) or ``fair`` (estimated from what the seat could know)."""
        return "hindsight" if self.exact else "fair"


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatReview:
    """A seat's decisions (play indexes), their total loss (with its standard error when some were estimated), its
    largest mistakes (play, loss), its decisions of each class (``VERDICTS`` order) and its accuracy (None when it
    had no choice)."""

    seat: int
    decisions: tuple[int, ...]
    loss: Value
    mistakes: tuple[tuple[int, Value], ...]
    verdicts: tuple[int, ...]
    accuracy: float | None
    loss_error: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Review:
    decisions: tuple[Decision, ...]
    seats: tuple[SeatReview, ...]
    budget_cut: bool


class Stopped(Exception):
    """The caller's ``stop`` said the review is no longer wanted."""


def estimate(state: DealState, *, budget_ms: int, seed: int | None, play: int, played: Play | None = None,
             playouts: int | None = None) -> FairValues:
    """Each legal move's fair value at ``state`` (``fair_values``): from what ``state.seat`` knows, never the hidden
    cards; ``played`` (the move made) valued on every deal; ``seed`` and ``play`` (the decision's index) fix them."""
    return fair_values(state, budget_ms=budget_ms, seed=seed, play=play, played=played, playouts=playouts)


def _exact_decision(state: DealState, play: int, played: Play, values: dict[Play, int]) -> Decision:
    seat = state.seat
    assert seat is not None
    top = max(values.values())
    loss = top - values[played]
    return Decision(play=play, trick=running.trick_number(state), seat=seat, played=played, value=values[played],
                    best=tuple(move for move, value in values.items() if value == top), loss=loss, exact=True,
                    values=tuple(values.items()) if len(values) > 1 else None, verdict=verdict(loss, None))


def _hindsight(played: Play, values: dict[Play, int]) -> Hindsight:
    top = max(values.values())
    loss = top - values[played]
    return Hindsight(values=tuple(values.items()), value=values[played],
                     best=tuple(move for move, value in values.items() if value == top), loss=loss,
                     verdict=verdict(loss, None))


def _fair_decision(state: DealState, play: int, played: Play, found: FairValues,
                   hindsight: Hindsight | None = None) -> Decision:
    seat = state.seat
    assert seat is not None
    top = max(found.values)
    mine = found.moves.index(played)
    first = found.values.index(top)
    loss = round(top - found.values[mine], DECIMALS)
    loss_error = round(found.paired_error(first, mine), DECIMALS) if loss > 0 else 0.0
    forced = len(found.moves) == 1
    return Decision(play=play, trick=running.trick_number(state), seat=seat, played=played, value=found.values[mine],
                    best=tuple(m for m, v in zip(found.moves, found.values) if v == top), loss=loss, exact=False,
                    values=None if forced else tuple(zip(found.moves, found.values)),
                    verdict=verdict(loss, loss_error), error=found.errors[mine], loss_error=loss_error,
                    errors=None if forced else found.errors, deals=found.deals[mine], hindsight=hindsight)


def _seat_review(seat: int, decisions: Sequence[Decision]) -> SeatReview:
    own = [d for d in decisions if d.seat == seat]
    mistakes = sorted((d for d in own if d.loss > 0), key=lambda d: (-d.loss, d.play))[:MISTAKES]
    loss = sum(d.loss for d in own)
    exact = all(d.exact for d in own)
    loss_error = None if exact else round(math.sqrt(sum((d.loss_error or 0.0) ** 2 for d in own)), DECIMALS)
    return SeatReview(seat=seat, decisions=tuple(d.play for d in own),
                      loss=loss if exact else round(loss, DECIMALS),
                      mistakes=tuple((d.play, d.loss) for d in mistakes),
                      verdicts=tuple(sum(d.verdict == v for d in own if d.values is not None) for v in VERDICTS),
                      accuracy=accuracy([d.loss for d in own if d.values is not None]), loss_error=loss_error)


def review(start: DealState, plays: Sequence[Play], *, budget_ms: int = DEFAULT_BUDGET_MS,
           seed: int | None = None, stop: Callable[[], bool] | None = None) -> Review:
    """The review of ``plays`` (legal, sorted: a replayed state's ``plays()``; the deal finished or not) made
    from ``start``, the deal's state before its first play; ``start`` is left as found.

    An estimate for every play with a choice; the exact values beside it (``hindsight``) while the solver
    finishes: always with ``EXACT_TRICKS`` tricks left or fewer; further back within ``EXACT_NODES_PER_MS`` ×
    ``budget_ms`` positions over the whole review (``_Exact``) and, without a seed, until ``EXACT_SHARE`` of
    ``budget_ms`` of wall-clock time has passed. Without a seed, past ``budget_ms`` the remaining estimates get
    the fewest deals and ``budget_cut`` is
    true. With a seed the clock does not count (as for ``suggest``): the same seed gives the same review on
    an idle or a busy server, which may then take longer than ``budget_ms``. ``stop`` (optional) is asked
    between decisions; True raises ``Stopped``.
    """
    clock = _Clock(budget_ms, seed is not None)
    exact = _Exact(budget_ms * EXACT_NODES_PER_MS[start.rules.decks], clock)
    for play in plays:
        play_option(start, play)
    found: list[Decision] = []
    try:
        for index in range(len(plays) - 1, -1, -1):
            if stop is not None and stop():
                raise Stopped
            start.undo()
            values = exact.values(start)
            # (a forced play has no choice to judge: its value is the exact one where the search reached it)
            if values is not None and len(values) == 1:
                found.append(_exact_decision(start, index, plays[index], {**values}))
                continue
            guess = estimate(start, budget_ms=budget_ms, seed=seed, play=index, played=plays[index],
                             playouts=CUT_PLAYOUTS if clock.late() else None)
            hindsight = None if values is None else _hindsight(plays[index], {**values})
            found.append(_fair_decision(start, index, plays[index], guess, hindsight))
    finally:
        while running.plays_count(start):
            start.undo()
    decisions = tuple(reversed(found))
    return Review(decisions=decisions, seats=tuple(_seat_review(s, decisions) for s in range(SEATS)),
                  budget_cut=clock.cut)


class _Clock:
    """The review's wall-clock bounds without a seed: the exact part's (``EXACT_SHARE`` of the budget) and the
    budget's; ``cut`` once past the budget. With a seed there are none (as ``/suggest``'s)."""

    def __init__(self, budget_ms: int, seeded: bool) -> None:
        now = time.monotonic()
        self.deadline = math.inf if seeded else now + budget_ms * MS
        self.exact_until = None if seeded else now + budget_ms * MS * EXACT_SHARE
        self.cut = False

    def late(self) -> bool:
        if time.monotonic() > self.deadline:
            self.cut = True
        return self.cut


class _Exact:
    """The exact part of a review: the open-card values while they come within the positions left (``nodes``,
    the solver's tables kept from one decision to the one before it), and never again once they do not."""

    def __init__(self, nodes: int, clock: _Clock) -> None:
        self.solver = OpenValues()
        self.left = nodes
        self.clock = clock
        self.last = 0
        self.over = False

    def values(self, state: DealState) -> dict[Play, int] | None:
        """The values at ``state``: with ``EXACT_TRICKS`` tricks left or fewer whatever they cost; else None
        once the positions left or the clock are spent, or too few for what the decision after took."""
        if tricks_left(state) <= EXACT_TRICKS:
            return self.solver.values(state)
        if self.over or self.left < GROWTH * self.last:
            self.over = True
            return None
        found = self.solver.values(state, deadline=self.clock.exact_until, max_nodes=self.left)
        self.left -= self.solver.searched
        self.last = self.solver.searched
        self.over = found is None
        return found
