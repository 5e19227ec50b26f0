"""Deal results — docs/rules.md, "Settlement" (得分计算, 打对家, 元宝结算规则).

Normalization makes the four scores sum to exactly 0: the exact value
raw − (sum of the other three)/3, rounded by the largest-remainder method
(floor all, then +1 to the largest fractional parts, ties to the lower seat).
One-deck games multiply by 12 to balance two-deck scores.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import SEATS
from .variants import Rules

OTHERS: Final = SEATS - 1
ONE_DECK_MULTIPLIER: Final = 12
PARTNERS: Final = ((0, 2), (1, 3))


def normalize(raw: Sequence[int]) -> tuple[int, ...]:
    """raw − (others)/3 per seat, largest remainder so the four sum to 0."""
    total = sum(raw)
    numerators = [SEATS * r - total for r in raw]
    floors = [n // OTHERS for n in numerators]
    short = -sum(floors)
    # the largest remainders first, ties to the lower seat
    for _, seat in sorted([(-(n % OTHERS), seat) for seat, n in enumerate(numerators)])[:short]:
        floors[seat] += 1
    return tuple(floors)


def partnership(raw: Sequence[int]) -> tuple[int, ...]:
    """打对家: seats 0+2 and 1+3 each get half their side's difference."""
    ac = raw[0] + raw[2]
    bd = raw[1] + raw[3]
    half = (ac - bd) // 2
    return half, -half, half, -half


def exact_score(rules: Rules, raw: Sequence[int], seat: int) -> float:
    """The seat's score before rounding: raw − (others)/3, or half its side's difference (打对家).

    ``base_scores`` rounds it; search compares seats by it exactly.
    """
    if rules.partnership:
        side = next(pair for pair in PARTNERS if seat in pair)
        ours = raw[side[0]] + raw[side[1]]
        return (2 * ours - sum(raw)) / 2
    return (SEATS * raw[seat] - sum(raw)) / OTHERS


def base_scores(rules: Rules, raw: Sequence[int]) -> tuple[int, ...]:
    """Normalized scores, or partnership scores when the rules play 打对家."""
    return partnership(raw) if rules.partnership else normalize(raw)


def final_scores(rules: Rules, raw: Sequence[int], base: Sequence[int] | None = None) -> tuple[int, ...]:
    """Normalized (or partnership) scores, ×12 in one-deck games (``base``: ``base_scores(rules, raw)``,
    when the caller has them)."""
    if base is None:
        base = base_scores(rules, raw)
    factor = ONE_DECK_MULTIPLIER if rules.decks == 1 else 1
    return tuple(v * factor for v in base)


@dataclass(frozen=True, slots=True, kw_only=True)
class Transfer:
    payer: int
    payee: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Ingots:
    winners: tuple[int, ...]
    net: tuple[int, ...]
    transfers: tuple[Transfer, ...]


def settle_ingots(scores: Sequence[int], multiplier: int = 1, fee: int = 0) -> Ingots:
    """元宝: every seat pays each top scorer the difference × room multiplier; fee from all."""
    best = max(scores)
    winners = tuple(s for s in range(SEATS) if scores[s] == best)
    transfers = tuple(Transfer(payer=loser, payee=w, amount=(best - scores[loser]) * multiplier)
                      for loser in range(SEATS) if loser not in winners for w in winners)
    net = [-fee] * SEATS
    for t in transfers:
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    return Ingots(winners=winners, net=tuple(net), transfers=transfers)
