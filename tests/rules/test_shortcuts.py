"""The engine's shortcuts answer as the code they stand for, over random inputs: the bit check of card
copies as the list of excess copies, hand bits as the cards counted, normalization as its definition."""
import random
from collections import Counter

import pytest

from gongzhu.rules import Rules
from gongzhu.rules.cards import PLANE, bits_cards, hand_bits
from gongzhu.rules.deal import excess_copies, within_copies
from gongzhu.rules.settlement import normalize


@pytest.mark.parametrize("decks", [1, 2])
def test_within_copies_is_no_excess_copy(decks):
    rules = Rules(decks=decks)
    rng = random.Random(decks)
    for _ in range(3000):
        pool = list(range(52)) * decks
        rows = [rng.sample(pool, rng.randrange(0, 14 * decks)) for _ in range(rng.randrange(1, 6))]
        if rng.random() < 0.5:
            # a card more often than the decks hold it (within a row, or across two)
            card = rng.randrange(52)
            for _ in range(rng.randrange(1, 3)):
                rows[rng.randrange(len(rows))].append(card)
        bits = [hand_bits(row) for row in rows]
        paths = [f"/rows/{i}" for i in range(len(rows))]
        assert within_copies(rules, rows, bits) == (not excess_copies(rules, rows, paths, "dealt"))


def test_hand_bits_are_the_cards_counted():
    rng = random.Random(3)
    for _ in range(3000):
        row = rng.sample(list(range(52)) * 2, rng.randrange(0, 27))
        bits = hand_bits(row)
        counts = Counter(row)
        assert bits_cards(bits) == tuple(sorted(row))
        assert bits == sum(1 << c for c in counts) | sum(1 << c for c, n in counts.items() if n == 2) << PLANE
        assert hand_bits(tuple(row)) == hand_bits(iter(row)) == bits


def test_normalize_is_largest_remainder():
    rng = random.Random(4)
    for _ in range(3000):
        raw = [rng.randrange(-800, 801) for _ in range(4)]
        total = sum(raw)
        numerators = [4 * r - total for r in raw]
        floors = [n // 3 for n in numerators]
        for seat in sorted(range(4), key=lambda s: (-(numerators[s] % 3), s))[:-sum(floors)]:
            floors[seat] += 1
        assert normalize(raw) == tuple(floors) and sum(floors) == 0
