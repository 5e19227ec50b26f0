"""Claims (声称): is a seat's claim about the remaining tricks certain? (docs/rules.md, "Claims").

Before a deal ends a seat may show its cards and claim where the remaining
tricks go. The service sees all four hands, so it can referee: a claim
*holds* when the claimant has a way of playing that makes it come true
whatever legal plays the other three seats make.

- ``all_tricks``: the claimant takes every remaining trick (the one on the
  table included);
- ``no_tricks``: the claimant takes no further trick.

This module is the referee: the positions of the engine's own deal state,
walked with ``DealState.apply`` and ``DealState.undo`` (the rules are not
written again here), searched by the exact AND/OR search of ``andor``, and
handed to the one-deck fast path (``plain``) once no card is special any more.
The transposition table is keyed on everything that decides the rest of the
deal (hands, exposures still held, the trick on the table, who acts, which
suits were led). Equivalent cards are merged: two cards of one suit that a
seat holds once each, with no card of another seat or on the table ranked
between them (inclusive, with two decks), win and lose the same tricks, so
only one of them is searched. The search counts the positions it visits and
stops at ``max_nodes``, answering "unknown" rather than guessing.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final, Literal

from ..rules import running
from ..rules.cards import (
    SEATS,
    SUIT_MASKS,
    SUIT_SIZE,
    Card,
    Play,
    lowest_of_runs,
    mask_cards,
)
from ..rules.errors import IllegalMove
from ..rules.messages import NOTHING_TO_CLAIM
from ..rules.state import DealState
from ..rules.tricks import leading_card
from .andor import AndOr, Budget, Nodes
from .plain import PlainSearch, by_suit, priority
from .vocabulary import kept_apart, live_cards, position_key, real_card, renumbered, rivals_live

ClaimKind = Literal["all_tricks", "no_tricks"]
CLAIM_KINDS: Final[tuple[str, ...]] = ("all_tricks", "no_tricks")
# The positions a claim search visits in about a second of one core, by the number of decks: a two-deck position
# costs ten to twenty times a one-deck one. The service gives a claim a second (api/searches.py).
POSITIONS_PER_SECOND: Final = {1: 200_000, 2: 10_000}
# With no clock given, about two seconds of a one-deck search.
DEFAULT_MAX_NODES: Final = 2 * POSITIONS_PER_SECOND[1]


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """The referee's answer.

    ``holds`` is True (certain), False (a continuation breaks it) or None (the
    search reached ``max_nodes``). ``refutation`` (when False) is a legal
    continuation from the position, ending with the trick that breaks the
    claim. ``nodes`` counts the positions searched.
    """

    holds: bool | None
    refutation: tuple[Play, ...] | None
    nodes: int


def _representatives(t: DealState, seat: int, singles: int) -> list[int]:
    """The single-card options of ``seat`` with equivalent cards merged (the lowest kept)."""
    return lowest_of_runs(singles, rivals_live(t, seat), kept_apart(t, seat))


def _dominated(t: DealState, seat: int, claimant: int, wants_all: bool, singles: int) -> list[int] | None:
    """The single-card options left once dominated ones are dropped, where the claim makes
    one card plainly at least as good as another (else None: search them all).

    Against a claim of every trick, any trick the claimant does not win breaks the claim,
    so the other seats' cards matter only as they rank against the claimant's: a card is
    as good as any other between the same two cards of the claimant, and keeping the
    higher of two cards of a suit is never worse. So a follower plays the lowest card of
    each such run, and a discarder the lowest card of a suit. For a claim of no trick the
    claimant is never worse off keeping its lower cards: it discards the highest of a suit.
    """
    if not running.trick(t) and seat == claimant or not running.plain(t) or t.rules.decks != 1:
        return None
    follow = singles & SUIT_MASKS[running.trick(t)[0][0] // SUIT_SIZE] if running.trick(t) else singles
    if seat != claimant and wants_all:
        if not follow:
            return by_suit(singles, keep_high=False)
        claimant_cards = running.hands_bits(t)[claimant]
        for play_seat, play in zip(running.trick_seats(t), running.trick(t)):
            if play_seat == claimant:
                claimant_cards |= 1 << play[0]
        return lowest_of_runs(follow, claimant_cards)
    if seat == claimant and not wants_all and not follow:
        return by_suit(singles, keep_high=True)
    return None


def _moves(t: DealState, seat: int, claimant: int, wants_all: bool) -> list[Play]:
    singles, pairs, others = running.options(t)
    reduced = _dominated(t, seat, claimant, wants_all, singles)
    cards = reduced if reduced is not None else _representatives(t, seat, singles)
    moves: list[Play] = [(c,) for c in cards]
    moves += [(c, c) for c in mask_cards(pairs)]
    moves += others
    return moves


class _Search(AndOr[tuple[object, ...], Play]):
    """A depth-first search to the end of the deal with one deck and no exposed copy
    held (see ``holds``); elsewhere iterative deepening on the number of tricks looked
    at: a claim that fails usually fails within a trick or two, and a shallow search
    finds that cheaply whatever the claimant tries; the last pass looks at every
    remaining trick, so the verdict is exact.

    Positions are one ``DealState`` walked down and up (``table.play_option``/``undo``).
    Once no card is special any more (one deck, no exposed copy held, no opening card, no
    first-trick ban) the one-deck fast path (``plain.PlainSearch``) searches on, on the same
    state. A verdict on a deal state is never recorded as kept to the end
    (``exact`` is off), so each deeper look searches it again.
    """

    exact = False

    def __init__(self, seat: int, kind: str, max_nodes: int, deadline: float | None = None) -> None:
        super().__init__(seat, kind == "all_tricks", Nodes(max_nodes, deadline))
        self.plain = PlainSearch(seat, self.wants_all, self.nodes)

    def look(self, pos: DealState) -> tuple[object, ...] | None:
        """None at the end of the deal; else what decides the rest of the claim from ``pos``.

        Only which cards beat which matters to who takes a trick, so when no card is
        special any more (no exposed copy held, no opening card due, no first-trick
        ban) the cards are renumbered by their order among the cards still in play:
        positions that differ only in cards already gone share one entry.
        """
        if pos.seat is None:
            return None
        if not running.plain(pos):
            return position_key(pos, 0)
        return renumbered(pos)

    def moves(self, pos: DealState, key: tuple[object, ...] | None = None) -> list[Play]:
        """The moves of the seat to act, the likeliest to decide first (see ``priority``)."""
        assert pos.seat is not None
        moves = _moves(pos, pos.seat, self.seat, self.wants_all)
        best = leading_card([play[-1] for play in running.trick(pos)])
        moves.sort(key=lambda move: priority(move, best, self.wants_all))
        return moves

    def cards(self, pos: DealState, move: Play) -> Play:
        return move

    def decide(self, pos: DealState, depth: int) -> tuple[bool, Play | None, bool]:
        """As ``AndOr.decide``; by the fast path's search where no card is special any more (one deck)."""
        if pos.rules.decks != 1 or not running.plain(pos) or pos.seat is None:
            return AndOr.decide(self, pos, depth)   # the base class's search, named directly on a hot path
        result, card, to_the_end = self.plain.decide(pos, depth)
        return result, None if card is None else (real_card(card, live_cards(pos)),), to_the_end

    # ---- verdicts ------------------------------------------------------------------------------

    def holds(self, t: DealState, tricks: int) -> tuple[bool, int]:
        """The exact verdict from ``t`` with ``tricks`` left, and the depth that decided it.

        One look to the end where the fast path takes over within a trick (one deck, no
        exposed copy held): there the static proof and the lead order find a kept claim
        or a breaking line without the shallower looks, which cost more than they save."""
        soon_plain = t.rules.decks == 1 and not any(running.held_exposed(t))
        depths = [tricks] if soon_plain else range(1, tricks + 1)
        for depth in depths:
            if not self.decide(t, depth)[0]:
                return False, depth
        return True, tricks

    def refutation(self, t: DealState, depth: int) -> tuple[Play, ...]:
        """A continuation from ``t`` (where the claim fails within ``depth`` tricks) ending
        with the trick that breaks it."""
        line: list[Play] = []
        while t.seat is not None:
            move = self.moves(t)[0] if t.seat == self.seat else self.breaking(t, depth)
            completed, broken = self.child(t, move)
            line.append(move)
            if broken:
                return tuple(line)
            depth -= completed
        raise AssertionError("a failing claim has a trick that breaks it")

    def breaking(self, t: DealState, depth: int) -> Play:
        """A move of another seat from ``t`` (where the claim fails within ``depth`` tricks) after which it
        still fails: the search's deciding move where it is one, else the first of the moves that is. A
        verdict found in the table may have been decided in an equivalent position (a renumbered key), its
        move a card of that position."""
        _, found, _ = self.decide(t, depth)
        moves = self.moves(t)
        if found is not None and found in moves:
            moves.insert(0, found)
        for move in moves:
            completed, broken = self.child(t, move)
            fails = broken or not self.decide(t, depth - completed)[0]
            self.back(t)
            if fails:
                return move
        raise AssertionError("a failing claim has a move that keeps it failing")


def _check(state: DealState, seat: int, kind: str) -> None:
    if kind not in CLAIM_KINDS:
        raise ValueError(f"a claim is one of {CLAIM_KINDS}, not {kind!r}")
    if not 0 <= seat < SEATS:
        raise ValueError(f"a seat is 0-3, not {seat}")
    if state.finished:
        raise IllegalMove(NOTHING_TO_CLAIM(), code="deal_finished",
                          path="/plays")


def decide_claim(state: DealState, seat: int, kind: str, max_nodes: int = DEFAULT_MAX_NODES,
                 max_seconds: float | None = None) -> ClaimVerdict:
    """Whether ``seat``'s claim of ``kind`` holds from ``state``, exactly (see the module);
    unknown (``holds`` None) past ``max_nodes`` positions or ``max_seconds`` of wall-clock time."""
    _check(state, seat, kind)
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    search = _Search(seat, kind, max_nodes, deadline)
    try:
        holds, depth = search.holds(state.clone(), tricks_left(state))
    except Budget:
        return ClaimVerdict(None, None, search.nodes.count)
    refutation = None if holds else search.refutation(state.clone(), depth)
    return ClaimVerdict(holds, refutation, search.nodes.count)


def claimed_captures(state: DealState, seat: int) -> tuple[tuple[Card, ...], ...]:
    """The cards each seat ends with when ``seat`` takes every remaining trick: what it
    has taken, plus every card still in a hand or on the table."""
    rest = [c for hand in state.hands for c in hand] + [c for play in running.trick(state) for c in play]
    return tuple(tuple(taken) + (tuple(rest) if s == seat else ()) for s, taken in enumerate(running.captured(state)))


def tricks_left(state: DealState) -> int:
    """Tricks still to complete, the one on the table included: exact with one deck, an
    upper bound with two (a pair takes two cards from every hand)."""
    leader_cards = running.hands_bits(state)[running.leader(state)].bit_count()
    return leader_cards + (1 if running.trick(state) else 0)
