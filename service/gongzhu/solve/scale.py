"""The exact searches' one value scale (docs/bot.md, "Exact endgames"; docs/review.md): a seat's value is
a weighted sum of the four seats' raw scores (``value_weights``), so that a pile, a bound or a leaf is
valued by one sum whatever the search.

- The bot's scale (``exact_score``, docs/rules.md §6, in integer units): 3·own − each other's raw score
  individually (three units a point), own side's less the other side's with partnership (two a point).
- The review's scale (``raw_points``): individually the seat's own raw score alone; with partnership its
  side's raw scores less the other side's (twice the partnership score): ``raw_value``.

With partnership the two sides' values are opposites; individually the other three seats play to lower
the seat's value (as against a claim).
"""
from __future__ import annotations

from collections.abc import Sequence

from ..rules.cards import SEATS
from ..rules.variants import Rules

Weights = tuple[int, ...]


def value_weights(seat: int, partnership: bool, raw_points: bool) -> Weights:
    """Each seat's raw score's weight in ``seat``'s value: the bot's scale, or the review's (``raw_points``)."""
    if partnership:
        return tuple([1 if s % 2 == seat % 2 else -1 for s in range(SEATS)])
    if raw_points:
        return tuple([1 if s == seat else 0 for s in range(SEATS)])
    return tuple([SEATS - 1 if s == seat else -1 for s in range(SEATS)])


def weighted(weights: Weights, raw: Sequence[int]) -> int:
    """The value of the raw scores ``raw`` in the scale ``weights``."""
    return weights[0] * raw[0] + weights[1] * raw[1] + weights[2] * raw[2] + weights[3] * raw[3]


def score_units(rules: Rules, raw: Sequence[int], seat: int) -> int:
    """``exact_score`` times ``units_per_point(rules)``, an integer (the bot's scale)."""
    return weighted(value_weights(seat, rules.partnership, False), raw)


def units_per_point(rules: Rules) -> int:
    """Score units per point of ``exact_score``: 2 with partnership (half a side difference), else 3."""
    return 2 if rules.partnership else SEATS - 1


def raw_value(rules: Rules, raw: Sequence[int], seat: int) -> int:
    """The review's scale (``OpenValues``): ``seat``'s raw score, or with partnership its side's raw scores
    less the other side's."""
    return weighted(value_weights(seat, rules.partnership, True), raw)
