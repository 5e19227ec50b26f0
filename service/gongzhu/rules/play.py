"""Legal moves, checking and applying a play, replay (docs/rules.md, "Play"; docs/engine-api.md).

A deal state is derived from the deal's history (hands as dealt, exposures,
leader, plays), as OpenSpiel derives a state from its actions. ``replay``
validates untrusted history once and reports every problem; ``apply_move``
checks one play; ``apply_legal_move`` skips the check for plays taken from
``legal_moves``. All of them advance a ``Table`` (``table.advance``, the one
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
from .moves import Options, is_option, option_list
from .state import DealState, Table
from .table import PAIR_PLAYS, SINGLE_PLAYS, Chooser, advance, scripted
from .variants import Rules

NO_EXPOSURE: tuple[tuple[Card, ...], ...] = ((), (), (), ())


def _options(state: DealState, *, exposure: bool = True, ban: bool = True) -> Options:
    return state.options(exposure=exposure, ban=ban)


def legal_moves(state: DealState) -> list[Play]:
    """Every legal play for ``state.seat``: single cards ascending, then two-card plays; ``[]`` when finished."""
    if state.seat is None:
        return []
    return option_list(_options(state))


def is_legal_move(state: DealState, move: Iterable[Card]) -> bool:
    return state.seat is not None and is_option(tuple(sorted(move)), _options(state))


def _shape_error(state: DealState, move: Play) -> IllegalMove | None:
    size = len(move)
    if state.trick:
        need = len(state.trick[0])
        if size != need:
            return IllegalMove(PLAY_SIZE(need=need), code="invalid_move")
    elif size not in (1, state.rules.decks) or (size == 2 and move[0] != move[1]):
        return IllegalMove(LEAD_ONE_OR_PAIR() if state.rules.decks == 2 else LEAD_ONE_CARD(), code="invalid_move")
    return None


def _illegal_reason(state: DealState, move: Play) -> IllegalMove:
    if state.opening_lead is not None:
        return IllegalMove(MUST_LEAD_OPENING(card=CARD_NAMES[state.opening_lead]), code="must_lead_opening_card")
    if state.trick_number == 0 and state.rules.first_trick_ban and is_option(move, _options(state, ban=False)):
        return IllegalMove(FIRST_TRICK_BAN(), code="first_trick_ban")
    if is_option(move, _options(state, exposure=False, ban=False)):
        return IllegalMove(EXPOSED_FIRST_ROUND(), code="exposed_card_first_round")
    lead = state.trick[0]
    suit = suit_name(SUITS[lead[0] // SUIT_SIZE])
    if len(lead) == 2:
        return IllegalMove(MUST_FOLLOW_PAIR(suit=suit), code="must_follow_pair")
    return IllegalMove(MUST_FOLLOW_SUIT(suit=suit), code="must_follow_suit")


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
    if not is_option(play, _options(state)):
        raise _illegal_reason(state, play)


def apply_legal_move(state: DealState, move: Play) -> DealState:
    """Apply a play known to be legal (taken from ``legal_moves``)."""
    t = state.table()
    advance(t, scripted(move), 1)
    return DealState(t)


def apply_move(state: DealState, move: Iterable[Card], seat: int | None = None) -> DealState:
    """Check ``move`` (raising ``IllegalMove``) and return the state after it."""
    given = tuple(move)
    check_move(state, given, seat)
    return apply_legal_move(state, tuple(sorted(given)))


def _leader_problems(rules: Rules, hands: Sequence[Sequence[Card]], first_deal: bool,
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
    holders = [seat for seat in range(SEATS) if rules.opening in hands[seat]]
    if leader in holders or not holders:
        return leader, []
    named = ONE_HOLDER(seat=holders[0]) if len(holders) == 1 else TWO_HOLDERS(first=holders[0], second=holders[1])
    return leader, [Problem("wrong_leader", "/leader",
                            LEADER_NOT_HOLDER(card=rules.opening_card, leader=leader, holders=named))]


def initial_table(rules: Rules, hands: Sequence[Sequence[Card]], exposed: Sequence[Sequence[Card]] = NO_EXPOSURE,
                  *, first_deal: bool = True, leader: int | None = None, bits: Sequence[int] | None = None) -> Table:
    """The table before the first play of a deal whose inputs are known to be valid.

    ``leader`` defaults to the seat dealt the opening card; ``bits``, if
    given, are ``hand_bits`` of each hand.
    """
    if leader is None:
        leader = first_leader(rules, hands)
        assert leader is not None, "nobody holds the opening card"
    shown = NO_EXPOSURE
    held_exposed = [0] * SEATS
    if any(exposed):
        lists = [tuple(e) for e in exposed]
        auto = automatic_exposure(rules, hands, lists)
        if auto is not None:
            lists[auto[0]] += (auto[1],)
        held_exposed = [hand_bits(e) for e in lists]
        shown = tuple(lists)
    opening = rules.opening if first_deal and rules.must_lead_opening_card else None
    return Table(rules=rules, hands=list(bits) if bits is not None else [hand_bits(h) for h in hands],
                 held_exposed=held_exposed,
                 exposed=shown, captured=[0] * SEATS, suits_led=0, first_round=False,
                 leader=leader, trick=[], seat=leader, opening_lead=opening, history=[])


class _Rejected(Exception):
    """A scripted play that is not among the legal options."""


def _scripted(plays: Sequence[Sequence[Card]]) -> Chooser:
    next_move = iter(plays).__next__

    def choose(singles: int, pairs: int, others: Sequence[Play]) -> Play:
        move = next_move()
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
    return choose


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
        leader, leader_problems = _leader_problems(rules, dealt, first_deal, leader)
        problems += leader_problems
    if problems:
        raise InvalidDeal(problems)
    t = initial_table(rules, dealt, lists, first_deal=first_deal, leader=leader, bits=bits)
    try:
        advance(t, _scripted(plays), len(plays))
    except _Rejected:
        _raise_play_problem(DealState(t), plays)
    if t.plays_count < len(plays):
        k = t.plays_count
        raise InvalidDeal([Problem("deal_finished", f"/plays/{k}", PLAY_AT(k=k, reason=DEAL_FINISHED()))])
    return DealState(t)


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
