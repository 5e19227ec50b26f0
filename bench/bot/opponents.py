"""Opponent policies for the arena (bench/bot/arena.py): each maps a deal state to a legal play.

Every policy reads only what the seat to act may know (``DealState.view``)
plus the current trick and the cards each seat has taken (public), never the other
hands the state carries.

- ``random``: a uniformly random legal play.
- ``heuristic``: the bot's baseline heuristic (``gongzhu.bot.heuristic_suggestion``).
- ``greedy``: flat Monte Carlo over the legal plays (``greedy_policy``).
- ``rules2``: a second rule-based seat, written apart from the baseline (``rules2_play``, tests/players.py).
- ``greedy-trick``: per deal of the hidden cards, a one-trick best-reply search with a
  points-plus-burden evaluation, playing for its side (``greedy_trick_play``, tests/players.py).
"""
from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache, partial

from gongzhu.bot import heuristic_suggestion
from gongzhu.bot.policy import best_card, decision, load_weights
from gongzhu.bot.search import playout_value
from gongzhu.rules import (
    DealState,
    Play,
    legal_moves,
    running,
)
from tests.players import greedy_trick_play, rules2_play

from .ismcts import ismcts_play

Policy = Callable[[DealState], Play]
OPPONENTS = ("random", "heuristic", "greedy", "rules2", "greedy-trick", "learned")
# experiments the arena may put in the measured seat only (--player): bench/bot/ismcts.py
EXPERIMENTS = ("ismcts",)
DEFAULT_GREEDY_SAMPLES = 20



def make_opponent(name: str, seed: int, *, greedy_samples: int = DEFAULT_GREEDY_SAMPLES) -> Policy:
    """The policy ``name`` (one of ``OPPONENTS``); ``seed`` fixes its random choices."""
    if name == "random":
        rng = random.Random(seed)
        return lambda state: rng.choice(legal_moves(state))
    if name == "heuristic":
        return lambda state: heuristic_suggestion(state).move
    if name == "greedy":
        return partial(greedy_play, samples=greedy_samples, seed=seed)
    if name == "rules2":
        return rules2_play
    if name == "greedy-trick":
        return partial(greedy_trick_play, samples=greedy_samples, seed=seed)
    if name == "learned":
        return learned_play
    if name == "ismcts":
        return partial(ismcts_play, seed=seed)
    raise ValueError(f"unknown opponent {name!r}; one of {', '.join(OPPONENTS)}")


# --- greedy: flat Monte Carlo -------------------------------------------------------------------

def greedy_play(state: DealState, *, samples: int, seed: int) -> Play:
    """The legal play with the best mean playout value over ``samples`` deals of the hidden cards.

    Each sample deals the unseen cards consistently with the seat's information
    set (``DealState.resample``: hand sizes, exposed copies, voids);
    every legal play is played out on that same deal, all four seats then
    following the baseline heuristic (``gongzhu.bot.search.playout_value``). The
    value is the seat's exact normalized score (partnership: its side's). Ties go
    to the earlier play in ``legal_moves`` order. The random stream is seeded
    from ``seed`` and the number of plays made, so a decision depends on the
    position and the seed only.
    """
    moves = legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    view = state.view()
    rng = random.Random(f"greedy:{seed}:{running.plays_count(state)}")
    totals = [0.0] * len(moves)
    for _ in range(samples):
        root = state.resample(view, rng)
        for i, move in enumerate(moves):
            totals[i] += playout_value(root, move, view.seat)
    best = max(range(len(moves)), key=lambda i: (totals[i], -i))
    return moves[best]


# --- learned: the bot's learned playout policy as a seat --------------------------------------------

def learned_play(state: DealState) -> Play:
    """The learned policy's play (``gongzhu.bot.policy``, the bot's playout weights; two decks: the
    baseline heuristic)."""
    moves = legal_moves(state)
    if state.rules.decks != 1 or len(moves) == 1:
        return moves[0] if len(moves) == 1 else heuristic_suggestion(state, moves).move
    mask = sum(1 << m[0] for m in moves)
    return (best_card(decision(state, mask), mask, _learned_weights(state.rules.partnership)),)


@lru_cache(maxsize=2)
def _learned_weights(partnership: bool) -> list[float]:
    return load_weights(partnership)
