"""Which plays the follow, lead and exposure rules allow (SPEC.md §2–§4).

Pure functions over bits (see ``cards``): the deal state and fast playouts
both call them, so each rule is written once.

Exposure restriction (R: "亮过的牌不能在该花色首轮出牌时出"): in the first round
of a suit, a seat's exposed copies of that suit are held back. The follow rules
apply to its unexposed cards of the suit; exposed copies come back only as far
as those are too few for the required number of cards. A leader may lead an
exposed copy in a suit not yet led only if it holds no unexposed card of it.
"""
from __future__ import annotations

from itertools import combinations

from .cards import ONE_PLANE, PLANE, SUIT_MASKS, SUIT_SIZE, Card, bits_cards, remove_card

PAIR = 2


def unexposed(hand: int, held_exposed: int) -> int:
    """Multiset ``hand`` less the exposed copies it still holds."""
    if not held_exposed:
        return hand
    two = hand >> PLANE
    for c in bits_cards(held_exposed):
        bit = 1 << c
        if two & bit:
            two ^= bit
        else:
            hand ^= bit
    return (hand & ONE_PLANE) | two << PLANE


def suit_bits(bits: int, suit: int) -> int:
    """The cards of ``suit`` in two-plane ``bits``."""
    mask = SUIT_MASKS[suit]
    return bits & (mask | mask << PLANE)


def _singles(bits: int) -> list[tuple[Card, ...]]:
    out = []
    one = bits & ONE_PLANE
    while one:
        low = one & -one
        out.append((low.bit_length() - 1,))
        one ^= low
    return out


def _pairs(bits: int) -> list[tuple[Card, ...]]:
    return [(c, c) for (c,) in _singles(bits >> PLANE)]


def _two_of(bits: int) -> list[tuple[Card, ...]]:
    """Every two-card play from ``bits`` (pairs included)."""
    cards = sorted(set(bits_cards(bits)))
    return sorted(set(combinations(cards, 2)) | set(_pairs(bits)))


def lead_mask(hand: int, held_exposed: int, suits_led: int) -> int:
    """One-plane mask of cards this seat may lead as a single card."""
    allowed = hand & ONE_PLANE
    if not held_exposed:
        return allowed
    free = unexposed(hand, held_exposed)
    for suit in range(4):
        if suits_led >> suit & 1:
            continue
        own_free = suit_bits(free, suit)
        if own_free:
            allowed &= ~SUIT_MASKS[suit] | own_free
    return allowed


def lead_pairs(hand: int, held_exposed: int, suits_led: int) -> list[tuple[Card, ...]]:
    """Pairs this seat may lead (two-deck games)."""
    if not held_exposed:
        return _pairs(hand)
    free = unexposed(hand, held_exposed)
    out = []
    for pair in _pairs(hand):
        suit = pair[0] // SUIT_SIZE
        if suits_led >> suit & 1 or free >> (pair[0] + PLANE) & 1 or not suit_bits(free, suit):
            out.append(pair)
    return out


def follow_single_mask(hand: int, held_exposed: int, suit: int, first_round: bool) -> int:
    """One-plane mask of cards this seat may play after a single-card lead."""
    mask = SUIT_MASKS[suit]
    if first_round and held_exposed & mask:
        free = unexposed(hand, held_exposed) & mask
        if free:
            return free
    return hand & mask or hand & ONE_PLANE


def follow_pair_moves(hand: int, held_exposed: int, suit: int, first_round: bool) -> list[tuple[Card, ...]]:
    """Two-card plays allowed after a pair lead in ``suit`` (SPEC §4 rules 1–4 with §3)."""
    in_suit = suit_bits(hand, suit)
    if first_round and suit_bits(held_exposed, suit):
        pool = suit_bits(unexposed(hand, held_exposed), suit)
    else:
        pool = in_suit
    if pool >> PLANE:
        return _pairs(pool)
    pool_cards = bits_cards(pool)
    if len(pool_cards) >= PAIR:
        return list(combinations(pool_cards, 2))
    suit_cards = bits_cards(in_suit)
    if len(suit_cards) >= PAIR:
        # exposed copies come back only as far as the unexposed cards are too few
        shown = bits_cards(suit_bits(held_exposed, suit))
        return [tuple(sorted(pool_cards + shown[:PAIR - len(pool_cards)]))]
    if len(suit_cards) == 1:
        # that card plus any card (the play counts as a discard)
        card = suit_cards[0]
        rest = bits_cards(remove_card(hand, card))
        return sorted({tuple(sorted((card, other))) for other in rest})
    return _two_of(hand)
