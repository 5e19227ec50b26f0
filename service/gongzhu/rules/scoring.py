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
from typing import Final, NamedTuple

from .cards import (
    EXPOSABLE,
    HEART_ACE,
    HEARTS,
    ONE_PLANE,
    PIG,
    PLANE,
    SCORING_MASK,
    SHEEP,
    SUIT_MASK,
    SUIT_RANKS,
    SUIT_SIZE,
    TRANSFORMER,
    Card,
    count_of,
    hand_bits,
)
from .deal import excess_copies, within_copies
from .errors import InvalidDeal, Problem
from .exposure import deal_exposure_counts, exposure_list_problems
from .variants import Rules

HEART_VALUES: Final = (0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50)
HEART_SUM: Final = tuple(sum(v for i, v in enumerate(HEART_VALUES) if m >> i & 1) for m in range(1 << SUIT_SIZE))
HEART_SHIFT: Final = HEARTS * SUIT_SIZE
PIG_POINTS: Final = -100
SHEEP_POINTS: Final = 100
ALL_HEARTS_POINTS: Final = 200
TRANSFORMER_ALONE: Final = 25
# transformer factor by copies taken, then copies exposed (0, 1, 2) — docs/rules.md, "Scoring"
TRANSFORMER_FACTORS: Final = {1: (2, 4, 4), 2: (4, 8, 16)}


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


# the pig, the sheep and the transformer on one plane; a pile's copies of them as one small key: the first
# plane's bits as they are, the second plane's moved up one (no two of the three cards are neighbours)
SPECIAL_ONE: Final = 1 << PIG | 1 << SHEEP | 1 << TRANSFORMER


def _special_counts() -> dict[int, tuple[int, int, int]]:
    counts = {}
    positions = [c + plane for c in (PIG, SHEEP, TRANSFORMER) for plane in (0, PLANE)]
    for subset in range(1 << len(positions)):
        bits = sum(1 << b for i, b in enumerate(positions) if subset >> i & 1)
        key = bits & SPECIAL_ONE | (bits >> PLANE & SPECIAL_ONE) << 1
        counts[key] = (count_of(bits, PIG), count_of(bits, SHEEP), count_of(bits, TRANSFORMER))
    return counts


SPECIAL_COUNTS: Final = _special_counts()
# the copies of each exposable card the deal exposed, in EXPOSABLE's order: pig, sheep, transformer, heart ace
Doublings = tuple[int, int, int, int]
NO_DOUBLINGS: Final[Doublings] = (0, 0, 0, 0)
# a seat's score: hearts, pig, sheep, transformer factor, all hearts, grand slam, raw (SeatScore's fields)
Parts = tuple[int, int, int, int, bool, bool, int]
NOTHING_TAKEN: Final[Parts] = (0, 0, 0, 1, False, False, 0)


def doublings(rules: Rules, exposed: Sequence[Sequence[Card]]) -> Doublings:
    """The deal's exposed copies of each exposable card (``deal_exposure_counts``), in ``EXPOSABLE``'s order."""
    k = deal_exposure_counts(rules, exposed)
    return k[PIG], k[SHEEP], k[TRANSFORMER], k[HEART_ACE]


def _grand_slam(decks: int, k: Doublings) -> Parts:
    """满贯: (200·a + 100·q + 100·j)·decks × 2^(1+kT), the pig positive too (R)."""
    k_pig, k_sheep, k_ten, k_heart = k
    hearts = ALL_HEARTS_POINTS * decks << k_heart
    pig = -PIG_POINTS * decks << k_pig
    sheep = SHEEP_POINTS * decks << k_sheep
    factor = 2 << k_ten
    return hearts, pig, sheep, factor, True, True, (hearts + pig + sheep) * factor


def score_parts(rules: Rules, taken: int, k: Doublings) -> Parts:
    """The score of the cards in ``taken`` (two-plane bits) given the deal's exposed copies ``k``."""
    one, two = taken & ONE_PLANE, taken >> PLANE
    if not (one | two) & SCORING_MASK:
        return NOTHING_TAKEN
    decks = rules.decks
    h1 = one >> HEART_SHIFT & SUIT_MASK
    h2 = two >> HEART_SHIFT & SUIT_MASK
    # the hearts taken: the ranks of each plane's heart mask
    heart_count = len(SUIT_RANKS[h1]) + len(SUIT_RANKS[h2])
    pigs, sheep_n, tens = SPECIAL_COUNTS[one & SPECIAL_ONE | (two & SPECIAL_ONE) << 1]
    all_hearts = heart_count == SUIT_SIZE * decks
    if all_hearts and pigs == sheep_n == tens == decks:
        return _grand_slam(decks, k)
    k_pig, k_sheep, k_ten, k_heart = k
    hearts = (HEART_SUM[h1] + HEART_SUM[h2]) << k_heart
    pig = PIG_POINTS * pigs << k_pig
    if all_hearts:
        hearts = ALL_HEARTS_POINTS * decks << k_heart
        if rules.pig_flips_with_all_hearts:
            pig = -pig
    sheep = SHEEP_POINTS * sheep_n << k_sheep
    factor = TRANSFORMER_FACTORS[tens][k_ten] if tens else 1
    if tens and not (heart_count or pigs or sheep_n):
        raw = TRANSFORMER_ALONE * factor
    else:
        raw = (hearts + pig + sheep) * factor
    return hearts, pig, sheep, factor, all_hearts, False, raw


def seat_score(rules: Rules, taken: int, k: Doublings) -> SeatScore:
    """The score of the cards in ``taken`` (two-plane bits), with how it was made."""
    return SeatScore._make(score_parts(rules, taken, k))


def seat_raw(rules: Rules, taken: int, k: Doublings) -> int:
    """The raw score of the cards in ``taken`` (two-plane bits)."""
    return score_parts(rules, taken, k)[-1]


def _captured_problems(rules: Rules, captured: Sequence[Sequence[Card]], taken: list[int]) -> list[Problem]:
    if within_copies(rules, captured, taken):
        return []
    return excess_copies(rules, captured, [f"/captured/{seat}" for seat in range(len(captured))], "captured")


def score_cards(rules: Rules, captured: Sequence[Sequence[Card]],
                exposed: Sequence[Sequence[Card]] = ((), (), (), ())) -> ScoreSheet:
    """Score the cards each seat captured (all of a deal, or part for a running score)."""
    taken = [hand_bits(cards) for cards in captured]
    problems = _captured_problems(rules, captured, taken) + exposure_list_problems(rules, exposed)
    if problems:
        raise InvalidDeal(problems)
    return score_bits(rules, taken, exposed)


def exposure_values(rules: Rules, exposed: Sequence[Sequence[Card]]) -> dict[Card, SeatScore]:
    """What each exposable card scores alone under the deal's (effective) exposure."""
    k = doublings(rules, exposed)
    return {card: seat_score(rules, 1 << card, k) for card in EXPOSABLE}


def score_bits(rules: Rules, taken_bits: Iterable[int], exposed: Sequence[Sequence[Card]],
               k: Doublings | None = None) -> ScoreSheet:
    """Each seat's score of its taken cards (bits), under the deal's exposure (``k``: its
    ``doublings``, when the caller has them)."""
    if k is None:
        k = doublings(rules, exposed)
    seats = tuple([seat_score(rules, bits, k) for bits in taken_bits])
    shown = tuple([c for c, copies in zip(EXPOSABLE, k) for _ in range(copies)])
    return ScoreSheet(raw=tuple(s.raw for s in seats), seats=seats, exposed=shown)
