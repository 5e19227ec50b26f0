"""``suggest_exposures``: which cards to expose (亮牌) before play — issue 6, SPEC.md §3.

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

from service.rules.cards import (
    DIAMONDS,
    HEART_ACE,
    HEARTS,
    PIG,
    SHEEP,
    SPADES,
    SUIT_SIZE,
    Card,
)
from service.rules.deal import excess_copies
from service.rules.errors import InvalidDeal, Problem
from service.rules.variants import Rules

SHEEP_GUARDS = tuple(DIAMONDS * SUIT_SIZE + r for r in (10, 11, 12))
MIN_SHEEP_GUARDS, MIN_DIAMONDS = 2, 4
PIG_DANGER = tuple(SPADES * SUIT_SIZE + r for r in (11, 12))
MIN_LOW_SPADES = 4
HEART_HONOURS = tuple(HEARTS * SUIT_SIZE + r for r in (10, 11))
MIN_HEARTS = 7


def _suit_count(hand, suit: int) -> int:
    return sum(1 for c in hand if c // SUIT_SIZE == suit)


def hand_problems(rules: Rules, hand) -> list[Problem]:
    """A hand as dealt has 13 (26) cards, no card more often than the decks hold it."""
    problems = []
    if len(hand) != rules.hand_size:
        problems.append(Problem("wrong_card_count", "/hand",
                                f"a hand as dealt has {rules.hand_size} cards with {rules.decks} deck(s), "
                                f"got {len(hand)}"))
    return problems + excess_copies(rules, [hand], ["/hand"], "dealt")


def suggest_exposures(rules: Rules, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], str]:
    """(cards to expose, reason) for a hand as dealt; raises ``InvalidDeal`` for a bad hand."""
    problems = hand_problems(rules, hand)
    if problems:
        raise InvalidDeal(problems)
    hand = tuple(hand)
    decks = rules.decks
    shown, reasons = [], []
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
