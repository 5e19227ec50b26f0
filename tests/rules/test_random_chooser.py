"""The simulation chooser (``random_chooser``): only offered plays, each of them, uniformly.

Its two paths (an option set within one suit; any other) are checked against
the options of random option sets of every shape the play loop hands out.
"""
import random
from collections import Counter

from gongzhu.rules.cards import SUIT_MASKS
from gongzhu.rules.moves import option_list
from gongzhu.rules.table import random_chooser


def random_options(rng: random.Random) -> tuple[int, int, list]:
    """An option set of one of the shapes the play loop hands out (not always legal as a position)."""
    shape = rng.choice(("one suit", "any singles", "singles and pairs", "pairs", "others"))
    if shape == "one suit":
        return SUIT_MASKS[rng.randrange(4)] & rng.getrandbits(52) or 1 << 13, 0, []
    if shape == "any singles":
        return rng.getrandbits(52) or 1, 0, []
    if shape == "singles and pairs":
        singles = rng.getrandbits(52) | 1 << 5
        return singles, singles & rng.getrandbits(52) | 1 << 5, []
    if shape == "pairs":
        return 0, rng.getrandbits(52) or 1 << 40, []
    cards = sorted(rng.sample(range(52), rng.randint(2, 8)))
    others = sorted({(a, b) for a in cards for b in cards if a < b})
    return 0, rng.getrandbits(52) & rng.getrandbits(52), rng.sample(others, rng.randint(1, len(others)))


def test_random_chooser_draws_every_offered_play_and_nothing_else():
    rng = random.Random(11)
    choose = random_chooser(random.Random(12))
    for _ in range(400):
        singles, pairs, others = random_options(rng)
        offered = option_list((singles, pairs, others))
        drawn = Counter(choose(singles, pairs, others) for _ in range(40 * len(offered)))
        assert set(drawn) == set(offered), (singles, pairs, others)


def test_random_chooser_is_uniform_over_the_options():
    choose = random_chooser(random.Random(5))
    one_suit = (SUIT_MASKS[2] & 0b1011011000101 << 26, 0, [])            # 6 diamonds: the one-suit path
    mixed = (1 << 3 | 1 << 17 | 1 << 30 | 1 << 44, 1 << 17 | 1 << 44, [])  # 4 singles, 2 pairs: the other path
    for options in (one_suit, mixed):
        offered = option_list(options)
        draws = 6000 * len(offered)
        counts = Counter(choose(*options) for _ in range(draws))
        # each option's share within 5 % of 1/n (about 4.5 standard deviations at 6,000 expected draws)
        assert all(abs(counts[play] - 6000) < 300 for play in offered), counts
