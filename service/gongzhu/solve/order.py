"""The value searches' one move order (docs/bot.md, "Exact endgames"): the moves likeliest to decide a
question first, for ``endgame.AtLeast`` on the deal state and ``plain_open.PlainOpen`` on its ints alike.

First what the trick would bring if it ended with the move: its scoring cards' worth to their taker,
counted by the sign of the taker's weight in the value (``scale``), the best for the mover's side first;
then, among plays that would take the trick the lowest card, among those that would not the highest (a
card kept back is worth more later). The transformer, which doubles rather than scores, counts 0 here.
"""
from __future__ import annotations

from typing import Final

from ..rules.cards import HEARTS, PIG, PLANE, SHEEP, SUIT_SIZE
from ..rules.scoring import HEART_VALUES, PIG_POINTS, SHEEP_POINTS
from .scale import Weights

# what a card is worth to its taker in the order, times 32: above any rank's part of a key
ORDER_WORTHS: Final[tuple[int, ...]] = tuple([
    32 * (HEART_VALUES[c % SUIT_SIZE] if c // SUIT_SIZE == HEARTS else
          PIG_POINTS if c == PIG else SHEEP_POINTS if c == SHEEP else 0) for c in range(PLANE)])
# keeps ``order_worth`` non-negative
ORDER_BIAS: Final = 1 << 24


def order_worth(weights: Weights, seat: int, taker: int, gain: int, rank: int, takes: bool) -> int:
    """The place of a move of ``seat`` in the order, lowest first (see the module): ``taker`` would take the
    trick if it ended with the move, ``gain`` (``ORDER_WORTHS`` summed) with it; ``rank`` is the move's
    card's rank, ``takes`` whether the move would take the trick so far."""
    worth = rank if takes else SUIT_SIZE - rank
    weight = weights[taker]
    # (signs only: the compiled build multiplies a negative int the slow way, boxed)
    if weight > 0:
        worth -= gain
    elif weight < 0:
        worth += gain
    return ORDER_BIAS + worth if weights[seat] > 0 else ORDER_BIAS - worth
