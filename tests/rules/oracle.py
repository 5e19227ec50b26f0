"""An independent reading of rules.md §2–6, the one oracle of the rules: of the property
tests, of bench/drills/properties.py and of the conformance cases' drafts
(mk/conformance_cases.py, whose check tests/conformance/test_case_drafts.py runs):
the seeded deal of §2, the legal plays of §2–4 (opening card,
exposure restriction with per-copy exposure, follow suit / follow pair,
first-trick ban), the trick ranking of §4, the raw scores of §5 and the
settlements and titles of §6. It is written from rules.md and its quotations R and P
only, never from the engine, so that the two can be compared deal by deal.

Where rules.md leaves a case open, the functions return None ("no opinion")
instead of guessing; the caller then checks only what is certain."""

import hashlib
from collections import Counter
from itertools import combinations

SUITS = "SHDC"
CARDS_PER_DECK = 52
SEATS = 4

PIG = 10  # SQ
HEART_ACE = 25  # HA
SHEEP = 35  # DJ
TRANSFORMER = 47  # C10
EXPOSABLE = (PIG, SHEEP, TRANSFORMER, HEART_ACE)
FIRST_TRICK_BANNED = (PIG, TRANSFORMER)
OPENING_CARDS = {"C2": 39, "S2": 0, "S3": 1, "S7": 5}
HEART_SUIT = 1
DIAMOND_SUIT = 2
HEARTS = tuple(range(13, 26))
SCORING_CARDS = frozenset(HEARTS) | {PIG, SHEEP, TRANSFORMER}

# §5: ♥2–4 = 0, ♥5–10 = −10, ♥J −20, ♥Q −30, ♥K −40, ♥A −50 (by rank index).
HEART_VALUES = (0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50)
PIG_VALUE = -100
SHEEP_VALUE = 100
TRANSFORMER_ALONE = 25
ALL_HEARTS_ONE_DECK = 200
GRAND_SLAM_HEARTS = 200
GRAND_SLAM_PIG = 100
GRAND_SLAM_SHEEP = 100
ONE_DECK_MULTIPLIER = 12


def suit_of(card):
    return card // 13


def rank_of(card):
    return card % 13


def deck(decks):
    return [card for card in range(CARDS_PER_DECK) for _ in range(decks)]


# --------------------------------------------------------------- §2 and §3
# §2 "Seeds": SHA-256 blocks, each read as four big-endian 64-bit words
WORD = 2**64
WORD_BYTES = 8
DIGEST_BYTES = 32


def _seed_words(seed):
    text = str(seed).lower()
    block = 0
    while True:
        digest = hashlib.sha256(f"gongzhu-deal:{text}:{block}".encode()).digest()
        for at in range(0, DIGEST_BYTES, WORD_BYTES):
            yield int.from_bytes(digest[at:at + WORD_BYTES], "big")
        block += 1


def seeded_deal(seed, decks):
    """§2 "Seeds": the deck in card order (two decks: each card twice in a row) shuffled by Fisher–Yates
    from the end, each index drawn from the seed's words below 2^64 − 2^64 mod (i + 1); position p goes to
    seat p mod 4. ``seed`` an integer or 64 hexadecimal digits (either case)."""
    cards = deck(decks)
    words = _seed_words(seed)
    for i in range(len(cards) - 1, 0, -1):
        limit = WORD - WORD % (i + 1)
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(tuple(cards[seat::SEATS]) for seat in range(SEATS))


def first_leader(decks, opening_card, hands):
    """§2: holder of the opening card; two decks: the seat dealt the first
    copy (card i of seat s was dealt at time 4·i + s)."""
    op = OPENING_CARDS[opening_card]
    times = [4 * i + seat for seat, hand in enumerate(hands) for i, card in enumerate(hand) if card == op]
    return min(times) % SEATS


def effective_exposure(decks, hands, exposed):
    """§3: the exposure lists plus, in one deck, the automatic 4th card."""
    result = [list(seat_exposed) for seat_exposed in exposed]
    if decks == 1:
        shown = {card for seat_exposed in exposed for card in seat_exposed}
        missing = [card for card in EXPOSABLE if card not in shown]
        if len(missing) == 1:
            holder = next(seat for seat, hand in enumerate(hands) if missing[0] in hand)
            result[holder].append(missing[0])
    return tuple(tuple(seat_exposed) for seat_exposed in result)


# ----------------------------------------------------------------- §4 play
class Model:
    """The deal as rules.md describes it, advanced play by play."""

    def __init__(self, *, decks, rules, hands, exposed, first_deal, leader):
        self.decks = decks
        self.opening = OPENING_CARDS[rules.get("opening_card", "C2")]
        self.must_lead = rules.get("must_lead_opening_card", True)
        self.ban = rules.get("first_trick_ban", False)
        self.first_deal = first_deal
        self.unexposed = [Counter(hand) for hand in hands]
        self._hands = {}
        self.exposed = [Counter() for _ in range(SEATS)]
        for seat, cards in enumerate(effective_exposure(decks, hands, exposed)):
            for card in cards:
                self.unexposed[seat][card] -= 1
                self.exposed[seat][card] += 1
        self.leader = leader
        self.trick = []  # (seat, move) in play order
        self.trick_number = 0
        self.led_before = set()  # suits led in completed tricks
        self.captured = [[] for _ in range(SEATS)]
        self.first_pig_taker = None
        self.last_trick = None  # (plays, winner, top, discards) of the last completed trick

    @property
    def finished(self):
        # Pair plays empty the hands in fewer than 13·decks tricks.
        return not self.trick and sum(self.unexposed[0].values()) + sum(self.exposed[0].values()) == 0

    @property
    def seat(self):
        return None if self.finished else (self.leader + len(self.trick)) % SEATS

    def hand(self, seat):
        """The seat's cards, exposed or not (a Counter shared until the next ``apply``: read it, do not
        change it). The property tests ask for it several times a position; computed once, it is a
        third of their time less."""
        hand = self._hands.get(seat)
        if hand is None:
            total = self.unexposed[seat].copy()
            total.update(self.exposed[seat])
            hand = self._hands[seat] = Counter({card: n for card, n in total.items() if n > 0})
        return hand

    def led_suit(self):
        return suit_of(self.trick[0][1][0]) if self.trick else None

    def expected_moves(self, *, with_ban=True):
        """Every legal play (sorted tuples, sorted list), or None where
        rules.md is silent."""
        seat = self.seat
        hand = self.hand(seat)
        if not self.trick:
            moves = self._lead_moves(seat, hand)
        else:
            moves = self._follow_moves(seat, hand)
        if with_ban and self.ban and self.trick_number == 0:
            return self._apply_ban(moves)
        return moves

    def _lead_moves(self, seat, hand):
        if self.first_deal and self.trick_number == 0 and self.must_lead:
            moves = [(self.opening,)]
            if self.decks == 2 and hand[self.opening] == 2:
                moves.append((self.opening, self.opening))
            return moves
        unexposed = self.unexposed[seat]
        moves = []
        for card in sorted(hand):
            suit = suit_of(card)
            # §3: in a suit not yet led, exposed copies may be led only by a
            # seat holding no unexposed card of that suit.
            held_back = suit not in self.led_before and any(
                n > 0 and suit_of(other) == suit for other, n in unexposed.items()
            )
            usable = unexposed[card] if held_back else hand[card]
            if usable >= 1:
                moves.append((card,))
            if self.decks == 2 and usable >= 2:
                moves.append((card, card))
        return moves

    def _follow_moves(self, seat, hand):
        led = self.trick[0][1]
        suit = suit_of(led[0])
        first_round = suit not in self.led_before
        in_suit = Counter({card: n for card, n in hand.items() if suit_of(card) == suit and n > 0})
        if first_round:
            # §3: exposed copies are held back and come back only as far as
            # the unexposed cards of the suit are too few for the play.
            pool = Counter({card: n for card, n in self.unexposed[seat].items() if suit_of(card) == suit and n > 0})
            short = len(led) - sum(pool.values())
            for card, n in self.exposed[seat].items():
                if short > 0 and n > 0 and suit_of(card) == suit:
                    back = min(short, n)
                    pool[card] += back
                    short -= back
        else:
            pool = in_suit
        if len(led) == 1:
            if pool:
                return [(card,) for card in sorted(pool)]
            return [(card,) for card in sorted(hand)]
        return pair_follow_moves(pool, hand)

    def _apply_ban(self, moves):
        allowed = [m for m in moves if not any(card in FIRST_TRICK_BANNED for card in m)]
        if allowed:
            return allowed
        if all(len(m) == 1 for m in moves):
            return moves
        return None  # two-card plays that all hold a banned card: rules.md silent

    def governed(self, card):
        """§3: is this card's play governed by the exposure restriction?"""
        suit = suit_of(card)
        if suit in self.led_before:
            return False
        return not self.trick or self.led_suit() == suit

    def apply(self, move):
        seat = self.seat
        self._hands.clear()
        for card in move:
            first, second = self.unexposed[seat], self.exposed[seat]
            # §3 which copy goes: unexposed where the restriction governs,
            # the exposed copy first for any other play.
            if not self.governed(card):
                first, second = second, first
            if first[card] > 0:
                first[card] -= 1
            else:
                assert second[card] > 0, "model: card not held"
                second[card] -= 1
        self.trick.append((seat, tuple(move)))
        if len(self.trick) < SEATS:
            return
        top, discards = rank_plays(self.trick)
        winner = top[0]
        cards = [card for _, m in self.trick for card in m]
        self.captured[winner].extend(cards)
        if self.first_pig_taker is None and PIG in cards:
            self.first_pig_taker = winner
        self.led_before.add(suit_of(self.trick[0][1][0]))
        self.last_trick = (tuple(self.trick), winner, top, discards)
        self.trick = []
        self.leader = winner
        self.trick_number += 1


def pair_follow_moves(pool, hand):
    """§4 after a pair lead: pool holds the cards of the led suit the seat
    may use; hand is the whole hand (for discards)."""
    pairs = [(card, card) for card in sorted(pool) if pool[card] >= 2]
    if pairs:
        return pairs
    count = sum(pool.values())
    if count >= 2:
        return sorted(combinations(sorted(pool), 2))
    if count == 1:
        (only,) = pool
        rest = hand.copy()
        rest[only] -= 1
        return sorted({tuple(sorted((only, card))) for card, n in rest.items() if n > 0})
    return two_card_plays(hand)


def two_card_plays(hand):
    cards = sorted(card for card, n in hand.items() if n > 0)
    moves = [(a, b) for a, b in combinations(cards, 2)]
    moves += [(card, card) for card in cards if hand[card] >= 2]
    return sorted(moves)


def rank_plays(plays):
    """§4 ranking. plays: (seat, move) in play order. Returns (top, discards):
    the seats that did not discard, best first, and the set of those that did
    (they rank last, in play order: ``trick_ranking``)."""
    led = plays[0][1]
    suit = suit_of(led[0])
    keyed = []
    discards = set()
    for order, (seat, move) in enumerate(plays):
        if any(suit_of(card) != suit for card in move):
            discards.add(seat)
            continue
        high = max(rank_of(card) for card in move)
        if len(led) == 1:
            category = 0
        elif move[0] == move[1]:
            category = 2 if suit == DIAMOND_SUIT else 1
        else:
            category = 1 if suit == DIAMOND_SUIT else 2
        keyed.append((category, high, -order, seat))
    top = [seat for *_, seat in sorted(keyed, reverse=True)]
    return top, discards


def trick_ranking(plays):
    """§4 ``ranking``: every seat best first, the discards last in play order."""
    top, discards = rank_plays(plays)
    return top + [seat for seat, _ in plays if seat in discards]


# ---------------------------------------------------------------- §5 score
def exposure_counts(effective):
    counts = Counter()
    for seat_exposed in effective:
        counts.update(seat_exposed)
    return counts


def raw_scores(decks, captured, counts, *, pig_flips=False):
    """§5 raw score of each seat from the cards it took and the deal-wide
    exposed copies (counts: card -> copies exposed, automatic 4th included)."""
    return tuple(raw_score(decks, taken, counts, pig_flips=pig_flips) for taken in captured)


def raw_score(decks, taken, counts, *, pig_flips=False):
    taken = Counter(taken)
    k_a, k_q, k_j, k_t = (counts[card] for card in (HEART_ACE, PIG, SHEEP, TRANSFORMER))
    heart_factor, pig_value, sheep_value = 2**k_a, PIG_VALUE * 2**k_q, SHEEP_VALUE * 2**k_j
    tens = taken[TRANSFORMER]
    if decks == 1:
        factor = 4 if k_t else 2
    else:
        factor = (4 if k_t else 2) if tens == 1 else 4 * 2**k_t
    if all(taken[card] == decks for card in SCORING_CARDS):
        # 满贯: (200a + 100q + 100j)·t; two decks (400·2^kA + 200·2^kQ + 200·2^kJ)·2^(1+kT)
        base = (GRAND_SLAM_HEARTS * 2**k_a + GRAND_SLAM_PIG * 2**k_q + GRAND_SLAM_SHEEP * 2**k_j) * decks
        return base * (factor if decks == 1 else 2 ** (1 + k_t))
    all_hearts = all(taken[card] == decks for card in HEARTS)
    if all_hearts:
        hearts = ALL_HEARTS_ONE_DECK * decks * heart_factor
        pig = -pig_value if pig_flips else pig_value
    else:
        hearts = sum(HEART_VALUES[rank_of(card)] * n for card, n in taken.items() if suit_of(card) == HEART_SUIT)
        hearts *= heart_factor
        pig = pig_value
    others = hearts + pig * taken[PIG] + sheep_value * taken[SHEEP]
    if not tens:
        return others
    other_scoring = sum(n for card, n in taken.items() if card in SCORING_CARDS and card != TRANSFORMER)
    if other_scoring == 0:
        return TRANSFORMER_ALONE * factor
    return others * factor


# ---------------------------------------------------------------- §6 deal
def normalize(raw):
    """§6: raw − (others)/3, largest remainder, ties to the lower seat."""
    total = sum(raw)
    floors = [(4 * r - total) // 3 for r in raw]
    remainders = [(4 * r - total) % 3 for r in raw]
    extra = -sum(floors)
    order = sorted(range(SEATS), key=lambda seat: (-remainders[seat], seat))
    for seat in order[:extra]:
        floors[seat] += 1
    return tuple(floors)


def partnership(raw):
    ac, bd = raw[0] + raw[2], raw[1] + raw[3]
    assert (ac - bd) % 2 == 0, "oracle: odd partnership difference"
    half = (ac - bd) // 2
    return (half, -half, half, -half)


def final_scores(decks, is_partnership, raw):
    scores = partnership(raw) if is_partnership else normalize(raw)
    multiplier = ONE_DECK_MULTIPLIER if decks == 1 else 1
    return tuple(score * multiplier for score in scores)


def ingots(raw, multiplier=1, fee=0):
    best = max(raw)
    winners = [seat for seat in range(SEATS) if raw[seat] == best]
    net = [-fee] * SEATS
    transfers = []
    for payer in range(SEATS):
        if payer in winners:
            continue
        for payee in winners:
            amount = (raw[payee] - raw[payer]) * multiplier
            net[payer] -= amount
            net[payee] += amount
            transfers.append((payer, payee, amount))
    return winners, tuple(net), transfers


# §6 titles (等级): R's table, each title with its threshold, lowest first (title_for: which side holds it)
TITLES = [
    ("八戒", -50000000),
    ("猪圣", -10000000),
    ("猪神", -5000000),
    ("猪王", -1000000),
    ("乳猪格格", -700000),
    ("野猪", -500000),
    ("架子猪", -300000),
    ("微型猪", -100000),
    ("猪小弟", 0),
    ("猪倌", 10000),
    ("猎人", 50000),
    ("屠夫", 100000),
    ("饲养员", 200000),
    ("优秀饲养员", 300000),
    ("养猪专业户", 400000),
    ("地主", 600000),
    ("知县", 800000),
    ("知州", 1000000),
    ("知府", 3000000),
    ("巡抚", 5000000),
    ("大学士", 7000000),
    ("宰相", 10000000),
    ("王爷", 50000000),
    ("帝王", 100000000),
]


def title_for(points):
    """R's table: a negative title at or below its number, a positive one at or above, 猪小弟 between."""
    if points < 0:
        held = [name for name, at in TITLES if at < 0 and points <= at]
        return held[0] if held else "猪小弟"
    held = [name for name, at in TITLES if at > 0 and points >= at]
    return held[-1] if held else "猪小弟"
