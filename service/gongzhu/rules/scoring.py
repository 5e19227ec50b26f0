"""Raw scores (原始分) of one deal — docs/rules.md, "Scoring" (分牌, 满红, 满贯).

One deck: hearts ♥2–4 = 0, ♥5–10 = −10, ♥J −20, ♥Q −30, ♥K −40, ♥A −50;
pig (SQ) −100, sheep (DJ) +100; exposure doubles (HA: every heart). The
transformer (C10) multiplies the seat's other scoring cards by t = 2 (4 if
exposed), or scores 25·t alone. Two decks: each exposed copy doubles again,
and the transformer factor depends on copies taken and copies exposed.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .cards import (
    EXPOSABLE,
    HEART_ACE,
    HEARTS,
    PIG,
    PLANE,
    SCORING_MASK,
    SHEEP,
    SUIT_MASK,
    SUIT_SIZE,
    TRANSFORMER,
    Card,
    count_of,
    hand_bits,
)
from .deal import excess_copies
from .errors import InvalidDeal, Problem
from .exposure import deal_exposure_counts, exposure_list_problems
from .variants import Rules

HEART_VALUES = (0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50)
HEART_SUM = tuple(sum(v for i, v in enumerate(HEART_VALUES) if m >> i & 1) for m in range(1 << SUIT_SIZE))
HEART_SHIFT = HEARTS * SUIT_SIZE
PIG_POINTS, SHEEP_POINTS = -100, 100
ALL_HEARTS_POINTS = 200
TRANSFORMER_ALONE = 25
# transformer factor by copies taken, then copies exposed (0, 1, 2) — docs/rules.md, "Scoring"
TRANSFORMER_FACTORS = {1: (2, 4, 4), 2: (4, 8, 16)}


class SeatScore(NamedTuple):
    """One seat's raw score and how it was made (a NamedTuple: built in the inner loop)."""

    hearts: int
    pig: int
    sheep: int
    transformer_factor: int
    all_hearts: bool
    grand_slam: bool
    raw: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreSheet:
    raw: tuple[int, ...]
    seats: tuple[SeatScore, ...]
    exposed: tuple[Card, ...]


# builds a SeatScore without the Python-level NamedTuple constructor (four a deal in simulations)
new_score = tuple.__new__
SCORING_BITS = SCORING_MASK | SCORING_MASK << PLANE
# the copies of the pig, the sheep and the transformer (count_of) by the bits of them a pile holds
SPECIAL_POSITIONS = tuple(c + plane for c in (PIG, SHEEP, TRANSFORMER) for plane in (0, PLANE))
SPECIAL_BITS = sum(1 << b for b in SPECIAL_POSITIONS)


def _special_counts() -> dict[int, tuple[int, int, int]]:
    counts = {}
    for subset in range(1 << len(SPECIAL_POSITIONS)):
        bits = sum(1 << b for i, b in enumerate(SPECIAL_POSITIONS) if subset >> i & 1)
        counts[bits] = (count_of(bits, PIG), count_of(bits, SHEEP), count_of(bits, TRANSFORMER))
    return counts


SPECIAL_COUNTS = _special_counts()
NOTHING_TAKEN = SeatScore(hearts=0, pig=0, sheep=0, transformer_factor=1, all_hearts=False,
                          grand_slam=False, raw=0)


def _grand_slam(decks: int, k: dict[Card, int]) -> SeatScore:
    """满贯: (200·a + 100·q + 100·j)·decks × 2^(1+kT), the pig positive too (R)."""
    hearts = ALL_HEARTS_POINTS * decks << k[HEART_ACE]
    pig = -PIG_POINTS * decks << k[PIG]
    sheep = SHEEP_POINTS * decks << k[SHEEP]
    factor = 2 << k[TRANSFORMER]
    return SeatScore(hearts=hearts, pig=pig, sheep=sheep, transformer_factor=factor,
                     all_hearts=True, grand_slam=True, raw=(hearts + pig + sheep) * factor)


def seat_score(rules: Rules, taken: int, k: dict[Card, int]) -> SeatScore:
    """Raw score of the cards in ``taken`` (two-plane bits) given exposed copies ``k``."""
    decks = rules.decks
    if not taken & SCORING_BITS:
        return NOTHING_TAKEN
    h1 = taken >> HEART_SHIFT & SUIT_MASK
    h2 = taken >> (PLANE + HEART_SHIFT) & SUIT_MASK
    heart_count = h1.bit_count() + h2.bit_count()
    pigs, sheep_n, tens = SPECIAL_COUNTS[taken & SPECIAL_BITS]
    all_hearts = heart_count == SUIT_SIZE * decks
    if all_hearts and pigs == sheep_n == tens == decks:
        return _grand_slam(decks, k)
    hearts = (HEART_SUM[h1] + HEART_SUM[h2]) << k[HEART_ACE]
    pig = PIG_POINTS * pigs << k[PIG]
    if all_hearts:
        hearts = ALL_HEARTS_POINTS * decks << k[HEART_ACE]
        if rules.pig_flips_with_all_hearts:
            pig = -pig
    sheep = SHEEP_POINTS * sheep_n << k[SHEEP]
    factor = TRANSFORMER_FACTORS[tens][k[TRANSFORMER]] if tens else 1
    if tens and not (heart_count or pigs or sheep_n):
        raw = TRANSFORMER_ALONE * factor
    else:
        raw = (hearts + pig + sheep) * factor
    return new_score(SeatScore, (hearts, pig, sheep, factor, all_hearts, False, raw))


def _captured_problems(rules: Rules, captured: Sequence[Sequence[Card]]) -> list[Problem]:
    return excess_copies(rules, captured, [f"/captured/{seat}" for seat in range(len(captured))], "captured")


def score_cards(rules: Rules, captured: Sequence[Sequence[Card]],
                exposed: Sequence[Sequence[Card]] = ((), (), (), ())) -> ScoreSheet:
    """Score the cards each seat captured (all of a deal, or part for a running score)."""
    problems = _captured_problems(rules, captured) + exposure_list_problems(rules, exposed)
    if problems:
        raise InvalidDeal(problems)
    return score_bits(rules, [hand_bits(cards) for cards in captured], exposed)


def exposure_values(rules: Rules, exposed: Sequence[Sequence[Card]]) -> dict[Card, SeatScore]:
    """What each exposable card scores alone under the deal's (effective) exposure."""
    k = deal_exposure_counts(rules, exposed)
    return {card: seat_score(rules, 1 << card, k) for card in EXPOSABLE}


def score_bits(rules: Rules, taken_bits: Iterable[int], exposed: Sequence[Sequence[Card]]) -> ScoreSheet:
    """Each seat's score of its taken cards (bits), under the deal's exposure."""
    k = deal_exposure_counts(rules, exposed)
    seats = tuple(seat_score(rules, bits, k) for bits in taken_bits)
    shown = tuple(c for c in EXPOSABLE for _ in range(k[c]))
    return ScoreSheet(raw=tuple(s.raw for s in seats), seats=seats, exposed=shown)
