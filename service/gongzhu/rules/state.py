"""The deal state: one mutable core (``Table``) and its immutable snapshot (``DealState``).

As in OpenSpiel's Hearts state, the core keeps the deal's history: every
completed trick is appended as a ``Trick`` (leader, plays, winner, cards).
The completed trick, the first pig taker, the trick leaders, the cards
played and each seat's voids are queries over that history, written once
here. ``Table.apply(move)`` plays a move and ``Table.undo()`` takes it back
(as python-chess's push/pop: search walks one table down and up instead of
copying it per child); ``Table.copy()`` clones the core (for simulation);
``Table.snapshot()`` freezes it into a ``DealState`` for callers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .cards import PIG, SEATS, SUIT_SIZE, SUITS, Card, Play, bits_cards, hand_bits, merge_bits
from .exposure import deal_exposure_counts
from .moves import Options, play_options
from .scoring import seat_score
from .tricks import TrickResult, point_cards, trick_ranking
from .variants import Rules


class Trick(NamedTuple):
    """A completed trick of the history: who led, the plays in order, who won, its cards (two-plane bits)."""

    leader: int
    plays: tuple[Play, ...]
    winner: int
    cards: int

    @property
    def point_cards(self) -> tuple[Card, ...]:
        """The scoring cards of the trick, sorted."""
        return point_cards(self.plays)


# a Table's fields before a move: hands, held exposed copies, piles, the trick, the tricks completed, suits led,
# first round, leader, seat, opening lead
Frame = tuple[list[int], list[int], list[int], tuple[Play, ...], int, int, bool, int, "int | None", "Card | None"]


def trick_voids(leader: int, plays: tuple[Play, ...] | list[Play]) -> list[int]:
    """Per seat, a 4-bit mask of the suits a trick shows it is void in.

    A seat that plays any card off the led suit holds no card of that suit
    afterwards: after a single lead it would have had to follow; after a pair
    lead it would have had to play two cards of the suit while holding two,
    and plays its only card of the suit plus another when holding one. The
    exposure restriction and the first-trick ban never let a seat discard
    while it holds a card of the led suit.
    """
    voids = [0] * SEATS
    suit = plays[0][0] // SUIT_SIZE
    for i in range(1, len(plays)):
        if any(c // SUIT_SIZE != suit for c in plays[i]):
            voids[(leader + i) % SEATS] |= 1 << suit
    return voids


@dataclass(slots=True, kw_only=True)
class Table:
    """The mutable core of a deal; bits are two-plane hands (``cards``).

    ``held_exposed`` are the exposed copies each seat still holds; ``exposed``
    the effective exposure lists (with the automatic fourth card);
    ``opening_lead`` the card the next lead must be (first lead of a first
    deal), else None; ``seat`` the seat to act, None when the deal is over.
    """

    rules: Rules
    hands: list[int]
    held_exposed: list[int]
    exposed: tuple[tuple[Card, ...], ...]
    captured: list[int]
    suits_led: int
    first_round: bool
    leader: int
    trick: list[Play]
    seat: int | None
    opening_lead: Card | None
    history: list[Trick]
    # what ``apply`` changed, one frame a move, for ``undo``; a copy starts with none
    frames: list[Frame] = field(default_factory=list, compare=False, repr=False)

    def apply(self, move: Play) -> None:
        """Play ``move`` (a legal play of the seat to act, sorted, as ``legal_moves`` gives it).

        The play loop (``table.advance``) applies it, so the rules of a play are written
        once; ``undo`` restores the table as it was before.
        """
        from .table import advance, scripted  # the play loop builds on this module

        self.frames.append((self.hands.copy(), self.held_exposed.copy(), self.captured.copy(), tuple(self.trick),
                            len(self.history), self.suits_led, self.first_round, self.leader, self.seat,
                            self.opening_lead))
        advance(self, scripted(move), 1)

    def undo(self) -> None:
        """Take back the last ``apply``d move."""
        (self.hands, self.held_exposed, self.captured, trick, tricks, self.suits_led, self.first_round, self.leader,
         self.seat, self.opening_lead) = self.frames.pop()
        # the trick and the history are changed in place: a chooser may hold them (see ``table.advance``)
        self.trick[:] = trick
        del self.history[tricks:]

    def copy(self) -> Table:
        """An independent copy to advance (search, simulation, the next state)."""
        return Table(rules=self.rules, hands=self.hands.copy(), held_exposed=self.held_exposed.copy(),
                     exposed=self.exposed, captured=self.captured.copy(), suits_led=self.suits_led,
                     first_round=self.first_round, leader=self.leader, trick=self.trick.copy(), seat=self.seat,
                     opening_lead=self.opening_lead, history=self.history.copy())

    def snapshot(self) -> DealState:
        """The immutable state of this table as it is now."""
        return DealState(self.copy())

    def options(self, *, exposure: bool = True, ban: bool = True) -> Options:
        """Legal plays of the seat to act (see ``moves.play_options``); the deal must not be over."""
        seat = self.seat
        assert seat is not None, "the deal is finished"
        return play_options(self.hands[seat], self.held_exposed[seat] if exposure else 0,
                            self.trick[0] if self.trick else None, self.suits_led, self.first_round,
                            self.opening_lead, ban and not self.history and self.rules.first_trick_ban)

    @property
    def trick_number(self) -> int:
        return len(self.history)

    @property
    def plays_count(self) -> int:
        return len(self.history) * SEATS + len(self.trick)

    @property
    def last_trick(self) -> Trick | None:
        return self.history[-1] if self.history else None

    @property
    def first_pig_taker(self) -> int | None:
        """The seat that took the first pig (SQ) of the deal, if taken yet."""
        return next((t.winner for t in self.history if t.cards >> PIG & 1), None)

    def leaders(self) -> list[int]:
        """The leader of every trick so far, the current one included once it has a play."""
        return [t.leader for t in self.history] + ([self.leader] if self.trick else [])

    def voids(self) -> tuple[int, ...]:
        """Per seat, the 4-bit mask of suits its plays show it holds no more of."""
        voids = [0] * SEATS
        tricks = [(t.leader, t.plays) for t in self.history]
        if self.trick:
            tricks.append((self.leader, tuple(self.trick)))
        for leader, plays in tricks:
            for seat, mask in enumerate(trick_voids(leader, plays)):
                voids[seat] |= mask
        return tuple(voids)

    def trick_seats(self) -> list[int]:
        """The seat of each play in the current trick."""
        return [(self.leader + i) % SEATS for i in range(len(self.trick))]

    def played(self) -> int:
        """Two-plane bits of every card played so far (the tricks taken and the current trick)."""
        bits = cards_of(self.trick)
        for taken in self.captured:
            bits = merge_bits(bits, taken)
        return bits

    def raw_scores(self) -> tuple[int, ...]:
        """Raw scores of the cards each seat has captured so far."""
        rules = self.rules
        k = deal_exposure_counts(rules, self.exposed)
        return tuple([seat_score(rules, bits, k).raw for bits in self.captured])


class DealState:
    """A position in a deal, immutable: a ``Table`` nobody advances, read through properties.

    Build one with ``replay``; ``apply_move`` returns the next. ``table()``
    gives a mutable copy to search from.
    """

    __slots__ = ("_core",)
    _core: Table

    def __init__(self, core: Table) -> None:
        object.__setattr__(self, "_core", core)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a DealState is immutable: copy its table() to change it")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealState) and self._core == other._core

    def __hash__(self) -> int:
        return hash((self.plays_count, self.hands_bits))

    def __repr__(self) -> str:
        return f"DealState({self._core!r})"

    def table(self) -> Table:
        """A mutable copy to advance."""
        return self._core.copy()

    def options(self, *, exposure: bool = True, ban: bool = True) -> Options:
        """``Table.options`` of the core itself: reading it needs no copy."""
        return self._core.options(exposure=exposure, ban=ban)

    @property
    def rules(self) -> Rules:
        return self._core.rules

    @property
    def seat(self) -> int | None:
        return self._core.seat

    @property
    def finished(self) -> bool:
        return self._core.seat is None

    @property
    def leader(self) -> int:
        return self._core.leader

    @property
    def trick(self) -> tuple[Play, ...]:
        return tuple(self._core.trick)

    @property
    def hands_bits(self) -> tuple[int, ...]:
        return tuple(self._core.hands)

    @property
    def held_exposed(self) -> tuple[int, ...]:
        return tuple(self._core.held_exposed)

    @property
    def captured_bits(self) -> tuple[int, ...]:
        return tuple(self._core.captured)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(bits_cards(b) for b in self._core.hands)

    @property
    def captured(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(bits_cards(b) for b in self._core.captured)

    @property
    def exposed(self) -> tuple[tuple[Card, ...], ...]:
        return self._core.exposed

    @property
    def suits_led(self) -> int:
        return self._core.suits_led

    @property
    def first_round(self) -> bool:
        return self._core.first_round

    @property
    def opening_lead(self) -> Card | None:
        return self._core.opening_lead

    @property
    def history(self) -> tuple[Trick, ...]:
        return tuple(self._core.history)

    @property
    def trick_number(self) -> int:
        return self._core.trick_number

    @property
    def plays_count(self) -> int:
        return self._core.plays_count

    @property
    def first_pig_taker(self) -> int | None:
        return self._core.first_pig_taker

    @property
    def last_trick(self) -> Trick | None:
        return self._core.last_trick

    @property
    def completed_trick(self) -> TrickResult | None:
        """The trick the last applied play completed, ranked; else None."""
        last = self._core.last_trick
        if last is None or self._core.trick:
            return None
        return TrickResult(leader=last.leader, plays=last.plays, led_suit=SUITS[last.plays[0][0] // SUIT_SIZE],
                           winner=last.winner, ranking=trick_ranking(last.plays, last.leader),
                           point_cards=last.point_cards)

    @property
    def voids(self) -> tuple[int, ...]:
        return self._core.voids()

    def leaders(self) -> list[int]:
        return self._core.leaders()

    def played(self) -> int:
        return self._core.played()

    def plays(self) -> list[Play]:
        """Every play of the deal so far, in order."""
        return [p for t in self._core.history for p in t.plays] + list(self._core.trick)


def cards_of(plays: list[Play] | tuple[Play, ...]) -> int:
    """Two-plane bits of the cards in ``plays``."""
    return hand_bits(c for play in plays for c in play)

