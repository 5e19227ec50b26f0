"""What the acting seat may know (its information set).

The engine builds it (``service.rules.seat_view``) from the deal state's
history without reading any other seat's hand; ``knowledge`` also accepts
the play history a caller sent, and checks it is the state's own.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from service.rules import Card, DealState, SeatView, seat_view

Knowledge = SeatView


def knowledge(state: DealState, plays: Sequence[Iterable[Card]] | None = None) -> Knowledge:
    """The information set of ``state.seat``; ``plays``, if given, must be the state's history."""
    if plays is not None and [tuple(sorted(p)) for p in plays] != state.plays():
        raise ValueError("plays is not the history of this deal state")
    return seat_view(state)
