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

from collections.abc import Sequence
from itertools import combinations

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
    remove_card,
)

PAIR = 2
# (single cards, pairs, other two-card plays)
Options = tuple[int, int, Sequence[Play]]
NO_PLAYS: tuple[Play, ...] = ()
BANNED_FIRST_TRICK_MASK = 1 << PIG | 1 << TRANSFORMER


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
SUIT_PLANES: tuple[int, ...] = tuple(mask | mask << PLANE for mask in SUIT_MASKS)


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
TWO_CARD_PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple((min(a, b), max(a, b)) for b in range(PLANE)) for a in range(PLANE))
# one-plane pool of one suit -> every play of two of its cards; at most 4 × 2^13 pools, so kept once computed
_TWO_OF_POOL: dict[int, tuple[Play, ...]] = {}


def two_of(pool: int) -> tuple[Play, ...]:
    """Every play of two different cards of the one-plane, one-suit ``pool``."""
    plays = _TWO_OF_POOL.get(pool)
    if plays is None:
        plays = _TWO_OF_POOL[pool] = tuple(combinations(mask_cards(pool), 2))
    return plays


def _with_card(card: Card, others: int) -> tuple[int, list[Play]]:
    """``card`` plus any one card of ``others`` (two-plane bits), as options."""
    pairs = 1 << card if others >> card & 1 else 0
    row = TWO_CARD_PLAYS[card]
    return pairs, [row[c] for c in mask_cards(others & ONE_PLANE) if c != card]


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
        return _with_card(card, remove_card(hand, card))
    cards = mask_cards(hand & ONE_PLANE)
    return hand >> PLANE, list(combinations(cards, 2))


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
