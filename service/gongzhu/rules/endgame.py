"""Exact endgames: the score a seat can guarantee on an open deal (docs/bot.md, "Exact endgames").

The bot's search, with few tricks left, deals the hidden cards and solves each
deal exactly: every seat sees every hand, the acting seat maximizes its exact
normalized score at the end of the deal (partnership: its side's) and the other
three seats minimize it (paranoid minimax).

The search is the claims' AND/OR search (``andor.AndOr.decide``, the one search
core), asked a yes/no question: can the seat make sure its score ends at least
``t``? The seat's plays are OR nodes, every other seat's AND nodes, exactly as for
a claim; a line is "broken" as soon as no scoring card is left in play and the
score, settled, is below ``t``, and "kept" as soon as it is settled at ``t`` or
more. The exact value is the largest ``t`` with a yes: found by galloping from a
guess (a playout's value, often the answer: two questions then) and halving
the bracket. Scores are counted in integer units (``score_units``) on a grid of
``UNIT``, so the questions are finitely many. Each threshold has its own
transposition table (one ``AndOr`` each), shared by every move of the root.

The table's key is what decides the rest of the score: the position (hands,
the trick on the table, who acts and leads, the exposed copies still held, the
suits led, the first-trick ban) and the scoring cards each seat has taken.
Equivalent cards are merged as in the claims search (``lowest_of_runs``), only
where the score is the same too: cards of one suit with no live card ranked
between them, scoring alike (hearts of one value; the pig, the sheep and the
transformer never merged). The search counts the positions it visits and gives
up at ``max_nodes`` (``None``), so a caller falls back rather than overruns.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .andor import AndOr, Budget, Nodes
from .cards import (
    HEART_MASK,
    HEARTS,
    ONE_PLANE,
    PIG,
    PLANE,
    SCORING_MASK,
    SEATS,
    SHEEP,
    SUIT_SIZE,
    TRANSFORMER,
    Play,
    cards_of,
    lowest_of_runs,
    mask_cards,
)
from .scoring import HEART_VALUES, seat_raw
from .settlement import PARTNERS
from .state import DealState
from .variants import Rules

# Every raw score is a multiple of ten (hearts by tens, pig and sheep 100, all hearts 200,
# the transformer alone 25 x 2 or more, doublings x 2), so score units are too.
UNIT: Final = 10
SCORING_BITS: Final = SCORING_MASK | SCORING_MASK << PLANE
# the depth passed to the AND/OR search: more tricks than a deal has, less what is completed
NO_DEPTH_LIMIT: Final = 1000
DEFAULT_MAX_NODES: Final = 20_000
# Cards that score alike: one class per heart value, and each of the pig, sheep and transformer alone.
HEART_CLASSES: Final = tuple(
    sum(1 << HEARTS * SUIT_SIZE + r for r in range(SUIT_SIZE) if HEART_VALUES[r] == value)
    for value in sorted(set(HEART_VALUES)))
ALONE: Final = 1 << PIG | 1 << SHEEP | 1 << TRANSFORMER
BANNED: Final = 1 << PIG | 1 << TRANSFORMER


def score_units(rules: Rules, raw: Sequence[int], seat: int) -> int:
    """``exact_score`` times ``units_per_point(rules)``, an integer: 4·own − all (individual),
    2·side − all (partnership)."""
    total = raw[0] + raw[1] + raw[2] + raw[3]
    if rules.partnership:
        side = PARTNERS[seat % 2]
        return 2 * (raw[side[0]] + raw[side[1]]) - total
    return SEATS * raw[seat] - total


def units_per_point(rules: Rules) -> int:
    """Score units per point of ``exact_score``: 2 with partnership (half a side difference), else 3."""
    return 2 if rules.partnership else SEATS - 1


def _live(pos: DealState) -> int:
    """Cards (two-plane) still in play: in a hand or on the table."""
    live = cards_of(pos.trick)
    for hand in pos.hands_bits:
        live |= hand
    return live


def settled_units(pos: DealState, seat: int) -> int:
    """``seat``'s score units from the cards taken so far (its final score once no scoring card is in play)."""
    rules, k = pos.rules, pos.doublings
    raw = [seat_raw(rules, bits, k) for bits in pos.captured_bits]
    return score_units(rules, raw, seat)


class _AtLeast(AndOr[DealState, tuple[object, ...], Play]):
    """Can ``seat`` make sure its score units end at ``threshold`` or more? The claims'
    AND/OR search on one ``DealState`` walked down and up (``apply``/``undo``)."""

    exact = False

    def __init__(self, seat: int, threshold: int, nodes: Nodes) -> None:
        super().__init__(seat, True, nodes)
        self.threshold = threshold

    def over(self, pos: DealState) -> bool:
        """Kept: the deal is over (a line below the threshold broke on its last scoring card), or the score
        is settled at the threshold or more."""
        if pos.seat is None:
            return True
        return not _live(pos) & SCORING_BITS and settled_units(pos, self.seat) >= self.threshold

    def key(self, pos: DealState) -> tuple[object, ...]:
        """The position and the scoring cards each seat has taken (what decides the rest of the score)."""
        taken = tuple([bits & SCORING_BITS for bits in pos.captured_bits])
        if pos.opening_lead is None and not any(pos.held_exposed) and not pos.ban:
            return (pos.seat, pos.leader, tuple(pos.hands_bits), tuple(pos.trick), taken)
        return (pos.seat, pos.leader, tuple(pos.hands_bits), tuple(pos.trick), taken, tuple(pos.held_exposed),
                pos.suits_led, pos.first_round, pos.opening_lead, pos.ban)

    def mover(self, pos: DealState) -> int | None:
        return pos.seat

    def moves(self, pos: DealState) -> list[Play]:
        return distinct_moves(pos)

    def child(self, pos: DealState, move: Play) -> tuple[DealState, bool, bool]:
        """``move`` applied to ``pos`` itself (``back`` undoes it); broken once the score is settled below
        the threshold."""
        before = len(pos.winners)
        pos.apply(move)
        completed = len(pos.winners) != before
        broken = (completed and not _live(pos) & SCORING_BITS
                  and settled_units(pos, self.seat) < self.threshold)
        return pos, completed, broken

    def back(self, pos: DealState) -> None:
        pos.undo()

    def holds(self, pos: DealState) -> bool:
        return self.decide(pos, NO_DEPTH_LIMIT - len(pos.winners))[0]


def distinct_moves(pos: DealState) -> list[Play]:
    """The legal plays of the seat to act, one single card of each set that wins, loses and
    scores alike (see the module), singles lowest first, then pairs and other two-card plays."""
    seat = pos.seat
    assert seat is not None
    singles, pairs, others = pos.options()
    live = cards_of(pos.trick)
    for other in range(SEATS):
        if other != seat:
            live |= pos.hands_bits[other]
    live = (live | live >> PLANE) & ONE_PLANE
    fixed = pos.held_exposed[seat]
    apart = pos.hands_bits[seat] >> PLANE | (fixed | fixed >> PLANE) & ONE_PLANE | ALONE
    if pos.ban:
        apart |= BANNED
    cards = lowest_of_runs(singles & ~HEART_MASK, live, apart)
    hearts = singles & HEART_MASK
    if hearts:
        for cls in HEART_CLASSES:
            if hearts & cls:
                cards += lowest_of_runs(hearts & cls, live, apart)
        cards.sort()
    moves: list[Play] = [(c,) for c in cards]
    moves += [(c, c) for c in mask_cards(pairs)]
    moves += others
    return moves


class Endgame:
    """The exact values of a position's moves for ``seat`` (``values``), over one open deal."""

    def __init__(self, seat: int, max_nodes: int = DEFAULT_MAX_NODES, deadline: float | None = None) -> None:
        self.seat = seat
        self.nodes = Nodes(max_nodes, deadline)
        self.searches: dict[int, _AtLeast] = {}

    def at_least(self, pos: DealState, threshold: int) -> bool:
        search = self.searches.get(threshold)
        if search is None:
            search = self.searches[threshold] = _AtLeast(self.seat, threshold, self.nodes)
        return search.holds(pos)

    def units(self, pos: DealState, guess: int) -> int:
        """The exact score units ``seat`` can make sure of from ``pos``: the largest multiple of ``UNIT``
        that ``at_least`` grants, galloping from ``guess`` then halving."""
        if not _live(pos) & SCORING_BITS:
            return settled_units(pos, self.seat)
        lo = guess - guess % UNIT
        step = UNIT
        if self.at_least(pos, lo):
            while self.at_least(pos, lo + step):
                lo += step
                step *= 2
            hi = lo + step
        else:
            hi = lo
            while not self.at_least(pos, hi - step):
                hi -= step
                step *= 2
            lo = hi - step
        # at_least(lo) and not at_least(hi)
        while hi - lo > UNIT:
            mid = lo + (hi - lo) // (2 * UNIT) * UNIT
            if self.at_least(pos, mid):
                lo = mid
            else:
                hi = mid
        return lo

    def values(self, state: DealState, moves: Sequence[Play], guesses: Sequence[float] | None = None) -> list[float]:
        """Each move's exact value (``exact_score``: points) for ``seat``, who is to act in ``state`` (not
        changed); ``guesses`` (points, one a move) start each search. Raises ``Budget`` past the node limit."""
        assert state.seat == self.seat
        pos = state.clone()
        per_point = units_per_point(state.rules)
        out = []
        for i, move in enumerate(moves):
            pos.apply(move)
            guess = 0 if guesses is None else round(guesses[i] * per_point)
            out.append(self.units(pos, guess) / per_point)
            pos.undo()
        return out


def endgame_values(state: DealState, moves: Sequence[Play], *, max_nodes: int = DEFAULT_MAX_NODES,
                   deadline: float | None = None,
                   guesses: Sequence[float] | None = None) -> tuple[list[float] | None, int]:
    """The exact value (``exact_score``) of each of ``moves`` for the seat to act in ``state``, every hand
    open, the other three seats playing against it; ``guesses`` (a value a move, e.g. a playout's) start
    each search near its answer. None past ``max_nodes`` positions (then the count returned is above it)
    or past ``deadline`` (``time.monotonic()``). Also the positions searched."""
    assert state.seat is not None, "the deal is finished"
    solver = Endgame(state.seat, max_nodes, deadline)
    try:
        values: list[float] | None = solver.values(state, moves, guesses)
    except Budget:
        values = None
    return values, solver.nodes.count
