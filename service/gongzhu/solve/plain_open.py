"""Exact open-card values where no card is special any more, one deck: the review's solver where it
spends its time (docs/bot.md, "Exact endgames").

Once no card is special (``plain_open``: one deck, no opening card due, no first-trick ban, and every
exposed copy still held is of a suit already led, so it plays as any other card), the legal plays are
the follow rule's alone (``moves.follow_single_mask``) and only which card beats which decides a trick
(``tricks.beats``). A position is then four hands of one-plane bits, the scoring cards each seat has
taken and the cards on the table, and ``PlainOpen`` walks it in those ints, as a double-dummy solver
(DDS) does, rather than through the engine's deal state:

- a fail-soft alpha-beta on the value (``OpenValues``' scale, raw points), asked in null windows as
  MTD(f) asks (``exact``, the questions ``endgame.exact_units`` asks ``endgame.AtLeast``);
- a transposition table at the start of each trick only, keyed by who holds each live card in rank order
  (the hands renumbered among the live cards), which scoring cards are live, who leads and what of the
  cards taken decides the rest (``endgame.taken_key``); each entry holds its bounds, counted from the
  value the key's offset leaves out, and the lead that decided it;
- between tricks, cut-offs from every way the scoring cards in play can still go
  (``endgame.deal_extremes``), the value itself once none is left, and the last trick without search;
- one card of each run of equivalent cards (``vocabulary.distinct_cards``), likeliest to decide first.
"""
from __future__ import annotations

from typing import Final

from ..rules import running
from ..rules.cards import (
    HEART_MASK,
    HEARTS,
    PIG,
    SCORING_MASK,
    SEATS,
    SHEEP,
    SUIT_MASK,
    SUIT_MASKS,
    SUIT_SIZE,
    TRANSFORMER,
)
from ..rules.moves import follow_single_mask
from ..rules.scoring import Doublings, seat_raw
from ..rules.state import DealState
from ..rules.tricks import beats
from ..rules.variants import Rules
from .andor import Nodes
from .endgame import NO_SCORE, UNIT, deal_extremes, mtd, narrowed, taken_key
from .order import ORDER_WORTHS, order_worth
from .vocabulary import distinct_cards

# a seat's cards in the keys of the tables below: one plane of one deck
HAND_BITS: Final = 4 * SUIT_SIZE
# a table key (``key``): who holds each live card of the first two suits and of the last two, two bits a card,
# then the small parts (each suit's live cards, the live hearts, the pig's, sheep's and transformer's numbers
# among the live cards, the leader), then what of the cards taken decides the rest (``Taken.part``)
SECOND_HALF_AT: Final = 2 * 2 * SUIT_SIZE
SMALL_AT: Final = 2 * SECOND_HALF_AT
HEARTS_AT: Final = 4 * 4
SPECIALS_AT: Final = HEARTS_AT + SUIT_SIZE
LEADER_AT: Final = SPECIALS_AT + 3 * 4
TAKEN_AT: Final = SMALL_AT + LEADER_AT + 2
# a move's sort key (``order.order_worth``) above its card (``ordered``)
CARD_BITS: Final = 6
CARD_MASK: Final = (1 << CARD_BITS) - 1
# the number of cards of each set of one suit's ranks (the compiled build has no fast ``int.bit_count``)
SUIT_COUNTS: Final[tuple[int, ...]] = tuple([bin(m).count("1") for m in range(SUIT_MASK + 1)])


def plain_open(state: DealState) -> bool:
    """Whether ``PlainOpen`` values ``state`` and every position after it: one deck, and no card special any
    more (``running.plain``, the one definition)."""
    return state.rules.decks == 1 and running.plain(state)


def _below(bits: int, card: int) -> int:
    """How many of ``bits`` rank below ``card`` in its suit."""
    base = card - card % SUIT_SIZE
    return SUIT_COUNTS[bits >> base & (1 << card - base) - 1]


def _renumbered(live: int, card: int) -> int:
    """``card`` numbered among the ``live`` cards of its suit, from its suit's first card."""
    return card - card % SUIT_SIZE + _below(live, card)


class Four:
    """Four ints, by seat or by place in a trick: native ints in the compiled build (a list's are boxed)."""

    def __init__(self) -> None:
        self.a = self.b = self.c = self.d = 0

    def at(self, i: int) -> int:
        return self.a if i == 0 else self.b if i == 1 else self.c if i == 2 else self.d

    def put(self, i: int, value: int) -> None:
        if i == 0:
            self.a = value
        elif i == 1:
            self.b = value
        elif i == 2:
            self.c = value
        else:
            self.d = value

    def union(self) -> int:
        return self.a | self.b | self.c | self.d

    def packed(self) -> int:
        """The four one-deck masks in one int."""
        return self.a | self.b << HAND_BITS | self.c << 2 * HAND_BITS | self.d << 3 * HAND_BITS

    def listed(self) -> list[int]:
        return [self.a, self.b, self.c, self.d]


class Taken:
    """What of the cards taken decides the rest of the deal (``endgame.taken_key``), in a table key's place
    (``part``); the value the tables count from (``offset``); and the bounds of the rest by the scoring
    cards in play, counted from it (``bounds``: one dict for every set of piles alike)."""

    def __init__(self, part: int, offset: int, bounds: dict[int, tuple[int, int]]) -> None:
        self.part = part
        self.offset = offset
        self.bounds = bounds


class PlainOpen:
    """Exact values over the positions of one deal that ``plain_open`` admits, with the tables kept from
    position to position: ``load`` one, then ask ``exact``. Each seat's raw score at the end of the deal
    counts ``weights`` times in the value; the seats weighted above zero (a seat, or a side with
    partnership) raise it, the others lower it.

    The position is kept in ``Four``s (each seat's hand, the scoring cards each seat has taken, the trick
    on the table), played and taken back in place."""

    def __init__(self, rules: Rules, k: Doublings, weights: tuple[int, ...], nodes: Nodes) -> None:
        self.rules = rules
        self.k = k
        self.weights = weights
        self.nodes = nodes
        # each seat's hand, and the scoring cards it has taken
        self.hands = Four()
        self.piles = Four()
        self.leader = 0
        # the trick on the table, in play order, and how many cards it holds
        self.trick = Four()
        self.played = 0
        # the lead that decided the trick's search (``step``), read by ``between``
        self.decided = -1
        # key -> bounds counted from the key's offset, and the deciding lead renumbered (or -1)
        self.table: dict[int, tuple[int, int, int]] = {}
        # what ``bounds`` found last
        self.low = self.high = 0
        # what of the cards taken decides the rest (``taken_key``) -> the bounds by the scoring cards in play,
        # counted from the offset (``bounds``)
        self.extremes: dict[int, dict[int, tuple[int, int]]] = {}
        # piles -> ``Taken``; piles -> the settled value
        self.takens: dict[int, Taken] = {}
        self.settles: dict[int, int] = {}
        # the loaded piles' ``Taken``, once looked up (None: not yet): a trick without a scoring card keeps it
        self.current: Taken | None = None

    # ---- the position ----------------------------------------------------------------------------

    def load(self, state: DealState) -> None:
        """Take ``state``'s position (``plain_open``), replacing the one loaded before."""
        for s in range(SEATS):
            self.hands.put(s, running.hands_bits(state)[s])
            self.piles.put(s, running.captured_bits(state)[s] & SCORING_MASK)
        self.leader = running.leader(state)
        self.current = None
        self.played = len(running.trick(state))
        for i in range(self.played):
            self.trick.put(i, running.trick(state)[i][0])

    # ---- values of whole positions -------------------------------------------------------------

    def settled(self, piles: int) -> int:
        """The value of the cards taken (``piles``: ``piles.packed()``): the deal's once no scoring card is in play."""
        found = self.settles.get(piles)
        if found is None:
            found = 0
            for s in range(SEATS):
                if self.weights[s]:
                    found += self.weights[s] * seat_raw(self.rules, self.piles.at(s), self.k)
            self.settles[piles] = found
        return found

    def taken(self, piles: int) -> Taken:
        """What of the cards taken (``piles``: ``piles.packed()``) decides the rest (``Taken``)."""
        found = self.takens.get(piles)
        if found is None:
            key, offset = taken_key(self.rules, self.k, self.weights, self.piles.listed())
            bounds = self.extremes.get(key)
            if bounds is None:
                bounds = self.extremes[key] = {}
            found = self.takens[piles] = Taken(key << TAKEN_AT, offset, bounds)
        return found

    def bounds(self, taken: Taken, rest: int) -> None:
        """Into ``low`` and ``high``: the lowest and highest value, on the grid, once every scoring card of
        ``rest`` has gone to one seat or another (``deal_extremes``). Kept by what of the cards taken decides
        the rest (``taken``), counted from its offset: piles alike there end alike."""
        found = taken.bounds.get(rest)
        offset = taken.offset
        if found is None:
            dealt = self.piles.listed()
            ends = deal_extremes(self.rules, self.k, self.weights, dealt, rest)
            assert ends is not None, "one deck has at most one pig, sheep and transformer"
            low, high = ends
            found = taken.bounds[rest] = (low + -low % UNIT - offset, high - high % UNIT - offset)
        self.low, self.high = found[0] + offset, found[1] + offset

    def key(self, taken: Taken, live: int) -> int:
        """The table key of the position at the start of a trick (``live``: every card in a hand; ``taken``:
        ``taken()``), its entries counted from ``taken``'s offset."""
        h0, h1, h2 = self.hands.a, self.hands.b, self.hands.c
        # the owners of the first two suits' live cards, then of the last two's (each half a native int in the
        # compiled build)
        first = half = 0
        shift = 0
        counts = 0
        for suit in range(4):
            if suit == 2:
                first, half, shift = half, 0, 0
            bits = live & SUIT_MASKS[suit]
            counts |= SUIT_COUNTS[bits >> suit * SUIT_SIZE] << 4 * suit
            while bits:
                low = bits & -bits
                bits ^= low
                owner = 0 if h0 & low else 1 if h1 & low else 2 if h2 & low else 3
                half |= owner << shift
                shift += 2
        specials = 0
        if live >> PIG & 1:
            specials |= _below(live, PIG) + 1
        if live >> SHEEP & 1:
            specials |= _below(live, SHEEP) + 1 << 4
        if live >> TRANSFORMER & 1:
            specials |= _below(live, TRANSFORMER) + 1 << 8
        small = (counts | (live & HEART_MASK) >> HEARTS * SUIT_SIZE << HEARTS_AT | specials << SPECIALS_AT
                 | self.leader << LEADER_AT)
        return first | half << SECOND_HALF_AT | small << SMALL_AT | taken.part

    def exact(self, guess: int) -> int:
        """The exact value of the loaded position, by null-window questions (``endgame.mtd``) from ``guess``
        within what the rest can give. Raises ``Budget`` past the node limit or deadline."""
        rest = (self.hands.union()) & SCORING_MASK
        for i in range(self.played):
            rest |= 1 << self.trick.at(i) & SCORING_MASK
        piles = self.piles.packed()
        if not rest:
            return self.settled(piles)
        self.bounds(self.taken(piles), rest)
        return mtd(self.question, self.low, self.high, guess)

    def question(self, threshold: int) -> int:
        """Whether the loaded position is worth ``threshold`` or more (``mtd``'s question): a bound of its
        value, at ``threshold`` or above from below, else from above."""
        if self.played:
            return self.step(self.played, threshold - 1, threshold, -1)
        return self.between(threshold - 1, threshold)

    def settle(self, value: int) -> None:
        """The loaded position's exact ``value`` into the table, when it starts a trick with a choice left."""
        lead = self.hands.at(self.leader)
        if self.played or lead & lead - 1 == 0:
            return
        taken = self.taken(self.piles.packed())
        key, offset = self.key(taken, self.hands.union()), taken.offset
        self.table[key] = (value - offset, value - offset, -1)

    # ---- the search ---------------------------------------------------------------------------------

    def between(self, alpha: int, beta: int) -> int:
        """The value at the start of a trick, fail-soft between ``alpha`` and ``beta``: at ``alpha`` or
        below it bounds the value from above, at ``beta`` or above from below."""
        lead = self.hands.at(self.leader)
        live = self.hands.union()
        rest = live & SCORING_MASK
        if not rest:
            return self.settled(self.piles.packed())
        if lead & lead - 1 == 0:
            return self.last_trick()
        taken = self.current
        if taken is None:
            taken = self.current = self.taken(self.piles.packed())
        self.bounds(taken, rest)
        low, high = self.low, self.high
        if high <= alpha:
            return high
        if low >= beta:
            return low
        key, offset = self.key(taken, live), taken.offset
        hint = -1
        entry = self.table.get(key)
        if entry is not None:
            low, high = max(low, entry[0] + offset), min(high, entry[1] + offset)
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            hint = entry[2]
        floor, ceiling = max(alpha, low), min(beta, high)
        value = self.step(0, floor, ceiling, hint)
        low, high = narrowed(low, high, floor, ceiling, value)
        decided = self.decided
        self.table[key] = (low - offset, high - offset, -1 if decided < 0 else _renumbered(live, decided))
        return value

    def last_trick(self) -> int:
        """The value before the last trick, each seat holding one card: played on the table, its winner takes
        the four (``complete`` puts back the trick its own ``between`` came from)."""
        leader = self.leader
        for i in range(SEATS):
            self.trick.put(i, self.hands.at((leader + i) % SEATS).bit_length() - 1)
        winner, kept = self.taken_by()
        value = self.settled(self.piles.packed())
        self.piles.put(winner, kept)
        return value

    def taken_by(self) -> tuple[int, int]:
        """The four cards on the table to their winner's pile (a higher card of the led suit beats the one
        winning so far: ``tricks.beats``): the winner, and its pile before."""
        trick = self.trick
        best, at = trick.a, 0
        if beats(trick.b, best):
            best, at = trick.b, 1
        if beats(trick.c, best):
            best, at = trick.c, 2
        if beats(trick.d, best):
            at = 3
        winner = (self.leader + at) % SEATS
        kept = self.piles.at(winner)
        self.piles.put(winner, kept | (1 << trick.a | 1 << trick.b | 1 << trick.c | 1 << trick.d) & SCORING_MASK)
        return winner, kept

    def step(self, played: int, alpha: int, beta: int, hint: int) -> int:
        """The value with ``played`` cards on the table (fail-soft, as ``between``): each distinct play of
        the seat to act, the likeliest to decide first (``ordered``; at the lead the ``hint``, a renumbered
        card, before all). At the lead the deciding card goes to ``decided``."""
        self.nodes.visit()
        seat = (self.leader + played) % SEATS
        hand = self.hands.at(seat)
        rivals = self.hands.union() & ~hand
        # the card winning the trick so far, and its seat
        winning, winner = -1, seat
        for i in range(played):
            card = self.trick.at(i)
            rivals |= 1 << card
            if not i or beats(card, winning):
                winning, winner = card, (self.leader + i) % SEATS
        options = hand if not played else follow_single_mask(hand, 0, self.trick.a // SUIT_SIZE, False)
        moves = distinct_cards(options, rivals, 0) if options & options - 1 else [options.bit_length() - 1]
        if len(moves) > 1:
            moves = self.ordered(moves, seat, played, winning, winner)
            if hint >= 0:
                live = rivals | hand
                for i in range(len(moves)):
                    if _renumbered(live, moves[i]) == hint:
                        moves.insert(0, moves.pop(i))
                        break
        raises = self.weights[seat] > 0
        best = -NO_SCORE if raises else NO_SCORE
        decided = -1
        last = played == SEATS - 1
        for card in moves:
            self.hands.put(seat, hand & ~(1 << card))
            self.trick.put(played, card)
            value = self.complete(alpha, beta) if last else self.step(played + 1, alpha, beta, -1)
            self.hands.put(seat, hand)
            if raises:
                if value > best:
                    best, decided = value, card
                    if value > alpha:
                        alpha = value
            elif value < best:
                best, decided = value, card
                if value < beta:
                    beta = value
            if alpha >= beta:
                break
        if not played:
            self.decided = decided
        return best

    def complete(self, alpha: int, beta: int) -> int:
        """The trick on the table complete: its winner takes it and leads the next (``between``)."""
        leader = self.leader
        first, second, third, fourth = self.trick.a, self.trick.b, self.trick.c, self.trick.d
        current = self.current
        winner, kept = self.taken_by()
        if self.piles.at(winner) != kept:
            self.current = None
        self.leader = winner
        value = self.between(alpha, beta)
        # (the next tricks are played on the same table: this one goes back on it)
        self.trick.a, self.trick.b, self.trick.c, self.trick.d = first, second, third, fourth
        self.leader = leader
        self.piles.put(winner, kept)
        self.current = current
        return value

    def ordered(self, moves: list[int], seat: int, played: int, winning: int, winner: int) -> list[int]:
        """``moves`` (sorted in place) likeliest to decide first: the one move order (``order.order_worth``)."""
        points = 0
        for i in range(played):
            points += ORDER_WORTHS[self.trick.at(i)]
        if len(moves) == 2:
            # (two moves, the most frequent choice: compared as they are, no sort keys to box)
            first, second = moves[0], moves[1]
            if (self.order_key(second, seat, played, winning, winner, points)
                    < self.order_key(first, seat, played, winning, winner, points)):
                moves[0], moves[1] = second, first
            return moves
        for i in range(len(moves)):
            moves[i] = self.order_key(moves[i], seat, played, winning, winner, points)
        moves.sort()
        for i in range(len(moves)):
            moves[i] &= CARD_MASK
        return moves

    def order_key(self, card: int, seat: int, played: int, winning: int, winner: int, points: int) -> int:
        """``card``'s sort key in ``ordered`` (``points``: the order worths of the cards on the table), the
        card in its low ``CARD_BITS``."""
        takes = not played or beats(card, winning)
        return order_worth(self.weights, seat, seat if takes else winner, points + ORDER_WORTHS[card],
                           card % SUIT_SIZE, takes) << CARD_BITS | card
