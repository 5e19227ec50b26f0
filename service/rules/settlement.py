"""Deal results — SPEC.md §6, R "得分计算", "打对家", "元宝结算规则".

Normalization makes the four scores sum to exactly 0: the exact value
raw − (sum of the other three)/3, rounded by the largest-remainder method
(floor all, then +1 to the largest fractional parts, ties to the lower seat).
One-deck games multiply by 12 to balance two-deck scores (R).
"""
from __future__ import annotations

from dataclasses import dataclass

from .variants import Rules

SEATS = 4
OTHERS = SEATS - 1
ONE_DECK_MULTIPLIER = 12
PARTNERS = ((0, 2), (1, 3))


def normalize(raw) -> tuple[int, ...]:
    """raw − (others)/3 per seat, largest remainder so the four sum to 0."""
    total = sum(raw)
    numerators = [SEATS * r - total for r in raw]
    floors = [n // OTHERS for n in numerators]
    short = -sum(floors)
    order = sorted(range(SEATS), key=lambda s: (-(numerators[s] % OTHERS), s))
    for seat in order[:short]:
        floors[seat] += 1
    return tuple(floors)


def partnership(raw) -> tuple[int, ...]:
    """打对家: seats 0+2 and 1+3 each get half their side's difference (R)."""
    ac = raw[0] + raw[2]
    bd = raw[1] + raw[3]
    half = (ac - bd) // 2
    return half, -half, half, -half


def final_scores(rules: Rules, raw) -> tuple[int, ...]:
    """Normalized (or partnership) scores, ×12 in one-deck games."""
    base = partnership(raw) if rules.partnership else normalize(raw)
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


def settle_ingots(scores, multiplier: int = 1, fee: int = 0) -> Ingots:
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
