"""Legal moves, checking and applying a play, replay (docs/rules.md, "Play"; docs/engine-api.md).

A deal state is derived from the deal's history (hands as dealt, exposures,
leader, plays), as OpenSpiel derives a state from its actions. ``replay``
validates untrusted history once and reports every problem; ``apply_move``
checks one play; ``apply_legal_move`` skips the check for plays taken from
``legal_moves``. All of them advance a ``DealState`` (``table.advance``, the one
play loop).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import CARD_NAMES, SEATS, SUIT_SIZE, SUITS, Card, Play, first_unheld, hand_bits
from .deal import deal_problems, first_leader
from .errors import IllegalMove, InvalidDeal, Problem
from .exposure import automatic_exposure, exposure_list_problems
from .messages import (
    DEAL_FINISHED,
    EXPOSED_FIRST_ROUND,
    EXPOSED_LISTS,
    FIRST_TRICK_BAN,
    LEAD_ONE_CARD,
    LEAD_ONE_OR_PAIR,
    LEADER_MISSING,
    LEADER_NOT_HOLDER,
    LEADER_SEAT,
    MUST_FOLLOW_PAIR,
    MUST_FOLLOW_SUIT,
    MUST_LEAD_OPENING,
    NOT_HELD,
    NOT_HELD_TWICE,
    NOT_YOUR_TURN,
    ONE_HOLDER,
    PLAY_AT,
    PLAY_REJECTED,
    PLAY_SIZE,
    TWO_HOLDERS,
    suit_name,
)
from .moves import is_option, option_list, verify_play
from .scoring import NO_DOUBLINGS, doublings
from .state import NO_EXPOSURE, DealState
from .table import PAIR_PLAYS, SINGLE_PLAYS, Chooser, Scripted, advance
from .variants import Rules


def legal_moves(state: DealState) -> list[Play]:
    """Every legal play for ``state.seat``: single cards ascending, then two-card plays; ``[]`` when finished."""
    if state.seat is None:
        return []
    return option_list(state.options())


def is_legal_move(state: DealState, move: Iterable[Card]) -> bool:
    return state.seat is not None and is_option(tuple(sorted(move)), state.options())


def _shape_error(state: DealState, move: Play) -> IllegalMove | None:
    size = len(move)
    if state.trick:
        need = len(state.trick[0])
        if size != need:
            return IllegalMove(PLAY_SIZE(need=need), code="invalid_move")
    elif size not in (1, state.rules.decks) or (size == 2 and move[0] != move[1]):
        return IllegalMove(LEAD_ONE_OR_PAIR() if state.rules.decks == 2 else LEAD_ONE_CARD(), code="invalid_move")
    return None


def _illegal(state: DealState, code: str) -> IllegalMove:
    """The error for the rule ``verify_play`` found broken."""
    if code == "must_lead_opening_card":
        assert state.opening_lead is not None
        text = MUST_LEAD_OPENING(card=CARD_NAMES[state.opening_lead])
    elif code == "first_trick_ban":
        text = FIRST_TRICK_BAN()
    elif code == "exposed_card_first_round":
        text = EXPOSED_FIRST_ROUND()
    else:
        suit = suit_name(SUITS[state.trick[0][0] // SUIT_SIZE])
        text = (MUST_FOLLOW_PAIR if code == "must_follow_pair" else MUST_FOLLOW_SUIT)(suit=suit)
    return IllegalMove(text, code=code)


def check_move(state: DealState, move: Iterable[Card], seat: int | None = None) -> None:
    """Raise ``IllegalMove`` (with the rule's code) unless ``move`` is legal now.

    For ``card_not_in_hand`` the error's ``index`` is the position in ``move``
    (as given) of the first card the seat does not hold.
    """
    if state.seat is None:
        raise IllegalMove(DEAL_FINISHED(), code="deal_finished")
    if seat is not None and seat != state.seat:
        raise IllegalMove(NOT_YOUR_TURN(seat=state.seat, asked=seat), code="not_your_turn")
    given = tuple(move)
    play = tuple(sorted(given))
    error = _shape_error(state, play)
    if error:
        raise error
    hand = state.hands_bits[state.seat]
    missing = first_unheld(hand, play)
    if missing is not None:
        index = first_unheld(hand, given)
        card = play[missing]
        text = NOT_HELD_TWICE if play.count(card) == 2 else NOT_HELD
        raise IllegalMove(text(seat=state.seat, card=CARD_NAMES[card]), code="card_not_in_hand", index=index)
    code = verify_play(hand, state.held_exposed[state.seat], state.trick[0] if state.trick else None,
                       state.suits_led, state.first_round, state.opening_lead, state.ban, play)
    if code is not None:
        raise _illegal(state, code)


def apply_legal_move(state: DealState, move: Play) -> DealState:
    """The state after a play known to be legal (taken from ``legal_moves``); ``state`` is unchanged."""
    after = state.clone()
    advance(after, Scripted(move), 1)
    return after


def apply_move(state: DealState, move: Iterable[Card], seat: int | None = None) -> DealState:
    """Check ``move`` (raising ``IllegalMove``) and return the state after it."""
    given = tuple(move)
    check_move(state, given, seat)
    return apply_legal_move(state, tuple(sorted(given)))


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
    leader = first_leader(rules, hands)
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
    if state.plays_count < len(plays):
        k = state.plays_count
        raise InvalidDeal([Problem("deal_finished", f"/plays/{k}", PLAY_AT(k=k, reason=DEAL_FINISHED()))])
    return state


def _raise_play_problem(state: DealState, plays: Sequence[Sequence[Card]]) -> None:
    k = state.plays_count
    move = tuple(plays[k])
    path = f"/plays/{k}"
    try:
        check_move(state, move)
        raise IllegalMove(PLAY_REJECTED(), code="invalid_move")
    except IllegalMove as error:
        if error.index is not None:
            path += f"/{error.index}"
        raise InvalidDeal([Problem(error.code, path, PLAY_AT(k=k, reason=error.detail))]) from None
