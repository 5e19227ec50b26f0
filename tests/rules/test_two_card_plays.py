"""rules.md "Play", following a pair lead without two cards of the suit: the two-card plays
left (any two cards; the suit's only card with any other) are counted, tested and drawn from
a mask. Checked against the plays written out."""
import random
from itertools import combinations

import pytest

from gongzhu.rules.moves import TwoCardPlays


def written_out(pool: int, card: int | None) -> list[tuple[int, int]]:
    cards = [c for c in range(52) if pool >> c & 1 and c != card]
    if card is None:
        return list(combinations(cards, 2))
    return sorted((min(card, c), max(card, c)) for c in cards)


@pytest.mark.parametrize("seed", range(6))
def test_two_card_plays_count_contain_and_index_as_written_out(seed):
    rng = random.Random(seed)
    for _ in range(200):
        pool = rng.getrandbits(52) & rng.getrandbits(52) | 1 << rng.randrange(52)
        card = rng.choice([None, *[c for c in range(52) if pool >> c & 1]])
        plays = TwoCardPlays(pool, card)
        expected = written_out(pool, card)
        assert len(plays) == len(expected)
        assert [plays[i] for i in range(len(plays))] == expected
        assert [plays[i] for i in range(-len(plays), 0)] == expected
        assert list(plays) == expected and plays == expected and plays[1:3] == expected[1:3]
        assert bool(plays) == bool(expected)
        for a in range(52):
            for b in range(a + 1, 52):
                assert ((a, b) in plays) == ((a, b) in expected)
        with pytest.raises(IndexError):
            plays[len(expected)]


def test_two_card_plays_contain_only_sorted_pairs_of_cards():
    plays = TwoCardPlays(0b111)
    assert (0, 1) in plays and (1, 2) in plays
    for other in [(1, 0), (1, 1), (0,), (0, 1, 2), [0, 1], (-1, 0), (0, 52), ("0", 1), (0.0, 1), None]:
        assert other not in plays
