"""Legal moves, checking and applying a play, replay (docs/rules.md, "Play"; docs/engine-api.md).

A deal state is derived from the deal's history (hands as dealt, exposures,
leader, plays), as OpenSpiel derives a state from its actions. ``replay``
validates untrusted history once and reports every problem (through the
fast play loop, ``table.advance``). ``legal_moves``, ``is_legal_move``,
``check_move`` and ``apply_move`` are the ``DealState`` methods as functions
(``apply_move`` returns a new state, as pokerkit's actions do).
"""
from __future__ import annotations

from collections.abc import Sequence

from .cards import SEATS, Card, Play, hand_bits
from .deal import deal_problems, first_leader
from .errors import IllegalMove, InvalidDeal, Problem
from .exposure import automatic_exposure, exposure_list_problems
from .messages import (
    DEAL_FINISHED,
    EXPOSED_LISTS,
    LEADER_MISSING,
    LEADER_NOT_HOLDER,
    LEADER_SEAT,
    ONE_HOLDER,
    PLAY_AT,
    PLAY_REJECTED,
    TWO_HOLDERS,
)
from .running import plays_count
from .scoring import NO_DOUBLINGS, doublings
from .state import NO_EXPOSURE, DealState
from .table import PAIR_PLAYS, SINGLE_PLAYS, Chooser, advance
from .variants import Rules


def legal_moves(state: DealState) -> list[Play]:
    """Every legal play for ``state.seat``: single cards ascending, then two-card plays; ``[]`` when finished
    (``DealState.legal_moves``)."""
    return state.legal_moves()


def is_legal_move(state: DealState, move: object) -> bool:
    """Whether ``move`` is legal now (``DealState.is_legal``)."""
    return state.is_legal(move)


def check_move(state: DealState, move: object, seat: int | None = None) -> None:
    """Raise ``IllegalMove`` (with the rule's code) unless ``move`` is legal now (``DealState.check``)."""
    state.check(move, seat)


def apply_move(state: DealState, move: object, seat: int | None = None) -> DealState:
    """The state after ``move``, checked as ``DealState.apply`` checks it; ``state`` is unchanged."""
    after = state.clone()
    after.apply(move, seat)
    return after


def _leader_problems(rules: Rules, hands: Sequence[Sequence[Card]], bits: Sequence[int], first_deal: bool,
                     leader: int | None) -> tuple[int | None, list[Problem]]:
    if leader is not None and not 0 <= leader < SEATS:
        return None, [Problem("wrong_leader", "/leader", LEADER_SEAT(leader=leader))]
    if not first_deal:
        if leader is None:
            return None, [Problem("missing_leader", "/leader", LEADER_MISSING())]
        return leader, []
    if leader is None:
        return first_leader(rules, hands), []
    # an explicit leader stands when it holds the opening card (two decks: either copy),
    # so hands may be sent in any order; only without it does the dealing order decide
    opening = rules.opening
    holders = [seat for seat in range(SEATS) if bits[seat] >> opening & 1]
    if leader in holders or not holders:
        return leader, []
    named = ONE_HOLDER(seat=holders[0]) if len(holders) == 1 else TWO_HOLDERS(first=holders[0], second=holders[1])
    return leader, [Problem("wrong_leader", "/leader",
                            LEADER_NOT_HOLDER(card=rules.opening_card, leader=leader, holders=named))]


def initial_state(rules: Rules, hands: Sequence[Sequence[Card]], exposed: Sequence[Sequence[Card]] = NO_EXPOSURE, *,
                  first_deal: bool = True, leader: int | None = None, bits: Sequence[int] | None = None) -> DealState:
    """The state before the first play of a deal whose inputs are known to be valid.

    ``leader`` defaults to the seat dealt the opening card; ``bits``, if
    given, are ``hand_bits`` of each hand.
    """
    hands_bits = list(bits) if bits is not None else [hand_bits(h) for h in hands]
    if leader is None:
        leader = _holder(rules, hands, hands_bits)
    shown, held_exposed, k = NO_EXPOSURE, [0] * SEATS, NO_DOUBLINGS
    if any(exposed):
        lists = [tuple(e) for e in exposed]
        auto = automatic_exposure(rules, hands, lists)
        if auto is not None:
            lists[auto[0]] += (auto[1],)
        held_exposed = [hand_bits(e) for e in lists]
        shown = tuple(lists)
        k = doublings(rules, shown)
    opening = rules.opening if first_deal and rules.must_lead_opening_card else None
    return DealState(rules=rules, hands_bits=hands_bits, held_exposed=held_exposed, exposed=shown, doublings=k,
                     leader=leader, opening_lead=opening)


def _holder(rules: Rules, hands: Sequence[Sequence[Card]], bits: list[int]) -> int:
    """The seat dealt the (first copy of the) opening card (``first_leader``): with one deck, its only holder."""
    if rules.decks == 1:
        opening = rules.opening
        for seat in range(SEATS):
            if bits[seat] >> opening & 1:
                return seat
    leader = first_leader(rules, hands, bits)
    assert leader is not None, "nobody holds the opening card"
    return leader


class _Rejected(Exception):
    """A scripted play that is not among the legal options."""


class _History(Chooser):
    """Plays a deal's history in order; a play not among the legal options raises ``_Rejected``."""

    def __init__(self, plays: Sequence[Sequence[Card]]) -> None:
        self.plays = plays if type(plays) is tuple else tuple(plays)
        self.at = 0

    def choose(self, singles: int, pairs: int, others: Sequence[Play]) -> Play:
        sent = self.plays[self.at]
        self.at += 1
        move: Play = sent if type(sent) is tuple else tuple(sent)
        # the option masks hold no bit at PLANE or above, and a negative card fails the shift
        try:
            if len(move) == 1:
                card = move[0]
                if singles >> card & 1:
                    return SINGLE_PLAYS[card]
            elif len(move) == 2:
                a, b = move
                if a == b and pairs >> a & 1:
                    return PAIR_PLAYS[a]
                play = (a, b) if a < b else (b, a)
                if play in others:
                    return play
        except ValueError:
            pass
        raise _Rejected


def replay(rules: Rules, *, hands: Sequence[Sequence[Card]], exposed: Sequence[Sequence[Card]] = NO_EXPOSURE,
           plays: Sequence[Sequence[Card]] = (), first_deal: bool = True, leader: int | None = None) -> DealState:
    """Validate a deal's history and return its state; ``InvalidDeal`` lists every problem."""
    dealt = [tuple(h) for h in hands]
    lists = [tuple(e) for e in exposed]
    bits = [hand_bits(h) for h in dealt] if len(dealt) == SEATS else None
    problems = deal_problems(rules, dealt, bits)
    if len(lists) != SEATS:
        problems.append(Problem("illegal_exposure", "/exposed", EXPOSED_LISTS(seats=SEATS)))
    elif len(dealt) == SEATS and any(lists):
        problems += exposure_list_problems(rules, lists, dealt)
    if len(dealt) == SEATS:
        assert bits is not None
        leader, leader_problems = _leader_problems(rules, dealt, bits, first_deal, leader)
        problems += leader_problems
    if problems:
        raise InvalidDeal(problems)
    state = initial_state(rules, dealt, lists, first_deal=first_deal, leader=leader, bits=bits)
    try:
        advance(state, _History(plays), len(plays))
    except _Rejected:
        _raise_play_problem(state, plays)
    if plays_count(state) < len(plays):
        k = plays_count(state)
        raise InvalidDeal([Problem("deal_finished", f"/plays/{k}", PLAY_AT(k=k, reason=DEAL_FINISHED()))])
    return state


def _raise_play_problem(state: DealState, plays: Sequence[Sequence[Card]]) -> None:
    k = plays_count(state)
    move = tuple(plays[k])
    path = f"/plays/{k}"
    try:
        check_move(state, move)
        raise IllegalMove(PLAY_REJECTED(), code="invalid_move")
    except IllegalMove as error:
        if error.index is not None:
            path += f"/{error.index}"
        raise InvalidDeal([Problem(error.code, path, PLAY_AT(k=k, reason=error.detail))]) from None
