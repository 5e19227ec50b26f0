"""An experiment: information-set Monte Carlo tree search (single observer) in place of the bot's flat
search, as an arena player (``--player ismcts``). Not shipped; docs/bot.md has its measurement.

Each iteration deals the hidden cards once (``DealState.resample``, the bot's beliefs), walks the tree from
the seat's decision down the plays that deal allows, choosing at each node by UCB1 over the plays seen
there (each play's count of times it was available, not the parent's visits), adds one new play, then
plays the learned policy out to the end and adds each node's seat its exact normalized score
(partnership: its side's). Every seat maximizes its own value. The most visited play at the root wins.
With one play, interchangeable plays only, or an exact endgame, the bot's own ``suggest`` answers.

Set by the environment (read once, at import): ``ISMCTS_ITERATIONS`` (default 600, the flat search's
playouts at 100 ms), ``ISMCTS_EXPLORATION`` (0.7) and ``ISMCTS_PRIOR=1``: PUCT with the learned policy's
softmax over the seat's legal cards in that deal as the prior, instead of UCB1 (one deck).
"""
from __future__ import annotations

import math
import os
import random
from collections.abc import Callable

from gongzhu.bot import advice, suggest
from gongzhu.bot.equivalence import distinct_plays
from gongzhu.bot.knowledge import absent_cards, knowledge
from gongzhu.bot.policy import PolicyChooser, Tally, card_score, decision
from gongzhu.bot.search import HeuristicChooser
from gongzhu.rules import DealState, Play, exact_score, legal_moves, running
from gongzhu.rules.table import LiveDeal, advance
from gongzhu.solve import tricks_left

ITERATIONS = int(os.environ.get("ISMCTS_ITERATIONS", "600"))
# points a unit of value in UCB1 (normalized scores run to a few hundred points)
SCALE = 100.0
EXPLORATION = float(os.environ.get("ISMCTS_EXPLORATION", "0.7"))
# PUCT with the learned policy's softmax as the prior (one deck) instead of UCB1
PRIOR = os.environ.get("ISMCTS_PRIOR", "") == "1"


class Node:
    __slots__ = ("available", "children", "prior", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Play, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.prior = 0.0


def _ucb1(child: Node) -> float:
    return child.total / (child.visits * SCALE) + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)


def _puct(child: Node) -> float:
    """Mean value (0 unvisited) + the prior over the visits, against the times available."""
    mean = child.total / (child.visits * SCALE) if child.visits else 0.0
    return mean + EXPLORATION * child.prior * math.sqrt(child.available) / (1 + child.visits)


def _priors(deal: DealState, node: Node, moves: list[Play], weights: list[float]) -> None:
    """Add the plays new at ``node`` with the learned policy's probability in this deal as their prior (the
    softmax of the seat's card scores over ``moves``)."""
    if all(m in node.children for m in moves):
        return
    d = decision(deal, sum(1 << m[0] for m in moves))
    tally = Tally(weights, False)
    scores = [card_score(d, m[0], tally) for m in moves]
    top = max(scores)
    exps = [math.exp(x - top) for x in scores]
    total = sum(exps)
    for m, e in zip(moves, exps):
        if m not in node.children:
            child = Node()
            child.prior = e / total
            node.children[m] = child


def _select(node: Node, moves: list[Play], rng: random.Random, value: Callable[[Node], float]) -> tuple[Play, Node]:
    """The play to follow at ``node`` among ``moves`` (the plays this deal allows): a play new there first
    (at random), else the best ``value``."""
    for m in moves:
        child = node.children.get(m)
        if child is not None:
            child.available += 1
    untried = [m for m in moves if m not in node.children]
    if untried:
        move = untried[rng.randrange(len(untried))]
        child = Node()
        child.available = 1
        node.children[move] = child
        return move, child
    best = max(moves, key=lambda m: value(node.children[m]))
    return best, node.children[best]


def search(state: DealState, moves: list[Play], iterations: int, rng: random.Random) -> Play:
    k = knowledge(state)
    absent = absent_cards(state)
    weights = advice.playout_weights(state.rules)
    rules = state.rules
    puct = PRIOR and weights is not None
    root = Node()
    for _ in range(iterations):
        deal = state.resample(k, rng, absent)
        node, options = root, moves
        path: list[tuple[Node, int]] = []
        while not deal.finished:
            seat = deal.seat
            assert seat is not None
            if puct:
                _priors(deal, node, options, weights)
            move, child = _select(node, options, rng, _puct if puct else _ucb1)
            deal.apply(move)
            path.append((child, seat))
            if child.visits == 0:
                break
            node, options = child, legal_moves(deal)
        if not deal.finished:
            live = LiveDeal(deal)
            chooser = HeuristicChooser(live)
            advance(deal, chooser if weights is None else PolicyChooser(live, weights, chooser))
        raw = running.raw_scores(deal)
        for child, seat in path:
            child.visits += 1
            child.total += exact_score(rules, raw, seat)
    return max(moves, key=lambda m: (root.children[m].visits if m in root.children else -1))


def ismcts_play(state: DealState, *, seed: int, iterations: int = ITERATIONS,
                budget_ms: int = advice.DEFAULT_BUDGET_MS) -> Play:
    """The seat's play: the bot's own answer where it has no search to make, else the tree search's."""
    moves = legal_moves(state)
    if len(moves) > 1:
        moves = distinct_plays(knowledge(state), state.trick, moves)
    if len(moves) == 1 or tricks_left(state) <= advice.EXACT_TRICKS[state.rules.decks]:
        return suggest(state, budget_ms=budget_ms, seed=seed * 1000 + running.plays_count(state)).move
    return search(state, moves, iterations, random.Random(f"ismcts:{seed}:{running.plays_count(state)}"))
