"""Determinized Monte Carlo search: the stronger seat.

Each round deals the unseen cards once (``DealState.resample``,
honouring what the seat infers from the plays: ``knowledge.absent_cards``),
then plays every legal move from that same deal to the end with fast
playouts in which every seat plays the baseline heuristic
(``gongzhu.rules.table.advance``) and adds the acting seat's exact normalized score
(raw − mean of the others; partnership: side − other side). Sharing the
deal across moves cancels most of its luck. The move with the best mean
wins; ties go to the first move in ``legal_moves`` order.

The number of playouts is fixed in advance (so a seed fixes the result); the
search stops sooner only when its deadline passes, dropping the unfinished
round. A playout plays out a copy of its own of the round's deal.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from gongzhu.rules import DealState, Play, SeatView, exact_score
from gongzhu.rules.cards import mask_cards
from gongzhu.rules.table import Chooser, LiveDeal, advance
from gongzhu.solve import endgame_values

from .heuristic import heuristic_play
from .policy import PolicyChooser

Policy = Callable[[int, int, Sequence[Play], Sequence[Play], int], Play]


class HeuristicChooser(Chooser):
    """The baseline heuristic as a playout policy on the deal a play loop plays (``deal``, read as the
    loop plays).

    ``policy`` (a test's) replaces ``heuristic_play``, called with the same arguments."""

    def __init__(self, deal: LiveDeal, policy: Policy | None = None) -> None:
        self.policy = policy
        self.deal = deal
        # the cards of the completed tricks (one plane: any copy), and how many plays they cover
        self.finished_cards = 0
        self.counted = 0

    def choose(self, singles: int, pairs: int, others: Sequence[Play]) -> Play:
        deal = self.deal
        history = deal.history
        finished = self.finished_cards
        if self.counted < len(history):
            for play in history[self.counted:]:
                for c in play:
                    finished |= 1 << c
            self.finished_cards = finished
            self.counted = len(history)
        trick = deal.trick
        played = finished
        for play in trick:
            played |= 1 << play[0]
        doubles = [*[(c, c) for c in mask_cards(pairs)], *others] if pairs else others
        if self.policy is not None:
            return self.policy(singles, singles, doubles, trick, played)
        return heuristic_play(singles, singles, doubles, trick, played)


def playout_value(root: DealState, move: Play, seat: int, weights: list[float] | None = None) -> float:
    """Play ``move`` then the playout policy to the end of the deal on a copy of ``root``; ``seat``'s value.

    The policy is the baseline heuristic, or with ``weights`` (one deck) the learned policy
    (``policy.PolicyChooser``) in every seat."""
    playout = root.clone()
    playout.apply_unchecked(move)
    deal = LiveDeal(playout)
    chooser: Chooser = HeuristicChooser(deal)
    if weights is not None and root.rules.decks == 1:
        chooser = PolicyChooser(deal, weights, chooser)
    advance(playout, chooser)
    return exact_score(root.rules, playout.raw_scores(), seat)


def monte_carlo(state: DealState, k: SeatView, moves: list[Play], *, playouts: int, deadline: float,
                rng: random.Random, absent: tuple[int, ...] | None = None,
                weights: list[float] | None = None) -> tuple[Play, int]:
    """(best move, playouts made) within ``playouts`` and the ``deadline`` (perf_counter).

    ``absent``: cards each seat is believed not to hold, for the sampler; ``weights``: the learned
    playout policy's (None: the baseline heuristic plays out).
    """
    totals = [0.0] * len(moves)
    rounds = max(1, playouts // len(moves))
    done = 0
    seat = k.seat
    for _ in range(rounds):
        root = state.resample(k, rng, absent)
        values = []
        for move in moves:
            # past the deadline the unfinished round is dropped, so every move has as many playouts
            if done and time.perf_counter() > deadline:
                break
            values.append(playout_value(root, move, seat, weights))
        if len(values) < len(moves):
            break
        totals = [a + b for a, b in zip(totals, values)]
        done += len(moves)
    best = max(range(len(moves)), key=lambda i: (totals[i], -i))
    return moves[best], done


def exact_endgame(state: DealState, k: SeatView, moves: list[Play], *, deals: int, max_nodes: int,
                  deadline: float, rng: random.Random,
                  absent: tuple[int, ...] | None = None) -> tuple[Play, int, bool] | None:
    """(best move, deals solved, whether the clock stopped it): each of up to ``deals`` deals of the
    hidden cards solved exactly for every move (``endgame_values``: the open deal, the other three
    seats against the seat), the best mean of the exact values winning (ties to the earlier move).

    ``max_nodes`` caps the positions searched over all the deals: past it the unfinished deal is
    dropped and the deals solved decide, or None when not even the first was solved (the caller
    falls back to playouts). ``deadline`` (``time.monotonic()``; ``math.inf`` for none) drops the
    unfinished deal the same way, from the second deal on. Each deal's search starts from the
    playout value of each move (``playout_value``), often the exact value itself.
    """
    totals = [0.0] * len(moves)
    done = used = 0
    clock_cut = False
    seat = k.seat
    for _ in range(deals):
        if used >= max_nodes:
            break
        if done and time.monotonic() > deadline:
            clock_cut = True
            break
        root = state.resample(k, rng, absent)
        guesses = [playout_value(root, move, seat) for move in moves]
        clock = None if not done or deadline == math.inf else deadline
        values, nodes = endgame_values(root, moves, max_nodes=max_nodes - used, deadline=clock, guesses=guesses)
        used += nodes
        if values is None:
            clock_cut = used <= max_nodes
            break
        totals = [a + b for a, b in zip(totals, values)]
        done += 1
    if not done:
        return None
    best = max(range(len(moves)), key=lambda i: (totals[i], -i))
    return moves[best], done, clock_cut
