"""Dealing and the first leader (docs/rules.md, "Dealing").

Seeded deals use an algorithm any platform can re-derive in a few lines:

1. Start from the deck in card order (``full_deck``: S2…SA, H2…HA, D2…DA,
   C2…CA; each card twice in a row with two decks).
2. A stream of 64-bit words: block k (k = 0, 1, …) is
   ``SHA-256(f"gongzhu-deal:{seed}:{k}")``, read as four big-endian words;
   ``{seed}`` is the seed's text: an integer in decimal, or a 256-bit seed as
   its 64 hexadecimal digits in lower case.
3. Fisher–Yates from the end: for i = n−1 … 1, draw words until one is below
   ``2**64 - 2**64 % (i+1)`` (rejection, so no bias), then j = word % (i+1),
   swap positions i and j.
4. Deal one card at a time: position p goes to seat p % 4, so every hand
   lists its cards in the order dealt.

Without a seed, the shuffle uses ``random.SystemRandom`` (the OS's
cryptographic randomness); simulations may inject any ``random.Random``.
"""
from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from typing import Final

from .cards import CARD_NAMES, DECK_SIZE, PLANE, SEATS, Card, full_deck, hand_bits, merge_bits
from .errors import Problem
from .messages import DEALT_HAND_COUNT, DUPLICATE_CARD, HAND_COUNT, SEAT_CARD_COUNT, VERBS
from .variants import Rules

WORD_BYTES: Final = 8
WORD_RANGE: Final = 1 << 64
FULL_DEALS: Final = {decks: hand_bits(full_deck(decks)) for decks in (1, 2)}


Seed = int | str   # an integer, or 64 lower-case hexadecimal digits (256 bits)


def _seed_words(seed: Seed) -> Iterator[int]:
    block = 0
    while True:
        digest = hashlib.sha256(f"gongzhu-deal:{seed}:{block}".encode()).digest()
        for at in range(0, len(digest), WORD_BYTES):
            yield int.from_bytes(digest[at:at + WORD_BYTES], "big")
        block += 1


def seeded_shuffle(cards: list[Card], seed: Seed) -> None:
    """Shuffle ``cards`` in place with the documented SHA-256 stream."""
    words = _seed_words(seed)
    for i in range(len(cards) - 1, 0, -1):
        span = i + 1
        limit = WORD_RANGE - WORD_RANGE % span
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % span
        cards[i], cards[j] = cards[j], cards[i]


# Fisher–Yates two steps a draw: positions i and i − 1 take the cards at j < i + 1 and k < i, both from one
# index below (i + 1)·i (PAIR_SPANS[i], of PAIR_BITS[i] bits)
PAIR_SPANS: Final = tuple((i + 1) * i for i in range(2 * DECK_SIZE))
PAIR_BITS: Final = tuple(span.bit_length() for span in PAIR_SPANS)


def shuffle(cards: list[Card], rng: random.Random) -> None:
    """Fisher–Yates with ``rng``, exactly uniform: each draw is ``getrandbits`` of the bit length of
    (i + 1)·i, drawn again while it is that or more, and gives the next two positions' swaps."""
    getrandbits = rng.getrandbits
    i = len(cards) - 1
    while i > 0:
        if i == 1:
            span, bits = 2, 1
        else:
            span, bits = PAIR_SPANS[i], PAIR_BITS[i]
        r = getrandbits(bits)
        while r >= span:
            r = getrandbits(bits)
        j = r % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
        if i > 1:
            k = r // (i + 1)
            cards[i - 1], cards[k] = cards[k], cards[i - 1]
        i -= 2


def deal_hands(rules: Rules, seed: Seed | None = None, *,
               rng: random.Random | None = None) -> tuple[tuple[Card, ...], ...]:
    """Four hands in the order dealt: seeded, injected ``rng``, or cryptographic."""
    cards = list(full_deck(rules.decks))
    if seed is not None:
        seeded_shuffle(cards, seed)
    else:
        shuffle(cards, rng or random.SystemRandom())
    return tuple(cards[0::SEATS]), tuple(cards[1::SEATS]), tuple(cards[2::SEATS]), tuple(cards[3::SEATS])


def first_leader(rules: Rules, hands: Sequence[Sequence[Card]], bits: Sequence[int] | None = None) -> int | None:
    """The seat dealt the (first copy of the) opening card; None if nobody holds it.

    Hands list cards in the order dealt, so card k of seat s was dealt at
    position 4·k + s ("由系统判断谁先得到第一张"). ``bits``, if given, are
    ``hand_bits`` of each hand: only its holders' hands are searched.
    """
    opening = rules.opening
    first = None
    for seat, hand in enumerate(hands):
        if bits is not None and not bits[seat] >> opening & 1:
            continue
        if opening in hand:
            order = SEATS * hand.index(opening) + seat
            if first is None or order < first:
                first = order
    return None if first is None else first % SEATS


def deal_problems(rules: Rules, hands: Sequence[Sequence[Card]], bits: Sequence[int] | None = None) -> list[Problem]:
    """Every way ``hands`` fail to be a deal: four hands of 13 (26), each card once (twice).

    ``bits``, if given, are ``hand_bits`` of each hand (computed once by the caller).
    """
    problems: list[Problem] = []
    if len(hands) != SEATS:
        return [Problem("wrong_card_count", "/hands", HAND_COUNT(seats=SEATS, got=len(hands)))]
    size = rules.hand_size
    if all(len(h) == size for h in hands):
        rows = bits if bits is not None else [hand_bits(h) for h in hands]
        # bits never overstate a card's copies, so all the copies present means every card as often as dealt
        if merge_bits(merge_bits(rows[0], rows[1]), merge_bits(rows[2], rows[3])) == FULL_DEALS[rules.decks]:
            return problems
    for seat, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            problems.append(Problem("wrong_card_count", f"/hands/{seat}",
                                    SEAT_CARD_COUNT(seat=seat, got=len(hand), size=rules.hand_size,
                                                    decks=rules.decks)))
    problems += excess_copies(rules, hands, [f"/hands/{seat}" for seat in range(len(hands))], "dealt")
    # in input order: a seat's card count, then its cards
    return sorted(problems, key=lambda p: [int(step) for step in p.path.split("/")[2:]])


def dealt_hand_problems(rules: Rules, hand: Sequence[Card]) -> list[Problem]:
    """A hand as dealt has 13 (26) cards, no card more often than the decks hold it (path ``/hand``)."""
    problems = []
    if len(hand) != rules.hand_size:
        problems.append(Problem("wrong_card_count", "/hand",
                                DEALT_HAND_COUNT(size=rules.hand_size, decks=rules.decks, got=len(hand))))
    return problems + excess_copies(rules, [hand], ["/hand"], "dealt")


def within_copies(rules: Rules, rows: Sequence[Sequence[Card]], bits: Sequence[int]) -> bool:
    """Whether ``rows`` hold no card more often than the decks do (``excess_copies`` finds none), told from
    ``bits``, each row's ``hand_bits``: bits never overstate a card's copies (a row's and a merge's keep at
    most two), so every card of the rows is in their merged bits exactly when no card is there more than
    twice, and with one deck no card is there twice when the merge has no second plane."""
    merged = 0
    cards = 0
    for row, row_bits in zip(rows, bits):
        merged = merge_bits(merged, row_bits)
        cards += len(row)
    return merged.bit_count() == cards and (rules.decks > 1 or not merged >> PLANE)


def excess_copies(rules: Rules, rows: Sequence[Sequence[Card]], paths: Sequence[str], verb: str) -> list[Problem]:
    """``duplicate_card`` for every card in ``rows`` beyond the copies the decks hold (``within_copies`` tells
    at once whether there is any).

    ``paths`` names each row (``/hands/2``); a problem points at the card (``/hands/2/5``).
    """
    problems: list[Problem] = []
    seen: dict[Card, int] = {}
    for row, path in zip(rows, paths):
        for i, card in enumerate(row):
            seen[card] = seen.get(card, 0) + 1
            if seen[card] > rules.decks:
                problems.append(Problem("duplicate_card", f"{path}/{i}",
                                        DUPLICATE_CARD(card=CARD_NAMES[card], verb=VERBS[verb](),
                                                       decks=rules.decks)))
    return problems
