"""Trick winner and full ranking (docs/rules.md, "Tricks").

Single leads: the highest card of the led suit wins; discards never win.
Pair leads (two decks): each play is a *pair* of the led suit, *two singles*
of the led suit, or a *discard*. In ♠ ♥ ♣ two singles beat any pair; in ♦ a
pair beats two singles ("对[♠♥♣]三门牌，对子小于两张单牌。[♦]牌中，对子大于
两张单牌"). Pairs compare by rank, two singles by their higher card; exact ties
go to the earlier play. Discards rank last, in play order.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import DECK_SIZE, DIAMONDS, SCORING_MASK, SEATS, SUIT_SIZE, SUITS, Card, Play
from .deal import excess_copies
from .errors import InvalidDeal, Problem
from .messages import TRICK_LEAD, TRICK_PLAY_SIZE, TRICK_PLAYS
from .variants import Rules

# a play's strength: its category times STRENGTH_STEP plus its value (a card), so one int compares both
DISCARD: Final = 0
SECOND: Final = 1
FIRST: Final = 2
STRENGTH_STEP: Final = 64


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickResult:
    """A finished trick: who led, what was played, who won, everyone's rank."""

    leader: int
    plays: tuple[tuple[Card, ...], ...]
    led_suit: str
    winner: int
    ranking: tuple[int, ...]
    point_cards: tuple[Card, ...]


def _strength(play: Play, suit: int, pair_lead: bool) -> int:
    """Category × STRENGTH_STEP + value of one play; higher beats lower, ties go to the earlier play."""
    if not pair_lead:
        card = play[0]
        return FIRST * STRENGTH_STEP + card if card // SUIT_SIZE == suit else DISCARD
    a, b = play
    if a // SUIT_SIZE != suit or b // SUIT_SIZE != suit:
        return DISCARD
    if a == b:
        return (FIRST if suit == DIAMONDS else SECOND) * STRENGTH_STEP + a
    return (SECOND if suit == DIAMONDS else FIRST) * STRENGTH_STEP + (a if a > b else b)


def leading_index(cards: Sequence[Card]) -> int:
    """Where the card winning a single-card trick so far stands: the highest of the led (first) suit.

    ``cards`` are the trick's cards in play order (a play's first card each); ties stay with the
    earlier play; -1 before the lead.
    """
    if not cards:
        return -1
    best, at = cards[0], 0
    for i in range(1, len(cards)):
        card = cards[i]
        if beats(card, best):
            best, at = card, i
    return at


def beats(card: Card, best: Card) -> bool:
    """Whether ``card`` takes a single-card trick from ``best``, the card winning it so far (of the led
    suit): a higher card of the same suit."""
    return best < card < best - best % SUIT_SIZE + SUIT_SIZE


def leading_card(cards: Sequence[Card]) -> Card:
    """The card winning a single-card trick so far (``cards`` in play order, ``leading_index``); -1 before the lead."""
    return cards[leading_index(cards)] if cards else -1


def trick_ranking(plays: Sequence[Play], leader: int) -> tuple[int, ...]:
    """Seats best first; ``plays`` are in play order starting with ``leader``."""
    lead = plays[0]
    suit = lead[0] // SUIT_SIZE
    pair_lead = len(lead) == 2
    keyed = sorted(range(len(plays)), key=lambda i: (-_strength(plays[i], suit, pair_lead), i))
    return tuple((leader + i) % SEATS for i in keyed)


# _strength of every two-card play (a, b) after a pair lead in a's suit (DISCARD when b is of another suit)
PAIR_STRENGTHS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_strength((a, b), a // SUIT_SIZE, True) for b in range(DECK_SIZE)) for a in range(DECK_SIZE))


def trick_winner(plays: Sequence[Play], leader: int) -> int:
    """The seat that wins ``plays`` (in play order from ``leader``): ``trick_ranking(...)[0]`` without the sort."""
    lead = plays[0]
    suit = lead[0] // SUIT_SIZE
    pair_lead = len(lead) == 2
    if pair_lead:
        # _strength by table (the play loop ranks every pair trick here)
        best, at = PAIR_STRENGTHS[lead[0]][lead[1]], 0
        for i in range(1, len(plays)):
            a, b = plays[i]
            if a // SUIT_SIZE == suit:
                strength = PAIR_STRENGTHS[a][b]
                if strength > best:
                    best, at = strength, i
        return (leader + at) % SEATS
    best, at = _strength(lead, suit, pair_lead), 0
    for i in range(1, len(plays)):
        strength = _strength(plays[i], suit, pair_lead)
        if strength > best:
            best, at = strength, i
    return (leader + at) % SEATS


def point_cards(plays: Sequence[Play]) -> tuple[Card, ...]:
    return tuple(sorted(c for play in plays for c in play if SCORING_MASK >> c & 1))


def _shape_problems(rules: Rules, plays: Sequence[Play]) -> list[Problem]:
    problems = []
    if len(plays) != SEATS:
        problems.append(Problem("invalid_move", "/plays", TRICK_PLAYS(seats=SEATS, got=len(plays))))
        return problems
    size = len(plays[0])
    if size not in (1, rules.decks) or (size == 2 and plays[0][0] != plays[0][1]):
        problems.append(Problem("invalid_move", "/plays/0", TRICK_LEAD()))
        return problems
    for i, play in enumerate(plays[1:], start=1):
        if len(play) != size:
            problems.append(Problem("invalid_move", f"/plays/{i}", TRICK_PLAY_SIZE(size=size)))
    # No card is played more often than the decks hold it (one copy with one deck).
    problems += excess_copies(rules, plays, [f"/plays/{seat}" for seat in range(SEATS)], "played")
    return problems


def rank_trick(rules: Rules, leader: int, plays: Sequence[Sequence[Card]]) -> TrickResult:
    """Rank a complete trick. Raises ``InvalidDeal`` for plays of the wrong shape."""
    trick = tuple(tuple(p) for p in plays)
    problems = _shape_problems(rules, trick)
    if problems:
        raise InvalidDeal(problems)
    ranking = trick_ranking(trick, leader)
    return TrickResult(leader=leader, plays=trick, led_suit=SUITS[trick[0][0] // SUIT_SIZE],
                       winner=ranking[0], ranking=ranking, point_cards=point_cards(trick))
