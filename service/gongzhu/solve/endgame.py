"""Exact endgames: the score a seat can guarantee on an open deal (docs/bot.md, "Exact endgames").

The bot's search, with few tricks left, deals the hidden cards and solves each
deal exactly: every seat sees every hand, the acting seat maximizes its exact
normalized score at the end of the deal and the other three seats minimize it
(paranoid minimax); with partnership its partner maximizes their side's score
with it and the other side minimizes it (the open deal's exact value between the
two sides).

The search is the claims' AND/OR search (``andor.AndOr.decide``, the one search
core), asked a yes/no question: can the seat make sure its score ends at least
``t``? The seat's plays (with partnership its side's) are OR nodes, every other
seat's AND nodes, as for a claim. Between tricks, what the rest of the deal can
still change bounds the value (every way the scoring cards in play can go to the four
seats, ``deal_extremes``): a line is "kept" once its lowest value reaches ``t`` and
"broken" once its highest is below it; settled when no scoring card is left, and
before the last trick, each seat holding one card, without search
(``AtLeast.last_trick``): no second search walks the last tricks. The exact value is the largest ``t`` with a yes, found
as MTD(f) finds it: a yes proves the value at least the lowest kept leaf the
question met, a no at most the highest broken one; the next question is just
above what is proved, or at it, then halfway (``exact_units``). The first question
is a guess (a playout's value, often the answer). Scores are counted in integer
units (``scale.score_units``; raw points for the review, ``raw_points``) on a grid of
``UNIT``. Each position's value bounds, from its own leaves (fail-soft), are kept
for every later question (``AtLeast``), shared by every move of the root.

The table holds positions at the start of a trick only, as DDS keeps its own
(``AtLeast.key``). Its key is what decides the rest of the score: the position
(hands, who leads, the exposed copies still held, the suits led, the first-trick
ban: ``vocabulary.position_key``; of a plain position the cards renumbered among
the live ones, ``vocabulary.equivalent_key``) and what of the cards taken
decides the rest (``AtLeast.scored``: of a seat whose hearts add up, its transformers
and, while one is in play, its base; the rest of its score is counted in the value
the entries count from; else its pile).
Equivalent cards are merged as in the claims search (``lowest_of_runs``), only
where the score is the same too: cards of one suit with no live card ranked
between them, scoring alike (hearts of one value; the pig, the sheep and the
transformer never merged). The search counts the positions it visits and gives
up at ``max_nodes`` (``None``), so a caller falls back rather than overruns.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ..rules import running
from ..rules.cards import (
    HEART_MASK,
    ONE_PLANE,
    PIG,
    PLANE,
    SCORING_MASK,
    SEATS,
    SHEEP,
    SUIT_MASK,
    SUIT_SIZE,
    TRANSFORMER,
    Play,
    count_of,
    mask_cards,
    merge_bits,
    remove_card,
)
from ..rules.scoring import (
    HEART_SHIFT,
    HEART_SUM,
    Doublings,
    score_parts,
    seat_raw,
)
from ..rules.state import DealState
from ..rules.table import play_option
from ..rules.tricks import leading_index, trick_winner
from ..rules.variants import Rules
from .andor import AndOr, Budget, Nodes
from .order import ORDER_WORTHS, order_worth
from .scale import Weights, units_per_point, value_weights
from .vocabulary import PILE_SHIFT, Key, distinct_cards, equivalent_key, kept_apart, position_key, rivals_live

# Every raw score is a multiple of ten (hearts by tens, pig and sheep 100, all hearts 200,
# the transformer alone 25 x 2 or more, doublings x 2), so score units are too.
UNIT: Final = 10
SCORING_BITS: Final = SCORING_MASK | SCORING_MASK << PLANE
# the depth passed to the AND/OR search: more tricks than a deal has, less what is completed
NO_DEPTH_LIMIT: Final = 1000
# the key of a position inside a trick: no table entry (``AtLeast.key``)
MID_TRICK: Final[Key] = ()
# more score units than any deal gives
NO_SCORE: Final = 1 << 40
DEFAULT_MAX_NODES: Final = 20_000
# the questions asked next to what the last one proved before the rest are asked halfway (``exact_units``)
MTD_STEPS: Final = 2

def settled_units(pos: DealState, weights: Weights) -> int:
    """The value of the cards taken so far in the scale ``weights`` (``scale``): the deal's value once no
    scoring card is in play."""
    rules, k = pos.rules, running.doublings(pos)
    value = 0
    for s in range(SEATS):
        if weights[s]:
            value += weights[s] * seat_raw(rules, running.captured_bits(pos)[s], k)
    return value


# the scoring cards whose copies score alike, one copy at a time (``pile_extremes``)
SPECIALS: Final = (PIG, SHEEP, TRANSFORMER)
HEART_BITS: Final = HEART_MASK | HEART_MASK << PLANE
TEN_BITS: Final = 1 << TRANSFORMER | 1 << TRANSFORMER + PLANE


def _copies(rest: int, card: int) -> list[int]:
    """The ways to take 0, 1 or 2 of ``card``'s copies among ``rest`` (two-plane bits: the second plane
    holds a second copy)."""
    ways = [0]
    if rest >> card & 1:
        ways.append(1 << card)
        if rest >> card + PLANE & 1:
            ways.append(1 << card | 1 << card + PLANE)
    return ways


def scoring_in_play(pos: DealState) -> int:
    """The scoring cards still in play, in a hand or on the table (two-plane bits, copies counted)."""
    rest = 0
    for hand in running.hands_bits(pos):
        rest = merge_bits(rest, hand & SCORING_BITS)
    for play in running.trick(pos):
        for card in play:
            rest = merge_bits(rest, 1 << card & SCORING_BITS)
    return rest


def pile_extremes(rules: Rules, k: Doublings, pile: int, rest: int) -> tuple[int, int]:
    """The lowest and the highest raw score of ``pile`` and any part of ``rest`` (two-plane scoring cards):
    what a seat's score can still become. The score is linear in the hearts' points once the other
    scoring cards are chosen, but for all hearts (满红) and the transformer alone, so the hearts taken are
    none, all, or all but the lowest (one short of all hearts); every choice of the other cards' copies
    with each of those three is scored (``seat_raw``), the one rule."""
    hearts = rest & HEART_BITS
    heart_ways = [0]
    if hearts:
        ranks = (hearts | hearts >> PLANE) & ONE_PLANE
        lowest = (ranks & -ranks).bit_length() - 1
        heart_ways += [hearts, remove_card(hearts, lowest)]
    low, high = NO_SCORE, -NO_SCORE
    for pig in _copies(rest, PIG):
        for sheep in _copies(rest, SHEEP):
            for ten in _copies(rest, TRANSFORMER):
                for way in heart_ways:
                    raw = seat_raw(rules, merge_bits(pile, pig | sheep | ten | way), k)
                    low, high = min(low, raw), max(high, raw)
    return low, high


# the sets of two seats or more (bits by seat): who may share the hearts still in play (``deal_extremes``)
SHARINGS: Final = tuple([m for m in range(1 << SEATS) if m.bit_count() >= 2])
# past this many copies of the pig, the sheep and the transformer in play (two decks), ``deal_extremes``
# would score too many ways: each seat's pile is bounded on its own instead (``pile_extremes``)
MOST_DEALT_SPECIALS: Final = 4


def _heart_points(hearts: int, k: Doublings) -> int:
    """The points of ``hearts`` (two-plane bits) short of all hearts (each ≤ 0), doubled as exposed."""
    one, two = hearts >> HEART_SHIFT & SUIT_MASK, hearts >> PLANE + HEART_SHIFT & SUIT_MASK
    return HEART_SUM[one] + HEART_SUM[two] << k[3]


def deal_extremes(rules: Rules, k: Doublings, weights: Sequence[int], piles: Sequence[int],
                  rest: int) -> tuple[int, int] | None:
    """The lowest and the highest of the weighted raw scores (``weights``) once each scoring card of
    ``rest`` has gone to one seat, from ``piles`` (each seat's scoring cards): what the rest of the
    deal can still give, whoever wins which trick. Every way the pig, the sheep and the transformer can
    go is scored; then the hearts go all to one seat (scored: 满红 and the transformer alone are not
    linear), or to two seats or more, where every pile adds its hearts times its transformer factor and
    none is all hearts or alone: each heart at the factor the bound favours among them (the bound
    covers every split with those seats). None past ``MOST_DEALT_SPECIALS`` copies (two decks).

    A seat's pile is scored once for each set of the copies it may take (``_SeatEnds``), not once a way:
    the ways only add those up."""
    specials = []
    for card in SPECIALS:
        for plane in (0, PLANE):
            if rest >> card + plane & 1:
                specials.append(1 << card)
    if len(specials) > MOST_DEALT_SPECIALS:
        return None
    hearts = rest & HEART_BITS
    points = _heart_points(hearts, k)
    shared = hearts.bit_count() >= 2
    ends = _SeatEnds(rules, k, weights, piles, specials, hearts, shared)
    size = 1 << len(specials)
    low, high = NO_SCORE, -NO_SCORE
    places = [0, 0, 0, 0]
    for way in range(1 << 2 * len(specials)):
        # two bits a copy: the seat that takes it; each seat's place in ``ends``' lists
        owners = way
        for s in range(SEATS):
            places[s] = s * size
        for i in range(len(specials)):
            places[owners & 3] += 1 << i
            owners >>= 2
        plain = 0
        for s in range(SEATS):
            plain += ends.plain[places[s]]
        if not hearts:
            low, high = min(low, plain), max(high, plain)
            continue
        # all the hearts to one seat (to a seat weighted zero: the value with none taken)
        for s in range(SEATS):
            value = plain + ends.all_hearts[places[s]]
            low, high = min(low, value), max(high, value)
        if shared:
            low, high = _shared_extremes(ends, places, plain, points, low, high)
    return low, high


class _SeatEnds:
    """Each seat's pile with each set of the ``specials`` copies (a list's place: the seat times the number of
    sets, plus the set's bits), weighted: its raw score (``plain``); what taking all the ``hearts`` too adds
    (``all_hearts``); and, when the hearts may be shared, its hearts, pig and sheep times its transformer
    factor (``based``) and that factor (``factor``)."""

    def __init__(self, rules: Rules, k: Doublings, weights: Sequence[int], piles: Sequence[int],
                 specials: list[int], hearts: int, shared: bool) -> None:
        self.plain: list[int] = []
        self.all_hearts: list[int] = []
        self.based: list[int] = []
        self.factor: list[int] = []
        for s in range(SEATS):
            weight = weights[s]
            for taken in range(1 << len(specials)):
                pile = piles[s]
                for i in range(len(specials)):
                    if taken >> i & 1:
                        pile = merge_bits(pile, specials[i])
                heart, pig, sheep, factor, _, _, raw = score_parts(rules, pile, k)
                self.plain.append(weight * raw)
                self.all_hearts.append(weight * (seat_raw(rules, merge_bits(pile, hearts), k) - raw)
                                       if hearts and weight else 0)
                if shared:
                    self.based.append(weight * factor * (heart + pig + sheep))
                    self.factor.append(weight * factor)


def _shared_extremes(ends: _SeatEnds, places: list[int], plain: int, points: int, low: int,
                     high: int) -> tuple[int, int]:
    """``low`` and ``high`` widened by the hearts in play (``points``) shared by two seats or more, each seat
    at its place in ``ends`` (``deal_extremes``; ``plain``: the value with no heart taken)."""
    for sharing in SHARINGS:
        value = plain
        least, most = NO_SCORE, -NO_SCORE
        for s in range(SEATS):
            if sharing >> s & 1:
                at = places[s]
                value += ends.based[at] - ends.plain[at]
                least, most = min(least, ends.factor[at]), max(most, ends.factor[at])
        low, high = min(low, value + points * most), max(high, value + points * least)
    return low, high


def scoring_piles(piles: Sequence[int]) -> int:
    """The scoring cards of the four piles (two-plane bits) as one int, as ``packed`` lays hands out."""
    return (piles[0] & SCORING_BITS | (piles[1] & SCORING_BITS) << PILE_SHIFT
            | (piles[2] & SCORING_BITS) << 2 * PILE_SHIFT | (piles[3] & SCORING_BITS) << 3 * PILE_SHIFT)


# a seat's part of ``taken_key``: its kind in the low ``TAKEN_TAG`` bits (its whole pile; its transformers,
# whether it holds another scoring card, and its base; its transformers alone), the rest above
TAKEN_TAG: Final = 2
TAKEN_PILE, TAKEN_BASE, TAKEN_FACTOR = 0, 1, 2
TAKEN_BITS: Final = PILE_SHIFT + TAKEN_TAG
# more than any base's size (two decks, every doubling): bases are kept non-negative in the key
BASE_BIAS: Final = 1 << 16


def taken_key(rules: Rules, k: Doublings, weights: Sequence[int], piles: Sequence[int]) -> tuple[int, int]:
    """What of ``piles`` (each seat's cards taken) decides the rest of the weighted score, and the value the
    tables count from (``AtLeast.scored``)."""
    tens_out = 0
    for s in range(SEATS):
        tens_out += count_of(piles[s], TRANSFORMER)
    ten_in_play = tens_out < rules.decks
    # each weighted seat's part in ``TAKEN_BITS`` bits, tagged by its kind (``TAKEN_*``): one int
    taken = 0
    offset = 0
    for s in range(SEATS):
        weight = weights[s]
        if not weight:
            continue
        pile = piles[s] & SCORING_BITS
        hearts_elsewhere = False
        for other in range(SEATS):
            if other != s and piles[other] & HEART_BITS:
                hearts_elsewhere = True
        if not hearts_elsewhere:
            part = pile << TAKEN_TAG | TAKEN_PILE
        else:
            hearts, pig, sheep, factor, _, _, _ = score_parts(rules, pile, k)
            tens = count_of(pile, TRANSFORMER)
            # no scoring card but transformers: the pile may end with a transformer alone
            bare = int(not pile & ~TEN_BITS)
            if ten_in_play:
                part = ((hearts + pig + sheep + BASE_BIAS) << 3 | tens << 1 | bare) << TAKEN_TAG | TAKEN_BASE
            else:
                part = (tens << 1 | (bare if tens else 0)) << TAKEN_TAG | TAKEN_FACTOR
                offset += weight * factor * (hearts + pig + sheep)
        taken |= part << s * TAKEN_BITS
    return taken, offset


def narrowed(low: int, high: int, floor: int, ceiling: int, value: int) -> tuple[int, int]:
    """The bounds ``low``, ``high`` of a position's value once a fail-soft search between ``floor`` and
    ``ceiling`` found ``value``: at ``floor`` or below it bounds the value from above, at ``ceiling`` or above
    from below, between the two it is the value."""
    if value <= floor:
        return low, value
    if value >= ceiling:
        return value, high
    return value, value


class AtLeast(AndOr[Key, Play]):
    """Can ``seat`` make sure its score units end at ``threshold`` or more? The claims' AND/OR search on
    one ``DealState`` walked down and up (``table.play_option``/``undo``).

    One instance asks one threshold after another (``ask``), and keeps, per position, bounds of its
    value: a position kept at a threshold is worth at least the lowest leaf its search kept (``lower``),
    a broken one at most the highest leaf its search broke (``upper``), as a fail-soft alpha-beta's
    value bounds it. A position whose lower bound reaches the threshold asked is kept without search
    (``look``); a move to one whose upper bound is below it breaks (``child``). The bounds hold for
    every later question, and every later root of the deal.
    """

    exact = False

    def __init__(self, seat: int, nodes: Nodes, partnership: bool, raw_points: bool = False) -> None:
        super().__init__(seat, True, nodes)
        self.partnership = partnership
        # the scale (``scale.value_weights``): the bot's, or the review's (``raw_points``)
        self.weights = value_weights(seat, partnership, raw_points)
        # every seat's scoring pile and the scoring cards in play (one int) -> ``deal_extremes`` (one search
        # serves one deal: its rules and doublings)
        self.extremes: dict[int, tuple[int, int]] = {}
        # every seat's scoring pile (one int) -> ``scored``
        self.scorings: dict[int, tuple[int, int]] = {}
        self.threshold = 0
        self.lower: dict[Key, int] = {}
        self.upper: dict[Key, int] = {}
        # the move that decided a position for an earlier threshold: tried first
        self.hints: dict[Key, Play] = {}
        # the key of the position ``child`` made (``look`` looks at it next), not computed twice, and the
        # value its entries count from (``scored``)
        self.pending: tuple[Key, int] | None = None
        # the value the entries of the position ``look`` let through count from (``opened`` keeps it)
        self.offset = 0
        # the leaves of the position being searched: the lowest score kept and the highest broken (what
        # its verdict proves beyond the threshold); ``opened`` saves the enclosing position's here
        self.lowest_kept = NO_SCORE
        self.highest_broken = -NO_SCORE
        self.saved: list[tuple[int, int, int]] = []

    def ask(self, pos: DealState, threshold: int) -> bool:
        """Whether the seat can make sure of ``threshold`` score units from ``pos``; then ``lowest_kept``
        (kept) or ``highest_broken`` (not) bound its value."""
        self.threshold = threshold
        self.pending = None
        self.lowest_kept, self.highest_broken = NO_SCORE, -NO_SCORE
        self.saved.clear()
        # the depth is never reached: every verdict looks to the end of the deal
        return self.decide(pos, NO_DEPTH_LIMIT - len(running.winners(pos)))[0]

    def opened(self) -> None:
        self.saved.append((self.lowest_kept, self.highest_broken, self.offset))
        self.lowest_kept, self.highest_broken = NO_SCORE, -NO_SCORE

    def remember(self, key: Key, kept: bool, looked: int, witness: Play | None) -> None:
        """The position's bound from its leaves, then its leaves counted in the enclosing position's."""
        low, high = self.lowest_kept, self.highest_broken
        outer_low, outer_high, offset = self.saved.pop()
        if key is MID_TRICK:
            pass
        elif kept:
            if low - offset > self.lower.get(key, -NO_SCORE):
                self.lower[key] = low - offset
        elif high - offset < self.upper.get(key, NO_SCORE):
            self.upper[key] = high - offset
        if witness is not None and key is not MID_TRICK:
            self.hints[key] = witness
        self.lowest_kept, self.highest_broken = min(outer_low, low), max(outer_high, high)

    def units(self, pos: DealState) -> int:
        """The seat's settled score units in ``pos`` (``settled_units``, in this search's scale)."""
        return settled_units(pos, self.weights)

    def key(self, pos: DealState) -> tuple[Key, int]:
        """The key of ``pos`` in the tables, and the value its entries are counted from (``scored``): at the
        start of a trick only, as DDS keeps its table; inside a trick ``MID_TRICK``, no entry (a position
        there is a few plays from the next trick's, which the tables hold)."""
        if running.trick(pos):
            return MID_TRICK, 0
        taken, offset = self.scored(pos)
        if running.plain(pos):
            return equivalent_key(pos, taken), offset
        return position_key(pos, taken), offset

    def root_key(self, pos: DealState) -> tuple[Key, int]:
        """The key of a root of ``exact_units`` (anywhere in a trick), whose exact value a review settles
        (``values.OpenValues``) for the position before it."""
        if not running.trick(pos):
            return self.key(pos)
        taken, offset = self.scored(pos)
        return position_key(pos, taken), offset

    def scored(self, pos: DealState) -> tuple[int, int]:
        """What of the cards taken decides the rest of the score, and the value the tables count from.

        A seat's raw score is its base (hearts, pig and sheep points) times its transformer factor, but
        for all hearts (满红, 满贯) and the transformer alone (``seat_raw``). Once another seat has taken a
        heart, the seat's hearts add up: what the rest of the deal adds to its raw score depends on its
        pile only through its transformers, whether it holds another scoring card (a transformer may end
        alone), and, while a transformer is still in play (it would multiply what is taken), its base.
        Then those are its part of the key (``taken_key``), and its raw score so far, where it only adds,
        is counted in the tables' offset. A seat that may still take every heart keeps its whole pile in
        the key (its hearts are the ones no hand holds). Remembered by the piles (they change once a
        trick)."""
        piles = running.captured_bits(pos)
        all_piles = scoring_piles(piles)
        found = self.scorings.get(all_piles)
        if found is None:
            found = taken_key(pos.rules, running.doublings(pos), self.weights, piles)
            self.scorings[all_piles] = found
        return found

    def bounds(self, pos: DealState) -> tuple[int, int]:
        """The lowest and highest value the rest of the deal can still give from ``pos`` (score units on
        the grid): every way the scoring cards in play can go (``deal_extremes``).
        Equal once no scoring card is in play: the value is settled; and at the last trick, each seat
        holding one card, no play is left to choose: its value (``last_trick``)."""
        rules, k = pos.rules, running.doublings(pos)
        if not running.trick(pos) and running.hands_bits(pos)[running.leader(pos)].bit_count() == 1:
            value = self.last_trick(pos)
            return value, value
        rest = scoring_in_play(pos)
        piles = running.captured_bits(pos)
        both = scoring_piles(piles) << 4 * PILE_SHIFT | rest
        found = self.extremes.get(both)
        if found is None:
            found = deal_extremes(rules, k, self.weights, [pile & SCORING_BITS for pile in piles], rest)
            if found is None:
                found = self._pile_extremes(rules, k, piles, rest)
            self.extremes[both] = found
        low, high = found
        return low + -low % UNIT, high - high % UNIT

    def _pile_extremes(self, rules: Rules, k: Doublings, piles: Sequence[int], rest: int) -> tuple[int, int]:
        """``bounds`` where ``deal_extremes`` would score too many ways: each seat's pile at its own
        extremes (``pile_extremes``), each the way its weight pulls."""
        low = high = 0
        for s in range(SEATS):
            weight = self.weights[s]
            if not weight:
                continue
            found = pile_extremes(rules, k, piles[s] & SCORING_BITS, rest)
            if weight > 0:
                low, high = low + weight * found[0], high + weight * found[1]
            else:
                low, high = low + weight * found[1], high + weight * found[0]
        return low, high

    def last_trick(self, pos: DealState) -> int:
        """The value of ``pos`` before the last trick, every seat holding one card: the trick's winner
        takes the four (``trick_winner``, the rule)."""
        leader, hands = running.leader(pos), running.hands_bits(pos)
        plays: list[Play] = []
        cards = 0
        for i in range(SEATS):
            hand = hands[(leader + i) % SEATS]
            plays.append(((hand & -hand).bit_length() - 1,))
            cards = merge_bits(cards, hand)
        winner = trick_winner(plays, leader)
        rules, k, value = pos.rules, running.doublings(pos), 0
        for s in range(SEATS):
            if self.weights[s]:
                pile = running.captured_bits(pos)[s]
                if s == winner:
                    pile = merge_bits(pile, cards)
                value += self.weights[s] * seat_raw(rules, pile, k)
        return value

    def look(self, pos: DealState) -> Key | None:
        """None when kept: between tricks, the lowest value the rest can give reaches the threshold
        (``bounds``), or the position's lower bound in the tables does. Else the position's key (``key``;
        the one ``child`` computed, when it made ``pos``), its offset kept for ``opened``."""
        pending, self.pending = self.pending, None
        # (between tricks only: what the rest can change, and whether it can change the verdict)
        if not running.trick(pos):
            low, high = self.bounds(pos)
            if low >= self.threshold:
                self.lowest_kept = min(self.lowest_kept, low)
                return None
        key, offset = pending if pending is not None else self.key(pos)
        known = self.lower.get(key)
        if known is not None and known + offset >= self.threshold:
            self.lowest_kept = min(self.lowest_kept, known + offset)
            return None
        self.offset = offset
        return key

    def mover(self, pos: DealState) -> int | None:
        """The seat to act, read as the searching seat when it is that seat's partner (partnership):
        its plays are OR nodes too."""
        seat = pos.seat
        if seat is not None and self.partnership and seat % 2 == self.seat % 2:
            return self.seat
        return seat

    def moves(self, pos: DealState, key: Key) -> list[Play]:
        """``distinct_moves``, likeliest to decide first: the one that decided the position for an earlier
        threshold, then in the one move order (``order.order_worth``)."""
        moves = distinct_moves(pos)
        if len(moves) > 1:
            moves.sort(key=self._worth(pos))
        hint = self.hints.get(key)
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        return moves

    def _worth(self, pos: DealState) -> Callable[[Play], int]:
        """Sort key of a move of the seat to act (``order.order_worth``), its last card taken as the one that
        may take the trick."""
        mover = pos.seat
        assert mover is not None
        trick = [play[-1] for play in running.trick(pos)]
        at = leading_index(trick)
        best = trick[at] if trick else -1
        winner = (running.leader(pos) + at) % SEATS if trick else mover
        points = 0
        for play in running.trick(pos):
            for card in play:
                points += ORDER_WORTHS[card]
        weights = self.weights

        def key(move: Play) -> int:
            card = move[-1]
            takes = best < 0 or card // SUIT_SIZE == best // SUIT_SIZE and card > best
            gain = points
            for c in move:
                gain += ORDER_WORTHS[c]
            return order_worth(weights, mover, mover if takes else winner, gain, card % SUIT_SIZE, takes)
        return key

    def cards(self, pos: DealState, move: Play) -> Play:
        return move

    def child(self, pos: DealState, move: Play) -> tuple[bool, bool]:
        """``move`` played (``play``); broken when, after a trick, the highest value the rest can give is
        below the threshold (``bounds``), or the new position's upper bound in the tables is."""
        completed = self.play(pos, move)
        if completed:
            # (a kept one is counted by ``look``, which sees it next)
            high = self.bounds(pos)[1]
            if high < self.threshold:
                self.highest_broken = max(self.highest_broken, high)
                return completed, True
            if pos.seat is None:
                return completed, False
        key, offset = found = self.key(pos)
        known = self.upper.get(key)
        if known is not None and known + offset < self.threshold:
            self.highest_broken = max(self.highest_broken, known + offset)
            return completed, True
        self.pending = found
        return completed, False


def distinct_moves(pos: DealState) -> list[Play]:
    """The legal plays of the seat to act, one single card of each set that wins, loses and
    scores alike (see the module), singles lowest first, then pairs and other two-card plays."""
    seat = pos.seat
    assert seat is not None
    singles, pairs, others = running.options(pos)
    cards = distinct_cards(singles, rivals_live(pos, seat), kept_apart(pos, seat))
    moves: list[Play] = [(c,) for c in cards]
    moves += [(c, c) for c in mask_cards(pairs)]
    moves += others
    return moves


def exact_units(search: AtLeast, pos: DealState, guess: int) -> int:
    """The exact score units ``search``'s seat can make sure of from ``pos``, by questions "at least t?"
    (MTD(f)), between the lowest and highest value the rest of the deal can give (``AtLeast.bounds``): a
    kept question proves the value at least its lowest kept leaf, a failed one at most its highest broken
    leaf. The first question asks ``guess`` (on the grid) and the second just beyond what it proved, as
    MTD(f) does; from the third on, a guess that far off is left for the middle of what is still open
    (a bisection). The bounds the tables already hold for ``pos`` (an earlier root's search met it)
    narrow the start. Raises ``Budget`` past the search's node limit or deadline."""
    low, high = search.bounds(pos)
    if low < high:
        key, offset = search.root_key(pos)
        known = search.lower.get(key)
        if known is not None:
            low = max(low, known + offset)
        known = search.upper.get(key)
        if known is not None:
            high = min(high, known + offset)
    return mtd(lambda threshold: search.lowest_kept if search.ask(pos, threshold) else search.highest_broken,
               low, high, guess)


def mtd(question: Callable[[int], int], low: int, high: int, guess: int) -> int:
    """The exact value between ``low`` and ``high`` (score units on the grid) by null-window questions, as
    MTD(f) asks them: ``question(t)`` bounds the value, at ``t`` or above from below, below ``t`` from above.
    The first question asks ``guess`` (on the grid) and the next just beyond what the last one proved; from
    the ``MTD_STEPS``-th on, the middle of what is still open (a bisection). A ``Budget`` raised by a question
    leaves with what was proven until then (``Budget.proven``)."""
    threshold = min(max(guess - guess % UNIT, low + UNIT), high)
    asked = 0
    while low < high:
        try:
            value = question(threshold)
        except Budget as cut:
            cut.proven = (low, high)
            raise
        if value >= threshold:
            low = max(low, value)
            threshold = low + UNIT
        else:
            high = min(high, value)
            threshold = high
        asked += 1
        if asked >= MTD_STEPS:
            middle = (low + high) // 2
            threshold = max(low + UNIT, middle - middle % UNIT)
    return low


class Endgame:
    """The exact values of a position's moves for ``seat`` (``values``), over one open deal."""

    def __init__(self, seat: int, max_nodes: int = DEFAULT_MAX_NODES, deadline: float | None = None,
                 partnership: bool = False, raw_points: bool = False) -> None:
        self.seat = seat
        self.nodes = Nodes(max_nodes, deadline)
        self.search = AtLeast(seat, self.nodes, partnership, raw_points)

    def values(self, state: DealState, moves: Sequence[Play], guesses: Sequence[float] | None = None) -> list[float]:
        """Each move's exact value (``exact_score``: points) for ``seat``, who is to act in ``state`` (not
        changed); ``guesses`` (points, one a move) start each search. Raises ``Budget`` past the node limit."""
        assert state.seat == self.seat
        pos = state.clone()
        per_point = units_per_point(state.rules)
        out = []
        for i, move in enumerate(moves):
            play_option(pos, move)
            guess = 0 if guesses is None else round(guesses[i] * per_point)
            out.append(exact_units(self.search, pos, guess) / per_point)
            pos.undo()
        return out


def endgame_values(state: DealState, moves: Sequence[Play], *, max_nodes: int = DEFAULT_MAX_NODES,
                   deadline: float | None = None,
                   guesses: Sequence[float] | None = None) -> tuple[list[float] | None, int]:
    """The exact value (``exact_score``) of each of ``moves`` for the seat to act in ``state``, every hand
    open, the other seats playing against it; ``guesses`` (a value a move, e.g. a playout's) start
    each search near its answer. None past ``max_nodes`` positions (then the count returned is above it)
    or past ``deadline`` (``time.monotonic()``). Also the positions searched. With partnership the seat's
    partner plays with it, for their side."""
    assert state.seat is not None, "the deal is finished"
    solver = Endgame(state.seat, max_nodes, deadline, state.rules.partnership)
    try:
        values: list[float] | None = solver.values(state, moves, guesses)
    except Budget:
        values = None
    return values, solver.nodes.count
