"""The deal state: one type that holds a deal's position and its history (docs/engine-api.md).

As in OpenSpiel's Hearts state, the state keeps the deal's history: the plays
of every completed trick in order (``history_plays``, four a trick) and who won
each (``winners``), beside the position they lead to (hands, exposed copies
still held, the cards each seat has taken, the trick on the table). The
completed tricks (``history``), the first pig taker, the trick leaders, the
cards played and each seat's voids are queries over that history, written once
here. The play loop (``table.advance``) keeps the position and the history up
to date as plays are made; nothing is re-derived per question.

``apply(move)`` plays a legal move and ``undo()`` takes it back, as python-chess's
``push``/``pop`` with a stack of the few values a play changes beyond the cards:
search walks one state down and up instead of copying it per child. ``clone()``
gives an independent copy. A state a caller keeps as a value (``replay``,
``apply_move``) is simply never changed afterwards.
"""
from __future__ import annotations

from typing import Final, NamedTuple

from .cards import PIG, SEATS, SUIT_SIZE, SUITS, Card, Play, bits_cards, cards_of, merge_bits, remove_card
from .moves import Options, play_options
from .scoring import Doublings, seat_raw
from .table import Chooser, Scripted, advance
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


# what ``apply`` saves beyond the cards, for ``undo``: the seat to act, its exposed copies still held,
# the suits led, first round, the opening card due, the leader
Frame = tuple[int, int, int, bool, "Card | None", int]
NO_EXPOSURE: Final[tuple[tuple[Card, ...], ...]] = ((), (), (), ())


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
        for c in plays[i]:
            if c // SUIT_SIZE != suit:
                voids[(leader + i) % SEATS] |= 1 << suit
    return voids


class DealState:
    """A position in a deal and the history that led to it (bits are two-plane hands: ``cards``).

    ``hands_bits`` are the cards each seat holds; ``held_exposed`` the exposed
    copies it still holds; ``exposed`` the effective exposure lists (with the
    automatic fourth card); ``captured_bits`` the cards each seat has taken;
    ``trick`` the plays on the table; ``opening_lead`` the card the next lead
    must be (first lead of a first deal), else None; ``seat`` the seat to act,
    None when the deal is over. The lists are the state's own: read them, change
    the state only through ``apply``/``undo`` (or the play loop).
    """

    rules: Rules
    hands_bits: list[int]
    held_exposed: list[int]
    exposed: tuple[tuple[Card, ...], ...]
    doublings: Doublings
    captured_bits: list[int]
    trick: list[Play]
    history_plays: list[Play]
    winners: list[int]
    first_leader: int
    leader: int
    seat: int | None
    suits_led: int
    first_round: bool
    opening_lead: Card | None
    frames: list[Frame]

    def __init__(self, *, rules: Rules, hands_bits: list[int], held_exposed: list[int],
                 exposed: tuple[tuple[Card, ...], ...], doublings: Doublings, leader: int,
                 opening_lead: Card | None) -> None:
        """The state before the first play (``play.initial_state`` builds it from a deal); ``doublings``
        are what the exposures do to scores (``scoring.doublings``)."""
        self.rules = rules
        self.hands_bits = hands_bits
        self.held_exposed = held_exposed
        self.exposed = exposed
        self.doublings = doublings
        self.captured_bits = [0, 0, 0, 0]
        self.trick = []
        self.history_plays = []
        self.winners = []
        self.first_leader = leader
        self.leader = leader
        self.seat = leader
        self.suits_led = 0
        self.first_round = False
        self.opening_lead = opening_lead
        self.frames = []

    # ---- moves -------------------------------------------------------------------------------

    def apply(self, move: Play) -> None:
        """Play ``move`` (a legal play of the seat to act, sorted, as ``legal_moves`` gives it).

        The play loop (``table.advance``) applies it, so the rules of a play are written
        once; ``undo`` restores the state as it was before.
        """
        seat = self.seat
        assert seat is not None, "the deal is finished"
        self.frames.append((seat, self.held_exposed[seat], self.suits_led, self.first_round, self.opening_lead,
                            self.leader))
        advance(self, Scripted(move), 1)

    def undo(self) -> None:
        """Take back the last ``apply``d move."""
        seat, held, suits_led, first_round, opening, leader = self.frames.pop()
        trick = self.trick
        if trick:
            move = trick.pop()
        else:
            # the move completed a trick: its plays go back on the table, its cards leave the winner's pile
            start = len(self.history_plays) - SEATS
            plays = self.history_plays[start:]
            del self.history_plays[start:]
            winner = self.winners.pop()
            pile = self.captured_bits[winner]
            for play in plays:
                for c in play:
                    pile = remove_card(pile, c)
            self.captured_bits[winner] = pile
            move = plays.pop()
            trick.extend(plays)
        hand = self.hands_bits[seat]
        for c in move:
            hand = merge_bits(hand, 1 << c)
        self.hands_bits[seat] = hand
        self.held_exposed[seat] = held
        self.seat, self.suits_led, self.first_round, self.opening_lead, self.leader = (
            seat, suits_led, first_round, opening, leader)

    def advance(self, chooser: Chooser, limit: int = -1) -> None:
        """Play until the deal ends or ``limit`` plays are made, each chosen by ``chooser`` (``table.advance``)."""
        advance(self, chooser, limit)

    def clone(self) -> DealState:
        """An independent copy (its own lists; no move of this state to undo)."""
        copy = DealState(rules=self.rules, hands_bits=self.hands_bits.copy(), held_exposed=self.held_exposed.copy(),
                         exposed=self.exposed, doublings=self.doublings, leader=self.first_leader,
                         opening_lead=self.opening_lead)
        copy.captured_bits = self.captured_bits.copy()
        copy.trick = self.trick.copy()
        copy.history_plays = self.history_plays.copy()
        copy.winners = self.winners.copy()
        copy.leader = self.leader
        copy.seat = self.seat
        copy.suits_led = self.suits_led
        copy.first_round = self.first_round
        return copy

    def options(self) -> Options:
        """Legal plays of the seat to act (see ``moves.play_options``); the deal must not be over."""
        seat = self.seat
        assert seat is not None, "the deal is finished"
        return play_options(self.hands_bits[seat], self.held_exposed[seat], self.trick[0] if self.trick else None,
                            self.suits_led, self.first_round, self.opening_lead, self.ban)

    # ---- the position ------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        """Same position and history (the undo stack is not compared)."""
        return isinstance(other, DealState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[object, ...]:
        return (self.rules, tuple(self.hands_bits), tuple(self.held_exposed), self.exposed, tuple(self.captured_bits),
                tuple(self.trick), tuple(self.history_plays), tuple(self.winners), self.first_leader, self.leader,
                self.seat, self.suits_led, self.first_round, self.opening_lead)

    def __repr__(self) -> str:
        return (f"DealState(rules={self.rules!r}, hands={self.hands!r}, exposed={self.exposed!r}, "
                f"plays={self.plays()!r}, seat={self.seat!r})")

    @property
    def finished(self) -> bool:
        """Whether every card has been played (no seat is to act)."""
        return self.seat is None

    @property
    def ban(self) -> bool:
        """Whether the first-trick ban governs the trick on the table."""
        return self.rules.first_trick_ban and not self.winners

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The cards each seat holds, sorted."""
        return tuple([bits_cards(b) for b in self.hands_bits])

    @property
    def captured(self) -> tuple[tuple[Card, ...], ...]:
        """The cards each seat has taken, sorted."""
        return tuple([bits_cards(b) for b in self.captured_bits])

    @property
    def trick_number(self) -> int:
        """The number of completed tricks (the trick on the table is trick ``trick_number + 1``)."""
        return len(self.winners)

    @property
    def plays_count(self) -> int:
        return len(self.history_plays) + len(self.trick)

    def raw_scores(self) -> tuple[int, ...]:
        """Raw scores of the cards each seat has captured so far."""
        rules, k = self.rules, self.doublings
        return tuple([seat_raw(rules, bits, k) for bits in self.captured_bits])

    # ---- the history -------------------------------------------------------------------------

    def trick_leader(self, number: int) -> int:
        """Who led completed trick ``number`` (0-based)."""
        return self.winners[number - 1] if number else self.first_leader

    def trick_plays(self, number: int) -> list[Play]:
        """The plays of completed trick ``number`` (0-based), in order."""
        return self.history_plays[SEATS * number:SEATS * number + SEATS]

    def completed(self, number: int) -> Trick:
        """Completed trick ``number`` (0-based) of the history."""
        plays = tuple(self.trick_plays(number))
        return Trick(self.trick_leader(number), plays, self.winners[number], cards_of(plays))

    @property
    def history(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        return tuple([self.completed(n) for n in range(len(self.winners))])

    @property
    def last_trick(self) -> Trick | None:
        return self.completed(len(self.winners) - 1) if self.winners else None

    @property
    def completed_trick(self) -> TrickResult | None:
        """The trick the last play completed, ranked; else None."""
        last = self.last_trick
        if last is None or self.trick:
            return None
        return TrickResult(leader=last.leader, plays=last.plays, led_suit=SUITS[last.plays[0][0] // SUIT_SIZE],
                           winner=last.winner, ranking=trick_ranking(last.plays, last.leader),
                           point_cards=last.point_cards)

    @property
    def first_pig_taker(self) -> int | None:
        """The seat that took the first pig (SQ) of the deal, if taken yet."""
        for number, winner in enumerate(self.winners):
            for play in self.trick_plays(number):
                if PIG in play:
                    return winner
        return None

    @property
    def voids(self) -> tuple[int, ...]:
        """Per seat, the 4-bit mask of suits its plays show it holds no more of."""
        voids = [0] * SEATS
        tricks = [(self.trick_leader(n), self.trick_plays(n)) for n in range(len(self.winners))]
        if self.trick:
            tricks.append((self.leader, self.trick))
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
        for taken in self.captured_bits:
            bits = merge_bits(bits, taken)
        return bits

    def plays(self) -> list[Play]:
        """Every play of the deal so far, in order."""
        return self.history_plays + self.trick

