"""Cards, notation and decks (docs/rules.md, "Cards").

A card is an ``int``: ``suit_index * 13 + rank_index`` with suits S, H, D, C
(0–3) and ranks 2…A (0–12), so rank order is integer order within a suit.
Notation is suit letter then rank, upper case: ``SQ``, ``C10``, ``HA``.

Hands are ints too (``bits``): bit ``c`` set means the card is held; in two-deck
games bit ``c + PLANE`` means the second copy is held as well.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .errors import RuleError
from .messages import NOT_A_CARD

Card = int
# a play: one card, or two (sorted) in two-deck games
Play = tuple[Card, ...]
SEATS: Final = 4

SUITS: Final = "SHDC"
RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_SIZE: Final = len(RANKS)
DECK_SIZE: Final = len(SUITS) * SUIT_SIZE
PLANE: Final = DECK_SIZE
SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3

CARD_NAMES: Final[tuple[str, ...]] = tuple(s + r for s in SUITS for r in RANKS)
CARD_BY_NAME: Final[dict[str, Card]] = {name: card for card, name in enumerate(CARD_NAMES)}

PIG: Final = CARD_BY_NAME["SQ"]
SHEEP: Final = CARD_BY_NAME["DJ"]
TRANSFORMER: Final = CARD_BY_NAME["C10"]
HEART_ACE: Final = CARD_BY_NAME["HA"]
EXPOSABLE: Final[tuple[Card, ...]] = (PIG, SHEEP, TRANSFORMER, HEART_ACE)

ONE_PLANE: Final = (1 << PLANE) - 1
SUIT_MASKS: Final[tuple[int, ...]] = tuple(((1 << SUIT_SIZE) - 1) << (s * SUIT_SIZE) for s in range(4))
HEART_MASK: Final = SUIT_MASKS[HEARTS]
SCORING_MASK: Final = HEART_MASK | 1 << PIG | 1 << SHEEP | 1 << TRANSFORMER


def suit_of(card: Card) -> str:
    """The suit letter of a card: ``"S"``, ``"H"``, ``"D"`` or ``"C"``."""
    return SUITS[card // SUIT_SIZE]


def parse_card(text: object, path: str = "") -> Card:
    """Parse exact notation (``"SQ"``); raise ``RuleError(code="invalid_card")``."""
    card = CARD_BY_NAME.get(text) if isinstance(text, str) else None
    if card is None:
        raise RuleError(NOT_A_CARD(text=repr(text)), code="invalid_card", path=path)
    return card


def format_card(card: Card) -> str:
    return CARD_NAMES[card]


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


_DECKS: Final = {n: tuple(c for c in range(DECK_SIZE) for _ in range(n)) for n in (1, 2)}


def full_deck(decks: int) -> tuple[Card, ...]:
    """The 52 cards of one deck, or the 104 of two, in card order."""
    return _DECKS[decks]


def hand_bits(cards: Iterable[Card]) -> int:
    """Bits of a card multiset (at most two copies of a card): the first copy of each card on the first
    plane, the second on the second, in one pass."""
    row: tuple[Card, ...] = cards if type(cards) is tuple else tuple(cards)
    one = two = 0
    for c in row:
        bit = 1 << c
        if one & bit:
            two |= bit
        else:
            one |= bit
    return one | two << PLANE


def cards_of(plays: Iterable[Play]) -> int:
    """Two-plane bits of the cards in ``plays``."""
    return hand_bits([c for play in plays for c in play])


def mask_cards(mask: int) -> list[Card]:
    """The set bits of a one-plane ``mask``, ascending (the engine's one set-bit scanner)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def bits_cards(bits: int) -> tuple[Card, ...]:
    """The sorted card multiset held in two-plane ``bits``."""
    one = mask_cards(bits & ONE_PLANE)
    two = bits >> PLANE
    if not two:
        return tuple(one)
    return tuple(c for card in one for c in ((card, card) if two >> card & 1 else (card,)))


# the set ranks of every 13-bit suit mask, to pick a card of one suit in one step
SUIT_RANKS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(r for r in range(SUIT_SIZE) if m >> r & 1) for m in range(1 << SUIT_SIZE))
SUIT_SUBSETS: Final = len(SUIT_RANKS)
# the 13 rank bits of one suit (a suit's mask shifted down to rank 0)
SUIT_MASK: Final = SUIT_SUBSETS - 1
TWO_SUITS: Final = (1 << 2 * SUIT_SIZE) - 1
# the bits of a random draw below n, for n up to the cards of two decks (the shuffle, the random chooser):
# a draw of that many bits, drawn again while it is n or more, is exactly uniform
SPAN_BITS: Final[tuple[int, ...]] = tuple(n.bit_length() for n in range(2 * DECK_SIZE + 1))


def lowest_of_runs(cards: int, boundaries: int, apart: int = 0, starts: int = 0) -> list[Card]:
    """The lowest card of each run of the one-plane ``cards``, ascending: a run is one suit's
    cards with no card of ``boundaries`` ranked from one to the next (inclusive).

    A card of ``apart`` stands alone (kept, and never joined to a neighbour). A card of ``starts``, held
    or not, cuts a run just below itself: a run may begin at it, never cross it. The claims search and the
    bot use it to play one card of each set of interchangeable cards.
    """
    kept: list[Card] = []
    previous = -1
    # (the bits scanned in place, as ``mask_cards`` scans them: the searches call this at every position)
    while cards:
        low = cards & -cards
        cards ^= low
        card = low.bit_length() - 1
        joins = not apart >> card & 1
        if (joins and previous >= 0 and previous // SUIT_SIZE == card // SUIT_SIZE
                and not (boundaries | starts & ~(1 << previous)) & (low << 1) - (1 << previous)):
            continue
        kept.append(card)
        previous = card if joins else -1
    return kept


# Bit masks for counting the cards of one plane by halves, nibbles and bytes (``plane_count``).
_PAIRS_OF_BITS: Final = 0x5555555555555
_NIBBLES: Final = 0x3333333333333
_BYTES: Final = 0x0F0F0F0F0F0F0F
_COUNT_BITS: Final = 0x7F


def plane_count(mask: int) -> int:
    """The number of set bits of a one-plane ``mask`` (``int.bit_count``), in shifts and masks: the
    compiled build keeps them on machine words, where ``bit_count`` is a generic method call."""
    mask -= mask >> 1 & _PAIRS_OF_BITS
    mask = (mask & _NIBBLES) + (mask >> 2 & _NIBBLES)
    mask = (mask + (mask >> 4)) & _BYTES
    mask += mask >> 8
    mask += mask >> 16
    mask += mask >> 32
    return mask & _COUNT_BITS


def nth_card(mask: int, k: int) -> Card:
    """The ``k``-th (from 0) set bit of a one-plane ``mask`` (``k`` below its count).

    The half (spades and hearts, or diamonds and clubs) by its count, then the suit.
    """
    low = mask & TWO_SUITS
    in_low = plane_count(low)
    if k < in_low:
        base, half = 0, low
    else:
        base, half, k = 2 * SUIT_SIZE, mask >> 2 * SUIT_SIZE, k - in_low
    ranks = SUIT_RANKS[half & SUIT_MASK]
    if k < len(ranks):
        return base + ranks[k]
    return base + SUIT_SIZE + SUIT_RANKS[half >> SUIT_SIZE][k - len(ranks)]


def remove_card(bits: int, card: Card) -> int:
    """``bits`` less one copy of ``card`` (caller knows it is held)."""
    second = 1 << (card + PLANE)
    return bits ^ second if bits & second else bits ^ (1 << card)


def add_card(bits: int, card: Card) -> int:
    """``bits`` with one more copy of ``card``."""
    bit = 1 << card
    return bits | (bit << PLANE if bits & bit else bit)


def merge_bits(a: int, b: int) -> int:
    """The multiset union (sum) of two-plane bits ``a`` and ``b`` (at most two copies in all)."""
    a_one, b_one = a & ONE_PLANE, b & ONE_PLANE
    return a_one | b_one | (a >> PLANE | b >> PLANE | a_one & b_one) << PLANE


def count_of(bits: int, card: Card) -> int:
    """Copies of ``card`` in two-plane ``bits`` (0–2)."""
    return (bits >> card & 1) + (bits >> (card + PLANE) & 1)


def card_count(bits: int) -> int:
    return bits.bit_count()


def first_unheld(hand: int, move: Iterable[Card]) -> int | None:
    """Index in ``move`` of the first card ``hand`` (two-plane bits) does not hold, else None.

    A card named twice needs two copies: the second is unheld when one copy is.
    """
    for i, c in enumerate(move):
        if not count_of(hand, c):
            return i
        hand = remove_card(hand, c)
    return None
