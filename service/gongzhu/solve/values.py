"""Exact open-card values of every legal move, in raw points, for the deal review (docs/bot.md,
"Exact endgames"; docs/review.md).

The review asks, position after position of one deal, what each legal move of the seat to act is
worth with every hand open and best play by everyone: individually the seat's own raw score at the
end of the deal, the other three seats playing to lower it (as against a claim); with partnership its
side's raw scores less the other side's, each side for itself. Where no card is special any more (one
deck: ``plain_open``) the search is ``plain_open.PlainOpen``, in ints; else the exact endgame's
(``endgame.exact_units`` on ``endgame.AtLeast``, the one AND/OR core) asked in that scale
(``raw_points``). Both ask their questions by ``endgame.mtd``. Their tables hold positions, not one
root's lines: ``OpenValues`` keeps them, one a seat (a side with partnership), so that the positions of
one deal share what earlier ones settled.
"""
from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Final

from ..rules import running
from ..rules.cards import Play
from ..rules.scoring import Doublings
from ..rules.state import DealState
from ..rules.table import play_option
from ..rules.variants import Rules
from .andor import Budget, Nodes
from .endgame import AtLeast, exact_units
from .plain_open import PlainOpen, plain_open
from .scale import value_weights
from .vocabulary import distinct_cards, kept_apart, rivals_live

# no node limit: the caller's deadline, if any, bounds the search
UNLIMITED: Final = 1 << 62


class OpenValues:
    """Exact open-card values (``values``), with the transposition tables kept from call to call: build
    one for the positions of one deal."""

    def __init__(self) -> None:
        # by rules, doublings, owner and whether no card is special any more (``_search``)
        self._searches: dict[tuple[Rules, Doublings, int, bool], AtLeast | PlainOpen] = {}
        # the positions the last ``values`` visited (a caller sizes the next search by it)
        self.searched = 0
        # each search's last value found (by the search's id), the next position's first guess
        self._last: dict[int, int] = {}

    def values(self, state: DealState, *, deadline: float | None = None,
               max_nodes: int | None = None) -> dict[Play, int] | None:
        """Each legal move of the seat to act in ``state`` (as ``legal_moves`` lists them) with its exact
        value in raw points (see the module). None once ``deadline`` (a ``time.monotonic()`` instant)
        passes or the search has visited ``max_nodes`` positions (``searched``: how many it visited).
        ``state`` is left as found."""
        seat = state.seat
        assert seat is not None, "the deal is finished"
        if deadline is not None and time.monotonic() > deadline:
            return None
        nodes = Nodes(UNLIMITED if max_nodes is None else max_nodes, deadline)
        plain = plain_open(state)
        search = self._search(state, seat, plain)
        search.nodes = nodes
        pos = state.clone()
        moves = pos.legal_moves()
        rivals, apart = rivals_live(pos, seat), kept_apart(pos, seat)
        out: dict[Play, int] = {}
        # the first guess: the last value this search found (the deal's earlier position, often near)
        guess = self._last.get(id(search), 0)
        try:
            for move in moves:
                same = _equivalent(move, out, rivals, apart)
                if same is not None:
                    out[move] = out[same]
                    continue
                play_option(pos, move)
                guess = self._exact(search, pos, guess)
                pos.undo()
                out[move] = guess
        except Budget:
            return None
        finally:
            self.searched = nodes.count
        self._last[id(search)] = guess
        self._settle(pos, max(out.values()), plain)
        return out

    def bounds(self, state: DealState, *, deadline: float | None = None,
               max_nodes: int | None = None) -> dict[Play, tuple[int, int]]:
        """Each legal move of the seat to act in ``state`` (as ``legal_moves`` lists them) with the bounds
        (lower, upper) of its exact value (``values``' scale) proven before ``deadline`` or ``max_nodes``:
        equal where the value is known. The moves are searched in turn, each with an equal share of what is
        left of the budget (an easy move leaves the rest of its share to the moves after it); a move whose
        search its share cuts keeps what its questions proved (at least what the rest of the deal proves
        with no search: the points still out). POST /solve's call. ``state`` is left as found."""
        seat = state.seat
        assert seat is not None, "the deal is finished"
        plain = plain_open(state)
        search = self._search(state, seat, plain)
        pos = state.clone()
        moves = pos.legal_moves()
        rivals, apart = rivals_live(pos, seat), kept_apart(pos, seat)
        out: dict[Play, tuple[int, int]] = {}
        guess = self._last.get(id(search), 0)
        self.searched = 0
        for i, move in enumerate(moves):
            same = _equivalent(move, out, rivals, apart)
            if same is not None:
                out[move] = out[same]
                continue
            search.nodes = _share(len(moves) - i, deadline, max_nodes, self.searched)
            play_option(pos, move)
            try:
                guess = self._exact(search, pos, guess)
                out[move] = (guess, guess)
                pos.undo()
            except Budget as cut:
                assert cut.proven is not None, "only the driver's questions meet the budget"
                out[move] = cut.proven
                # a cut search leaves its position anywhere: a fresh one
                pos = state.clone()
            self.searched += search.nodes.count
        if all(low == high for low, high in out.values()):
            self._last[id(search)] = guess
            self._settle(pos, max(low for low, _ in out.values()), plain)
        return out

    @staticmethod
    def _exact(search: AtLeast | PlainOpen, pos: DealState, guess: int) -> int:
        """``pos``'s exact value by ``search``, the first question asking ``guess``."""
        if isinstance(search, PlainOpen):
            search.load(pos)
            return search.exact(guess)
        return exact_units(search, pos, guess)

    def _settle(self, pos: DealState, best: int, plain: bool) -> None:
        """``pos``'s exact value (``best``, its best move's, for the seat to act) into the tables of every
        search of the deal it is known in: the seat's own; with partnership the other side's too, where it
        is the opposite (a side difference). A review values a deal's positions last first: the position
        before is the one whose played move leads here, and finds its value without search
        (``exact_units`` starts from the tables' bounds)."""
        rules, seat = pos.rules, pos.seat
        assert seat is not None
        owners = [(seat % 2, best), (1 - seat % 2, -best)] if rules.partnership else [(seat, best)]
        for owner, value in owners:
            search = self._searches.get((rules, running.doublings(pos), owner, plain))
            if isinstance(search, PlainOpen):
                search.load(pos)
                search.settle(value)
            elif search is not None:
                key, offset = search.root_key(pos)
                search.lower[key] = search.upper[key] = value - offset

    def _search(self, state: DealState, seat: int, plain: bool) -> AtLeast | PlainOpen:
        """The search (and its tables) for ``seat``'s values in this deal: one a side with partnership;
        ``PlainOpen`` where no card is special any more (``plain``: ``plain_open``), else ``AtLeast``."""
        rules = state.rules
        owner = seat % 2 if rules.partnership else seat
        key = (rules, running.doublings(state), owner, plain)
        search = self._searches.get(key)
        if search is None:
            if plain:
                weights = value_weights(owner, rules.partnership, raw_points=True)
                search = PlainOpen(rules, running.doublings(state), weights, Nodes(UNLIMITED))
            else:
                search = AtLeast(owner, Nodes(UNLIMITED), rules.partnership, raw_points=True)
            self._searches[key] = search
        return search


def _share(left: int, deadline: float | None, max_nodes: int | None, searched: int) -> Nodes:
    """The budget of the next of ``left`` moves: an equal share of the time to ``deadline`` and of the
    positions ``max_nodes`` leaves after ``searched``."""
    until = None
    if deadline is not None:
        now = time.monotonic()
        until = now + max(0.0, deadline - now) / left
    return Nodes(UNLIMITED if max_nodes is None else max(0, max_nodes - searched) // left, until)


def _equivalent(move: Play, done: Mapping[Play, object], rivals: int, apart: int) -> Play | None:
    """A single card already valued that ``move`` (a single card) wins, loses and scores alike with
    (``distinct_cards`` merges the two), else None."""
    if len(move) != 1:
        return None
    card = move[0]
    for other in done:
        if len(other) == 1 and distinct_cards(1 << card | 1 << other[0], rivals, apart) == [other[0]]:
            return other
    return None
