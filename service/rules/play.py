"""The deal state, legal moves, checking and applying a play, replay (SPEC.md §2–§4, §7).

A deal state is derived from the deal's history (hands as dealt, exposures,
leader, plays), as OpenSpiel derives a state from its actions. ``replay``
validates untrusted history once and reports every problem; ``apply_move``
checks one play; ``apply_legal_move`` skips the check for plays taken from
``legal_moves``. All of them advance a ``table.Table`` (the one play loop).
"""
from __future__ import annotations

from typing import NamedTuple

from .cards import (CARD_NAMES, PLANE, SUIT_SIZE, SUITS, Card, bits_cards, count_of, hand_bits,
                    remove_card)
from .deal import deal_problems, first_leader
from .errors import IllegalMove, InvalidDeal, Problem
from .exposure import automatic_exposure, exposure_problems
from .moves import _singles
from .table import SINGLE_PLAYS, Table, advance, is_option
from .tricks import TrickResult, rank_trick
from .variants import Rules

SEATS = 4


class DealState(NamedTuple):
    """A position in a deal. Immutable; build it with ``replay``."""

    rules: Rules
    hands_bits: tuple[int, ...]
    held_exposed: tuple[int, ...]
    exposed: tuple[tuple[Card, ...], ...]
    captured_bits: tuple[int, ...]
    suits_led: int
    first_round: bool
    trick_number: int
    leader: int
    trick: tuple[tuple[Card, ...], ...]
    seat: int | None
    opening_lead: Card | None
    first_pig_taker: int | None
    last_trick: tuple[int, tuple[tuple[Card, ...], ...]] | None
    plays_count: int

    @property
    def finished(self) -> bool:
        return self.seat is None

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(bits_cards(b) for b in self.hands_bits)

    @property
    def captured(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(bits_cards(b) for b in self.captured_bits)

    @property
    def completed_trick(self) -> TrickResult | None:
        """The trick the last applied play completed, ranked; else None."""
        if self.last_trick is None or self.trick or self.plays_count == 0:
            return None
        leader, plays = self.last_trick
        return rank_trick(self.rules, leader, plays)

    def table(self) -> Table:
        """A mutable copy to advance."""
        return Table(rules=self.rules, hands=list(self.hands_bits), held_exposed=list(self.held_exposed),
                     exposed=self.exposed, captured=list(self.captured_bits), suits_led=self.suits_led,
                     first_round=self.first_round, trick_number=self.trick_number, leader=self.leader,
                     trick=list(self.trick), seat=self.seat, opening_lead=self.opening_lead,
                     first_pig_taker=self.first_pig_taker, last_trick=self.last_trick,
                     plays_count=self.plays_count)


def freeze(t: Table) -> DealState:
    """The immutable state of a table."""
    return DealState(t.rules, tuple(t.hands), tuple(t.held_exposed), t.exposed, tuple(t.captured),
                     t.suits_led, t.first_round, t.trick_number, t.leader, tuple(t.trick), t.seat,
                     t.opening_lead, t.first_pig_taker, t.last_trick, t.plays_count)


def _moves(state: DealState, *, exposure: bool = True, ban: bool = True) -> list[tuple[Card, ...]]:
    if state.seat is None:
        return []
    mask, doubles = state.table().options(exposure=exposure, ban=ban)
    return _singles(mask) + doubles


def legal_moves(state: DealState) -> list[tuple[Card, ...]]:
    """Every legal play for ``state.seat``: single cards ascending, then two-card plays."""
    return _moves(state)


def is_legal_move(state: DealState, move) -> bool:
    return tuple(sorted(move)) in _moves(state)


def _shape_error(state: DealState, move: tuple[Card, ...]) -> IllegalMove | None:
    size = len(move)
    if state.trick:
        need = len(state.trick[0])
        if size != need:
            return IllegalMove(f"this trick needs {need} card(s) per play", code="invalid_move")
    elif size not in (1, state.rules.decks) or (size == 2 and move[0] != move[1]):
        what = "one card or a pair of identical cards" if state.rules.decks == 2 else "one card"
        return IllegalMove(f"a lead is {what}", code="invalid_move")
    return None


def _not_held(hand: int, move: tuple[Card, ...]) -> int | None:
    """Index in ``move`` of the first card not held, else None."""
    for i, c in enumerate(move):
        if not count_of(hand, c):
            return i
        hand = remove_card(hand, c)
    return None


def _illegal_reason(state: DealState, move: tuple[Card, ...]) -> IllegalMove:
    if state.opening_lead is not None:
        name = CARD_NAMES[state.opening_lead]
        return IllegalMove(f"the first lead of the first deal must be {name}",
                           code="must_lead_opening_card")
    if state.trick_number == 0 and state.rules.first_trick_ban and move in _moves(state, ban=False):
        return IllegalMove("SQ and C10 may not be played in the first trick while another card is legal",
                           code="first_trick_ban")
    if move in _moves(state, exposure=False, ban=False):
        return IllegalMove("an exposed card may not be played in the first round of its suit "
                           "while the seat has another card of that suit", code="exposed_card_first_round")
    lead = state.trick[0]
    suit = SUITS[lead[0] // SUIT_SIZE]
    if len(lead) == 2:
        return IllegalMove(f"after a pair lead in {suit}: a pair of {suit} if held, else two {suit} cards, "
                           f"else every {suit} card held plus any card", code="must_follow_pair")
    return IllegalMove(f"must follow suit {suit}", code="must_follow_suit")


def check_move(state: DealState, move, seat: int | None = None) -> None:
    """Raise ``IllegalMove`` (with the rule's code) unless ``move`` is legal now."""
    if state.seat is None:
        raise IllegalMove("the deal is finished: all cards have been played", code="deal_finished")
    if seat is not None and seat != state.seat:
        raise IllegalMove(f"it is seat {state.seat}'s turn, not seat {seat}'s", code="not_your_turn")
    move = tuple(sorted(move))
    error = _shape_error(state, move)
    if error:
        raise error
    missing = _not_held(state.hands_bits[state.seat], move)
    if missing is not None:
        card = move[missing]
        raise IllegalMove(f"seat {state.seat} does not hold {CARD_NAMES[card]}"
                          + (" twice" if move.count(card) == 2 else ""), code="card_not_in_hand")
    if not is_option(move, *state.table().options()):
        raise _illegal_reason(state, move)


def apply_legal_move(state: DealState, move: tuple[Card, ...]) -> DealState:
    """Apply a play known to be legal (taken from ``legal_moves``)."""
    t = state.table()
    advance(t, lambda mask, doubles: move, 1)
    return freeze(t)


def apply_move(state: DealState, move, seat: int | None = None) -> DealState:
    """Check ``move`` (raising ``IllegalMove``) and return the state after it."""
    check_move(state, move, seat)
    return apply_legal_move(state, tuple(sorted(move)))


def _leader_problems(rules: Rules, hands, first_deal: bool, leader: int | None) -> tuple[int | None, list[Problem]]:
    if leader is not None and not 0 <= leader < SEATS:
        return None, [Problem("wrong_leader", "/leader", f"leader is a seat 0-3, got {leader}")]
    if not first_deal:
        if leader is None:
            return None, [Problem("missing_leader", "/leader",
                                  "a later deal needs leader: the seat that took the pig last deal")]
        return leader, []
    holder = first_leader(rules, hands)
    if leader is None or holder is None or leader == holder:
        return holder, []
    # hands are given as dealt, so the seat dealt the first opening card is known (R)
    which = "first " if rules.decks == 2 and rules.opening in hands[leader] else ""
    return holder, [Problem("wrong_leader", "/leader",
                            f"in the first deal the seat dealt the {which}{rules.opening_card} leads: "
                            f"seat {holder}, not seat {leader}")]


def initial_table(rules: Rules, hands, exposed, first_deal: bool, leader: int) -> Table:
    """The table before the first play, from validated inputs."""
    exposed = [tuple(e) for e in exposed]
    held_exposed = [0] * SEATS
    if any(exposed):
        auto = automatic_exposure(rules, hands, exposed)
        if auto is not None:
            exposed[auto[0]] += (auto[1],)
        held_exposed = [hand_bits(e) for e in exposed]
    opening = rules.opening if first_deal and rules.must_lead_opening_card else None
    return Table(rules=rules, hands=[hand_bits(h) for h in hands], held_exposed=held_exposed,
                 exposed=tuple(exposed), captured=[0] * SEATS, suits_led=0, first_round=False,
                 trick_number=0, leader=leader, trick=[], seat=leader, opening_lead=opening,
                 first_pig_taker=None, last_trick=None, plays_count=0)


class _Rejected(Exception):
    """A scripted play that is not among the legal options."""


def _scripted(plays):
    moves = iter(plays)

    def choose(mask: int, doubles) -> tuple[Card, ...]:
        move = next(moves)
        if len(move) == 1:
            card = move[0]
            if 0 <= card < PLANE and mask >> card & 1:
                return SINGLE_PLAYS[card]
        else:
            move = tuple(sorted(move))
            if move in doubles:
                return move
        raise _Rejected
    return choose


def replay(rules: Rules, *, hands, exposed=((), (), (), ()), plays=(), first_deal: bool = True,
           leader: int | None = None) -> DealState:
    """Validate a deal's history and return its state; ``InvalidDeal`` lists every problem."""
    hands = [tuple(h) for h in hands]
    exposed = [tuple(e) for e in exposed]
    problems = deal_problems(rules, hands)
    if len(exposed) != SEATS:
        problems.append(Problem("illegal_exposure", "/exposed", f"exposed has {SEATS} lists"))
    elif len(hands) == SEATS and any(exposed):
        problems += exposure_problems(rules, hands, exposed)
    if len(hands) == SEATS:
        leader, leader_problems = _leader_problems(rules, hands, first_deal, leader)
        problems += leader_problems
    if problems:
        raise InvalidDeal(problems)
    t = initial_table(rules, hands, exposed, first_deal, leader)
    try:
        advance(t, _scripted(plays), len(plays))
    except _Rejected:
        _raise_play_problem(freeze(t), plays)
    if t.plays_count < len(plays):
        k = t.plays_count
        raise InvalidDeal([Problem("deal_finished", f"/plays/{k}",
                                   f"play {k}: the deal is finished: all cards have been played")])
    return freeze(t)


def _raise_play_problem(state: DealState, plays) -> None:
    k = state.plays_count
    move = tuple(plays[k])
    path = f"/plays/{k}"
    try:
        check_move(state, move)
        raise IllegalMove("play rejected", code="invalid_move")
    except IllegalMove as error:
        if error.code == "card_not_in_hand":
            path += f"/{_not_held(state.hands_bits[state.seat], move) or 0}"
        raise InvalidDeal([Problem(error.code, path, f"play {k}: {error.detail}")]) from None
