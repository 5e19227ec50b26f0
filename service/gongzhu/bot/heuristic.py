"""The baseline heuristic seat: sensible single-rule play, no look-ahead.

Uses only the seat's own hand, the current trick and the cards played.

- Leading: the lowest card of the suit where it is least likely to win,
  never a heart while another suit is held, never the pig (SQ), nor SA/SK
  while the pig is out in another hand, never the sheep (DJ).
- Following: duck under the winning card with the highest card that still
  loses (never the sheep; the pig only under SK/SA). If every card wins:
  last to play, win with the highest card that is not the pig; otherwise
  play the lowest. Take the sheep when last and the trick holds no points.
- Discarding: the pig first, then the highest heart, then SA/SK while the
  pig is out, then the transformer (C10), then the highest card; never the
  sheep while another card is left.
Two-card plays (two decks) take the play with the lowest cost.
"""
from __future__ import annotations

from collections.abc import Sequence

from gongzhu.rules import PIG, SHEEP, TRANSFORMER, Card, Play
from gongzhu.rules.cards import HEART_ACE, HEART_MASK, ONE_PLANE, SEATS, SPADES, SUIT_MASK, SUIT_MASKS, SUIT_SIZE
from gongzhu.rules.tricks import leading_card

SPADE_KING = SPADES * SUIT_SIZE + 11
SPADE_ACE = SPADES * SUIT_SIZE + 12
# a heavy card kept out of a lead or a duck; any ordering above the rank range works
AVOID = 100

PIG_BIT, SHEEP_BIT, TRANSFORMER_BIT = 1 << PIG, 1 << SHEEP, 1 << TRANSFORMER
GUARD_BITS = 1 << SPADE_KING | 1 << SPADE_ACE
POINT_BITS = HEART_MASK | PIG_BIT | TRANSFORMER_BIT


def _ranks(m: int) -> int:
    """The ranks held in any suit of one-plane ``m``, as a 13-bit mask."""
    return (m | m >> SUIT_SIZE | m >> 2 * SUIT_SIZE | m >> 3 * SUIT_SIZE) & SUIT_MASK


def _lowest(m: int) -> Card:
    """The card of the lowest rank in ``m``; of equal ranks, the first suit (lowest card)."""
    ranks = _ranks(m)
    rank = (ranks & -ranks).bit_length() - 1
    card = rank
    while not m >> card & 1:
        card += SUIT_SIZE
    return card


def _highest(m: int) -> Card:
    """The card of the highest rank in ``m``; of equal ranks, the last suit (highest card)."""
    card = 3 * SUIT_SIZE + _ranks(m).bit_length() - 1
    while not m >> card & 1:
        card -= SUIT_SIZE
    return card


def _top(m: int) -> Card:
    return m.bit_length() - 1


def _has_points(trick: Sequence[Play]) -> bool:
    return any(1 << c & POINT_BITS for p in trick for c in p)


def _lead(m: int, pig_out: bool) -> Card:
    """Cost order: plain cards by rank, then hearts, then the pig, the sheep and (pig out) SA/SK."""
    avoid = PIG_BIT | SHEEP_BIT | (GUARD_BITS if pig_out else 0)
    plain = m & ~avoid & ~HEART_MASK
    if plain:
        return _lowest(plain)
    hearts = m & HEART_MASK
    if hearts:
        return _lowest(hearts)
    return _lowest(m)


def _follow(m: int, trick: Sequence[Play], last: bool) -> Card:
    top = leading_card([play[0] for play in trick])
    if m & PIG_BIT and top > PIG:
        return PIG
    if m & SHEEP_BIT and SHEEP > top and last and not _has_points(trick):
        return SHEEP
    under = m & ((1 << top) - 1) & ~SHEEP_BIT
    if under:
        return _top(under)
    safe = m & ~PIG_BIT or m
    return _top(safe) if last else _top(safe & -safe)


def _discard(m: int, pig_out: bool) -> Card:
    if m & PIG_BIT:
        return PIG
    hearts = m & HEART_MASK
    if hearts:
        return _top(hearts)
    if pig_out and m & GUARD_BITS:
        return _top(m & GUARD_BITS)
    if m & TRANSFORMER_BIT:
        return TRANSFORMER
    return _highest(m & ~SHEEP_BIT or m)


def _cost(move: Play) -> int:
    return sum(c % SUIT_SIZE + (AVOID if c in (PIG, SHEEP, HEART_ACE) else 0) for c in move)


def heuristic_play(hand: int, mask: int, doubles: Sequence[Play], trick: Sequence[Play], played: int) -> Play:
    """The baseline play among the legal options (``mask`` of singles, two-card ``doubles``).

    ``hand`` and ``played`` are bits of the seat's hand and of every card
    already played; ``trick`` is the current trick's plays in order.
    """
    if doubles and (not mask or (trick and len(trick[0]) == 2)):
        return min(doubles, key=_cost)
    m = mask & ONE_PLANE
    pig_out = not (played >> PIG & 1) and not (hand >> PIG & 1)
    if not trick:
        return (_lead(m, pig_out),)
    if m & ~SUIT_MASKS[trick[0][0] // SUIT_SIZE]:
        return (_discard(m, pig_out),)
    return (_follow(m, trick, len(trick) == SEATS - 1),)
