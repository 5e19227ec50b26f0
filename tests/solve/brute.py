"""The solver's tests' one oracle: a brute-force minimax over the rules' own transitions (``legal_moves``,
``apply``, ``undo``), nothing merged and no threshold, and the late positions it can walk to the end."""
from __future__ import annotations

import random

from gongzhu import rules as engine
from gongzhu import solve
from gongzhu.rules import running

from .reference import EXPOSABLE

# the decisions walked to the end of the deal start this many tricks after the trick on the table
BRUTE_TRICKS = 3


def raw_value(state: engine.DealState, seat: int) -> int:
    """The review's scale on a finished deal: ``seat``'s own raw score, or with partnership its side's
    raw scores less the other side's."""
    raw = running.raw_scores(state)
    if state.rules.partnership:
        return raw[seat] + raw[(seat + 2) % 4] - raw[(seat + 1) % 4] - raw[(seat + 3) % 4]
    return raw[seat]


def brute_force(state: engine.DealState, seat: int, seen: dict | None = None) -> int:
    """``seat``'s value at the end of the deal over every legal play, ``seat`` (with partnership its side)
    maximizing and the others minimizing: nothing merged, no threshold; ``seen`` remembers the values of
    the deal's play sequences already walked (one deal's later decisions walk the same lines again)."""
    if state.finished:
        return raw_value(state, seat)
    key = (tuple(running.plays(state)), seat)
    if seen is not None and key in seen:
        return seen[key]
    values = []
    for move in engine.legal_moves(state):
        state.apply(move)
        values.append(brute_force(state, seat, seen))
        state.undo()
    ours = state.seat == seat or state.rules.partnership and state.seat % 2 == seat % 2
    value = max(values) if ours else min(values)
    if seen is not None:
        seen[key] = value
    return value


def brute_values(state: engine.DealState, seen: dict | None = None) -> dict[tuple[int, ...], int]:
    seat = state.seat
    out = {}
    for move in engine.legal_moves(state):
        state.apply(move)
        out[move] = brute_force(state, seat, seen)
        state.undo()
    return out


def late_deals(decks: int, count: int, seed: int) -> list[engine.DealState]:
    """Random deals played with random legal moves until ``BRUTE_TRICKS`` tricks remain after the trick on
    the table, 1–3 plays into it, individual and partnership by turns, exposures in half of them, the
    first-trick ban and the pig's flip at random."""
    rng = random.Random(seed)
    found = []
    for n in range(count):
        rules = engine.Rules(decks=decks, partnership=n % 2 == 1, first_trick_ban=rng.random() < 0.3,
                             pig_flips_with_all_hearts=rng.random() < 0.5)
        hands = engine.deal_hands(rules, seed=rng.randrange(1 << 30))
        exposing = n % 4 >= 2
        exposed = tuple(tuple(c for c in hand if c in EXPOSABLE and exposing and rng.random() < 0.5)
                        for hand in hands)
        state = engine.replay(rules, hands=hands, exposed=exposed, plays=(), first_deal=True)
        into = 1 + rng.randrange(3)
        while solve.tricks_left(state) > BRUTE_TRICKS + 1 or len(state.trick) < into:
            state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
        found.append(state)
    return found
