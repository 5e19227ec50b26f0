"""The review's verdicts (docs/review.md): each decision's class from its loss, and a seat's accuracy.

The thresholds are raw-score points, the review's scale (docs/review.md, "Verdicts and accuracy"): 10 points
is a middle heart, 20 a heart jack or two middle hearts, 100 the pig or the sheep. An estimated loss within
``NOISE_Z`` standard errors of 0 is never called a mistake or a blunder: at most an inaccuracy.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum


class Verdict(StrEnum):
    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


# The least loss of each class past ``best`` (a loss of 0: one of the best moves), in points.
GOOD_FROM = 0
INACCURACY_FROM = 10
MISTAKE_FROM = 20
BLUNDER_FROM = 100
NOISE_Z = 2.0
# A decision's accuracy is 100 × exp(−loss / ACCURACY_POINTS): 100 for a best move, 37 for a loss of a pig.
ACCURACY_POINTS = 100.0
VERDICTS = tuple(Verdict)


def verdict(loss: float, error: float | None) -> Verdict:
    """The class of a decision that lost ``loss`` points, ``error`` its standard error (None when exact)."""
    if loss <= GOOD_FROM:
        return Verdict.BEST
    found = (Verdict.BLUNDER if loss >= BLUNDER_FROM else Verdict.MISTAKE if loss >= MISTAKE_FROM
             else Verdict.INACCURACY if loss >= INACCURACY_FROM else Verdict.GOOD)
    if error is not None and loss <= NOISE_Z * error and found in (Verdict.MISTAKE, Verdict.BLUNDER):
        return Verdict.INACCURACY
    return found


def accuracy(losses: Sequence[float]) -> float | None:
    """A seat's accuracy, 0–100: the mean of each decision's 100 × exp(−loss / ``ACCURACY_POINTS``) over
    ``losses`` (its decisions with a choice), one decimal; None without any."""
    if not losses:
        return None
    return round(sum(100 * math.exp(-loss / ACCURACY_POINTS) for loss in losses) / len(losses), 1)
