"""The deal state: one type that owns a deal's position, its history and every transition
(docs/engine-api.md, "Deal state").

As in OpenSpiel's Hearts state, the state keeps the deal's history: the plays
of every completed trick in order (``history_plays``, four a trick) and who won
each (``winners``), beside the position they lead to (hands, exposed copies
still held, the cards each seat has taken, the trick on the table). The
completed tricks (``history``), the first pig taker, the trick leaders, the
cards played and each seat's voids are queries over that history, written once
here.

Its transitions are methods, as python-chess's ``Board.push``/``pop`` and
OpenSpiel's ``ApplyAction``/``UndoAction``/``Clone``/``ResampleFromInfostate``:
``apply(move)`` checks the move (an illegal one raises ``IllegalMove`` and
changes nothing), ``apply_unchecked(move)`` is the search's path for a move
taken from the legal options, ``undo()`` takes the last one back from a stack
of the few values a play changes beyond the cards, ``clone()`` copies, and
``resample(view, rng)`` deals the cards a seat cannot see (determinization).
The fast play loops of whole deals (``table.advance``) import this module and
write its fields directly; nothing outside the engine does.
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Final, NamedTuple

from .cards import (
    CARD_NAMES,
    ONE_PLANE,
    PIG,
    PLANE,
    SEATS,
    SUIT_MASKS,
    SUIT_SIZE,
    SUITS,
    Card,
    Play,
    bits_cards,
    cards_of,
    count_of,
    first_unheld,
    full_deck,
    merge_bits,
    parse_card,
    remove_card,
)
from .errors import IllegalMove, RuleError
from .information import SeatView, sample_hidden
from .messages import (
    DEAL_FINISHED,
    EXPOSED_FIRST_ROUND,
    FIRST_TRICK_BAN,
    LEAD_ONE_CARD,
    LEAD_ONE_OR_PAIR,
    MUST_FOLLOW_PAIR,
    MUST_FOLLOW_SUIT,
    MUST_LEAD_OPENING,
    NOT_A_MOVE,
    NOT_HELD,
    NOT_HELD_TWICE,
    NOT_YOUR_TURN,
    NOTHING_TO_UNDO,
    PLAY_SIZE,
    VIEW_OF_OTHER_DEAL,
    suit_name,
)
from .moves import Options, is_option, option_list, play_options, verify_play
from .scoring import Doublings, ScoreSheet, score_bits, seat_raw
from .tricks import TrickResult, point_cards, trick_ranking, trick_winner
from .variants import Rules

# the most cards one play holds (a pair, with two decks)
MOST_CARDS_A_PLAY: Final = 2

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


def release(hand: int, held: int, card: Card, governed: bool) -> int:
    """Exposed copies left after playing ``card`` from ``hand`` (two-plane bits).

    A play the first-round restriction governs uses an unexposed copy when one
    is held; any other play (a discard, or after the first round) uses an
    exposed copy first. With one deck the card played is the exposed copy, if
    it is one.
    """
    if not held >> card & 1:
        return held
    if governed and count_of(hand, card) > count_of(held, card):
        return held
    return remove_card(held, card)


def as_move(move: object) -> tuple[Card, ...]:
    """A move as the public methods accept it: a card (``"SQ"`` or its int) or a sequence of
    cards, names or ints; the cards in the order given (``RuleError`` ``invalid_card``
    or ``invalid_move`` when it is not one)."""
    if isinstance(move, str):
        return (parse_card(move),)
    if isinstance(move, int) and not isinstance(move, bool):
        return (_card(move),)
    if isinstance(move, Iterable):
        # any number of cards: a play of the wrong size is judged by the rules of the trick's shape
        return tuple([parse_card(c) if isinstance(c, str) else _card(c) for c in move])
    raise RuleError(NOT_A_MOVE(text=repr(move)), code="invalid_move")


def _card(value: object) -> Card:
    """An int card in range, else ``RuleError`` ``invalid_card``."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(CARD_NAMES):
        return value
    return parse_card(value)


class DealState:
    """A position in a deal, the history that led to it, and its transitions (bits are two-plane
    hands: ``cards``).

    ``hands_bits`` are the cards each seat holds; ``held_exposed`` the exposed
    copies it still holds; ``exposed`` the effective exposure lists (with the
    automatic fourth card); ``captured_bits`` the cards each seat has taken;
    ``trick`` the plays on the table; ``opening_lead`` the card the next lead
    must be (first lead of a first deal), else None; ``seat`` the seat to act,
    None when the deal is over. Read the fields; change the state only through
    its methods.
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

    # ---- judging a move ----------------------------------------------------------------------

    def options(self) -> Options:
        """Legal plays of the seat to act as masks (``moves.play_options``); the deal must not be over."""
        seat = self.seat
        assert seat is not None, "the deal is finished"
        return play_options(self.hands_bits[seat], self.held_exposed[seat], self.trick[0] if self.trick else None,
                            self.suits_led, self.first_round, self.opening_lead, self.ban)

    def legal_moves(self) -> list[Play]:
        """Every legal play of the seat to act: single cards ascending, then two-card plays; ``[]`` when
        the deal is finished."""
        if self.seat is None:
            return []
        return option_list(self.options())

    def is_legal(self, move: object) -> bool:
        """Whether ``move`` (a card or cards, names or ints) is a legal play of the seat to act."""
        try:
            cards = as_move(move)
        except RuleError:
            return False
        return self.seat is not None and is_option(tuple(sorted(cards)), self.options())

    def check(self, move: object, seat: int | None = None) -> None:
        """Raise ``IllegalMove`` (with the rule's code) unless ``move`` is legal now (for ``seat``, if given).

        Raises:
            RuleError: ``invalid_card`` or ``invalid_move`` when ``move`` is not a card or cards.
            IllegalMove: ``deal_finished``, ``not_your_turn``, ``invalid_move`` (the trick's shape),
                ``card_not_in_hand`` (``index``: the position in ``move`` as given of the first card
                the seat does not hold), or the rule the play breaks (``must_follow_suit``, ...).
        """
        given = as_move(move)
        if self.seat is None:
            raise IllegalMove(DEAL_FINISHED(), code="deal_finished")
        if seat is not None and seat != self.seat:
            raise IllegalMove(NOT_YOUR_TURN(seat=self.seat, asked=seat), code="not_your_turn")
        play = tuple(sorted(given))
        self._check_shape(play)
        hand = self.hands_bits[self.seat]
        missing = first_unheld(hand, play)
        if missing is not None:
            card = play[missing]
            text = NOT_HELD_TWICE if play.count(card) == MOST_CARDS_A_PLAY else NOT_HELD
            raise IllegalMove(text(seat=self.seat, card=CARD_NAMES[card]), code="card_not_in_hand",
                              index=first_unheld(hand, given))
        code = verify_play(hand, self.held_exposed[self.seat], self.trick[0] if self.trick else None,
                           self.suits_led, self.first_round, self.opening_lead, self.ban, play)
        if code is not None:
            raise self._illegal(code)

    def _check_shape(self, play: Play) -> None:
        size = len(play)
        if self.trick:
            need = len(self.trick[0])
            if size != need:
                raise IllegalMove(PLAY_SIZE(need=need), code="invalid_move")
        elif size not in (1, self.rules.decks) or (size == MOST_CARDS_A_PLAY and play[0] != play[1]):
            text = LEAD_ONE_OR_PAIR() if self.rules.decks == MOST_CARDS_A_PLAY else LEAD_ONE_CARD()
            raise IllegalMove(text, code="invalid_move")

    def _illegal(self, code: str) -> IllegalMove:
        """The error for the rule ``verify_play`` found broken."""
        if code == "must_lead_opening_card":
            assert self.opening_lead is not None
            text = MUST_LEAD_OPENING(card=CARD_NAMES[self.opening_lead])
        elif code == "first_trick_ban":
            text = FIRST_TRICK_BAN()
        elif code == "exposed_card_first_round":
            text = EXPOSED_FIRST_ROUND()
        else:
            suit = suit_name(SUITS[self.trick[0][0] // SUIT_SIZE])
            text = (MUST_FOLLOW_PAIR if code == "must_follow_pair" else MUST_FOLLOW_SUIT)(suit=suit)
        return IllegalMove(text, code=code)

    # ---- transitions -------------------------------------------------------------------------

    def apply(self, move: object, seat: int | None = None) -> None:
        """Play ``move`` (a card or cards, names or ints, in any order) for the seat to act (``seat``,
        if given, must be it). An illegal move raises as ``check`` does and leaves the state as it was;
        ``undo`` takes a legal one back."""
        given = as_move(move)
        self.check(given, seat)
        self.apply_unchecked(tuple(sorted(given)))

    def apply_unchecked(self, move: Play) -> None:
        """Play ``move`` unchecked: a search's path for a play taken from ``options``/``legal_moves``
        (sorted ints). An illegal move here corrupts the state; ``apply`` is the checked path."""
        seat = self.seat
        assert seat is not None, "the deal is finished"
        held = self.held_exposed[seat]
        self.frames.append((seat, held, self.suits_led, self.first_round, self.opening_lead, self.leader))
        trick = self.trick
        suit = move[0] // SUIT_SIZE
        if not trick:
            self.first_round = not self.suits_led >> suit & 1
            self.suits_led |= 1 << suit
            self.opening_lead = None
        lead_suit = trick[0][0] // SUIT_SIZE if trick else suit
        first_round = self.first_round
        hand = self.hands_bits[seat]
        for c in move:
            if held:
                held = release(hand, held, c, first_round and c // SUIT_SIZE == lead_suit)
            hand = remove_card(hand, c)
        self.hands_bits[seat] = hand
        self.held_exposed[seat] = held
        trick.append(move)
        if len(trick) < SEATS:
            self.seat = (seat + 1) % SEATS
            return
        # the trick is complete: its winner takes every card and leads next
        winner = trick_winner(trick, self.leader)
        self.captured_bits[winner] = merge_bits(self.captured_bits[winner], cards_of(trick))
        self.history_plays.extend(trick)
        self.winners.append(winner)
        trick.clear()
        self.leader = winner
        self.seat = winner if self.hands_bits[winner] else None

    def undo(self) -> None:
        """Take back the last ``apply``d move (``RuleError`` ``nothing_to_undo`` when there is none:
        a fresh state, a clone, or after a whole-deal play loop)."""
        if not self.frames:
            raise RuleError(NOTHING_TO_UNDO(), code="nothing_to_undo")
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

    def view(self, seat: int | None = None) -> SeatView:
        """The information set of ``seat`` (default: the seat to act): its own hand, every exposure
        (an exposed copy not yet played is known to be in its exposer's hand), every card played and
        the suits each seat has shown it is void in. No other seat's hand is read."""
        if seat is None:
            seat = self.seat
        if seat is None:
            raise RuleError(DEAL_FINISHED(), code="deal_finished")
        played = self.played()
        # every seat plays as many cards per trick as the leader
        per_seat = sum(len(self.history_plays[SEATS * n]) for n in range(self.trick_number))
        in_trick = [0] * SEATS
        for i, play in enumerate(self.trick):
            in_trick[(self.leader + i) % SEATS] = len(play)
        sizes = tuple(self.rules.hand_size - per_seat - in_trick[s] for s in range(SEATS))
        hand = self.hands_bits[seat]
        known = tuple(hand if s == seat else self.held_exposed[s] for s in range(SEATS))
        unseen = list(full_deck(self.rules.decks))
        for c in bits_cards(played) + tuple(c for bits in known for c in bits_cards(bits)):
            unseen.remove(c)
        return SeatView(seat=seat, hand=hand, known=known, sizes=sizes, voids=self.voids,
                        unseen=tuple(unseen), played=played)

    def resample(self, view: SeatView, rng: random.Random, absent: tuple[int, ...] | None = None) -> DealState:
        """A copy of this state with the cards ``view``'s seat cannot see dealt anew, consistently with
        what it knows (``information.sample_hidden``; ``absent``: per seat, cards it is believed not to
        hold), as OpenSpiel's ``ResampleFromInfostate``. ``RuleError`` when ``view`` is not of this deal."""
        if view.hand != self.hands_bits[view.seat] or view.played != self.played():
            raise RuleError(VIEW_OF_OTHER_DEAL(seat=view.seat), code="view_of_other_deal")
        copy = self.clone()
        copy.hands_bits = sample_hidden(view, rng, absent)
        return copy

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
        """The position with card names (``SQ``), as a reader of the rules writes them."""
        def names(cards: Iterable[Card]) -> list[str]:
            return [CARD_NAMES[c] for c in cards]
        hands = [names(hand) for hand in self.hands]
        exposed = [names(cards) for cards in self.exposed]
        plays = [names(play) for play in self.plays()]
        return (f"DealState(rules={self.rules!r}, hands={hands!r}, exposed={exposed!r}, plays={plays!r}, "
                f"seat={self.seat!r})")

    @property
    def finished(self) -> bool:
        """Whether every card has been played (no seat is to act)."""
        return self.seat is None

    @property
    def plain(self) -> bool:
        """Whether no card is special any more: no opening card due, no first-trick ban, and every exposed
        copy still held is of a suit already led (one whose first round is the trick on the table counts
        as not led: its exposed copies are still held back), so it plays as any other copy. Then the legal
        plays are the follow rules' alone, and only which card beats which decides who takes a trick (the
        play loops' fast cases, the solvers' renumbered positions). The one definition."""
        if self.opening_lead is not None or self.ban:
            return False
        held = self.held_exposed
        if not (held[0] or held[1] or held[2] or held[3]):
            return True
        led = self.suits_led
        if self.trick and self.first_round:
            led &= ~(1 << self.trick[0][0] // SUIT_SIZE)
        both = held[0] | held[1] | held[2] | held[3]
        exposed = (both | both >> PLANE) & ONE_PLANE
        for suit in range(4):
            if exposed & SUIT_MASKS[suit] and not led >> suit & 1:
                return False
        return True

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

    def scores(self) -> ScoreSheet:
        """The score sheet of the cards each seat has taken so far, under the deal's exposures
        (``scoring.score_cards``); final when ``finished``."""
        return score_bits(self.rules, self.captured_bits, self.exposed, self.doublings)

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

