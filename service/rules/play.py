"""The deal state, legal moves, checking and applying a play, replay (SPEC.md §2–§4, §7).

A deal state is derived from the deal's history (hands as dealt, exposures,
leader, plays), as OpenSpiel derives a state from its actions. ``replay``
validates untrusted history once and reports every problem; ``apply_move``
checks one play; ``apply_legal_move`` skips the check for plays taken from
``legal_moves`` (the inner loop of simulations).
"""
from __future__ import annotations

from typing import NamedTuple

from .cards import (CARD_NAMES, ONE_PLANE, PIG, PLANE, SUIT_SIZE, SUITS, TRANSFORMER, Card,
                    add_card, bits_cards, count_of, hand_bits, remove_card)
from .errors import IllegalMove, InvalidDeal, Problem
from .exposure import automatic_exposure, exposure_problems
from .deal import first_leader
from .moves import (follow_pair_moves, follow_single_mask, lead_mask, lead_pairs, unexposed,
                    _singles)
from .tricks import TrickResult, rank_trick, single_lead_winner, trick_ranking
from .variants import Rules

SEATS = 4
BANNED_FIRST_TRICK = (PIG, TRANSFORMER)


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
        if self.last_trick is None or self.trick:
            return None
        leader, plays = self.last_trick
        return rank_trick(self.rules, leader, plays)


def _ban_filter(moves: list[tuple[Card, ...]]) -> list[tuple[Card, ...]]:
    """first_trick_ban: no SQ or C10 in trick 1 unless nothing else is legal (P)."""
    kept = [m for m in moves if PIG not in m and TRANSFORMER not in m]
    return kept or moves


def _moves(state: DealState, *, exposure: bool = True, ban: bool = True) -> list[tuple[Card, ...]]:
    seat = state.seat
    if seat is None:
        return []
    hand = state.hands_bits[seat]
    held = state.held_exposed[seat] if exposure else 0
    if not state.trick:
        if state.opening_lead is not None:
            o = state.opening_lead
            return [(o,), (o, o)] if count_of(hand, o) == 2 else [(o,)]
        moves = _singles(lead_mask(hand, held, state.suits_led))
        if state.rules.decks == 2:
            moves += lead_pairs(hand, held, state.suits_led)
    else:
        lead = state.trick[0]
        suit = lead[0] // SUIT_SIZE
        if len(lead) == 1:
            moves = _singles(follow_single_mask(hand, held, suit, state.first_round))
        else:
            moves = follow_pair_moves(hand, held, suit, state.first_round)
    if ban and state.trick_number == 0 and state.rules.first_trick_ban:
        moves = _ban_filter(moves)
    return moves


def legal_moves(state: DealState) -> list[tuple[Card, ...]]:
    """Every legal play for ``state.seat``: singles by card, then two-card plays."""
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


def _not_held(hand: int, move: tuple[Card, ...]) -> Card | None:
    for c in move:
        if not count_of(hand, c):
            return c
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
    if move in _moves(state, exposure=False):
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
        raise IllegalMove(f"seat {state.seat} does not hold {CARD_NAMES[missing]}"
                          + (" twice" if move.count(missing) == 2 else ""), code="card_not_in_hand")
    if move not in _moves(state):
        raise _illegal_reason(state, move)


def _release(hand: int, held: int, card: Card, governed: bool) -> int:
    """Exposed copies left after playing ``card``: a governed play uses an unexposed copy."""
    if not held >> card & 1:
        return held
    if governed and count_of(hand, card) > count_of(held, card):
        return held
    return remove_card(held, card)


def apply_legal_move(state: DealState, move: tuple[Card, ...]) -> DealState:
    """Apply a play known to be legal (taken from ``legal_moves``)."""
    seat = state.seat
    hand = state.hands_bits[seat]
    held = state.held_exposed[seat]
    trick = state.trick
    suits_led, first_round = state.suits_led, state.first_round
    if not trick:
        lead_suit = move[0] // SUIT_SIZE
        first_round = not suits_led >> lead_suit & 1
        suits_led |= 1 << lead_suit
    else:
        lead_suit = trick[0][0] // SUIT_SIZE
    for c in move:
        if held:
            held = _release(hand, held, c, first_round and c // SUIT_SIZE == lead_suit)
        hand = remove_card(hand, c)
    hands = state.hands_bits[:seat] + (hand,) + state.hands_bits[seat + 1:]
    helds = state.held_exposed
    if held != helds[seat]:
        helds = helds[:seat] + (held,) + helds[seat + 1:]
    trick = trick + (move,)
    if len(trick) < SEATS:
        return state._replace(hands_bits=hands, held_exposed=helds, suits_led=suits_led,
                              first_round=first_round, trick=trick, seat=(seat + 1) % SEATS,
                              opening_lead=None, plays_count=state.plays_count + 1)
    return _finish_trick(state, hands, helds, suits_led, first_round, trick)


def _finish_trick(state, hands, helds, suits_led, first_round, trick) -> DealState:
    leader = state.leader
    if len(trick[0]) == 1:
        winner = single_lead_winner([p[0] for p in trick], leader)
    else:
        winner = trick_ranking(trick, leader)[0]
    taken = state.captured_bits[winner]
    for play in trick:
        for c in play:
            taken = add_card(taken, c)
    captured = state.captured_bits[:winner] + (taken,) + state.captured_bits[winner + 1:]
    pig_taker = state.first_pig_taker
    if pig_taker is None and any(PIG in p for p in trick):
        pig_taker = winner
    finished = not hands[winner]
    return state._replace(hands_bits=hands, held_exposed=helds, captured_bits=captured,
                          suits_led=suits_led, first_round=first_round,
                          trick_number=state.trick_number + 1, leader=winner, trick=(),
                          seat=None if finished else winner, opening_lead=None,
                          first_pig_taker=pig_taker, last_trick=(leader, trick),
                          plays_count=state.plays_count + 1)


def apply_move(state: DealState, move, seat: int | None = None) -> DealState:
    """Check ``move`` (raising ``IllegalMove``) and return the state after it."""
    check_move(state, move, seat)
    return apply_legal_move(state, tuple(sorted(move)))


def _hand_problems(rules: Rules, hands) -> list[Problem]:
    problems = []
    if len(hands) != SEATS:
        return [Problem("wrong_card_count", "/hands", f"a deal has {SEATS} hands, got {len(hands)}")]
    seen: dict[Card, int] = {}
    for seat, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            problems.append(Problem("wrong_card_count", f"/hands/{seat}",
                                    f"seat {seat} was dealt {len(hand)} cards; "
                                    f"{rules.hand_size} with {rules.decks} deck(s)"))
        for i, card in enumerate(hand):
            seen[card] = seen.get(card, 0) + 1
            if seen[card] > rules.decks:
                problems.append(Problem("duplicate_card", f"/hands/{seat}/{i}",
                                        f"{CARD_NAMES[card]} is dealt more than {rules.decks} time(s)"))
    return problems


def _leader_problems(rules: Rules, hands, first_deal: bool, leader: int | None) -> tuple[int | None, list[Problem]]:
    if leader is not None and not 0 <= leader < SEATS:
        return None, [Problem("wrong_leader", "/leader", f"leader is a seat 0-3, got {leader}")]
    if not first_deal:
        if leader is None:
            return None, [Problem("missing_leader", "/leader",
                                  "a later deal needs leader: the seat that took the pig last deal")]
        return leader, []
    holder = first_leader(rules, hands)
    if leader is None or holder is None:
        return holder, []
    if rules.opening not in hands[leader]:
        return holder, [Problem("wrong_leader", "/leader",
                                f"in the first deal {rules.opening_card}'s holder leads; "
                                f"seat {leader} does not hold it")]
    return leader, []


def initial_state(rules: Rules, hands, exposed, first_deal: bool, leader: int) -> DealState:
    """The state before the first play, from validated inputs."""
    exposed = [tuple(e) for e in exposed]
    auto = automatic_exposure(rules, hands, exposed)
    if auto is not None:
        exposed[auto[0]] += (auto[1],)
    opening = rules.opening if first_deal and rules.must_lead_opening_card else None
    return DealState(rules=rules, hands_bits=tuple(hand_bits(h) for h in hands),
                     held_exposed=tuple(hand_bits(e) for e in exposed), exposed=tuple(exposed),
                     captured_bits=(0, 0, 0, 0), suits_led=0, first_round=False, trick_number=0,
                     leader=leader, trick=(), seat=leader, opening_lead=opening,
                     first_pig_taker=None, last_trick=None, plays_count=0)


def replay(rules: Rules, *, hands, exposed=((), (), (), ()), plays=(), first_deal: bool = True,
           leader: int | None = None) -> DealState:
    """Validate a deal's history and return its state; ``InvalidDeal`` lists every problem."""
    hands = [tuple(h) for h in hands]
    exposed = [tuple(e) for e in exposed]
    problems = _hand_problems(rules, hands)
    if len(exposed) != SEATS:
        problems.append(Problem("illegal_exposure", "/exposed", f"exposed has {SEATS} lists"))
    elif len(hands) == SEATS:
        problems += exposure_problems(rules, hands, exposed)
    if len(hands) == SEATS:
        leader, leader_problems = _leader_problems(rules, hands, first_deal, leader)
        problems += leader_problems
    if problems:
        raise InvalidDeal(problems)
    state = initial_state(rules, hands, exposed, first_deal, leader)
    for k, move in enumerate(plays):
        try:
            state = apply_move(state, move)
        except IllegalMove as error:
            path = f"/plays/{k}"
            if error.code == "card_not_in_hand":
                path += f"/{_missing_index(state, move)}"
            raise InvalidDeal([Problem(error.code, path, f"play {k}: {error.detail}")]) from None
    return state


def _missing_index(state: DealState, move) -> int:
    hand = state.hands_bits[state.seat]
    for i, c in enumerate(move):
        if not count_of(hand, c):
            return i
        hand = remove_card(hand, c)
    return 0
