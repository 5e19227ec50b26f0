"""Which plays the follow, lead and exposure rules allow (docs/rules.md, "Play").

Pure functions over bits (see ``cards``). ``play_options`` is the one
definition of the legal plays; the deal state, checking, replay and fast
playouts all go through it (``table.advance`` inlines its two commonest
cases, and tests/rules/test_options.py checks the inlined copy against it).

Options are three values: a one-plane mask of single cards, a one-plane mask
of pairs (bit ``c`` set: the play ``(c, c)``), and a sequence of the other
two-card plays (two different cards, each ``(low, high)``; only after a pair
lead). Callers read the sequence and never change it: it may be shared.

Exposure restriction: in the first round of a suit, a seat's exposed copies
of that suit are held back. The follow rules apply to its unexposed cards of
the suit; exposed copies come back only as far as those are too few for the
required number of cards. A leader may lead an exposed copy in a suit not yet
led only if it holds no unexposed card of it.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Final

from .cards import (
    ONE_PLANE,
    PIG,
    PLANE,
    SUIT_MASKS,
    SUIT_SIZE,
    TRANSFORMER,
    Card,
    Play,
    bits_cards,
    mask_cards,
    nth_card,
    remove_card,
)

PAIR: Final = 2
# (single cards, pairs, other two-card plays)
Options = tuple[int, int, Sequence[Play]]
NO_PLAYS: Final[tuple[Play, ...]] = ()
BANNED_FIRST_TRICK_MASK: Final = 1 << PIG | 1 << TRANSFORMER


def unexposed(hand: int, held_exposed: int) -> int:
    """Multiset ``hand`` less the exposed copies it still holds."""
    if not held_exposed:
        return hand
    two = hand >> PLANE
    for c in bits_cards(held_exposed):
        bit = 1 << c
        if two & bit:
            two ^= bit
        else:
            hand ^= bit
    return (hand & ONE_PLANE) | two << PLANE


# each suit's cards on both planes
SUIT_PLANES: Final[tuple[int, ...]] = tuple(mask | mask << PLANE for mask in SUIT_MASKS)


def suit_bits(bits: int, suit: int) -> int:
    """The cards of ``suit`` in two-plane ``bits``."""
    return bits & SUIT_PLANES[suit]


def lead_options(hand: int, held_exposed: int, suits_led: int) -> tuple[int, int]:
    """(single cards, pairs) this seat may lead, as one-plane masks."""
    singles, pairs = hand & ONE_PLANE, hand >> PLANE
    if not held_exposed:
        return singles, pairs
    free = unexposed(hand, held_exposed)
    for suit in range(4):
        if suits_led >> suit & 1:
            continue
        own_free = suit_bits(free, suit)
        if own_free:
            # a suit's first lead is from its unexposed cards while any remain
            singles &= ~SUIT_MASKS[suit] | own_free
            pairs &= ~SUIT_MASKS[suit] | free >> PLANE
    return singles, pairs


def follow_single_mask(hand: int, held_exposed: int, suit: int, first_round: bool) -> int:
    """One-plane mask of cards this seat may play after a single-card lead."""
    mask = SUIT_MASKS[suit]
    if first_round and held_exposed & mask:
        # exposed copies held back while unexposed cards of the suit remain
        free = unexposed(hand, held_exposed) & mask
        if free:
            return free
    return hand & mask or hand & ONE_PLANE


# every play of two different cards as (low, high): TWO_CARD_PLAYS[a][b] is the same tuple as TWO_CARD_PLAYS[b][a]
TWO_CARD_PLAYS: Final[tuple[tuple[Play, ...], ...]] = tuple(
    tuple((min(a, b), max(a, b)) for b in range(PLANE)) for a in range(PLANE))
# one-plane pool of one suit -> every play of two of its cards; at most 4 × 2^13 pools, so kept once computed
_TWO_OF_POOL: Final[dict[int, tuple[Play, ...]]] = {}


def two_of(pool: int) -> tuple[Play, ...]:
    """Every play of two different cards of the one-plane, one-suit ``pool``."""
    plays = _TWO_OF_POOL.get(pool)
    if plays is None:
        plays = _TWO_OF_POOL[pool] = tuple(combinations(mask_cards(pool), 2))
    return plays


class TwoCardPlays(Sequence[Play]):
    """The plays of two different cards a seat may make after a pair lead it cannot follow
    with two cards of the suit: any two of the one-plane ``pool`` (``card`` None), or
    ``card`` with any other card of ``pool``. Each play is ``(low, high)``, in
    lexicographic order.

    Up to 325 plays (two of 26 cards), so they are counted, tested and drawn by
    index from the mask; the list is made only when a caller iterates.
    """

    __slots__ = ("card", "pool", "_plays")

    def __init__(self, pool: int, card: Card | None = None) -> None:
        self.pool = pool & ~(1 << card) if card is not None else pool
        self.card = card
        self._plays: list[Play] | None = None

    def __len__(self) -> int:
        n = self.pool.bit_count()
        return n if self.card is not None else n * (n - 1) // 2

    def __contains__(self, play: object) -> bool:
        if type(play) is not tuple or len(play) != PAIR:
            return False
        a, b = play
        if type(a) is not int or type(b) is not int or not 0 <= a < b < PLANE:
            return False
        pool, card = self.pool, self.card
        if card is None:
            return bool(pool >> a & pool >> b & 1)
        return bool(a == card and pool >> b & 1 or b == card and pool >> a & 1)

    def __getitem__(self, index):  # type: ignore[no-untyped-def]  # int -> Play, slice -> list
        if not isinstance(index, int):
            return self._list()[index]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(index)
        pool, card = self.pool, self.card
        if card is not None:
            return TWO_CARD_PLAYS[card][nth_card(pool, index)]
        # row a holds the plays (a-th card, a later card): n − 1 − a of them
        row = pool.bit_count() - 1
        a = 0
        while index >= row:
            index -= row
            row -= 1
            a += 1
        return TWO_CARD_PLAYS[nth_card(pool, a)][nth_card(pool, a + 1 + index)]

    def __iter__(self) -> Iterator[Play]:
        return iter(self._list())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and not isinstance(other, str) and self._list() == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"TwoCardPlays({self._list()!r})"

    def _list(self) -> list[Play]:
        if self._plays is None:
            if self.card is None:
                self._plays = list(combinations(mask_cards(self.pool), 2))
            else:
                row = TWO_CARD_PLAYS[self.card]
                self._plays = [row[c] for c in mask_cards(self.pool)]
        return self._plays


def follow_pair_options(hand: int, held_exposed: int, suit: int, first_round: bool) -> tuple[int, Sequence[Play]]:
    """(pairs, other two-card plays) allowed after a pair lead in ``suit``.

    A pair of the suit if held, else two cards of the suit, else the suit's
    only card plus any card, else any two cards.
    """
    planes = SUIT_PLANES[suit]   # suit_bits, in place: the inner loop asks this once a pair follow
    in_suit = hand & planes
    if first_round and held_exposed & planes:
        pool = unexposed(hand, held_exposed) & planes
    else:
        pool = in_suit
    if pool >> PLANE:
        return pool >> PLANE, NO_PLAYS
    if pool & pool - 1:
        # two different cards of the suit (and no pair)
        return 0, two_of(pool)
    pool_cards = mask_cards(pool)
    suit_cards = bits_cards(in_suit)
    if len(suit_cards) >= PAIR:
        # exposed copies come back only as far as the unexposed cards are too few
        shown = bits_cards(suit_bits(held_exposed, suit))
        a, b = sorted(pool_cards + list(shown[:PAIR - len(pool_cards)]))
        return (1 << a, NO_PLAYS) if a == b else (0, (TWO_CARD_PLAYS[a][b],))
    if len(suit_cards) == 1:
        # that card plus any card (the play counts as a discard)
        card = suit_cards[0]
        rest = remove_card(hand, card)
        return (1 << card if rest >> card & 1 else 0), TwoCardPlays(rest & ONE_PLANE, card)
    return hand >> PLANE, TwoCardPlays(hand & ONE_PLANE)


def _without_banned(options: Options) -> Options:
    """first_trick_ban: no SQ or C10 in trick 1 unless nothing else is legal."""
    singles, pairs, others = options
    kept = (singles & ~BANNED_FIRST_TRICK_MASK, pairs & ~BANNED_FIRST_TRICK_MASK,
            [m for m in others if not BANNED_FIRST_TRICK_MASK >> m[0] & 1 and not BANNED_FIRST_TRICK_MASK >> m[1] & 1])
    return kept if kept[0] or kept[1] or kept[2] else options


def play_options(hand: int, held: int, lead: Play | None, suits_led: int, first_round: bool,
                 opening: Card | None, ban: bool) -> Options:
    """Legal plays of a seat holding ``hand`` (``held``: its exposed copies still held).

    ``lead`` is the current trick's first play (None when leading), ``opening``
    the card the first lead must be (if any), ``ban`` whether first_trick_ban
    applies to this trick.
    """
    if lead is None:
        if opening is not None:
            # the first lead of the first deal is the opening card
            return 1 << opening, hand >> PLANE & 1 << opening, NO_PLAYS
        singles, pairs = lead_options(hand, held, suits_led)
        options: Options = (singles, pairs, NO_PLAYS)
    elif len(lead) == 1:
        options = (follow_single_mask(hand, held, lead[0] // SUIT_SIZE, first_round), 0, NO_PLAYS)
    else:
        pairs, others = follow_pair_options(hand, held, lead[0] // SUIT_SIZE, first_round)
        options = (0, pairs, others)
    return _without_banned(options) if ban else options


def is_option(move: Play, options: Options) -> bool:
    """Whether sorted ``move`` is among the legal ``options``."""
    singles, pairs, others = options
    if len(move) == 1:
        c = move[0]
        return 0 <= c < PLANE and bool(singles >> c & 1)
    if len(move) != PAIR:
        return False
    if move[0] == move[1]:
        return 0 <= move[0] < PLANE and bool(pairs >> move[0] & 1)
    return move in others


def option_list(options: Options) -> list[Play]:
    """Every option: single cards ascending, then two-card plays in lexicographic order."""
    singles, pairs, others = options
    doubles = [(c, c) for c in mask_cards(pairs)] + list(others)
    return [(c,) for c in mask_cards(singles)] + sorted(doubles)


def verify_play(hand: int, held: int, lead: Play | None, suits_led: int, first_round: bool, opening: Card | None,
                ban: bool, move: Play) -> str | None:
    """The code of the rule that forbids ``move`` (sorted, of the trick's shape, held by the seat), or
    None when it is legal (pokerkit's ``verify_*``: the rules in turn, each asked once).

    The opening card when it is due; else the first-trick ban, when the play is legal but for it; else
    the exposure restriction, when the play is legal but for it; else the follow rules.
    """
    if is_option(move, play_options(hand, held, lead, suits_led, first_round, opening, ban)):
        return None
    if lead is None and opening is not None:
        return "must_lead_opening_card"
    if ban and is_option(move, play_options(hand, held, lead, suits_led, first_round, None, False)):
        return "first_trick_ban"
    if held and is_option(move, play_options(hand, 0, lead, suits_led, first_round, None, False)):
        return "exposed_card_first_round"
    assert lead is not None, "every lead of a held card is legal but for the ban or the exposure restriction"
    return "must_follow_pair" if len(lead) == PAIR else "must_follow_suit"
