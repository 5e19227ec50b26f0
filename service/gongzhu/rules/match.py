"""Matches (一场) — docs/rules.md §10.

A match is a series of deals that ends when a seat's running total reaches
+target or −target (P: "一般某人得到正一千分或负一千分"). The first deal is led by
the opening card's holder, every later one by the seat that took the pig in the
previous deal (R: "以后每局由上一局得到猪牌的一方首先出牌"; two decks: the first pig
taken), or, in formal competitions, by a fixed rotation (P: 固定首引人, the recipe
of docs/rules.md §2). Ingots are settled deal by deal (R: 元宝结算规则).

Nothing here re-derives a rule: each deal is replayed and checked by
``play.replay``, scored by ``running.score_state`` and settled by
``settlement.base_scores`` and ``settlement.settle_ingots``; the next leader is
the deal state's ``first_pig_taker``, as ``/play`` reports it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import SEATS, Card
from .errors import InvalidDeal, Problem, RuleError
from .messages import (
    DEAL_AT,
    FIRST_DEAL_OF_MATCH,
    LATER_DEAL_OF_MATCH,
    LEADER_RULE_ONE_OF,
    MATCH_OVER,
    PIG_TAKER_LEADS,
    ROTATION_LEADS,
    UNFINISHED_DEAL,
)
from .play import replay
from .running import first_leader, first_pig_taker, plays_count, score_state
from .settlement import Ingots, base_scores, settle_ingots
from .state import NO_EXPOSURE, DealState
from .variants import Rules

PIG_TAKER: Final = "pig_taker"
ROTATION: Final = "rotation"
LEADER_RULES: Final = (PIG_TAKER, ROTATION)
# P: "一般某人得到正一千分或负一千分"
MATCH_TARGET: Final = 1000
NOTHING: Final[tuple[int, ...]] = (0,) * SEATS


@dataclass(frozen=True, slots=True, kw_only=True)
class DealRecord:
    """One deal of a match as played: its history, as a deal state sends it.

    ``first_deal`` and ``leader`` may be None: the match derives them.
    """

    hands: Sequence[Sequence[Card]]
    exposed: Sequence[Sequence[Card]] = NO_EXPOSURE
    plays: Sequence[Sequence[Card]] = ()
    first_deal: bool | None = None
    leader: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchDeal:
    """One deal's place in the match: who led it and, once it is finished, its
    scores, its ingots and the running totals and ledger after it."""

    state: DealState
    first_deal: bool
    leader: int
    raw: tuple[int, ...] | None
    scores: tuple[int, ...] | None
    ingots: Ingots | None
    totals: tuple[int, ...]
    ledger: tuple[int, ...]

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def pig_taker(self) -> int | None:
        """The seat that took the (first) pig, once it is taken."""
        return first_pig_taker(self.state)


@dataclass(frozen=True, slots=True, kw_only=True)
class Standing:
    """A seat's place: 1 + the number of seats with a higher total (tied seats share it)."""

    seat: int
    total: int
    place: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NextDeal:
    """How the next deal starts: ``leader`` None means the opening card's holder."""

    first_deal: bool
    leader: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Match:
    """A match's deals in order and where it stands after them."""

    deals: tuple[MatchDeal, ...]
    totals: tuple[int, ...]
    ledger: tuple[int, ...]
    ending_deal: int | None
    standings: tuple[Standing, ...]
    winners: tuple[int, ...]
    next_deal: NextDeal | None

    @property
    def finished(self) -> bool:
        return self.ending_deal is not None


def deal_leader(state: DealState) -> int:
    """The seat that led (or leads) trick 1 of the deal."""
    return first_leader(state)


def next_deal(leader_rule: str, played: Sequence[MatchDeal]) -> NextDeal:
    """How deal number ``len(played)`` starts, by the match's leader rule.

    rotation (固定首引人, docs/rules.md §2): deal n (0-based) is led by seat n mod 4,
    the lead free; pig_taker: the first deal by the opening card's holder, every
    later one by the seat that took the (first) pig of the previous deal.
    """
    if leader_rule == ROTATION:
        return NextDeal(first_deal=False, leader=len(played) % SEATS)
    if not played:
        return NextDeal(first_deal=True, leader=None)
    return NextDeal(first_deal=False, leader=played[-1].pig_taker)


def _record_problems(number: int, record: DealRecord, expected: NextDeal, leader_rule: str) -> list[Problem]:
    """Where the record's first_deal and leader contradict what the match derives."""
    at = f"/deals/{number}"
    problems = []
    if record.first_deal is not None and record.first_deal != expected.first_deal:
        text = FIRST_DEAL_OF_MATCH() if expected.first_deal else LATER_DEAL_OF_MATCH(n=number)
        problems.append(Problem("wrong_leader", f"{at}/first_deal", text))
    if expected.leader is not None and record.leader is not None and record.leader != expected.leader:
        if leader_rule == ROTATION:
            text = ROTATION_LEADS(n=number, leader=expected.leader, given=record.leader)
        else:
            text = PIG_TAKER_LEADS(n=number, leader=expected.leader, previous=number - 1, given=record.leader)
        problems.append(Problem("wrong_leader", f"{at}/leader", text))
    return problems


def _replay(rules: Rules, number: int, record: DealRecord, expected: NextDeal) -> DealState:
    """The deal replayed and checked; its problems point into ``/deals/<number>``."""
    leader = expected.leader if expected.leader is not None else record.leader
    try:
        return replay(rules, hands=record.hands, exposed=record.exposed, plays=record.plays,
                      first_deal=expected.first_deal, leader=leader)
    except InvalidDeal as error:
        raise InvalidDeal([Problem(p.code, f"/deals/{number}{p.path}", DEAL_AT(n=number, reason=p.detail))
                           for p in error.problems]) from None


def _added(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _standings(totals: Sequence[int]) -> tuple[Standing, ...]:
    order = sorted(range(SEATS), key=lambda seat: (-totals[seat], seat))
    return tuple(Standing(seat=seat, total=totals[seat], place=1 + sum(t > totals[seat] for t in totals))
                 for seat in order)


def score_match(rules: Rules, deals: Sequence[DealRecord], *, target: int = MATCH_TARGET,
                leader_rule: str = PIG_TAKER, multiplier: int = 1, fee: int = 0) -> Match:
    """Replay and settle a match's deals in order.

    Totals add each finished deal's normalized (or partnership) scores; the match
    ends after the deal that brings a total to ±``target`` or beyond. Ingots are
    settled per deal from the raw scores (``settle_ingots``). Raises ``InvalidDeal``
    (problems under ``/deals/<n>``: ``wrong_leader`` where a record contradicts the
    derived first_deal or leader, the replay's own codes) or ``RuleError`` with
    ``unfinished_deal`` (a deal before the last one is unfinished) or ``match_over``
    (a deal after the one that ended the match); it stops at the first deal at fault.
    """
    if leader_rule not in LEADER_RULES:
        raise RuleError(LEADER_RULE_ONE_OF(rules=", ".join(LEADER_RULES)), code="invalid_rules", path="/leader_rule")
    played: list[MatchDeal] = []
    totals, ledger = NOTHING, NOTHING
    ending: int | None = None
    for number, record in enumerate(deals):
        if ending is not None:
            raise RuleError(MATCH_OVER(ended=ending, totals=list(totals), target=target),
                            code="match_over", path=f"/deals/{number}")
        if played and not played[-1].finished:
            previous = played[-1].state
            raise RuleError(UNFINISHED_DEAL(n=number - 1, plays=plays_count(previous)),
                            code="unfinished_deal", path=f"/deals/{number - 1}/plays")
        expected = next_deal(leader_rule, played)
        problems = _record_problems(number, record, expected, leader_rule)
        if problems:
            raise InvalidDeal(problems)
        state = _replay(rules, number, record, expected)
        raw = scores = ingots = None
        if state.finished:
            raw = score_state(state).raw
            scores = base_scores(rules, raw)
            ingots = settle_ingots(raw, multiplier, fee)
            totals, ledger = _added(totals, scores), _added(ledger, ingots.net)
            if any(abs(total) >= target for total in totals):
                ending = number
        played.append(MatchDeal(state=state, first_deal=expected.first_deal, leader=deal_leader(state),
                                raw=raw, scores=scores, ingots=ingots, totals=totals, ledger=ledger))
    standings = _standings(totals)
    goes_on = ending is None and (not played or played[-1].finished)
    return Match(deals=tuple(played), totals=totals, ledger=ledger, ending_deal=ending, standings=standings,
                 winners=tuple(s.seat for s in standings if s.place == 1) if ending is not None else (),
                 next_deal=next_deal(leader_rule, played) if goes_on else None)
