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

from service.rules import (
    HEART_ACE,
    HEARTS,
    ONE_PLANE,
    PIG,
    SEATS,
    SHEEP,
    SPADES,
    SUIT_MASKS,
    SUIT_SIZE,
    TRANSFORMER,
    Card,
    Play,
    mask_cards,
)

SPADE_KING = SPADES * SUIT_SIZE + 11
SPADE_ACE = SPADES * SUIT_SIZE + 12
PIG_GUARDS = (SPADE_KING, SPADE_ACE)
# a heavy card kept out of a lead or a duck; any ordering above the rank range works
AVOID = 100


def _winning_card(trick: Sequence[Play]) -> Card:
    """The highest card of the led suit in a single-card trick so far."""
    suit = trick[0][0] // SUIT_SIZE
    return max(p[0] for p in trick if p[0] // SUIT_SIZE == suit)


def _has_points(trick: Sequence[Play]) -> bool:
    return any(c // SUIT_SIZE == HEARTS or c in (PIG, TRANSFORMER) for p in trick for c in p)


def _lead(cards: list[Card], pig_out: bool) -> Card:
    def cost(c: Card) -> int:
        rank = c % SUIT_SIZE
        if c in (PIG, SHEEP) or (pig_out and c in PIG_GUARDS):
            return AVOID + rank
        if c // SUIT_SIZE == HEARTS:
            return AVOID // 2 + rank
        return rank
    return min(cards, key=cost)


def _follow(cards: list[Card], trick: Sequence[Play], last: bool) -> Card:
    top = _winning_card(trick)
    under = [c for c in cards if c < top and c != SHEEP]
    if PIG in cards and top > PIG:
        return PIG
    if SHEEP in cards and SHEEP > top and last and not _has_points(trick):
        return SHEEP
    if under:
        return max(under)
    safe = [c for c in cards if c != PIG] or cards
    return max(safe) if last else min(safe)


def _discard(cards: list[Card], pig_out: bool) -> Card:
    if PIG in cards:
        return PIG
    hearts = [c for c in cards if c // SUIT_SIZE == HEARTS]
    if hearts:
        return max(hearts)
    guards = [c for c in cards if pig_out and c in PIG_GUARDS]
    if guards:
        return max(guards)
    if TRANSFORMER in cards:
        return TRANSFORMER
    rest = [c for c in cards if c != SHEEP] or cards
    return max(rest, key=lambda c: (c % SUIT_SIZE, c))


def _cost(move: Play) -> int:
    return sum(c % SUIT_SIZE + (AVOID if c in (PIG, SHEEP, HEART_ACE) else 0) for c in move)


def heuristic_play(hand: int, mask: int, doubles: Sequence[Play], trick: Sequence[Play], played: int) -> Play:
    """The baseline play among the legal options (``mask`` of singles, two-card ``doubles``).

    ``hand`` and ``played`` are bits of the seat's hand and of every card
    already played; ``trick`` is the current trick's plays in order.
    """
    if doubles and (not mask or (trick and len(trick[0]) == 2)):
        return min(doubles, key=_cost)
    cards = mask_cards(mask & ONE_PLANE)
    pig_out = not (played >> PIG & 1) and not (hand >> PIG & 1)
    if not trick:
        return (_lead(cards, pig_out),)
    suit = trick[0][0] // SUIT_SIZE
    if all(SUIT_MASKS[suit] >> c & 1 for c in cards):
        return (_follow(cards, trick, len(trick) == SEATS - 1),)
    return (_discard(cards, pig_out),)
