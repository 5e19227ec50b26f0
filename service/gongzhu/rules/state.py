"""The deal state: one type that owns a deal's position, its history and every transition
(docs/engine-api.md, "Deal state").

As in OpenSpiel's Hearts state, the state keeps the deal's history: the plays
of every completed trick in order, four a trick, and who won each, beside the
position they lead to (hands, exposed copies still held, the cards each seat
has taken, the trick on the table). The queries over that history (the trick
leaders, the first pig taker, the cards played, each seat's voids) are
``running``'s, written once there.

Its door is small, as python-chess's ``Board`` (``push``/``pop``, legal moves)
and OpenSpiel's ``State`` (about fifteen methods): ``legal_moves()``,
``is_legal(move)``, ``check(move)``, ``apply(move)`` (checked: an illegal move
raises ``IllegalMove`` and changes nothing; the one way to play a move),
``undo()`` (takes the last one back from a stack of the few values a play
changes beyond the cards), ``clone()``, ``view(seat)``, ``resample(view, rng)``
(deals the cards a seat cannot see: determinization), ``scores()``, and the
read-only ``rules``, ``exposed``, ``seat``, ``finished``, ``trick``, ``hands`` and
``history``. Its fields are private to ``gongzhu.rules``: the play loops
(``table.advance``) and the searches' step (``table.play_option``) are the
engine's certified fast paths, each pinned to ``apply`` by a differential test,
and reach the fields through the state's own private methods.
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Final, NamedTuple, final

from .cards import (
    CARD_NAMES,
    SEATS,
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
from .scoring import Doublings, ScoreSheet, score_bits
from .tricks import point_cards, trick_winner
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


@final
class DealState:
    """A position in a deal, the history that led to it, and its transitions (bits are two-plane
    hands: ``cards``).

    Public: the transitions (``apply``, ``undo``, ``clone``, ``resample``), the judging of a move
    (``legal_moves``, ``is_legal``, ``check``), ``view``, ``scores`` and read-only properties. The
    fields are private to ``gongzhu.rules``: ``_hands`` the cards each seat holds; ``_held`` the
    exposed copies it still holds; ``_exposed`` the effective exposure lists (with the automatic
    fourth card); ``_captured`` the cards each seat has taken; ``_trick`` the plays on the table;
    ``_plays`` the plays of the completed tricks (four a trick) and ``_winners`` who won each;
    ``_opening`` the card the next lead must be (first lead of a first deal), else None; ``_seat``
    the seat to act, None when the deal is over. Code outside ``gongzhu.rules`` reads them through
    the properties and ``running``'s queries (tests/rules/test_one_door.py checks it).
    """

    _rules: Rules
    _hands: list[int]
    _held: list[int]
    _exposed: tuple[tuple[Card, ...], ...]
    _doublings: Doublings
    _captured: list[int]
    _trick: list[Play]
    _plays: list[Play]
    _winners: list[int]
    _first_leader: int
    _leader: int
    _seat: int | None
    _suits_led: int
    _first_round: bool
    _opening: Card | None
    _frames: list[Frame]

    def __init__(self, *, rules: Rules, hands_bits: list[int], held_exposed: list[int],
                 exposed: tuple[tuple[Card, ...], ...], doublings: Doublings, leader: int,
                 opening_lead: Card | None) -> None:
        """The state before the first play (``play.initial_state`` builds it from a deal); ``doublings``
        are what the exposures do to scores (``scoring.doublings``)."""
        self._rules = rules
        self._hands = hands_bits
        self._held = held_exposed
        self._exposed = exposed
        self._doublings = doublings
        self._captured = [0, 0, 0, 0]
        self._trick = []
        self._plays = []
        self._winners = []
        self._first_leader = leader
        self._leader = leader
        self._seat = leader
        self._suits_led = 0
        self._first_round = False
        self._opening = opening_lead
        self._frames = []

    # ---- the position, read-only -------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The deal's rules."""
        return self._rules

    @property
    def exposed(self) -> tuple[tuple[Card, ...], ...]:
        """Per seat, the cards it exposed (with the automatic fourth card), as dealt."""
        return self._exposed

    @property
    def seat(self) -> int | None:
        """The seat to act; None when the deal is finished."""
        return self._seat

    @property
    def finished(self) -> bool:
        """Whether every card has been played (no seat is to act)."""
        return self._seat is None

    @property
    def trick(self) -> tuple[Play, ...]:
        """The plays on the table, in order (the first is the lead)."""
        return tuple(self._trick)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The cards each seat holds, sorted."""
        return tuple([bits_cards(b) for b in self._hands])

    @property
    def history(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        return tuple([self._completed(n) for n in range(len(self._winners))])

    def scores(self) -> ScoreSheet:
        """The score sheet of the cards each seat has taken so far, under the deal's exposures
        (``scoring.score_cards``); final when ``finished``."""
        return score_bits(self._rules, self._captured, self._exposed, self._doublings)

    # ---- judging a move ----------------------------------------------------------------------

    def _options(self) -> Options:
        """Legal plays of the seat to act as masks (``moves.play_options``); the deal must not be over."""
        seat = self._seat
        assert seat is not None, "the deal is finished"
        return play_options(self._hands[seat], self._held[seat], self._trick[0] if self._trick else None,
                            self._suits_led, self._first_round, self._opening, self._ban)

    def legal_moves(self) -> list[Play]:
        """Every legal play of the seat to act: single cards ascending, then two-card plays; ``[]`` when
        the deal is finished."""
        seat = self._seat
        if seat is None:
            return []
        # _options' call written out: the embedders' commonest question, two calls less (its method, _ban)
        trick = self._trick
        return option_list(play_options(self._hands[seat], self._held[seat], trick[0] if trick else None,
                                        self._suits_led, self._first_round, self._opening,
                                        self._rules.first_trick_ban and not self._winners))

    def is_legal(self, move: object) -> bool:
        """Whether ``move`` (a card or cards, names or ints) is a legal play of the seat to act."""
        try:
            cards = as_move(move)
        except RuleError:
            return False
        return self._seat is not None and is_option(tuple(sorted(cards)), self._options())

    def check(self, move: object, seat: int | None = None) -> None:
        """Raise ``IllegalMove`` (with the rule's code) unless ``move`` is legal now (for ``seat``, if given).

        Raises:
            RuleError: ``invalid_card`` or ``invalid_move`` when ``move`` is not a card or cards.
            IllegalMove: ``deal_finished``, ``not_your_turn``, ``invalid_move`` (the trick's shape),
                ``card_not_in_hand`` (``index``: the position in ``move`` as given of the first card
                the seat does not hold), or the rule the play breaks (``must_follow_suit``, ...).
        """
        given = as_move(move)
        if self._seat is None:
            raise IllegalMove(DEAL_FINISHED(), code="deal_finished")
        if seat is not None and seat != self._seat:
            raise IllegalMove(NOT_YOUR_TURN(seat=self._seat, asked=seat), code="not_your_turn")
        play = tuple(sorted(given))
        self._check_shape(play)
        hand = self._hands[self._seat]
        missing = first_unheld(hand, play)
        if missing is not None:
            card = play[missing]
            text = NOT_HELD_TWICE if play.count(card) == MOST_CARDS_A_PLAY else NOT_HELD
            raise IllegalMove(text(seat=self._seat, card=CARD_NAMES[card]), code="card_not_in_hand",
                              index=first_unheld(hand, given))
        code = verify_play(hand, self._held[self._seat], self._trick[0] if self._trick else None,
                           self._suits_led, self._first_round, self._opening, self._ban, play)
        if code is not None:
            raise self._illegal(code)

    def _check_shape(self, play: Play) -> None:
        size = len(play)
        if self._trick:
            need = len(self._trick[0])
            if size != need:
                raise IllegalMove(PLAY_SIZE(need=need), code="invalid_move")
        elif size not in (1, self._rules.decks) or (size == MOST_CARDS_A_PLAY and play[0] != play[1]):
            text = LEAD_ONE_OR_PAIR() if self._rules.decks == MOST_CARDS_A_PLAY else LEAD_ONE_CARD()
            raise IllegalMove(text, code="invalid_move")

    def _illegal(self, code: str) -> IllegalMove:
        """The error for the rule ``verify_play`` found broken."""
        if code == "must_lead_opening_card":
            assert self._opening is not None
            text = MUST_LEAD_OPENING(card=CARD_NAMES[self._opening])
        elif code == "first_trick_ban":
            text = FIRST_TRICK_BAN()
        elif code == "exposed_card_first_round":
            text = EXPOSED_FIRST_ROUND()
        else:
            suit = suit_name(SUITS[self._trick[0][0] // SUIT_SIZE])
            text = (MUST_FOLLOW_PAIR if code == "must_follow_pair" else MUST_FOLLOW_SUIT)(suit=suit)
        return IllegalMove(text, code=code)

    @property
    def _ban(self) -> bool:
        """Whether the first-trick ban governs the trick on the table."""
        return self._rules.first_trick_ban and not self._winners

    # ---- transitions -------------------------------------------------------------------------

    def apply(self, move: object, seat: int | None = None) -> None:
        """Play ``move`` (a card or cards, names or ints, in any order) for the seat to act (``seat``,
        if given, must be it): the one way to play a move. An illegal move raises as ``check`` does
        and leaves the state as it was; ``undo`` takes a legal one back."""
        given = as_move(move)
        self.check(given, seat)
        self._play(tuple(sorted(given)))

    def _play(self, move: Play) -> None:
        """The play step, unchecked: ``move`` (sorted ints) must be one of ``_options``'. ``apply`` calls
        it after its check; ``table.play_option`` is the searches' path to it (an illegal move here
        corrupts the state)."""
        seat = self._seat
        assert seat is not None, "the deal is finished"
        held = self._held[seat]
        self._frames.append((seat, held, self._suits_led, self._first_round, self._opening, self._leader))
        trick = self._trick
        suit = move[0] // SUIT_SIZE
        if not trick:
            self._first_round = not self._suits_led >> suit & 1
            self._suits_led |= 1 << suit
            self._opening = None
        lead_suit = trick[0][0] // SUIT_SIZE if trick else suit
        first_round = self._first_round
        hand = self._hands[seat]
        for c in move:
            if held:
                held = release(hand, held, c, first_round and c // SUIT_SIZE == lead_suit)
            hand = remove_card(hand, c)
        self._hands[seat] = hand
        self._held[seat] = held
        trick.append(move)
        if len(trick) < SEATS:
            self._seat = (seat + 1) % SEATS
            return
        # the trick is complete: its winner takes every card and leads next
        winner = trick_winner(trick, self._leader)
        self._captured[winner] = merge_bits(self._captured[winner], cards_of(trick))
        self._plays.extend(trick)
        self._winners.append(winner)
        trick.clear()
        self._leader = winner
        self._seat = winner if self._hands[winner] else None

    def undo(self) -> None:
        """Take back the last ``apply``d move (``RuleError`` ``nothing_to_undo`` when there is none:
        a fresh state, a clone, or after a whole-deal play loop)."""
        if not self._frames:
            raise RuleError(NOTHING_TO_UNDO(), code="nothing_to_undo")
        seat, held, suits_led, first_round, opening, leader = self._frames.pop()
        trick = self._trick
        if trick:
            move = trick.pop()
        else:
            # the move completed a trick: its plays go back on the table, its cards leave the winner's pile
            start = len(self._plays) - SEATS
            plays = self._plays[start:]
            del self._plays[start:]
            winner = self._winners.pop()
            pile = self._captured[winner]
            for play in plays:
                for c in play:
                    pile = remove_card(pile, c)
            self._captured[winner] = pile
            move = plays.pop()
            trick.extend(plays)
        hand = self._hands[seat]
        for c in move:
            hand = merge_bits(hand, 1 << c)
        self._hands[seat] = hand
        self._held[seat] = held
        self._seat, self._suits_led, self._first_round, self._opening, self._leader = (
            seat, suits_led, first_round, opening, leader)

    def clone(self) -> DealState:
        """An independent copy (its own lists; no move of this state to undo)."""
        copy = DealState(rules=self._rules, hands_bits=self._hands.copy(), held_exposed=self._held.copy(),
                         exposed=self._exposed, doublings=self._doublings, leader=self._first_leader,
                         opening_lead=self._opening)
        copy._captured = self._captured.copy()
        copy._trick = self._trick.copy()
        copy._plays = self._plays.copy()
        copy._winners = self._winners.copy()
        copy._leader = self._leader
        copy._seat = self._seat
        copy._suits_led = self._suits_led
        copy._first_round = self._first_round
        return copy

    # ---- the play loops' private door (table.py) ---------------------------------------------

    def _lend(self) -> tuple[list[int], list[int], list[int], list[Play], list[Play], list[int]]:
        """The lists a play loop changes in place while it runs (hands, exposed copies held, piles, the
        trick, the completed tricks' plays, the winners); its plays are not taken back one by one, so
        the undo stack is emptied. The loop hands back its scalars through ``_commit``."""
        self._frames.clear()
        return self._hands, self._held, self._captured, self._trick, self._plays, self._winners

    def _commit(self, seat: int | None, leader: int, suits_led: int, first_round: bool,
                opening: Card | None) -> None:
        """The values a play loop keeps in locals while it runs, back into the state."""
        self._seat, self._leader, self._suits_led, self._first_round, self._opening = (
            seat, leader, suits_led, first_round, opening)

    # ---- information sets --------------------------------------------------------------------

    def view(self, seat: int | None = None) -> SeatView:
        """The information set of ``seat`` (default: the seat to act): its own hand, every exposure
        (an exposed copy not yet played is known to be in its exposer's hand), every card played and
        the suits each seat has shown it is void in. No other seat's hand is read."""
        if seat is None:
            seat = self._seat
        if seat is None:
            raise RuleError(DEAL_FINISHED(), code="deal_finished")
        played = self._played()
        # every seat plays as many cards per trick as the leader
        per_seat = sum(len(self._plays[SEATS * n]) for n in range(len(self._winners)))
        in_trick = [0] * SEATS
        for i, play in enumerate(self._trick):
            in_trick[(self._leader + i) % SEATS] = len(play)
        sizes = tuple(self._rules.hand_size - per_seat - in_trick[s] for s in range(SEATS))
        hand = self._hands[seat]
        known = tuple(hand if s == seat else self._held[s] for s in range(SEATS))
        unseen = list(full_deck(self._rules.decks))
        for c in bits_cards(played) + tuple(c for bits in known for c in bits_cards(bits)):
            unseen.remove(c)
        return SeatView(seat=seat, hand=hand, known=known, sizes=sizes, voids=self._voids(),
                        unseen=tuple(unseen), played=played)

    def resample(self, view: SeatView, rng: random.Random, absent: tuple[int, ...] | None = None) -> DealState:
        """A copy of this state with the cards ``view``'s seat cannot see dealt anew, consistently with
        what it knows (``information.sample_hidden``; ``absent``: per seat, cards it is believed not to
        hold), as OpenSpiel's ``ResampleFromInfostate``. ``RuleError`` when ``view`` is not of this deal."""
        if view.hand != self._hands[view.seat] or view.played != self._played():
            raise RuleError(VIEW_OF_OTHER_DEAL(seat=view.seat), code="view_of_other_deal")
        copy = self.clone()
        copy._hands = sample_hidden(view, rng, absent)
        return copy

    # ---- equality and text -------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        """Same position and history (the undo stack is not compared)."""
        return isinstance(other, DealState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[object, ...]:
        return (self._rules, tuple(self._hands), tuple(self._held), self._exposed, tuple(self._captured),
                tuple(self._trick), tuple(self._plays), tuple(self._winners), self._first_leader, self._leader,
                self._seat, self._suits_led, self._first_round, self._opening)

    def __repr__(self) -> str:
        """The position with card names (``SQ``), as a reader of the rules writes them."""
        def names(cards: Iterable[Card]) -> list[str]:
            return [CARD_NAMES[c] for c in cards]
        hands = [names(hand) for hand in self.hands]
        exposed = [names(cards) for cards in self._exposed]
        plays = [names(play) for play in self._plays + self._trick]
        return (f"DealState(rules={self._rules!r}, hands={hands!r}, exposed={exposed!r}, plays={plays!r}, "
                f"seat={self._seat!r})")

    # ---- the history's private queries (running.py shows them) ------------------------------

    def _completed(self, number: int) -> Trick:
        """Completed trick ``number`` (0-based) of the history."""
        at = SEATS * number
        plays = tuple(self._plays[at:at + SEATS])
        leader = self._winners[number - 1] if number else self._first_leader
        return Trick(leader, plays, self._winners[number], cards_of(plays))

    def _played(self) -> int:
        """Two-plane bits of every card played so far (the tricks taken and the current trick)."""
        bits = cards_of(self._trick)
        for taken in self._captured:
            bits = merge_bits(bits, taken)
        return bits

    def _voids(self) -> tuple[int, ...]:
        """Per seat, the 4-bit mask of suits its plays show it holds no more of."""
        voids = [0] * SEATS
        plays = self._plays
        for n in range(len(self._winners)):
            leader = self._winners[n - 1] if n else self._first_leader
            for seat, mask in enumerate(trick_voids(leader, plays[SEATS * n:SEATS * n + SEATS])):
                voids[seat] |= mask
        if self._trick:
            for seat, mask in enumerate(trick_voids(self._leader, self._trick)):
                voids[seat] |= mask
        return tuple(voids)
