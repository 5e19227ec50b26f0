"""What the acting seat may know (its information set), and what it infers from the plays.

The engine builds the information set (``service.rules.seat_view``) from the
deal state's history without reading any other seat's hand; ``knowledge``
also accepts the play history a caller sent, and checks it is the state's own.

``pig_absent`` reads the public plays for one inference every sensible
player makes: a seat that could have got rid of the pig (SQ) on a trick it
was not winning, and played another card, holds no pig. That is a seat that
discarded on another suit, or followed a spade lead already topped by SK or
SA, where the pig was legal (not in the first trick under ``first_trick_ban``)
and, with ``partnership``, the trick was not its partner's so far (a seat
that exposed a pig is left out: the exposed copy may not have been playable). The
sampler treats it as a belief, not a fact: a deal that cannot honour it
drops it (``service.rules.sample_hidden``).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from service.rules import PIG, SEATS, SPADES, SUIT_SIZE, Card, DealState, Play, SeatView, seat_view

Knowledge = SeatView
PIG_BIT = 1 << PIG


def knowledge(state: DealState, plays: Sequence[Iterable[Card]] | None = None) -> Knowledge:
    """The information set of ``state.seat``; ``plays``, if given, must be the state's history."""
    if plays is not None and [tuple(sorted(p)) for p in plays] != state.plays():
        raise ValueError("plays is not the history of this deal state")
    return seat_view(state)


def _kept_pig(leader: int, plays: Sequence[Play], partnership: bool) -> int:
    """The seats (bits) of one single-card trick that played another card where the pig was safe."""
    lead = plays[0][0]
    suit = lead // SUIT_SIZE
    top, winner, seats = lead, leader, 0
    for i, play in enumerate(plays[1:], 1):
        seat, card = (leader + i) % SEATS, play[0]
        safe = card // SUIT_SIZE != suit or (suit == SPADES and top > PIG)
        if safe and card != PIG and not (partnership and winner == (seat + 2) % SEATS):
            seats |= 1 << seat
        if card // SUIT_SIZE == suit and card > top:
            top, winner = card, seat
    return seats


def pig_absent(state: DealState) -> tuple[int, ...]:
    """Per seat, the one-plane mask of cards it is taken not to hold: the pig, or nothing."""
    rules = state.rules
    tricks = [(t.leader, t.plays) for t in state.history]
    if state.trick:
        tricks.append((state.leader, state.trick))
    seats = 0
    for number, (leader, plays) in enumerate(tricks):
        if len(plays[0]) != 1 or (number == 0 and rules.first_trick_ban):
            continue
        seats |= _kept_pig(leader, plays, rules.partnership)
    # a seat that exposed a pig may have been kept from playing it (its suit's first round)
    exposers = {s for s in range(SEATS) if PIG in state.exposed[s]}
    return tuple(PIG_BIT if seats >> s & 1 and s not in exposers else 0 for s in range(SEATS))
