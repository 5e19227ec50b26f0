"""Determinized Monte Carlo search: the stronger seat.

Each round deals the unseen cards once (``gongzhu.rules.sample_hidden``,
honouring what the seat infers from the plays: ``knowledge.absent_cards``),
then plays every legal move from that same deal to the end with fast
playouts in which every seat plays the baseline heuristic
(``gongzhu.rules.advance``) and adds the acting seat's exact normalized score
(raw − mean of the others; partnership: side − other side). Sharing the
deal across moves cancels most of its luck. The move with the best mean
wins; ties go to the first move in ``legal_moves`` order.

The number of playouts is fixed in advance (so a seed fixes the result); the
search stops sooner only when its deadline passes, dropping the unfinished
round.
"""
from __future__ import annotations

import random
import time
from collections.abc import Sequence

from gongzhu.rules import (
    Chooser,
    DealState,
    Play,
    SeatView,
    Table,
    advance,
    exact_score,
    mask_cards,
    sample_hidden,
    scripted,
)

from .heuristic import heuristic_play


def heuristic_chooser(t: Table) -> Chooser:
    """The baseline heuristic as a playout policy on table ``t`` (its trick and history are live)."""
    trick, history = t.trick, t.history
    # the cards of the completed tricks, and how many tricks they cover
    finished_cards, counted = 0, 0

    def choose(singles: int, pairs: int, others: Sequence[Play]) -> Play:
        nonlocal finished_cards, counted
        if counted < len(history):
            for finished in history[counted:]:
                finished_cards |= finished.cards
            counted = len(history)
        played = finished_cards
        for play in trick:
            played |= 1 << play[0]
        doubles = [*[(c, c) for c in mask_cards(pairs)], *others] if pairs else others
        return heuristic_play(singles, singles, doubles, trick, played)
    return choose


def playout_value(state: DealState, hands: list[int], move: Play) -> float:
    """Play ``move`` then the heuristic policy to the end of the deal; the seat's value."""
    t = state.table()
    t.hands = list(hands)
    advance(t, scripted(move), 1)
    advance(t, heuristic_chooser(t))
    assert state.seat is not None
    return exact_score(state.rules, t.raw_scores(), state.seat)


def monte_carlo(state: DealState, k: SeatView, moves: list[Play], *, playouts: int, deadline: float,
                rng: random.Random, absent: tuple[int, ...] | None = None) -> tuple[Play, int]:
    """(best move, playouts made) within ``playouts`` and the ``deadline`` (perf_counter).

    ``absent``: cards each seat is believed not to hold, for the sampler.
    """
    totals = [0.0] * len(moves)
    rounds = max(1, playouts // len(moves))
    done = 0
    for _ in range(rounds):
        hands = sample_hidden(k, rng, absent)
        values = []
        for move in moves:
            # past the deadline the unfinished round is dropped, so every move has as many playouts
            if done and time.perf_counter() > deadline:
                break
            values.append(playout_value(state, hands, move))
        if len(values) < len(moves):
            break
        totals = [a + b for a, b in zip(totals, values)]
        done += len(moves)
    best = max(range(len(moves)), key=lambda i: (totals[i], -i))
    return moves[best], done
