"""What the acting seat may know (its information set), and what it infers from the plays.

The engine builds the information set (``DealState.view``) from the
deal state's history without reading any other seat's hand; ``knowledge``
also accepts the play history a caller sent, and checks it is the state's own.

``absent_cards`` reads the public plays for two inferences every sensible
player makes. A seat that could have got rid of the pig (SQ) on a trick it
was not winning, and played another card, holds no pig: it discarded on
another suit, or followed a spade lead already topped by SK or SA, where the
pig was legal (not in the first trick under ``first_trick_ban``) and, with
``partnership``, the trick was not its partner's so far. A seat that played
last on a diamond trick without points that the sheep (DJ) would have won,
and followed with another diamond, holds no sheep. A seat that exposed the
card is left out (an exposed copy may not have been playable). The sampler
treats these as beliefs, not facts: a deal that cannot honour them drops
them (``DealState.resample``).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from gongzhu.rules import PIG, SHEEP, Card, DealState, Play, SeatView, running
from gongzhu.rules.cards import DIAMONDS, SEATS, SPADES, SUIT_SIZE

from .heuristic import PIG_BIT, POINT_BITS, SHEEP_BIT


def knowledge(state: DealState, plays: Sequence[Iterable[Card]] | None = None) -> SeatView:
    """The information set of ``state.seat``; ``plays``, if given, must be the state's history."""
    if plays is not None and [tuple(sorted(p)) for p in plays] != running.plays(state):
        raise ValueError("plays is not the history of this deal state")
    return state.view()


def _passed_up(leader: int, plays: Sequence[Play], partnership: bool) -> tuple[int, int]:
    """The seats (bits) of one single-card trick that passed up a safe pig drop, and a safe sheep."""
    suit = plays[0][0] // SUIT_SIZE
    top, winner, points, pig_seats, sheep_seats = plays[0][0], leader, False, 0, 0
    for i, (card, *_) in enumerate(plays):
        seat = (leader + i) % SEATS
        follows = card // SUIT_SIZE == suit
        if i:
            if (not follows or (suit == SPADES and top > PIG)) and card != PIG \
                    and not (partnership and winner == (seat + 2) % SEATS):
                pig_seats |= 1 << seat
            if i == SEATS - 1 and follows and suit == DIAMONDS and top < SHEEP and not points and card != SHEEP:
                sheep_seats |= 1 << seat
            if follows and card > top:
                top, winner = card, seat
        points = points or bool(1 << card & POINT_BITS)
    return pig_seats, sheep_seats


def absent_cards(state: DealState) -> tuple[int, ...]:
    """Per seat, the one-plane mask of cards it is taken not to hold (the pig, the sheep)."""
    rules = state.rules
    tricks = [(t.leader, t.plays) for t in state.history]
    if state.trick:
        tricks.append((running.leader(state), tuple(state.trick)))
    pig_seats = sheep_seats = 0
    for number, (leader, plays) in enumerate(tricks):
        if len(plays[0]) != 1:
            continue
        pig, sheep = _passed_up(leader, plays, rules.partnership)
        if not (number == 0 and rules.first_trick_ban):
            pig_seats |= pig
        sheep_seats |= sheep
    # a seat that exposed a card may have been kept from playing it (its suit's first round)
    for seat in range(SEATS):
        if PIG in state.exposed[seat]:
            pig_seats &= ~(1 << seat)
        if SHEEP in state.exposed[seat]:
            sheep_seats &= ~(1 << seat)
    return tuple((PIG_BIT if pig_seats >> s & 1 else 0) | (SHEEP_BIT if sheep_seats >> s & 1 else 0)
                 for s in range(SEATS))
