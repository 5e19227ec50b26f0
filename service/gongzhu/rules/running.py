"""The running state of a deal, as a table shows it (docs/rules.md §9).

Queries over a ``DealState``, written once and used by ``/legal-moves``,
``/play``'s ``next`` and ``/view``: the cards each seat has taken, the raw
score each seat would have if the deal ended now (exactly ``score_cards`` of
the cards taken, under the deal's exposures), the seat winning the trick on
the table, the cards each seat still holds, the effective exposures (the
automatic fourth card included), each seat's shown voids and every play with
its seat.
"""
from __future__ import annotations

from typing import NamedTuple

from .cards import SEATS, SUITS, Card, Play
from .scoring import ScoreSheet, score_bits
from .state import DealState
from .tricks import trick_winner


def score_state(state: DealState) -> ScoreSheet:
    """Score a deal state's captured cards with its effective exposure."""
    return score_bits(state.rules, state.captured_bits, state.exposed, state.doublings)


class Running(NamedTuple):
    """What the table shows at a deal state."""

    taken: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]
    winning: int | None
    hand_sizes: tuple[int, ...]
    exposed: tuple[tuple[Card, ...], ...]


def winning_seat(state: DealState) -> int | None:
    """The seat winning the trick on the table so far; None when no card is on it."""
    return trick_winner(state.trick, state.leader) if state.trick else None


def hand_sizes(state: DealState) -> tuple[int, ...]:
    """How many cards each seat still holds."""
    return tuple(bits.bit_count() for bits in state.hands_bits)


def running_state(state: DealState) -> Running:
    """The running state of ``state``; ``points`` are ``score_cards(rules, taken, exposed).raw``."""
    return Running(taken=state.captured, points=state.raw_scores(), winning=winning_seat(state),
                   hand_sizes=hand_sizes(state), exposed=state.exposed)


def void_suits(state: DealState) -> tuple[tuple[str, ...], ...]:
    """Per seat, the suit letters its plays have shown it holds no more of."""
    return tuple(tuple(letter for i, letter in enumerate(SUITS) if mask >> i & 1) for mask in state.voids)


def seated_plays(state: DealState) -> list[tuple[int, Play]]:
    """Every play of the deal so far, in order, with the seat that made it."""
    out = []
    for number in range(state.trick_number):
        leader = state.trick_leader(number)
        out += [((leader + i) % SEATS, play) for i, play in enumerate(state.trick_plays(number))]
    out += [((state.leader + i) % SEATS, play) for i, play in enumerate(state.trick)]
    return out
