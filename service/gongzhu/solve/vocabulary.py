"""What the exact searches (and the bot's search) say about cards, written once (docs/rules.md, "Claims").

- *Live* cards: the cards still in play, in a hand or on the table; a seat's
  rivals' live cards are what its own cards rank against.
- *Renumbering*: once no card is special (``running.plain``), only which card
  beats which decides who takes a trick, so cards are numbered by their order
  among the live cards of their suit; positions that differ only in cards
  already gone are then one position.
- *Distinct moves*: single cards of one suit with no live card ranked between
  them win and lose the same tricks; where scores matter they must score alike
  too (hearts of one value: ``HEART_CLASSES``; the pig, the sheep and the
  transformer stand alone: ``ALONE``). One card of each run is searched, the
  lowest (``cards.lowest_of_runs``).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..rules import running
from ..rules.cards import (
    HEART_MASK,
    HEARTS,
    ONE_PLANE,
    PIG,
    PLANE,
    SEATS,
    SHEEP,
    SUIT_MASK,
    SUIT_SIZE,
    TRANSFORMER,
    Play,
    lowest_of_runs,
    mask_cards,
)
from ..rules.moves import BANNED_FIRST_TRICK_MASK
from ..rules.scoring import HEART_VALUES
from ..rules.state import DealState

# Cards that score alike: one class per heart value, and each of the pig, sheep and transformer alone.
HEART_CLASSES: Final = tuple(
    sum(1 << HEARTS * SUIT_SIZE + r for r in range(SUIT_SIZE) if HEART_VALUES[r] == value)
    for value in sorted(set(HEART_VALUES)))
ALONE: Final = 1 << PIG | 1 << SHEEP | 1 << TRANSFORMER
# the lowest heart of each value (``HEART_CLASSES`` are ranks in a row: the values fall as ranks rise)
HEART_STARTS: Final = sum([cls & -cls for cls in HEART_CLASSES])
SUIT_BASES: Final = tuple(range(0, PLANE, SUIT_SIZE))


def live_cards(pos: DealState) -> int:
    """Cards (two-plane) still in play: in a hand or on the table."""
    hands = running.hands_bits(pos)
    live = hands[0] | hands[1] | hands[2] | hands[3]
    for play in running.trick(pos):
        for card in play:
            live |= 1 << card
    return live


def one_plane(bits: int) -> int:
    """The cards of two-plane ``bits``, any copy, as one plane."""
    return (bits | bits >> PLANE) & ONE_PLANE


def rivals_live(pos: DealState, seat: int) -> int:
    """Cards (either copy, one plane) held by the other seats or on the table: what ``seat``'s rank against."""
    bits = 0
    for play in running.trick(pos):
        for card in play:
            bits |= 1 << card
    for other in range(SEATS):
        if other != seat:
            bits |= running.hands_bits(pos)[other]
    return one_plane(bits)


# the live cards -> each one's number among them (``renumbering``), kept between searches up to a bound
_ORDER: Final[dict[int, dict[int, int]]] = {}
ORDERS_KEPT: Final = 1 << 12


def renumbering(live: int) -> dict[int, int]:
    """Each card of one-plane ``live``: its suit's base plus its rank among the live cards of its suit."""
    order = _ORDER.get(live)
    if order is None:
        order = {}
        for base in SUIT_BASES:
            rank = 0
            for card in mask_cards((live >> base & SUIT_MASK) << base):
                order[card] = base + rank
                rank += 1
        if len(_ORDER) >= ORDERS_KEPT:
            _ORDER.clear()
        _ORDER[live] = order
    return order


def renumber(order: dict[int, int], bits: int) -> int:
    """Two-plane ``bits`` (cards of the live cards ``order`` numbers) renumbered, plane by plane."""
    out = 0
    for card in mask_cards(bits & ONE_PLANE):
        out |= 1 << order[card]
    for card in mask_cards(bits >> PLANE):
        out |= 1 << (order[card] + PLANE)
    return out


Renumbered = tuple[int, int, tuple[int, ...], tuple[Play, ...]]   # seat, leader, hands, trick


def renumbered(pos: DealState) -> Renumbered:
    """The position of ``pos`` (a seat to act, no card special: ``running.plain``) with its cards
    renumbered among the live cards: the seat to act, the leader, the hands and the trick on the
    table. Positions that differ only in the cards already gone have one renumbered position."""
    seat = pos.seat
    assert seat is not None, "the deal is finished"
    order = renumbering(one_plane(live_cards(pos)))
    hands = tuple([renumber(order, hand) for hand in running.hands_bits(pos)])
    return seat, running.leader(pos), hands, tuple([tuple([order[c] for c in play]) for play in running.trick(pos)])


def real_card(card: int, live: int) -> int:
    """The card a renumbered ``card`` stands for among the one-plane ``live`` cards."""
    base = card - card % SUIT_SIZE
    return mask_cards((live >> base & SUIT_MASK) << base)[card % SUIT_SIZE]


def kept_apart(pos: DealState, seat: int) -> int:
    """``seat``'s cards (one plane) never merged with an equivalent card: held twice (one copy played
    would break a pair), exposed copies it still holds, and the first-trick ban's cards while it applies."""
    fixed = running.held_exposed(pos)[seat]
    apart = running.hands_bits(pos)[seat] >> PLANE | one_plane(fixed)
    return apart | BANNED_FIRST_TRICK_MASK if running.ban(pos) else apart


def distinct_cards(singles: int, rivals: int, apart: int) -> list[int]:
    """The single cards of ``singles`` that win, lose and score differently, lowest first: the lowest of
    each run with no card of ``rivals`` ranked between, runs never crossing a heart value (each value's
    hearts are ranks in a row: ``HEART_STARTS`` begin them), the cards of ``apart`` and ``ALONE`` standing
    alone."""
    return lowest_of_runs(singles, rivals, apart | ALONE, HEART_STARTS)


# Keys of the tables, written once: ``position_key`` for any position, ``renumbered`` for a plain one (its cards
# numbered among the live ones), ``equivalent_key`` for a plain one between tricks where scores count; the ints
# position (``plain_open.PlainOpen.key``) packs what ``equivalent_key`` holds.
Key = tuple[object, ...]
# a hand above the one before, in one int key (two planes)
PILE_SHIFT: Final = 2 * PLANE


def position_key(pos: DealState, taken: int) -> Key:
    """The position and ``taken``, what decides the rest of the score among the cards taken
    (``AtLeast.scored``)."""
    hands = packed(running.hands_bits(pos))
    if running.plain(pos):
        return (pos.seat, running.leader(pos), hands, tuple(running.trick(pos)), taken)
    return (pos.seat, running.leader(pos), hands, tuple(running.trick(pos)), taken, tuple(running.held_exposed(pos)),
            running.suits_led(pos), running.first_round(pos), running.opening_lead(pos), running.ban(pos))


def packed(hands: Sequence[int]) -> int:
    """The four hands (two-plane bits) as one int: a key hashes one number, not a tuple of four."""
    return hands[0] | hands[1] << PILE_SHIFT | hands[2] << 2 * PILE_SHIFT | hands[3] << 3 * PILE_SHIFT


def equivalent_key(pos: DealState, taken: int) -> Key:
    """``position_key`` of a plain position between tricks, its cards renumbered among the live cards
    (``vocabulary.renumbering``): positions that differ only in which cards of a suit are gone, where
    the live ones rank alike, are one. What scores stays itself: the live hearts (their values go by
    rank) and the number the pig, the sheep and the transformer have among the live cards."""
    live = one_plane(live_cards(pos))
    order = renumbering(live)
    hands = packed([renumber(order, hand) for hand in running.hands_bits(pos)])
    return (pos.seat, running.leader(pos), hands, live & HEART_MASK, order.get(PIG, -1), order.get(SHEEP, -1),
            order.get(TRANSFORMER, -1), taken)
