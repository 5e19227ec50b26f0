"""The review's fair values (docs/review.md): each legal move's value from what the acting seat knew, with its
standard error.

The hidden cards are dealt anew (``DealState.resample``, honouring ``knowledge.absent_cards``) on each of a
number of deals, and each move still in the race is played out on every deal by the baseline heuristic in every
seat (``search.playout_value``): the same deals for every move (common random numbers), so the difference of two
moves is far less noisy than either value. Interchangeable single cards (``equivalence.distinct_plays``) are
played out once, the lowest of each run, and the others take its value. At ``MIN_DEALS`` deals and each doubling,
the moves clearly worse than the leader (its mean less theirs above ``RACE_Z`` standard errors of their paired
difference) leave the race; the move played never leaves, so the loss of the play made, the figure a player
reads, gets the deals the others no longer take, and more of them while it is in doubt about the line a mistake
is drawn at. Near the end (``SOLVED_TRICKS``) each deal is solved exactly instead, every move valued by the
open-card search on it (perfect-information Monte Carlo), on a number of deals fixed by the budget. The number
of playouts depends only on the budget, the deck count and the playouts' values, and the deals on the seed and
the play's index: the same seed gives the same values whatever the hidden cards are, on any machine.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from gongzhu.rules import DealState, Play, legal_moves
from gongzhu.rules.cards import SUIT_SIZE
from gongzhu.solve import OpenValues, raw_value, tricks_left

from .advice import playout_weights
from .equivalence import distinct_plays
from .knowledge import absent_cards, knowledge
from .search import playout_value
from .verdicts import MISTAKE_FROM

# Playouts an estimated decision gets per millisecond of the review's budget, by the number of decks, over all its
# moves; every move in the race gets at least MIN_DEALS deals.
PLAYOUTS_PER_MS = {1: 1.2, 2: 0.1}
MIN_DEALS = 16
# The playouts' policy: "learned" (advice's, one deck) or "heuristic".
PLAYOUT = "heuristic"
# The race: at MIN_DEALS deals and each doubling after, a move whose mean is below the leader's by more than RACE_Z
# standard errors of their paired difference leaves it.
RACE_Z = 3.0
# Past its playouts, an estimate whose loss is within DOUBT_Z standard errors of the line a mistake is drawn at gets
# half its playouts more, up to DOUBT_PLAYOUTS times them: the deals go where they decide what a player is shown.
DOUBT_Z = 2.0
DOUBT_PLAYOUTS = 3
# With this many tricks left or fewer (by the number of decks), each deal is valued by the exact open-card search
# instead of a playout (perfect-information Monte Carlo over the exact solver, as bridge programs do): every seat
# plays best on each deal, a model of the other seats no rule of thumb shaped, and one search values every move.
# Such a position has few hidden cards and its search takes a fraction of a millisecond, so every move gets
# SOLVED_PER_MS deals a millisecond of budget (at least MIN_DEALS), no race.
SOLVED_TRICKS = {1: 4, 2: 0}
SOLVED_PER_MS = {1: 0.17, 2: 0.0}
# Values, losses and their standard errors are rounded to one decimal.
DECIMALS = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class FairValues:
    """Each legal move's mean value (``values``) and its standard error (``errors``), in ``legal_moves`` order;
    ``deals[i]`` the deals move i was valued on and ``samples[i]`` its value on each."""

    moves: tuple[Play, ...]
    values: tuple[float, ...]
    errors: tuple[float, ...]
    deals: tuple[int, ...]
    samples: tuple[tuple[float, ...], ...]

    def paired_error(self, a: int, b: int) -> float:
        """The standard error of move ``a``'s mean less move ``b``'s over the deals both were valued on."""
        return _paired_error(self.samples[a], self.samples[b])


def fair_values(state: DealState, *, budget_ms: int, seed: int | None, play: int, played: Play | None = None,
                playouts: int | None = None) -> FairValues:
    """Each legal move's value at ``state`` from what ``state.seat`` knows (never the hidden cards); ``played``
    stays in the race to the end; ``playouts`` (default by ``budget_ms``) caps the playouts; ``seed`` and ``play``
    (the decision's index in the deal) fix the deals."""
    moves = legal_moves(state)
    seat = state.seat
    assert seat is not None, "the deal is finished"
    k = knowledge(state)
    distinct = distinct_plays(k, state.trick, moves)
    kept = played if played in distinct else None if played is None else _representative(played, distinct)
    decks = state.rules.decks
    rng = random.Random(None if seed is None else f"review {seed} {play}")
    if tricks_left(state) <= SOLVED_TRICKS[decks]:
        deals = int(budget_ms * SOLVED_PER_MS[decks]) if playouts is None else playouts
        samples = _solved(state, distinct, max(deals, MIN_DEALS), rng)
    else:
        if playouts is None:
            playouts = int(budget_ms * PLAYOUTS_PER_MS[decks])
        samples = _race(state, seat, distinct, kept, playouts, rng)
    anchor = max(samples, key=len)
    own = {move: samples[i] for i, move in enumerate(distinct)}
    chosen = tuple(own[move if move in own else _representative(move, distinct)] for move in moves)
    valued = [_anchored(s, anchor) for s in chosen]
    return FairValues(moves=tuple(moves), values=tuple(round(v, DECIMALS) for v, _ in valued),
                      errors=tuple(round(e, DECIMALS) for _, e in valued), deals=tuple(len(s) for s in chosen),
                      samples=chosen)


def _anchored(values: tuple[float, ...], anchor: tuple[float, ...]) -> tuple[float, float]:
    """(mean, standard error) of a move valued on ``values``, the first deals of ``anchor``'s (a move valued on
    every deal): a move that left the race early is the anchor's mean plus its mean difference to the anchor on
    the deals it had (a control variate: the deals' luck the two share cancels), so its difference to any move
    valued on every deal is measured on common deals."""
    if len(values) == len(anchor):
        return _mean(values), _error(values)
    difference = [v - a for v, a in zip(values, anchor)]
    return _mean(anchor) + _mean(difference), math.sqrt(_error(anchor) ** 2 + _error(difference) ** 2)


def _race(state: DealState, seat: int, moves: list[Play], kept: Play | None, playouts: int,
          rng: random.Random) -> list[tuple[float, ...]]:
    """Each of ``moves``' values on the deals it was valued on (see the module)."""
    k = knowledge(state)
    absent = absent_cards(state)
    weights = playout_weights(state.rules) if PLAYOUT == "learned" else None
    samples: list[list[float]] = [[] for _ in moves]
    racing = list(range(len(moves)))
    mine = None if kept is None else moves.index(kept)
    spent = 0
    limit = playouts
    while True:
        deal = state.resample(k, rng, absent)
        for i in racing:
            samples[i].append(playout_value(deal, moves[i], seat, weights, raw_value))
        spent += len(racing)
        done = len(samples[racing[0]])
        if done >= MIN_DEALS and (len(racing) == 1 or spent + len(racing) > limit):
            if len(racing) == 1 or limit >= playouts * DOUBT_PLAYOUTS or not _in_doubt(samples, racing, mine):
                break
            limit += playouts // 2
        if done >= MIN_DEALS and done & (done - 1) == 0:
            racing = _still_racing(samples, racing, mine)
    return [tuple(s) for s in samples]


def _solved(state: DealState, moves: list[Play], deals: int, rng: random.Random) -> list[tuple[float, ...]]:
    """Each of ``moves``' exact open-card values on ``deals`` deals of the hidden cards (one search a deal)."""
    k = knowledge(state)
    absent = absent_cards(state)
    solver = OpenValues()
    samples: list[list[float]] = [[] for _ in moves]
    for _ in range(deals):
        values = solver.values(state.resample(k, rng, absent))
        assert values is not None, "no deadline: the search finishes"
        for i, move in enumerate(moves):
            samples[i].append(float(values[move]))
    return [tuple(s) for s in samples]


def _in_doubt(samples: list[list[float]], racing: list[int], mine: int | None) -> bool:
    """Whether the loss of the move played (``mine``) is within ``DOUBT_Z`` standard errors of the line a
    mistake is drawn at (``verdicts.MISTAKE_FROM``)."""
    if mine is None:
        return False
    leader = max(racing, key=lambda i: (_mean(samples[i]), -i))
    loss = _mean(samples[leader]) - _mean(samples[mine])
    return leader != mine and abs(loss - MISTAKE_FROM) <= DOUBT_Z * _paired_error(samples[leader], samples[mine])


def _still_racing(samples: list[list[float]], racing: list[int], kept: int | None) -> list[int]:
    """``racing`` less the moves clearly worse than the leader (``kept`` always stays)."""
    leader = max(racing, key=lambda i: (_mean(samples[i]), -i))
    top = _mean(samples[leader])
    kept_racing = []
    for i in racing:
        error = _paired_error(samples[leader], samples[i])
        # (a move no deal tells apart from the leader, error 0, is as good and needs no more deals)
        if i == leader or i == kept or error > 0 and top - _mean(samples[i]) <= RACE_Z * error:
            kept_racing.append(i)
    return kept_racing


def _representative(move: Play, distinct: list[Play]) -> Play:
    """The play ``distinct_plays`` kept for ``move``: the highest kept single card of its suit below it (each
    interchangeable run keeps its lowest card)."""
    card = move[0]
    below = [m for m in distinct if len(m) == 1 and m[0] // SUIT_SIZE == card // SUIT_SIZE and m[0] < card]
    return max(below)


def _mean(values: list[float] | tuple[float, ...]) -> float:
    return sum(values) / len(values)


def _error(values: list[float] | tuple[float, ...]) -> float:
    """The standard error of ``values``' mean (0 with one value)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = _mean(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def _paired_error(a: list[float] | tuple[float, ...], b: list[float] | tuple[float, ...]) -> float:
    n = min(len(a), len(b))
    return _error([x - y for x, y in zip(a[:n], b[:n])])
