"""The determinized evaluator behind the stronger seat (``determinized``), with two leaf evaluations.

Each round deals the unseen cards once (``DealState.resample``, honouring what
the seat infers from the plays: ``knowledge.absent_cards``) and values every
legal move on that same deal: by a fast playout to the end in which every seat
plays the playout policy (``Playouts``: the baseline heuristic or the learned
policy, through ``gongzhu.rules.table.advance``), or by solving the open deal
exactly (``Exact``, with few tricks left). A move's value is the acting seat's
exact normalized score (raw − mean of the others; partnership: side − other
side). Sharing the deal across moves cancels most of its luck. The move with
the best mean wins; ties go to the first move in ``legal_moves`` order.

The number of deals is fixed in advance (so a seed fixes the result); the
search stops sooner only when its deadline or node budget passes, dropping the
unfinished round. A playout plays out a copy of its own of the round's deal.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from gongzhu.rules import DealState, Play, Rules, SeatView, exact_score, running
from gongzhu.rules.cards import mask_cards
from gongzhu.rules.table import Chooser, LiveDeal, advance, play_option
from gongzhu.solve import endgame_values

from .heuristic import heuristic_play
from .policy import PolicyChooser

Policy = Callable[[int, int, Sequence[Play], Sequence[Play], int], Play]
# A seat's value of a deal's raw scores: ``exact_score`` for the bot's choices, the review's scale for its values
Scale = Callable[[Rules, Sequence[int], int], float]


class HeuristicChooser(Chooser):
    """The baseline heuristic as a playout policy on the deal a play loop plays (``deal``, read as the
    loop plays).

    ``policy`` (a test's) replaces ``heuristic_play``, called with the same arguments."""

    def __init__(self, deal: LiveDeal, policy: Policy | None = None) -> None:
        self.policy = policy
        self.deal = deal

    def choose(self, singles: int, pairs: int, others: Sequence[Play]) -> Play:
        deal = self.deal
        trick = deal.trick
        played = deal.played()
        doubles = [*[(c, c) for c in mask_cards(pairs)], *others] if pairs else others
        if self.policy is not None:
            return self.policy(singles, singles, doubles, trick, played)
        return heuristic_play(singles, singles, doubles, trick, played)


def playout_value(root: DealState, move: Play, seat: int, weights: list[float] | None = None,
                  scale: Scale = exact_score) -> float:
    """Play ``move`` then the playout policy to the end of the deal on a copy of ``root``; ``seat``'s value
    (``scale``: its exact normalized score unless told).

    The policy is the baseline heuristic, or with ``weights`` (one deck) the learned policy
    (``policy.PolicyChooser``) in every seat."""
    playout = root.clone()
    play_option(playout, move)
    deal = LiveDeal(playout)
    chooser: Chooser = HeuristicChooser(deal)
    if weights is not None and root.rules.decks == 1:
        chooser = PolicyChooser(deal, weights, chooser)
    advance(playout, chooser)
    return scale(root.rules, running.raw_scores(playout), seat)


class Leaf:
    """How the determinized evaluator values every move on one deal of the hidden cards: a playout each
    (``Playouts``) or the open deal solved exactly (``Exact``). ``more`` says whether to deal again after
    ``done`` deals; ``values`` gives one value a move, or None to stop and drop this deal."""

    def more(self, done: int) -> bool:
        return True

    def values(self, root: DealState, moves: list[Play], done: int) -> list[float] | None:
        raise NotImplementedError


def deal_totals(state: DealState, k: SeatView, moves: list[Play], leaf: Leaf, *, deals: int,
                rng: random.Random, absent: tuple[int, ...] | None) -> tuple[list[float], int]:
    """(each move's total value, deals valued): up to ``deals`` deals of the hidden cards
    (``DealState.resample``), each move valued on each by ``leaf``. Sharing a deal across the moves
    cancels most of its luck."""
    totals = [0.0] * len(moves)
    done = 0
    for _ in range(deals):
        if not leaf.more(done):
            break
        values = leaf.values(state.resample(k, rng, absent), moves, done)
        if values is None:
            break
        totals = [a + b for a, b in zip(totals, values)]
        done += 1
    return totals, done


def determinized(state: DealState, k: SeatView, moves: list[Play], leaf: Leaf, *, deals: int,
                 rng: random.Random, absent: tuple[int, ...] | None) -> tuple[Play, int] | None:
    """(best move, deals valued): ``deal_totals``' best total wins, ties to the earlier move. None when no
    deal was valued."""
    totals, done = deal_totals(state, k, moves, leaf, deals=deals, rng=rng, absent=absent)
    if not done:
        return None
    best = max(range(len(moves)), key=lambda i: (totals[i], -i))
    return moves[best], done


class Playouts(Leaf):
    """A playout of each move (``playout_value``); past the ``deadline`` (perf_counter) the unfinished
    deal is dropped, from the second deal on, so every move has as many playouts."""

    def __init__(self, seat: int, deadline: float, weights: list[float] | None, scale: Scale = exact_score) -> None:
        self.seat = seat
        self.deadline = deadline
        self.weights = weights
        self.scale = scale

    def values(self, root: DealState, moves: list[Play], done: int) -> list[float] | None:
        values = []
        for move in moves:
            if done and time.perf_counter() > self.deadline:
                return None
            values.append(playout_value(root, move, self.seat, self.weights, self.scale))
        return values


class Exact(Leaf):
    """Each move's exact value on the open deal (``endgame_values``), its search started from the move's
    playout value; ``max_nodes`` positions over all the deals and the ``deadline`` (``time.monotonic()``,
    from the second deal on) cut it, ``clock_cut`` saying whether the clock did."""

    def __init__(self, seat: int, max_nodes: int, deadline: float) -> None:
        self.seat = seat
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.used = 0
        self.clock_cut = False

    def more(self, done: int) -> bool:
        if self.used >= self.max_nodes:
            return False
        if done and time.monotonic() > self.deadline:
            self.clock_cut = True
            return False
        return True

    def values(self, root: DealState, moves: list[Play], done: int) -> list[float] | None:
        guesses = [playout_value(root, move, self.seat) for move in moves]
        clock = None if not done or self.deadline == math.inf else self.deadline
        values, nodes = endgame_values(root, moves, max_nodes=self.max_nodes - self.used, deadline=clock,
                                       guesses=guesses)
        self.used += nodes
        if values is None:
            self.clock_cut = self.used <= self.max_nodes
        return values


def monte_carlo(state: DealState, k: SeatView, moves: list[Play], *, playouts: int, deadline: float,
                rng: random.Random, absent: tuple[int, ...] | None = None,
                weights: list[float] | None = None) -> tuple[Play, int]:
    """(best move, playouts made) within ``playouts`` and the ``deadline`` (perf_counter): the
    determinized evaluator with playouts at the leaves.

    ``absent``: cards each seat is believed not to hold, for the sampler; ``weights``: the learned
    playout policy's (None: the baseline heuristic plays out).
    """
    found = determinized(state, k, moves, Playouts(k.seat, deadline, weights),
                         deals=max(1, playouts // len(moves)), rng=rng, absent=absent)
    assert found is not None, "the first deal is never dropped"
    return found[0], found[1] * len(moves)


def exact_endgame(state: DealState, k: SeatView, moves: list[Play], *, deals: int, max_nodes: int,
                  deadline: float, rng: random.Random,
                  absent: tuple[int, ...] | None = None) -> tuple[Play, int, bool] | None:
    """(best move, deals solved, whether the clock stopped it): the determinized evaluator with each deal
    solved exactly at the leaves (``Exact``: the open deal, the other seats against the seat), the best
    mean of the exact values winning (ties to the earlier move).

    ``max_nodes`` caps the positions searched over all the deals: past it the unfinished deal is
    dropped and the deals solved decide, or None when not even the first was solved (the caller
    falls back to playouts). ``deadline`` (``time.monotonic()``; ``math.inf`` for none) drops the
    unfinished deal the same way, from the second deal on.
    """
    leaf = Exact(k.seat, max_nodes, deadline)
    found = determinized(state, k, moves, leaf, deals=deals, rng=rng, absent=absent)
    return None if found is None else (found[0], found[1], leaf.clock_cut)
