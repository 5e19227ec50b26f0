"""The fast play loops: a ``DealState`` played on by a chooser until the deal ends (docs/rules.md, "Play").

``DealState.apply`` plays one move; a whole deal played that way pays for a
method call, a frame for ``undo`` and the trick's bookkeeping per play. These
loops play many moves in one call for ``replay`` of a history, random
playouts and the bot's playouts, keeping the position in locals: the state
lends them its lists (``DealState._lend``) and takes their scalars back
(``DealState._commit``). They are the engine's certified fast paths, beside
``play_option``, the searches' step down a tree (walked back with
``DealState.undo``): tests/rules/test_play_loops.py checks both against
the checked ``DealState.apply``. A *chooser* picks each play from the legal
options ``(single cards, pairs, other two-card plays)`` (see ``moves``): a
scripted history (replay), or a random/heuristic policy (simulation).

There is one loop for one deck and one for two decks, chosen once a call: with
one deck a hand is one plane of 52 bits, no play has two cards and a trick's
winner is the best card of the led suit; with two decks each hand is kept as
its two planes apart (two ints of 52 bits) while the loop runs.
"""
from __future__ import annotations

import random as _random
from collections.abc import Callable, Sequence
from typing import Final

from .cards import (
    ONE_PLANE,
    PLANE,
    SEATS,
    SPAN_BITS,
    SUIT_MASKS,
    SUIT_RANKS,
    SUIT_SIZE,
    SUIT_SUBSETS,
    Play,
    cards_of,
    nth_card,
    plane_count,
    remove_card,
)
from .moves import NO_PLAYS, follow_pair_options, play_options, two_of
from .running import plain
from .state import DealState, release, trick_voids
from .tricks import leading_index, trick_winner
from .variants import Rules

SINGLE_PLAYS: Final[tuple[Play, ...]] = tuple([(c,) for c in range(PLANE)])
PAIR_PLAYS: Final[tuple[Play, ...]] = tuple([(c, c) for c in range(PLANE)])
# by the bit length of a mask's lowest set bit (card + 1): the first card of that card's suit
LOW_SUIT_BASES: Final = (0, *(card - card % SUIT_SIZE for card in range(PLANE)))


class Chooser:
    """Picks each play from the legal options: a one-plane mask of single cards, a one-plane
    mask of pairs, and the other two-card plays (``moves.play_options``). The play loop calls
    ``choose``; calling the chooser itself does the same."""

    def choose(self, singles: int, pairs: int, others: Sequence[Play]) -> Play:
        raise NotImplementedError

    def __call__(self, singles: int, pairs: int, others: Sequence[Play]) -> Play:
        return self.choose(singles, pairs, others)


ChooseFunction = Callable[[int, int, Sequence[Play]], Play]


class FunctionChooser(Chooser):
    """A chooser that calls a function of the three options."""

    def __init__(self, function: ChooseFunction) -> None:
        self.function = function

    def choose(self, singles: int, pairs: int, others: Sequence[Play]) -> Play:
        return self.function(singles, pairs, others)


class LiveDeal:
    """What a chooser may read of the deal a play loop is playing: a read-only view of the state.

    The loop keeps the trick, the history and the winners up to date as it plays (with one deck
    the hands and the piles too; with two decks those are written back when it returns). A
    chooser reads them here, typed as read-only sequences, and never holds the state's lists.
    What the completed tricks show (their cards, the suits each seat is void in) is read once
    per trick, as the loop completes it (``gone``, ``voids``).
    """

    def __init__(self, state: DealState) -> None:
        self._state = state
        # the state's own lists, which the loops change in place, typed read-only
        self.trick: Sequence[Play] = state._trick
        self.history: Sequence[Play] = state._plays   # the plays of the completed tricks, four a trick
        self.winners: Sequence[int] = state._winners
        self.hands: Sequence[int] = state._hands
        self.captured: Sequence[int] = state._captured
        self.first_leader = state._first_leader
        self.rules: Rules = state._rules
        # the completed tricks read so far, and what they show: their cards (one plane: any copy), the
        # voids (each read only when asked: a chooser may want one and not the other)
        self._gone_counted = 0
        self._gone = 0
        self._voids_counted = 0
        self._voids = [0, 0, 0, 0]

    @property
    def leader(self) -> int:
        """Who led the trick on the table (the last trick's winner)."""
        winners = self._state._winners
        return winners[-1] if winners else self._state._first_leader

    @property
    def seat(self) -> int:
        """The seat to act."""
        return (self.leader + len(self._state._trick)) % SEATS

    def gone(self) -> int:
        """The cards of the completed tricks (one plane: any copy)."""
        history = self._state._plays
        if self._gone_counted > len(history):   # the state was taken back
            self._gone_counted, self._gone = 0, 0
        gone = self._gone
        for n in range(self._gone_counted, len(history)):
            for card in history[n]:
                gone |= 1 << card
        self._gone = gone
        self._gone_counted = len(history)
        return gone

    def played(self) -> int:
        """The cards played so far (one plane: any copy): the completed tricks' and the trick's on the table."""
        played = self.gone()
        for play in self._state._trick:
            for card in play:
                played |= 1 << card
        return played

    def voids(self) -> Sequence[int]:
        """Per seat, the 4-bit mask of suits its plays show it holds no more of (``running.voids``),
        the trick on the table included."""
        state = self._state
        winners = state._winners
        if self._voids_counted > len(winners):   # the state was taken back
            self._voids_counted, self._voids = 0, [0, 0, 0, 0]
        voids = self._voids
        for n in range(self._voids_counted, len(winners)):
            shown = trick_voids(winners[n - 1] if n else state._first_leader, state._plays[SEATS * n:SEATS * n + SEATS])
            for seat in range(SEATS):
                voids[seat] |= shown[seat]
        self._voids_counted = len(winners)
        trick = state._trick
        if len(trick) < 2:
            return voids
        voids = voids.copy()
        shown = trick_voids(self.leader, trick)
        for seat in range(SEATS):
            voids[seat] |= shown[seat]
        return voids


class RandomChooser(Chooser):
    """Uniformly random legal plays, drawn from ``rng`` (a ``random.Random``).

    An index below n is drawn exactly: ``getrandbits`` of n's bit length,
    drawn again while it is n or more (small draws are cached ints: cheaper
    than scaling a wide draw). A single option takes no draw.
    """

    def __init__(self, rng: _random.Random) -> None:
        self.getrandbits: Callable[[int], int] = rng.getrandbits

    def choose(self, singles: int, pairs: int, others: Sequence[Play]) -> Play:
        getrandbits = self.getrandbits
        if not (pairs or others):
            base = LOW_SUIT_BASES[(singles & -singles).bit_length()]
            rest = singles >> base
            if rest < SUIT_SUBSETS:
                # every option is in one suit
                ranks = SUIT_RANKS[rest]
                n = len(ranks)
                if n == 1:
                    return SINGLE_PLAYS[base + ranks[0]]
                bits = SPAN_BITS[n]
                k = getrandbits(bits)
                while k >= n:
                    k = getrandbits(bits)
                return SINGLE_PLAYS[base + ranks[k]]
        n = plane_count(singles)
        p = plane_count(pairs) if pairs else 0
        total = n + p + len(others)
        if total == 1:
            k = 0
        else:
            bits = total.bit_length()
            k = getrandbits(bits)
            while k >= total:
                k = getrandbits(bits)
        if k < n:
            return SINGLE_PLAYS[nth_card(singles, k)]
        if k < n + p:
            return PAIR_PLAYS[nth_card(pairs, k - n)]
        return others[k - n - p]


def random_chooser(rng: _random.Random) -> RandomChooser:
    """Uniformly random legal plays drawn from ``rng`` (``RandomChooser``)."""
    return RandomChooser(rng)


def advance(t: DealState, chooser: Chooser | ChooseFunction, limit: int = -1) -> None:
    """Play until the deal ends or ``limit`` plays are made, each chosen by ``chooser``
    (a ``Chooser``, or a function of the three options).

    While it runs, the trick, the completed tricks and the winners are live (a chooser may read
    them through ``LiveDeal``); with two decks the hands and piles are written back when it returns.
    The state's undo stack is emptied: the loop's plays are not taken back one by one.
    """
    if t._seat is None:
        return
    if not isinstance(chooser, Chooser):
        chooser = FunctionChooser(chooser)
    if t._rules.decks == 1:
        _advance_one_deck(t, chooser, limit)
    else:
        _advance_two_decks(t, chooser, limit)


def _single_lead_best(trick: list[Play], leader: int) -> tuple[int, int, int]:
    """(best card, end of the led suit, its seat) of a single-card trick in progress."""
    if not trick or len(trick[0]) != 1:
        return -1, 0, leader
    cards = [play[0] for play in trick]
    at = leading_index(cards)
    best = cards[at]
    return best, best - best % SUIT_SIZE + SUIT_SIZE, (leader + at) % SEATS


def _advance_one_deck(t: DealState, chooser: Chooser, limit: int) -> None:  # noqa: C901, PLR0912, PLR0915
    """``advance`` with one deck: a hand is one plane, every play one card.

    The options handed to the chooser are ``moves.play_options``; while no seat holds an
    exposed copy, no first-trick ban applies and no opening card is due, they are the
    expressions ``lead_options`` and ``follow_single_mask`` reduce to, computed inline
    (tests/rules/test_options.py checks every option set the loop hands out against
    ``play_options``).
    """
    seat: int = t._leader if t._seat is None else t._seat
    finished = False
    special = not plain(t)
    hands, helds, captured, trick, history, winners = t._lend()
    leader, suits_led, first_round, opening = t._leader, t._suits_led, t._first_round, t._opening
    ban = t._rules.first_trick_ban and not winners
    taken = cards_of(trick) if trick else 0
    lead = trick[0] if trick else None
    best, top, winner = _single_lead_best(trick, leader)
    follow = SUIT_MASKS[lead[0] // SUIT_SIZE] if lead is not None else 0
    # whether a seat holds an exposed copy still (then each play is checked through play_options)
    holding = any(helds)
    # whether play_options is needed whatever the seat holds: first-trick ban, opening card, exposures (an
    # exposed copy held is released through play_options even where it plays as any other)
    special = special or holding
    # the exposed copies the seat to play holds; 0 whenever special is False (no seat holds one then)
    held = 0
    try:
        while limit:   # counts down; the default -1 never reaches 0
            hand = hands[seat]
            if special:
                held = helds[seat]
                singles, _, _ = play_options(hand, held, lead, suits_led, first_round, opening, ban)
                move = chooser.choose(singles, 0, NO_PLAYS)
            elif lead is None:
                move = chooser.choose(hand, 0, NO_PLAYS)
            else:
                move = chooser.choose(hand & follow or hand, 0, NO_PLAYS)
            card = move[0]
            if lead is None:
                lead = move
                suit = card // SUIT_SIZE
                first_round = not suits_led >> suit & 1
                suits_led |= 1 << suit
                opening = None
                special = ban or holding
                best, top, winner = card, (suit + 1) * SUIT_SIZE, seat
                follow = SUIT_MASKS[suit]
            elif best < card < top:
                # a higher card of the led suit takes the trick; ties cannot happen with one deck
                best, winner = card, seat
            bit = 1 << card
            if held:
                # with one deck the card played is the exposed copy, if it is one
                held &= ~bit
                helds[seat] = held
            hands[seat] = hand ^ bit
            taken |= bit
            trick.append(move)
            limit -= 1
            seat = (seat + 1) % SEATS
            if seat != leader:
                continue
            # the trick is complete: its winner takes every card and leads next
            captured[winner] = captured[winner] | taken
            history.extend(trick)
            winners.append(winner)
            taken = 0
            trick.clear()
            lead = None
            ban = False
            special = holding = holding and any(helds)
            leader = seat = winner
            if not hands[winner]:
                finished = True
                break
    finally:
        t._commit(None if finished else seat, leader, suits_led, first_round, opening)


class _Planes:
    """One seat's hand and the pile it has taken while the two-deck loop runs, each as its two planes:
    one-plane ints, typed attributes the compiled build keeps unboxed in the object."""

    def __init__(self, hand: int, pile: int) -> None:
        self.one = hand & ONE_PLANE
        self.two = hand >> PLANE
        self.pile = pile & ONE_PLANE
        self.pile_two = pile >> PLANE


def _advance_two_decks(t: DealState, chooser: Chooser, limit: int) -> None:  # noqa: C901, PLR0912, PLR0915
    """``advance`` with two decks: hands and piles as their two planes apart while it runs.

    The options are ``moves.play_options``; the commonest cases (no exposed card held, no
    first-trick ban, no opening card: a lead, a follow to a single lead, a follow to a pair
    lead) skip its dispatch: they are the expressions ``lead_options``, ``follow_single_mask``
    and ``follow_pair_options`` reduce to there, computed inline (a pair follow's rarer cases
    call ``follow_pair_options``; tests/rules/test_options.py checks them).
    """
    seat: int = t._leader if t._seat is None else t._seat
    finished = False
    special = not plain(t)
    hands, helds, captured, trick, history, winners = t._lend()
    leader, suits_led, first_round, opening = t._leader, t._suits_led, t._first_round, t._opening
    ban = t._rules.first_trick_ban and not winners
    # the two planes apart: one-plane ints stay small, and they are the single-card and pair masks as they are
    seats = [_Planes(hands[s], captured[s]) for s in range(SEATS)]
    taken = cards_of(trick) if trick else 0
    trick_one, trick_two = taken & ONE_PLANE, taken >> PLANE
    lead = trick[0] if trick else None
    pair_lead = lead is not None and len(lead) == 2
    best, top, winner = _single_lead_best(trick, leader)
    lead_suit = lead[0] // SUIT_SIZE if lead is not None else 0
    follow = SUIT_MASKS[lead_suit]
    # whether a seat holds an exposed copy still (then each play is checked through play_options)
    holding = any(helds)
    # whether play_options is needed whatever the seat holds: first-trick ban, pair lead, opening card, exposures
    special = special or pair_lead or holding
    # the exposed copies the seat to play holds; 0 whenever special is False (no seat holds one then)
    held = 0
    try:
        while limit:   # counts down; the default -1 never reaches 0
            planes = seats[seat]
            hand = planes.one
            if special:
                held = helds[seat]
                if pair_lead and not (held or ban):
                    # what play_options reduces to after a pair lead, with no exposed copy held and no ban:
                    # follow_pair_options' first two cases (a pair of the suit; two different cards of it)
                    # plane by plane, the rest through it
                    pairs = planes.two & follow
                    if pairs:
                        move = chooser.choose(0, pairs, NO_PLAYS)
                    else:
                        suit = hand & follow
                        if suit & suit - 1:
                            move = chooser.choose(0, 0, two_of(suit))
                        else:
                            pairs, others = follow_pair_options(hand | planes.two << PLANE, 0, lead_suit,
                                                                first_round)
                            move = chooser.choose(0, pairs, others)
                else:
                    singles, pairs, others = play_options(hand | planes.two << PLANE, held, lead, suits_led,
                                                          first_round, opening, ban)
                    move = chooser.choose(singles, pairs, others)
            elif lead is None:
                move = chooser.choose(hand, planes.two, NO_PLAYS)
            else:
                move = chooser.choose(hand & follow or hand, 0, NO_PLAYS)
            card = move[0]
            if lead is None:
                lead = move
                pair_lead = len(move) == 2
                lead_suit = card // SUIT_SIZE
                first_round = not suits_led >> lead_suit & 1
                suits_led |= 1 << lead_suit
                opening = None
                special = ban or pair_lead or holding
                best, top, winner = card, (lead_suit + 1) * SUIT_SIZE, seat
                follow = SUIT_MASKS[lead_suit]
            elif best < card < top:
                # a higher card of the led suit takes the trick; ties stay with the earlier play
                # (pair leads are ranked in full when the trick is complete)
                best, winner = card, seat
            if held or pair_lead:
                if held:
                    full = hand | planes.two << PLANE
                    for c in move:
                        held = release(full, held, c, first_round and c // SUIT_SIZE == lead_suit)
                        full = remove_card(full, c)
                    helds[seat] = held
                    planes.one, planes.two = full & ONE_PLANE, full >> PLANE
                else:
                    # remove_card, plane by plane, for each card of the play
                    one, two = hand, planes.two
                    for c in move:
                        bit = 1 << c
                        if two & bit:
                            two ^= bit
                        else:
                            one ^= bit
                    planes.one, planes.two = one, two
                for c in move:
                    bit = 1 << c
                    if trick_one & bit:
                        trick_two |= bit
                    else:
                        trick_one |= bit
            else:
                # remove_card, plane by plane: the second copy goes first
                bit = 1 << card
                two = planes.two
                if two & bit:
                    planes.two = two ^ bit
                else:
                    planes.one = hand ^ bit
                if trick_one & bit:
                    trick_two |= bit
                else:
                    trick_one |= bit
            trick.append(move)
            limit -= 1
            seat = (seat + 1) % SEATS
            if seat != leader:
                continue
            # the trick is complete: its winner takes every card and leads next
            if pair_lead:
                winner = trick_winner(trick, leader)
            # merge_bits inlined: the winner's pile plus the trick's cards, plane by plane
            taker = seats[winner]
            pile = taker.pile
            taker.pile_two = taker.pile_two | trick_two | pile & trick_one
            taker.pile = pile | trick_one
            history.extend(trick)
            winners.append(winner)
            trick_one = trick_two = 0
            trick.clear()
            lead = None
            ban = pair_lead = False
            special = holding = holding and any(helds)
            leader = seat = winner
            if not taker.one:
                finished = True
                break
    finally:
        t._commit(None if finished else seat, leader, suits_led, first_round, opening)
        for s in range(SEATS):
            planes = seats[s]
            hands[s] = planes.one | planes.two << PLANE
            captured[s] = planes.pile | planes.pile_two << PLANE


def play_option(state: DealState, move: Play) -> None:
    """Play ``move``, one of the legal options (``DealState.legal_moves``, ``running.options``) as sorted
    ints, without checking it again: the searches' step down a tree, walked back with ``state.undo()``.
    A move that is not an option corrupts the state; ``DealState.apply`` is the checked way to play.
    tests/rules/test_play_loops.py checks it against ``apply``."""
    state._play(move)
