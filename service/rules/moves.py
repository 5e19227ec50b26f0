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

from .cards import (ONE_PLANE, PIG, PLANE, SUIT_MASKS, SUIT_SIZE, TRANSFORMER, Card,
                    bits_cards, remove_card)

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
        # exposed copies held back while unexposed cards of the suit remain
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


BANNED_FIRST_TRICK_MASK = 1 << PIG | 1 << TRANSFORMER
NO_DOUBLES: list[tuple[Card, ...]] = []


def _banned(move: tuple[Card, ...]) -> bool:
    return PIG in move or TRANSFORMER in move


def play_options(decks: int, hand: int, held: int, lead: tuple[Card, ...] | None, suits_led: int,
                 first_round: bool, opening: Card | None, ban: bool) -> tuple[int, list[tuple[Card, ...]]]:
    """Legal plays as (one-plane mask of single cards, list of two-card plays).

    ``lead`` is the current trick's first play (None when leading), ``opening``
    the card the first lead must be (if any), ``ban`` whether first_trick_ban
    applies to this trick.
    """
    if lead is not None and len(lead) == 1 and not ban:
        suit_mask = SUIT_MASKS[lead[0] // SUIT_SIZE]
        if not (first_round and held & suit_mask):
            # follow suit if able, else discard anything (hot path of follow_single_mask)
            return hand & suit_mask or hand & ONE_PLANE, NO_DOUBLES
        return follow_single_mask(hand, held, lead[0] // SUIT_SIZE, first_round), NO_DOUBLES
    doubles: list[tuple[Card, ...]] = []
    if lead is None:
        if opening is not None:
            # the first lead of the first deal is the opening card (R: "必须出 2")
            mask = 1 << opening
            if hand >> (opening + PLANE) & 1:
                doubles = [(opening, opening)]
            return mask, doubles
        mask = lead_mask(hand, held, suits_led)
        if decks == 2:
            doubles = lead_pairs(hand, held, suits_led)
    elif len(lead) == 1:
        mask = follow_single_mask(hand, held, lead[0] // SUIT_SIZE, first_round)
    else:
        mask = 0
        doubles = follow_pair_moves(hand, held, lead[0] // SUIT_SIZE, first_round)
    if ban:
        # first_trick_ban: no SQ or C10 in trick 1 unless nothing else is legal (P)
        kept_mask = mask & ~BANNED_FIRST_TRICK_MASK
        kept = [m for m in doubles if not _banned(m)]
        if kept_mask or kept:
            return kept_mask, kept
    return mask, doubles
