"""亮牌 (exposure, also 卖牌) — docs/rules.md, "Exposure".

Before play a seat may expose any of ``SQ``, ``DJ``, ``C10``, ``HA`` it holds;
the effect belongs to the card, whoever captures it. In one-deck games, once
three of the four are exposed the fourth is exposed automatically for whoever
holds it ("在一副牌的 4 张中如果有 3 张已经亮过，则第 4 张自动亮出来"). Two-deck
exposure is per copy and has no automatic card.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .cards import CARD_NAMES, EXPOSABLE, Card
from .deal import deal_problems
from .errors import InvalidDeal, Problem
from .messages import EXPOSED_LISTS, EXPOSED_NOT_HELD, EXPOSED_TOO_OFTEN, NOT_EXPOSABLE
from .variants import Rules

AUTOMATIC_AFTER: Final = 3
NOTHING_EXPOSED: Final = dict.fromkeys(EXPOSABLE, 0)


def exposure_list_problems(rules: Rules, exposed: Sequence[Sequence[Card]],
                           hands: Sequence[Sequence[Card]] | None = None) -> list[Problem]:
    """Every exposure that is not of an exposable card, or (``hands`` given) not held by that
    seat, or (no ``hands``) of more copies than the decks hold."""
    problems: list[Problem] = []
    # copies of each card exposed so far in the deal, and by the seat
    copies: dict[Card, int] = {}
    for seat, cards in enumerate(exposed):
        if not cards:
            continue
        hand = None if hands is None else hands[seat] if seat < len(hands) else ()
        shown: dict[Card, int] = {}
        for i, card in enumerate(cards):
            by_seat = shown[card] = shown.get(card, 0) + 1
            in_deal = copies[card] = copies.get(card, 0) + 1
            if card not in EXPOSABLE:
                problems.append(Problem("illegal_exposure", f"/exposed/{seat}/{i}",
                                        NOT_EXPOSABLE(card=CARD_NAMES[card])))
            elif hand is not None and by_seat > (held := hand.count(card)):
                problems.append(Problem("illegal_exposure", f"/exposed/{seat}/{i}",
                                        EXPOSED_NOT_HELD(seat=seat, card=CARD_NAMES[card], shown=by_seat, held=held)))
            elif hand is None and in_deal > rules.decks:
                problems.append(Problem("illegal_exposure", f"/exposed/{seat}/{i}",
                                        EXPOSED_TOO_OFTEN(card=CARD_NAMES[card])))
    return problems


def automatic_exposure(rules: Rules, hands: Sequence[Sequence[Card]],
                       exposed: Sequence[Sequence[Card]]) -> tuple[int, Card] | None:
    """(seat, card) exposed automatically in a one-deck game, if any."""
    if rules.decks != 1:
        return None
    shown = {c for cards in exposed for c in cards}
    missing = [c for c in EXPOSABLE if c not in shown]
    if len(EXPOSABLE) - len(missing) != AUTOMATIC_AFTER:
        return None
    card = missing[0]
    for seat, hand in enumerate(hands):
        if card in hand:
            return seat, card
    return None


def effective_exposure(rules: Rules, hands: Sequence[Sequence[Card]],
                       exposed: Sequence[Sequence[Card]]) -> tuple[tuple[Card, ...], ...]:
    """The four exposure lists with the automatic 4th card; raises ``InvalidDeal``.

    The hands must form a deal (``deal_problems``); every problem is reported.
    """
    problems = deal_problems(rules, hands)
    if len(exposed) != len(hands):
        problems.append(Problem("illegal_exposure", "/exposed", EXPOSED_LISTS(seats=len(hands))))
    elif not problems:
        problems += exposure_list_problems(rules, exposed, hands)
    if problems:
        raise InvalidDeal(problems)
    lists = [tuple(cards) for cards in exposed]
    auto = automatic_exposure(rules, hands, exposed)
    if auto is not None:
        seat, card = auto
        lists[seat] += (card,)
    return tuple(lists)


def exposure_counts(exposed: Iterable[Iterable[Card]]) -> dict[Card, int]:
    """Copies of each exposable card exposed in the deal (0–2)."""
    counts = dict.fromkeys(EXPOSABLE, 0)
    for cards in exposed:
        for c in cards:
            counts[c] += 1
    return counts


def deal_exposure_counts(rules: Rules, exposed: Sequence[Sequence[Card]]) -> dict[Card, int]:
    """As ``exposure_counts``, counting the automatic 4th card when holders are unknown."""
    if not any(exposed):
        return dict(NOTHING_EXPOSED)
    counts = exposure_counts(exposed)
    if rules.decks == 1 and sum(1 for c in EXPOSABLE if counts[c]) == AUTOMATIC_AFTER:
        for c in EXPOSABLE:
            counts[c] = 1
    return counts
