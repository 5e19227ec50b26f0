"""Determinized Monte Carlo search (issue 6): the stronger seat.

Each round deals the unseen cards once (``determinize``), then plays every
legal move from that same deal to the end with fast playouts in which every
seat plays the baseline heuristic (``table.advance``) and adds the acting seat's exact normalized score
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

from service.rules.play import DealState
from service.rules.simulate import table_raw_scores
from service.rules.table import Table, advance

from .determinize import deal_unseen
from .heuristic import heuristic_play
from .knowledge import SEATS, Knowledge


def seat_value(rules, raw, seat: int) -> float:
    """The seat's exact normalized (or partnership) score from raw scores."""
    if rules.partnership:
        partner = (seat + 2) % SEATS
        ours = raw[seat] + raw[partner]
        return (2 * ours - sum(raw)) / 2
    return (SEATS * raw[seat] - sum(raw)) / (SEATS - 1)


def _table(state: DealState, hands: list[int]) -> Table:
    return Table(rules=state.rules, hands=hands, held_exposed=list(state.held_exposed),
                 exposed=state.exposed, captured=list(state.captured_bits), suits_led=state.suits_led,
                 first_round=state.first_round, trick_number=state.trick_number, leader=state.leader,
                 trick=list(state.trick), seat=state.seat, opening_lead=state.opening_lead,
                 first_pig_taker=state.first_pig_taker, last_trick=state.last_trick,
                 plays_count=state.plays_count)


def heuristic_chooser(t: Table):
    """The baseline heuristic as a playout policy on table ``t`` (its trick and piles are live)."""
    trick, captured = t.trick, t.captured

    def choose(mask: int, doubles) -> tuple:
        played = captured[0] | captured[1] | captured[2] | captured[3]
        for play in trick:
            played |= 1 << play[0]
        return heuristic_play(mask, mask, doubles, trick, played)
    return choose


def playout_value(state: DealState, hands: list[int], move, rng: random.Random) -> float:
    """Play ``move`` then the heuristic policy to the end of the deal; the seat's value."""
    t = _table(state, list(hands))
    advance(t, lambda mask, doubles: move, 1)
    advance(t, heuristic_chooser(t))
    return seat_value(state.rules, table_raw_scores(t), state.seat)


def monte_carlo(state: DealState, k: Knowledge, moves: list, *, playouts: int, deadline: float,
                rng: random.Random) -> tuple[tuple, int]:
    """(best move, playouts made) within ``playouts`` and the ``deadline`` (perf_counter)."""
    totals = [0.0] * len(moves)
    rounds = max(1, playouts // len(moves))
    done = 0
    for _ in range(rounds):
        hands = deal_unseen(k, rng)
        values = []
        for move in moves:
            # past the deadline the unfinished round is dropped, so every move has as many playouts
            if done and time.perf_counter() > deadline:
                break
            values.append(playout_value(state, hands, move, rng))
        if len(values) < len(moves):
            break
        totals = [a + b for a, b in zip(totals, values)]
        done += len(moves)
    best = max(range(len(moves)), key=lambda i: (totals[i], -i))
    return moves[best], done
