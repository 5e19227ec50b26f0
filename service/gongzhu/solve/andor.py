"""The exact AND/OR search of a claim (docs/rules.md, "Claims"), written once for every kind of position.

The claimant's plays are OR nodes, every other seat's are AND nodes; a branch
stops as soon as a trick goes against the claim. Positions already decided are
kept in a transposition table, with how many tricks deep each verdict looked. The
search counts the positions it visits and stops at a limit (``Nodes``), so a
caller answers "unknown" rather than guessing. The one position type is the
engine's own deal state, walked down and up (``table.play_option`` and
``undo``): the searches write no play rule of their own. What differs between
them (the claims', the one-deck fast path's, the endgame's) is the key of a
position, the moves worth trying and what breaks a line.
"""
from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import Final, Generic, TypeVar

from ..rules import running
from ..rules.cards import Play
from ..rules.state import DealState
from ..rules.table import play_option

EXACT: Final = 1 << 30   # "tricks looked at" of a verdict that looked to the end of the deal
# How many positions the search visits between two looks at the clock.
CLOCK_EVERY: Final = 1024

Move = TypeVar("Move")
Key = TypeVar("Key", bound=Hashable)


class Budget(Exception):
    """The search reached its node limit; ``proven``: the bounds (low, high) of the value the driver had
    proven when it stopped (``endgame.mtd`` sets them; ``OpenValues.bounds`` answers with them)."""

    proven: tuple[int, int] | None = None


class Nodes:
    """The positions searched so far, against the limit (``max_nodes``) and, when given,
    a wall-clock deadline (``time.monotonic()``), looked at every ``CLOCK_EVERY`` positions."""

    __slots__ = ("count", "limit", "deadline")

    def __init__(self, limit: int, deadline: float | None = None) -> None:
        self.count = 0
        self.limit = limit
        self.deadline = deadline

    def visit(self) -> None:
        self.count += 1
        if self.count > self.limit:
            raise Budget
        if self.deadline is not None and not self.count % CLOCK_EVERY and time.monotonic() > self.deadline:
            raise Budget


def _settled(found: tuple[bool, int, object], depth: int) -> bool:
    """Whether a remembered verdict answers a look ``depth`` tricks deep: a claim kept
    for at least that many tricks, or broken within at most that many."""
    return found[1] >= depth if found[0] else found[1] <= depth


def _first(moves: list[Move], found: tuple[bool, int, Move | None] | None) -> list[Move]:
    """``moves`` with the one that decided a shallower look at the position first."""
    if found is not None and found[2] is not None and found[2] in moves:
        moves.remove(found[2])
        moves.insert(0, found[2])
    return moves


class AndOr(ABC, Generic[Key, Move]):
    """The AND/OR search, written once (``decide``) on one ``DealState`` applied and undone. Each
    search says when the claim is kept without search, and else what decides the rest of it from
    a position (``look``: None, or the key), the moves worth trying, likeliest to decide first
    (``moves``), and the cards a move plays (``cards``); ``child`` plays them through the state
    and says whether a trick was completed, and against the claim; ``back`` takes them back.

    Positions already decided are remembered in ``known``: the verdict, how many tricks
    it looked at (``EXACT`` where it looked to the end of the deal, which only a search
    with ``exact`` records), and the deciding move.
    """

    exact: bool   # whether this search records a kept claim as kept to the end (EXACT)

    def __init__(self, seat: int, wants_all: bool, nodes: Nodes) -> None:
        self.seat = seat
        self.wants_all = wants_all
        self.nodes = nodes
        self.known: dict[Key, tuple[bool, int, Move | None]] = {}

    @abstractmethod
    def look(self, pos: DealState) -> Key | None:
        """None when the claim is kept from ``pos`` to the end of the deal without search; else the key
        of what decides the rest of it from ``pos`` (its entry in ``known``)."""
        raise NotImplementedError

    def mover(self, pos: DealState) -> int | None:
        """The seat whose plays are OR nodes when it is ``seat`` (the seat to act)."""
        return pos.seat

    @abstractmethod
    def moves(self, pos: DealState, key: Key) -> list[Move]:
        """The moves worth trying from ``pos`` (whose key is ``key``), likeliest to decide first."""
        raise NotImplementedError

    @abstractmethod
    def cards(self, pos: DealState, move: Move) -> Play:
        """The play ``move`` stands for in ``pos``."""
        raise NotImplementedError

    def play(self, pos: DealState, move: Move) -> bool:
        """``move`` played on ``pos`` itself (``back`` takes it back); whether it completed a trick."""
        before = len(running.winners(pos))
        play_option(pos, self.cards(pos, move))
        return len(running.winners(pos)) != before

    def child(self, pos: DealState, move: Move) -> tuple[bool, bool]:
        """``move`` played (``play``): whether it completed a trick, and one the claimant did not want
        (taken by the claimant against a claim of none, or by another seat against a claim of all)."""
        completed = self.play(pos, move)
        return completed, completed and (running.winners(pos)[-1] == self.seat) != self.wants_all

    def back(self, pos: DealState) -> None:
        """Take back the move ``child`` played on ``pos``."""
        pos.undo()

    def opened(self) -> None:
        """A position's search begins (its verdict goes to ``remember``): nothing to do here; a search that
        keeps a bound of each position's value starts counting its leaves."""

    def remember(self, key: Key, kept: bool, looked: int, witness: Move | None) -> None:
        """A position's verdict (``decide``), for the next look at it: in ``known``."""
        self.known[key] = (kept, looked, witness)

    def decide(self, pos: DealState, depth: int) -> tuple[bool, Move | None, bool]:
        """Whether no trick breaks the claim within ``depth`` more completed tricks; the
        deciding move (the claimant's keeping move, or another seat's breaking one); and
        whether a kept claim is known to be kept to the end of the deal (no line was cut
        at ``depth``), so that deeper looks need not repeat it."""
        key = self.look(pos)
        if key is None:
            return True, None, self.exact
        if depth == 0:
            return True, None, False
        found = self.known.get(key)
        if found is not None and _settled(found, depth):
            return found[0], found[2], found[1] == EXACT
        self.nodes.visit()
        self.opened()
        claimant = self.mover(pos) == self.seat
        result, witness, to_the_end = (not claimant), None, True
        for move in _first(self.moves(pos, key), found):
            completed, broken = self.child(pos, move)
            if broken:
                ok, whole = False, True
            else:
                ok, _, whole = self.decide(pos, depth - 1 if completed else depth)
            self.back(pos)
            if claimant == ok:
                result, witness, to_the_end = ok, move, whole
                break
            to_the_end = to_the_end and whole
        to_the_end = result and to_the_end and self.exact
        self.remember(key, result, EXACT if to_the_end else depth, witness)
        return result, witness, to_the_end
