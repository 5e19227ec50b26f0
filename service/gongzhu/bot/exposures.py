"""``suggest_exposures``: which cards to expose (亮牌) before play (docs/rules.md, "Exposure").

Exposing a card doubles it for whoever takes it, so a seat exposes only
what it expects to control. Thresholds are per deck (doubled with two decks;
one copy is exposed):

- sheep (DJ): held with at least 2 of DQ/DK/DA and at least 4 diamonds —
  the seat can clear the higher diamonds and take the sheep itself.
- pig (SQ): held with at least 4 lower spades and neither SK nor SA — the
  seat can follow low until the pig can be discarded on another suit.
- heart ace (HA): held with HK, HQ and at least 7 hearts — a real chance at
  all hearts (满红); otherwise never.
- transformer (C10): never; it doubles whatever its taker holds, which the
  seat cannot steer before play.
"""
from __future__ import annotations

from collections.abc import Sequence

from gongzhu.rules import PIG, SHEEP, Card, InvalidDeal, Rules
from gongzhu.rules.cards import DIAMONDS, HEART_ACE, HEARTS, SPADES, SUIT_SIZE
from gongzhu.rules.deal import dealt_hand_problems

SHEEP_GUARDS = tuple(DIAMONDS * SUIT_SIZE + r for r in (10, 11, 12))
MIN_SHEEP_GUARDS, MIN_DIAMONDS = 2, 4
PIG_DANGER = tuple(SPADES * SUIT_SIZE + r for r in (11, 12))
MIN_LOW_SPADES = 4
HEART_HONOURS = tuple(HEARTS * SUIT_SIZE + r for r in (10, 11))
MIN_HEARTS = 7


def _suit_count(hand: Sequence[Card], suit: int) -> int:
    return sum(1 for c in hand if c // SUIT_SIZE == suit)


def suggest_exposures(rules: Rules, dealt: Sequence[Card]) -> tuple[tuple[Card, ...], str]:
    """(cards to expose, reason) for a hand as dealt; raises ``InvalidDeal`` for a bad hand."""
    problems = dealt_hand_problems(rules, dealt)
    if problems:
        raise InvalidDeal(problems)
    hand = tuple(dealt)
    decks = rules.decks
    shown: list[Card] = []
    reasons: list[str] = []
    if SHEEP in hand and (sum(hand.count(c) for c in SHEEP_GUARDS) >= MIN_SHEEP_GUARDS * decks
                          and _suit_count(hand, DIAMONDS) >= MIN_DIAMONDS * decks):
        shown.append(SHEEP)
        reasons.append("sheep_guarded")
    low_spades = sum(1 for c in hand if c // SUIT_SIZE == SPADES and c < PIG)
    if PIG in hand and low_spades >= MIN_LOW_SPADES * decks and not any(c in hand for c in PIG_DANGER):
        shown.append(PIG)
        reasons.append("pig_protected")
    if HEART_ACE in hand and all(c in hand for c in HEART_HONOURS) and _suit_count(hand, HEARTS) >= MIN_HEARTS * decks:
        shown.append(HEART_ACE)
        reasons.append("hearts_long")
    return tuple(sorted(shown)), "+".join(reasons) or "none"
