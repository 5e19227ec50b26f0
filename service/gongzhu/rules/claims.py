"""Claims (声称): is a seat's claim about the remaining tricks certain? (docs/rules.md, "Claims").

Before a deal ends a seat may show its cards and claim where the remaining
tricks go. The service sees all four hands, so it can referee: a claim
*holds* when the claimant has a way of playing that makes it come true
whatever legal plays the other three seats make.

- ``all_tricks``: the claimant takes every remaining trick (the one on the
  table included);
- ``no_tricks``: the claimant takes no further trick.

The search is an exact AND/OR search over the engine's own play loop
(``Table.apply`` and ``Table.undo``: the rules are not written again here). The
claimant's plays are OR nodes, every other seat's are AND nodes; a branch
stops as soon as a trick goes against the claim. Positions already decided
are kept in a transposition table keyed on everything that decides the rest
of the deal (hands, exposures still held, the trick on the table, who acts,
which suits were led). Equivalent cards are merged: two cards of one suit
that a seat holds once each, with no card of another seat or on the table
ranked between them (inclusive, with two decks), win and lose the same
tricks, so only one of them is searched. A claim of no tricks is proved
without search where the claimant can duck every lead of the others
(``_ducks_every_lead``). The search counts the positions it visits and stops
at ``max_nodes``, answering "unknown" rather than guessing.
"""
from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from .cards import (
    ONE_PLANE,
    PIG,
    PLANE,
    SEATS,
    SUIT_MASK,
    SUIT_MASKS,
    SUIT_SIZE,
    TRANSFORMER,
    Card,
    Play,
    lowest_of_runs,
    mask_cards,
)
from .errors import IllegalMove
from .messages import NOTHING_TO_CLAIM
from .moves import follow_single_mask, lead_options
from .state import DealState, Table, cards_of
from .tricks import leading_index, trick_winner

ClaimKind = Literal["all_tricks", "no_tricks"]
CLAIM_KINDS: tuple[str, ...] = ("all_tricks", "no_tricks")
DEFAULT_MAX_NODES = 400_000
# Cards whose play the first-trick ban governs: never merged while the ban applies.
BANNED = 1 << PIG | 1 << TRANSFORMER


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


class _Budget(Exception):
    """The search reached its node limit."""


# the live cards -> each one's number among them (``_renumbering``), kept between searches
_ORDER: dict[int, dict[int, int]] = {}


def _renumbering(live: int) -> dict[int, int]:
    """Each live card's number: its suit's base plus its rank among the live cards of its suit."""
    order = {}
    for base in range(0, PLANE, SUIT_SIZE):
        rank = 0
        for card in range(base, base + SUIT_SIZE):
            if live >> card & 1:
                order[card] = base + rank
                rank += 1
    return order


def _renumber(order: dict[int, int], bits: int) -> int:
    out = 0
    for card in mask_cards(bits & ONE_PLANE):
        out |= 1 << order[card]
    for card in mask_cards(bits >> PLANE):
        out |= 1 << (order[card] + PLANE)
    return out


def _live_one_plane(t: Table, seat: int) -> int:
    """Cards (either copy) held by the other seats or on the table."""
    bits = cards_of(t.trick)
    for other in range(SEATS):
        if other != seat:
            bits |= t.hands[other]
    return (bits | bits >> PLANE) & ONE_PLANE


def _representatives(t: Table, seat: int, singles: int) -> list[int]:
    """The single-card options of ``seat`` with equivalent cards merged (the lowest kept)."""
    hand = t.hands[seat]
    doubles = hand >> PLANE
    fixed = t.held_exposed[seat]
    fixed = (fixed | fixed >> PLANE) & ONE_PLANE
    if not t.history and t.rules.first_trick_ban:
        fixed |= BANNED
    return lowest_of_runs(singles, _live_one_plane(t, seat), doubles | fixed)


def _plain(t: Table) -> bool:
    """No card is special any more: no exposed copy held, no opening card due, no first-trick ban."""
    return t.opening_lead is None and not any(t.held_exposed) and not (
        not t.history and t.rules.first_trick_ban)


def _by_suit(cards: int, keep_high: bool) -> list[int]:
    """One card of each suit in the one-plane ``cards``: the lowest, or the highest."""
    kept = []
    for mask in SUIT_MASKS:
        suit = cards & mask
        if suit:
            kept.append(suit.bit_length() - 1 if keep_high else (suit & -suit).bit_length() - 1)
    return kept


def _ducks_every_lead(mine: int, others: int) -> bool:
    """Whether a seat holding ``mine`` can follow every lead of the others below it, when
    only the others lead (a claim of no tricks keeps the lead away from the claimant) and
    ``others`` are every card they may still lead (one-plane, one deck).

    Suit by suit, with the seat's cards c1 < c2 < … and the others' o1 < o2 < …, it
    suffices that ci < oi for every i up to the shorter count: each time the suit is led
    with the others' j-th card the seat plays its highest card below the lead, which keeps
    the condition (as does every card the others play or lose, and shedding its highest
    card of a suit on a discard), and a seat out of the suit or facing no more leads of
    it only discards. Sufficient, not necessary: the others may do less than lead their
    lowest cards in order.
    """
    return all(_ducks_suit(mine & mask, others & mask) for mask in SUIT_MASKS)


def _ducks_suit(own: int, theirs: int) -> bool:
    """``_ducks_every_lead`` for one suit's cards: ci < oi up to the shorter count."""
    if not own or not theirs:
        return True
    leads = theirs.bit_count()
    seen_own = seen_theirs = 0
    for card in mask_cards(own | theirs):
        if theirs >> card & 1:
            seen_theirs += 1
            continue
        seen_own += 1
        if seen_own > leads:
            break
        if seen_theirs >= seen_own:
            return False
    return True


def _dominated(t: Table, seat: int, claimant: int, wants_all: bool, singles: int) -> list[int] | None:
    """The single-card options left once dominated ones are dropped, where the claim makes
    one card plainly at least as good as another (else None: search them all).

    Against a claim of every trick, any trick the claimant does not win breaks the claim,
    so the other seats' cards matter only as they rank against the claimant's: a card is
    as good as any other between the same two cards of the claimant, and keeping the
    higher of two cards of a suit is never worse. So a follower plays the lowest card of
    each such run, and a discarder the lowest card of a suit. For a claim of no trick the
    claimant is never worse off keeping its lower cards: it discards the highest of a suit.
    """
    if not t.trick and seat == claimant or not _plain(t) or t.rules.decks != 1:
        return None
    follow = singles & SUIT_MASKS[t.trick[0][0] // SUIT_SIZE] if t.trick else singles
    if seat != claimant and wants_all:
        if not follow:
            return _by_suit(singles, keep_high=False)
        claimant_cards = t.hands[claimant]
        for play_seat, play in zip(t.trick_seats(), t.trick):
            if play_seat == claimant:
                claimant_cards |= 1 << play[0]
        return lowest_of_runs(follow, claimant_cards)
    if seat == claimant and not wants_all and not follow:
        return _by_suit(singles, keep_high=True)
    return None


def _moves(t: Table, seat: int, claimant: int, wants_all: bool) -> list[Play]:
    singles, pairs, others = t.options()
    reduced = _dominated(t, seat, claimant, wants_all, singles)
    cards = reduced if reduced is not None else _representatives(t, seat, singles)
    moves: list[Play] = [(c,) for c in cards]
    moves += [(c, c) for c in mask_cards(pairs)]
    moves += others
    return moves


def _winning_card(t: Table) -> int:
    """The card winning the trick on the table so far (-1 before the lead)."""
    if not t.trick:
        return -1
    suit = t.trick[0][0] // SUIT_SIZE
    return max((play[-1] for play in t.trick if play[-1] // SUIT_SIZE == suit), default=-1)


def _priority(move: Play, best: int, wants_all: bool) -> tuple[int, int]:
    """Sort key: the plays that serve the mover's side first.

    Against a claim of every trick, every seat (the claimant to win, the others to
    stop it) prefers a play that beats the trick so far; for a claim of none every
    seat prefers one that does not (the claimant to lose, the others to leave it
    winning). Among beating plays the cheapest first; among the others the dearest
    first (a discard sheds its highest card); a lead is strongest first when tricks
    are to be won, weakest first when they are to be lost.
    """
    card = move[-1]
    rank = card % SUIT_SIZE
    if best < 0:
        return (0, -rank if wants_all else rank)
    beats = card // SUIT_SIZE == best // SUIT_SIZE and card > best
    if beats:
        return (0 if wants_all else 1, rank)
    return (1 if wants_all else 0, -rank)


Plain = tuple[int, int, tuple[int, ...], tuple[int, ...]]   # seat, leader, hands, trick
EXACT = 1 << 30   # "tricks looked at" of a verdict that looked to the end of the deal


SUIT_BASES = tuple(range(0, PLANE, SUIT_SIZE))
# Dropping card position p from a renumbered one-deck mask: the bits below p, the bits of
# p's suit above it (moved down one), the bits of the suits above.
_BELOW = tuple((1 << p) - 1 for p in range(PLANE))
_SUIT_ABOVE = tuple(((1 << (p - p % SUIT_SIZE + SUIT_SIZE)) - 1) & ~((1 << (p + 1)) - 1) for p in range(PLANE))
_HIGHER_SUITS = tuple(ONE_PLANE & ~((1 << (p - p % SUIT_SIZE + SUIT_SIZE)) - 1) for p in range(PLANE))
# The same masks repeated in four lanes of one integer, one lane per hand.
_LANE = 64
_LANES = sum(1 << (_LANE * i) for i in range(SEATS))
_KEEP_LANES = tuple((_BELOW[p] | _HIGHER_SUITS[p]) * _LANES for p in range(PLANE))
_ABOVE_LANES = tuple(_SUIT_ABOVE[p] * _LANES for p in range(PLANE))


def _squeeze(bits: int, live: int) -> int:
    """``bits`` (cards of ``live``) renumbered by their order among the live cards of
    their suit: only which card beats which is kept."""
    out = 0
    for base in SUIT_BASES:
        k = 0
        for card in mask_cards((live >> base & SUIT_MASK) << base):
            if bits >> card & 1:
                out |= 1 << (base + k)
            k += 1
    return out


def _real_card(card: int, live: int) -> int:
    """The card a renumbered ``card`` stands for among ``live``."""
    base = card - card % SUIT_SIZE
    return mask_cards((live >> base & SUIT_MASK) << base)[card % SUIT_SIZE]


def _to_plain(t: Table) -> tuple[Plain, int] | None:
    """A one-deck position where no card is special any more, as a bare tuple (the fast
    path), with the live cards its numbering is relative to.

    Cards are renumbered by their order among the cards still in play (hands and the
    trick on the table), so positions that differ only in the cards already gone are
    one position: only which card beats which decides who takes a trick."""
    if t.rules.decks != 1 or not _plain(t) or t.seat is None:
        return None
    trick = [play[0] for play in t.trick]
    live = 0
    for hand in t.hands:
        live |= hand
    for card in trick:
        live |= 1 << card
    node = (t.seat, t.leader, tuple([_squeeze(hand, live) for hand in t.hands]),
            tuple([_squeeze(1 << card, live).bit_length() - 1 for card in trick]))
    return node, live


def _plain_winner(node: Plain) -> int:
    """Who leads the trick in ``node`` so far (the card to beat): its card, or -1 before the lead."""
    trick = node[3]
    return trick[leading_index(trick)] if trick else -1


Move = TypeVar("Move")


def _plain_live(node: Plain) -> int:
    """The cards in ``node`` held by the seats other than the one to act, or on the table."""
    seat, _, hands, trick = node
    live = 0
    for other in range(SEATS):
        if other != seat:
            live |= hands[other]
    for card in trick:
        live |= 1 << card
    return live


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


# How many positions the search visits between two looks at the clock.
CLOCK_EVERY = 1024


class _Nodes:
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
            raise _Budget
        if self.deadline is not None and not self.count % CLOCK_EVERY and time.monotonic() > self.deadline:
            raise _Budget


Position = TypeVar("Position")
Key = TypeVar("Key", bound=Hashable)


class _AndOr(ABC, Generic[Position, Key, Move]):
    """The AND/OR search, written once (``decide``) for both kinds of position: engine
    one ``Table`` applied and undone (``_Search``) and bare tuples (``_PlainSearch``). Each kind says when
    the claim is kept without search (``over``), what decides the rest of the claim from
    a position (``key``), who acts (``mover``), the moves worth trying, likeliest to decide
    first (``moves``), and the position after one (``child``).

    Positions already decided are remembered in ``known``: the verdict, how many tricks
    it looked at (``EXACT`` where it looked to the end of the deal, which only a kind
    with ``exact`` records), and the deciding move.
    """

    exact: bool   # whether this kind records a kept claim as kept to the end (EXACT)

    def __init__(self, seat: int, wants_all: bool, nodes: _Nodes) -> None:
        self.seat = seat
        self.wants_all = wants_all
        self.nodes = nodes
        self.known: dict[Key, tuple[bool, int, Move | None]] = {}

    @abstractmethod
    def over(self, pos: Position) -> bool:
        """Whether the claim is kept from ``pos`` to the end of the deal, without search."""
        raise NotImplementedError

    @abstractmethod
    def key(self, pos: Position) -> Key:
        raise NotImplementedError

    @abstractmethod
    def mover(self, pos: Position) -> int | None:
        raise NotImplementedError

    @abstractmethod
    def moves(self, pos: Position) -> list[Move]:
        raise NotImplementedError

    @abstractmethod
    def child(self, pos: Position, move: Move) -> tuple[Position, bool, bool]:
        """The position after ``move``; whether it completed a trick, and against the claim."""
        raise NotImplementedError

    def back(self, pos: Position) -> None:
        """Take back the move ``child`` made from ``pos`` (a position that is a value has nothing to undo)."""

    def decide(self, pos: Position, depth: int) -> tuple[bool, Move | None, bool]:
        """Whether no trick breaks the claim within ``depth`` more completed tricks; the
        deciding move (the claimant's keeping move, or another seat's breaking one); and
        whether a kept claim is known to be kept to the end of the deal (no line was cut
        at ``depth``), so that deeper looks need not repeat it."""
        if self.over(pos):
            return True, None, self.exact
        if depth == 0:
            return True, None, False
        key = self.key(pos)
        found = self.known.get(key)
        if found is not None and _settled(found, depth):
            return found[0], found[2], found[1] == EXACT
        self.nodes.visit()
        claimant = self.mover(pos) == self.seat
        result, witness, to_the_end = (not claimant), None, True
        for move in _first(self.moves(pos), found):
            nxt, completed, broken = self.child(pos, move)
            if broken:
                ok, whole = False, True
            else:
                ok, _, whole = self.decide(nxt, depth - 1 if completed else depth)
            self.back(pos)
            if claimant == ok:
                result, witness, to_the_end = ok, move, whole
                break
            to_the_end = to_the_end and whole
        to_the_end = result and to_the_end and self.exact
        self.known[key] = (result, EXACT if to_the_end else depth, witness)
        return result, witness, to_the_end


class _PlainSearch(_AndOr[Plain, Plain, int]):
    """The fast path: one-deck positions where no card is special any more, as bare
    tuples (``_to_plain``), their cards renumbered among the cards in play, a move being
    one card. ``child`` applies a play the way ``advance`` does there (options from
    ``moves``, the winner from ``tricks``); tests/rules/test_claims.py checks the two
    agree on random positions. A claim of no tricks is kept without search where the
    claimant can duck every lead of the others (``ducks_the_rest``).
    """

    exact = True

    def __init__(self, seat: int, wants_all: bool, nodes: _Nodes) -> None:
        super().__init__(seat, wants_all, nodes)
        # (claimant's cards, the cards the others may lead) -> _ducks_every_lead
        self.safe: dict[tuple[int, int], bool] = {}

    def over(self, pos: Plain) -> bool:
        return not pos[2][pos[0]] or self.ducks_the_rest(pos)

    def key(self, pos: Plain) -> Plain:
        return pos

    def mover(self, pos: Plain) -> int:
        return pos[0]

    def moves(self, pos: Plain) -> list[int]:
        seat, _, hands, trick = pos
        hand = hands[seat]
        claimant = self.seat
        if trick:
            options = follow_single_mask(hand, 0, trick[0] // SUIT_SIZE, False)
            follows = bool(options & SUIT_MASKS[trick[0] // SUIT_SIZE])
        else:
            options = lead_options(hand, 0, 0)[0]
            follows = True
        if seat != claimant and self.wants_all:
            if not follows:
                cards = _by_suit(options, keep_high=False)
            else:
                mine = hands[claimant]
                for i, card in enumerate(trick):
                    if (pos[1] + i) % SEATS == claimant:
                        mine |= 1 << card
                cards = lowest_of_runs(options, mine)
        elif seat == claimant and not self.wants_all and not follows:
            cards = _by_suit(options, keep_high=True)
        elif seat == claimant and not self.wants_all and trick:
            cards = self.follows(pos, options)
        else:
            cards = lowest_of_runs(options, _plain_live(pos))
        if not trick and seat != claimant and not self.wants_all:
            cards.sort(key=self.lead_order(hands))
            return cards
        best = _plain_winner(pos)
        cards.sort(key=lambda card: _priority((card,), best, self.wants_all))
        return cards

    def lead_order(self, hands: tuple[int, ...]) -> Callable[[int], tuple[int, int]]:
        """Sort key of the others' leads against a claim of no tricks: first the suits where
        the claimant may not be able to duck every lead (``_ducks_suit``), then the other
        suits it holds, then those it has none of; the lowest card of a suit first."""
        mine = hands[self.seat]
        others = 0
        for other in range(SEATS):
            if other != self.seat:
                others |= hands[other]
        rank = []
        for mask in SUIT_MASKS:
            own = mine & mask
            rank.append(2 if not own else 1 if _ducks_suit(own, others & mask) else 0)
        return lambda card: (rank[card // SUIT_SIZE], card)

    def follows(self, pos: Plain, options: int) -> list[int]:
        """The claimant's cards worth trying when it follows suit against a claim of no
        tricks: of the cards below the one winning the trick (ducks) only the highest,
        since holding a lower card of a suit instead of a higher one is never worse for
        taking no trick (each play of the higher card that takes no trick, the lower one
        would not take either, and the same seat would win it); and when no seat plays
        after it, no card above (each would take the trick)."""
        best = _plain_winner(pos)
        ducks = options & ((1 << best) - 1)
        kept = [ducks.bit_length() - 1] if ducks else []
        if len(pos[3]) == SEATS - 1:
            return kept or [(options & -options).bit_length() - 1]
        return kept + lowest_of_runs(options & ~ducks, _plain_live(pos))

    def child(self, pos: Plain, move: int) -> tuple[Plain, bool, bool]:
        seat, leader, hands, trick = pos
        after = list(hands)
        after[seat] ^= 1 << move
        played = (*trick, move)
        if len(played) < SEATS:
            return ((seat + 1) % SEATS, leader, tuple(after), played), False, False
        winner = trick_winner([(c,) for c in played], leader)
        broken = (winner == self.seat) != self.wants_all
        # the trick's cards leave play: the hands are renumbered without them, the higher
        # cards of each one's suit moving down one place (the four hands side by side in
        # one integer, a lane each, moved at once)
        packed = after[0] | after[1] << _LANE | after[2] << 2 * _LANE | after[3] << 3 * _LANE
        for gone in sorted(played, reverse=True):
            packed = packed & _KEEP_LANES[gone] | (packed & _ABOVE_LANES[gone]) >> 1
        lane = ONE_PLANE
        return ((winner, winner, (packed & lane, packed >> _LANE & lane, packed >> 2 * _LANE & lane,
                                  packed >> 3 * _LANE), ()), True, broken)

    def ducks_the_rest(self, pos: Plain) -> bool:
        """Whether, with another seat to play, a claim of no tricks is certain by
        ``_ducks_every_lead``: the claimant follows every lead of the others below it
        from here on (the card on the table it must still follow counted as a lead; a
        trick it has played to and is not winning is lost to it already)."""
        seat, leader, hands, trick = pos
        claimant = self.seat
        if self.wants_all or seat == claimant or trick and leader == claimant:
            return False
        mine = hands[claimant]
        others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~mine   # one deck: hands are disjoint
        if trick:
            place = (claimant - leader) % SEATS
            if place >= len(trick):
                others |= 1 << trick[0]
            elif trick[place] == _plain_winner(pos):
                return False
        found = self.safe.get((mine, others))
        if found is None:
            found = self.safe[(mine, others)] = _ducks_every_lead(mine, others)
        return found


class _Search(_AndOr[Table, tuple[object, ...], Play]):
    """A depth-first search to the end of the deal with one deck and no exposed copy
    held (see ``holds``); elsewhere iterative deepening on the number of tricks looked
    at: a claim that fails usually fails within a trick or two, and a shallow search
    finds that cheaply whatever the claimant tries; the last pass looks at every
    remaining trick, so the verdict is exact.

    Positions are one ``Table`` walked down and up (``Table.apply``/``undo``, the engine's play loop). Once no card is
    special any more (one deck, no exposed copy held, no opening card, no first-trick
    ban) they become bare tuples searched by ``plain`` (``_PlainSearch``). A verdict on a
    table is never recorded as kept to the end (``exact`` is off), so each deeper look
    searches it again.
    """

    exact = False

    def __init__(self, seat: int, kind: str, max_nodes: int, deadline: float | None = None) -> None:
        super().__init__(seat, kind == "all_tricks", _Nodes(max_nodes, deadline))
        self.plain = _PlainSearch(seat, self.wants_all, self.nodes)

    def over(self, pos: Table) -> bool:
        return pos.seat is None

    def key(self, pos: Table) -> tuple[object, ...]:
        """What decides the rest of the claim from ``pos``.

        Only which cards beat which matters to who takes a trick, so when no card is
        special any more (no exposed copy held, no opening card due, no first-trick
        ban) the cards are renumbered by their order among the cards still in play:
        positions that differ only in cards already gone share one entry.
        """
        if pos.opening_lead is not None or any(pos.held_exposed) or (not pos.history and pos.rules.first_trick_ban):
            return (pos.seat, pos.leader, tuple(pos.hands), tuple(pos.held_exposed), tuple(pos.trick), pos.suits_led,
                    pos.first_round, pos.opening_lead, not pos.history)
        trick = cards_of(pos.trick)
        live = trick
        for hand in pos.hands:
            live |= hand
        live = (live | live >> PLANE) & ONE_PLANE
        order = _ORDER.get(live)
        if order is None:
            order = _ORDER[live] = _renumbering(live)
        hands = tuple([_renumber(order, hand) for hand in pos.hands])
        plays = tuple([tuple([order[c] for c in play]) for play in pos.trick])
        return (pos.seat, pos.leader, hands, plays)

    def mover(self, pos: Table) -> int | None:
        return pos.seat

    def moves(self, pos: Table) -> list[Play]:
        """The moves of the seat to act, the likeliest to decide first (see ``_priority``)."""
        assert pos.seat is not None
        moves = _moves(pos, pos.seat, self.seat, self.wants_all)
        best = _winning_card(pos)
        moves.sort(key=lambda move: _priority(move, best, self.wants_all))
        return moves

    def child(self, pos: Table, move: Play) -> tuple[Table, bool, bool]:
        """``move`` applied to ``pos`` itself (``back`` undoes it)."""
        before = len(pos.history)
        pos.apply(move)
        completed = len(pos.history) != before
        broken = completed and (pos.history[-1].winner == self.seat) != self.wants_all
        return pos, completed, broken

    def back(self, pos: Table) -> None:
        pos.undo()

    def decide(self, pos: Table, depth: int) -> tuple[bool, Play | None, bool]:
        """As ``_AndOr.decide``, on the fast path where ``pos`` becomes a bare tuple."""
        plain = _to_plain(pos)
        if plain is None:
            return _AndOr.decide(self, pos, depth)   # (cheaper than super() on a hot path)
        node, live = plain
        result, card, to_the_end = self.plain.decide(node, depth)
        return result, None if card is None else (_real_card(card, live),), to_the_end

    # ---- verdicts ------------------------------------------------------------------------------

    def holds(self, t: Table, tricks: int) -> tuple[bool, int]:
        """The exact verdict from ``t`` with ``tricks`` left, and the depth that decided it.

        One look to the end where the fast path takes over within a trick (one deck, no
        exposed copy held): there the static proof and the lead order find a kept claim
        or a breaking line without the shallower looks, which cost more than they save."""
        soon_plain = t.rules.decks == 1 and not any(t.held_exposed)
        depths = [tricks] if soon_plain else range(1, tricks + 1)
        for depth in depths:
            if not self.decide(t, depth)[0]:
                return False, depth
        return True, tricks

    def refutation(self, t: Table, depth: int) -> tuple[Play, ...]:
        """A continuation from ``t`` (where the claim fails within ``depth`` tricks) ending
        with the trick that breaks it."""
        line: list[Play] = []
        while t.seat is not None:
            if t.seat == self.seat:
                move = self.moves(t)[0]
            else:
                keeps, found, _ = self.decide(t, depth)
                assert not keeps and found is not None
                move = found
            t, completed, broken = self.child(t, move)
            line.append(move)
            if broken:
                return tuple(line)
            depth -= completed
        raise AssertionError("a failing claim has a trick that breaks it")


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
        holds, depth = search.holds(state.table(), tricks_left(state))
    except _Budget:
        return ClaimVerdict(None, None, search.nodes.count)
    refutation = None if holds else search.refutation(state.table(), depth)
    return ClaimVerdict(holds, refutation, search.nodes.count)


def claim_move(state: DealState, seat: int, kind: str, max_nodes: int = DEFAULT_MAX_NODES) -> Play | None:
    """The claimant's play that keeps a claim that holds (the search's line); None otherwise.

    ``state`` must have ``seat`` to act.
    """
    _check(state, seat, kind)
    if state.seat != seat:
        raise ValueError("the claimant is not to act")
    search = _Search(seat, kind, max_nodes)
    tricks = tricks_left(state)
    try:
        if not search.holds(state.table(), tricks)[0]:
            return None
        return search.decide(state.table(), tricks)[1]
    except _Budget:
        return None


def claimed_captures(state: DealState, seat: int) -> tuple[tuple[Card, ...], ...]:
    """The cards each seat ends with when ``seat`` takes every remaining trick: what it
    has taken, plus every card still in a hand or on the table."""
    rest = [c for hand in state.hands for c in hand] + [c for play in state.trick for c in play]
    return tuple(tuple(taken) + (tuple(rest) if s == seat else ()) for s, taken in enumerate(state.captured))


def tricks_left(state: DealState) -> int:
    """Tricks still to complete, the one on the table included: exact with one deck, an
    upper bound with two (a pair takes two cards from every hand)."""
    leader_cards = state.hands_bits[state.leader].bit_count()
    return leader_cards + (1 if state.trick else 0)
