"""``suggest``: the play the service recommends for the seat to act (POST /suggest).

Only the acting seat's information set is read (``knowledge``): never the
other hands the deal state carries. Determinized Monte Carlo (``search``),
one deck or two.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from gongzhu.rules import Card, DealState, Play, Rules, legal_moves
from gongzhu.solve import tricks_left

from .equivalence import distinct_plays
from .heuristic import heuristic_play
from .knowledge import absent_cards, knowledge
from .policy import load_weights
from .search import exact_endgame, monte_carlo

DEFAULT_BUDGET_MS = 100
# playouts per millisecond of budget, by the number of decks, calibrated so a decision ends well
# inside its budget (a two-deck playout plays 24-26 tricks of up to eight cards, more work than a
# one-deck one; bench/perf/playouts.py measures both)
PLAYOUTS_PER_MS = {1: 6, 2: 5}
# share of the budget after which the search stops even if playouts remain (no seed;
# with a seed the clock never stops it, so the same state gives the same play under any load)
DEADLINE_SHARE = 0.8
MS = 1e-3
# Exact endgames (docs/bot.md): with at most this many tricks left (the trick on the table included; with
# two decks an upper bound), each deal of the hidden cards is solved exactly instead of played out. More
# tricks leave fewer deals solved within the budget and have not paid (docs/bot.md, "Tried and rejected").
EXACT_TRICKS = {1: 2, 2: 2}
# deals solved per millisecond of budget (at most), and positions searched per millisecond over all of
# them, by the number of decks: fixed in advance, so a seed fixes the answer
EXACT_DEALS_PER_MS = {1: 1, 2: 1}
EXACT_NODES_PER_MS = {1: 60, 2: 60}
# the playouts' policy by the number of decks: "learned" (gongzhu.bot.policy, one deck) or "heuristic"
PLAYOUT = {1: "learned", 2: "heuristic"}
# the learned policy's weights by scoring (partnership or not), loaded once from the package (a benchmark may
# put others here)
WEIGHTS: dict[bool, list[float]] = {}


def playout_weights(rules: Rules) -> list[float] | None:
    """The learned policy's weights when the playouts under ``rules`` use it, else None (the heuristic)."""
    if PLAYOUT[rules.decks] != "learned":
        return None
    if rules.partnership not in WEIGHTS:
        WEIGHTS[rules.partnership] = load_weights(rules.partnership)
    return WEIGHTS[rules.partnership]


class Suggestion(NamedTuple):
    move: Play
    reason: str
    samples: int
    budget_cut: bool = False


def _options(moves: list[Play]) -> tuple[int, list[Play]]:
    mask = sum(1 << m[0] for m in moves if len(m) == 1)
    return mask, [m for m in moves if len(m) == 2]


def heuristic_suggestion(state: DealState, moves: list[Play] | None = None) -> Suggestion:
    """The baseline heuristic's play (no search)."""
    moves = moves if moves is not None else legal_moves(state)
    k = knowledge(state)
    mask, doubles = _options(moves)
    move = heuristic_play(k.hand, mask, doubles, state.trick, k.played)
    return Suggestion(move=move, reason="heuristic", samples=0)


def suggest(state: DealState, *, budget_ms: int = DEFAULT_BUDGET_MS, seed: int | None = None,
            plays: Sequence[Iterable[Card]] | None = None) -> Suggestion:
    """A legal play for ``state.seat``, from what that seat may know only.

    The state keeps the deal's history, so the search knows which seats are
    void in which suits and which passed up a safe pig or sheep
    (``knowledge.absent_cards``); interchangeable single cards are searched
    once (``equivalence.distinct_plays``, ``reason: interchangeable`` when one
    play is left); ``plays`` (optional) is checked to be that history
    (``ValueError`` if not). Without a seed the search stops at 80 % of
    ``budget_ms`` of wall-clock time; with a seed it always makes its
    ``budget_ms`` × ``PLAYOUTS_PER_MS[decks]`` playouts, so the answer is the same under
    any load (``budget_cut`` says when the clock cut a search).
    Raises ``ValueError`` when the deal is finished.
    """
    start = time.perf_counter()
    moves = legal_moves(state)
    if not moves:
        raise ValueError("the deal is finished: no seat is to act")
    if len(moves) == 1:
        return Suggestion(move=moves[0], reason="only_move", samples=0)
    k = knowledge(state, plays)
    moves = distinct_plays(k, state.trick, moves)
    if len(moves) == 1:
        return Suggestion(move=moves[0], reason="interchangeable", samples=0)
    rng = random.Random(seed)
    decks = state.rules.decks
    if tricks_left(state) <= EXACT_TRICKS[decks]:
        clock = time.monotonic() + budget_ms * MS * DEADLINE_SHARE - (time.perf_counter() - start)
        solved = exact_endgame(state, k, moves, deals=max(1, budget_ms * EXACT_DEALS_PER_MS[decks]),
                               max_nodes=budget_ms * EXACT_NODES_PER_MS[decks],
                               deadline=clock if seed is None else math.inf, rng=rng, absent=absent_cards(state))
        if solved is not None:
            move, deals, cut = solved
            return Suggestion(move=move, reason="exact_endgame", samples=deals * len(moves), budget_cut=cut)
    playouts = budget_ms * PLAYOUTS_PER_MS[decks]
    deadline = start + budget_ms * MS * DEADLINE_SHARE if seed is None else math.inf
    move, samples = monte_carlo(state, k, moves, playouts=playouts, deadline=deadline, rng=rng,
                                absent=absent_cards(state), weights=playout_weights(state.rules))
    planned = max(1, playouts // len(moves)) * len(moves)
    return Suggestion(move=move, reason="monte_carlo", samples=samples, budget_cut=samples < planned)
