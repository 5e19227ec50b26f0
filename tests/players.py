"""Players written apart from the bot, each mapping a deal state to a legal play from what its seat may know: the
decent seats the review's bars are measured with (tests/bot/test_review_bars.py) and two of the arena's opponents
(bench/bot/opponents.py, which takes them from here).

- ``rules2``: a rule-based seat, written apart from the bot's baseline heuristic (``rules2_play``).
- ``greedy-trick``: per deal of the hidden cards, a one-trick best-reply search with a points-plus-burden
  evaluation, playing for its side (``greedy_trick_play``), built like the open-source greedy Gong Zhu AIs.
"""
from __future__ import annotations

import random
from functools import lru_cache

from gongzhu.rules import (
    PIG,
    SHEEP,
    TRANSFORMER,
    Card,
    DealState,
    Play,
    Rules,
    SeatView,
    legal_moves,
    running,
    score_cards,
)
from gongzhu.rules.cards import (
    CARD_BY_NAME,
    DIAMONDS,
    HEART_MASK,
    HEARTS,
    PLANE,
    SEATS,
    SPADES,
    SUIT_MASKS,
    SUIT_SIZE,
    SUITS,
    bits_cards,
)
from gongzhu.rules.running import winning_seat
from gongzhu.rules.scoring import exposure_values

CLUBS = SUITS.index("C")
SPADE_KING = SPADES * SUIT_SIZE + 11
SPADE_ACE = SPADES * SUIT_SIZE + 12
# suits rules2 may lead its winners in: no penalty card of its own can fall on them
SAFE_SUITS = (CLUBS, DIAMONDS)
# two decks: a lead card up to this rank (8) held twice is led as a pair
LOW_PAIR_RANK = 6


# --- rules2: a second rule-based seat -----------------------------------------------------------

def _suit(card: Card) -> int:
    return card // SUIT_SIZE


def _rank(card: Card) -> int:
    return card % SUIT_SIZE


def _out_counts(view: SeatView, decks: int) -> dict[Card, int]:
    """Copies of each card still in another seat's hand (neither played nor the seat's own)."""
    out = dict.fromkeys(range(SEATS * SUIT_SIZE), decks)
    for c in bits_cards(view.played) + bits_cards(view.hand):
        out[c] -= 1
    return out


def _is_boss(card: Card, out: dict[Card, int]) -> bool:
    """No higher card of the suit is left in another hand."""
    top = (_suit(card) + 1) * SUIT_SIZE
    return not any(out[c] for c in range(card + 1, top))


def _has_points(trick: tuple[Play, ...]) -> bool:
    return any(_suit(c) == HEARTS or c in (PIG, TRANSFORMER) for p in trick for c in p)


def _rules2_lead(cards: list[Card], out: dict[Card, int], voids: tuple[int, ...]) -> Card:
    """Shortest suit first; cash a boss in a safe suit nobody is void in, else lead low."""
    pig_out = out[PIG] > 0
    by_suit: dict[int, list[Card]] = {}
    for c in cards:
        by_suit.setdefault(_suit(c), []).append(c)

    def unwanted(suit: int) -> bool:
        if suit == HEARTS:
            return True
        held = by_suit[suit]
        return suit == SPADES and (PIG in held or (pig_out and (SPADE_KING in held or SPADE_ACE in held)))
    suits = [s for s in by_suit if not unwanted(s)] or list(by_suit)
    suit = min(suits, key=lambda s: (len(by_suit[s]), s))
    held = sorted(by_suit[suit])
    nobody_void = not any(v >> suit & 1 for v in voids)
    top = held[-1]
    if suit in SAFE_SUITS and nobody_void and top != SHEEP and _is_boss(top, out):
        return top
    low = [c for c in held if c not in (SHEEP, PIG)] or held
    return low[0]


def _rules2_follow(cards: list[Card], trick: tuple[Play, ...], last: bool, out: dict[Card, int]) -> Card:
    """Pig under SK/SA; the sheep when it cannot be beaten and no pig is in the trick;
    last on a pointless trick, take it high; else duck as high as possible, else go low."""
    suit = _suit(trick[0][0])
    top = max(p[0] for p in trick if _suit(p[0]) == suit)
    if PIG in cards and top > PIG:
        return PIG
    if SHEEP in cards and SHEEP > top and _is_boss(SHEEP, out) and not any(PIG in p for p in trick):
        return SHEEP
    keep = [c for c in cards if c not in (PIG, SHEEP)] or cards
    if last and not _has_points(trick):
        return max(keep)
    under = [c for c in keep if c < top]
    if under:
        return max(under)
    return max(keep) if last else min(keep)


def _danger(card: Card, pig_out: bool, shortest: dict[int, int]) -> tuple[int, int, int]:
    """Discard order: pig, then SA/SK while the pig is out, then hearts, then the
    transformer, then any card (shorter suits and higher ranks first); the sheep last."""
    if card == PIG:
        level = 5
    elif pig_out and card in (SPADE_KING, SPADE_ACE):
        level = 4
    elif _suit(card) == HEARTS:
        level = 3
    elif card == TRANSFORMER:
        level = 2
    elif card == SHEEP:
        level = 0
    else:
        level = 1
    return level, -shortest[_suit(card)], _rank(card)


def _rules2_discard(cards: list[Card], pig_out: bool, hand: tuple[Card, ...]) -> Card:
    lengths = {s: sum(1 for c in hand if _suit(c) == s) for s in range(len(SUITS))}
    return max(cards, key=lambda c: _danger(c, pig_out, lengths))


def _rules2_pair_play(doubles: list[Play], led_suit: int, pig_out: bool, hand: tuple[Card, ...]) -> Play:
    """Two-card plays (two decks, after a pair lead): in suit, the lowest two cards
    (a pair only when nothing else is left); off suit, the most dangerous cards."""
    in_suit = [m for m in doubles if all(_suit(c) == led_suit for c in m)]
    if len(in_suit) == len(doubles):
        return min(doubles, key=lambda m: (m[0] == m[1], _rank(m[0]) + _rank(m[1]), m))
    lengths = {s: sum(1 for c in hand if _suit(c) == s) for s in range(len(SUITS))}
    return max(doubles, key=lambda m: (sorted((_danger(c, pig_out, lengths) for c in m), reverse=True), m))


def rules2_play(state: DealState) -> Play:
    """A deterministic rule-based play, built apart from the baseline heuristic.

    Reads the seat's own hand, the current trick, the cards played and the
    known voids (``DealState.view``). Cards "out" are copies in another hand.

    - Leading: from the shortest suit, avoiding hearts, and
      spades while holding the pig or, with the pig out, SK/SA. In clubs or
      diamonds, when no seat is known void there and the seat holds the highest
      card still out (not the sheep), lead it (cash the winner); otherwise lead
      the suit's lowest card other than the sheep and the pig. Two decks: a
      lead card up to 8 held twice is led as a pair.
    - Following a single card: the pig under SK/SA; the sheep whenever it would
      win and no higher diamond is out, unless the pig is in the trick; last to
      play on a trick without points, take it with the highest card (not the
      pig or the sheep); else duck with the highest card under the winner; else
      the lowest (the highest when last).
    - Discarding: the pig, then SA/SK while the pig is out, then the highest
      heart, then the transformer (C10), then the highest card of the shortest
      suit; the sheep only when nothing else is left.
    - Two-card plays (two decks, after a pair lead): in suit, the two lowest
      cards, a pair only when forced; off suit, the two most dangerous cards by
      the discard order. The only play offered is played.
    """
    moves = legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    view = state.view()
    out = _out_counts(view, state.rules.decks)
    pig_out = out[PIG] > 0
    hand = bits_cards(view.hand)
    singles = [m[0] for m in moves if len(m) == 1]
    trick = state.trick
    if not trick:
        card = _rules2_lead(singles, out, view.voids)
        pair = (card, card)
        return pair if pair in moves and _rank(card) <= LOW_PAIR_RANK else (card,)
    led = _suit(trick[0][0])
    if len(trick[0]) == 2:
        return _rules2_pair_play([m for m in moves if len(m) == 2], led, pig_out, hand)
    if all(_suit(c) == led for c in singles):
        return (_rules2_follow(singles, trick, len(trick) == SEATS - 1, out),)
    return (_rules2_discard(singles, pig_out, hand),)


# --- greedy-trick: one trick ahead, points plus burden ------------------------------------------

# relief for giving up a card, by rank (2 … A): the higher the card, the likelier it wins an unwanted trick later
RANK_BURDEN = (0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11)
# hearts above 10 weigh as the points they carry in the trick, not as a burden
HEART_BURDEN_TOP = CARD_BY_NAME["H10"] % SUIT_SIZE
# while the pig is in another hand, SA and SK are the cards that catch it: shedding them is a relief
PIG_OUT_RELIEF = {SPADE_ACE: 50, SPADE_KING: 30}
# while the sheep is in another hand, DA, DK and DQ are the cards that can take it: worth keeping
SHEEP_OUT_RELIEF = {CARD_BY_NAME["DA"]: -30, CARD_BY_NAME["DK"]: -20, CARD_BY_NAME["DQ"]: -10}
# while the transformer is in another hand, a high club may take it: the share of the points at stake (the points
# still out per seat plus the seat's own) that shedding the club is worth; with negative points at stake, a relief
TRANSFORMER_OUT_SHARE = {CARD_BY_NAME["CA"]: 0.4, CARD_BY_NAME["CK"]: 0.3, CARD_BY_NAME["CQ"]: 0.2,
                         CARD_BY_NAME["CJ"]: 0.1}
# leading in the first EARLY_TRICKS tricks, each card a suit is shorter in the hand than its average length in the
# other hands is worth this much: a short suit is soon void, and a void lets the seat discard its burdens
SHORT_SUIT_PREFERENCE = 30
EARLY_TRICKS = 3
# the cards that score (hearts, pig, sheep, transformer): only a play of them changes a trick's points
SCORING = HEART_MASK | 1 << PIG | 1 << SHEEP | 1 << TRANSFORMER
# the same on both planes of two-plane bits, and the transformer's two copies
SCORING_BITS = SCORING | SCORING << PLANE
TRANSFORMER_BITS = 1 << TRANSFORMER | 1 << (TRANSFORMER + PLANE)
# the cards whose points the "points still out" add up (the transformer scores only through the others)
POINT_CARDS = (*(c for c in range(PLANE) if HEART_MASK >> c & 1), PIG, SHEEP)
# the key of a play that does not win the trick so far: only its scoring cards matter to the rest of the trick
NOT_WINNING = -1
# (winner of the trick, change of the winner's points)
Outcome = tuple[int, float]


def _burden(card: Card) -> int:
    if _suit(card) == HEARTS and _rank(card) > HEART_BURDEN_TOP:
        return 0
    return RANK_BURDEN[_rank(card)]


BURDEN = tuple(_burden(c) for c in range(PLANE))


def _copies(bits: int, card: Card) -> int:
    """Copies of ``card`` in two-plane bits (one per deck)."""
    return (bits >> card & 1) + (bits >> (card + PLANE) & 1)


def _suit_count(bits: int, suit: int) -> int:
    mask = SUIT_MASKS[suit]
    return (bits & mask).bit_count() + (bits >> PLANE & mask).bit_count()


@lru_cache(maxsize=64)
def _card_points(rules: Rules, exposed: tuple[tuple[Card, ...], ...]) -> dict[Card, int]:
    """What each heart, the pig and the sheep score alone under the deal's exposures (the engine's scoring)."""
    return {c: score_cards(rules, [[c]], exposed).raw[0] for c in POINT_CARDS}


class _TrickSearch:
    """One greedy-trick decision: the constants of its evaluation, and the search over the rest of a trick.

    Built from public values (the cards each seat has taken, the exposures); the search reads the hands of
    the state it is given, which are the seat's own and a sample of the others'.
    """

    def __init__(self, state: DealState) -> None:
        rules = state.rules
        captured = self.captured = tuple(running.captured_bits(state))
        self.decks = rules.decks
        self.raw = running.raw_scores(state)
        self.gone = {c: sum(_copies(bits, c) for bits in captured) for c in (PIG, SHEEP, TRANSFORMER)}
        points = _card_points(rules, state.exposed)
        out = sum(points[c] * (self.decks - sum(_copies(bits, c) for bits in captured)) for c in POINT_CARDS)
        # the points not yet taken, per seat
        self.average_out = out / SEATS
        self.transformer_factor = exposure_values(rules, state.exposed)[TRANSFORMER].transformer_factor
        self.has_transformer = [_copies(bits, TRANSFORMER) > 0 for bits in captured]
        self.tables: dict[tuple[int, bool, bool, bool], list[float]] = {}
        # whether plays that leave the rest of the trick the same share one search (``outcomes``); False
        # searches each play's replies apart (the tests check that sharing never changes an outcome)
        self.share = True

    def relief(self, seat: int, hand: int, trick: list[Play]) -> list[float]:
        """Per card, what giving it up is worth to ``seat`` holding ``hand``, ``trick`` on the table."""
        # copies of the pig, the sheep and the transformer neither taken, nor on the table, nor in the hand
        pig, sheep, transformer = (self.decks - self.gone[c] - _copies(hand, c) for c in (PIG, SHEEP, TRANSFORMER))
        for play in trick:
            for c in play:
                if c == PIG:
                    pig -= 1
                elif c == SHEEP:
                    sheep -= 1
                elif c == TRANSFORMER:
                    transformer -= 1
        key = (seat, pig > 0, sheep > 0, transformer > 0)
        table = self.tables.get(key)
        if table is None:
            table = [float(b) for b in BURDEN]
            if key[1]:
                for c, v in PIG_OUT_RELIEF.items():
                    table[c] += v
            if key[2]:
                for c, v in SHEEP_OUT_RELIEF.items():
                    table[c] += v
            if key[3]:
                stake = self.average_out + self.raw[seat]
                for c, share in TRANSFORMER_OUT_SHARE.items():
                    table[c] -= share * stake
            self.tables[key] = table
        return table

    def settle(self, state: DealState) -> Outcome:
        """The trick the last play completed: its winner and the change of the winner's points.

        The change is the engine's (raw scores after − before: hearts, pig, sheep, exposures,
        all hearts, the transformer's doubling of the points already taken); a transformer newly
        taken also counts (factor − 1) × the points still out per seat, which it will double.
        """
        winner = running.winners(state)[-1]
        # the copies the trick added to the winner's pile (its two-plane bits changed only there)
        taken = running.captured_bits(state)[winner] ^ self.captured[winner]
        if not taken & SCORING_BITS:
            return winner, 0.0
        delta = float(running.raw_scores(state)[winner] - self.raw[winner])
        if taken & TRANSFORMER_BITS and not self.has_transformer[winner]:
            delta += (self.transformer_factor - 1) * self.average_out
        return winner, delta

    def outcomes(self, state: DealState, moves: list[Play]) -> list[Outcome]:
        """The trick's outcome after each of ``moves`` by the seat to act, the later seats replying best.

        Two plays that leave the rest of the trick the same (neither wins so far and both carry the
        same scoring cards, or both win with the same cards of the led suit and the same scoring
        cards) share one search of the replies.
        """
        seat = state.seat
        found = []
        shared: dict[tuple[int, ...], Outcome] = {}
        for move in moves:
            state.apply(move)
            if not state.trick:
                outcome = self.settle(state)
            else:
                led = _suit(state.trick[0][0])
                if not self.share:
                    key = move
                elif winning_seat(state) == seat:
                    key = tuple([c for c in move if _suit(c) == led or SCORING >> c & 1])
                else:
                    key = (NOT_WINNING, *[c for c in move if SCORING >> c & 1])
                known = shared.get(key)
                if known is None:
                    known = shared[key] = self.best_reply(state)
                outcome = known
            state.undo()
            found.append(outcome)
        return found

    def best_reply(self, state: DealState) -> Outcome:
        """The outcome when the seat to act plays what is best for its side (the later seats likewise):
        its side's points from the trick minus the other side's, plus its relief; ties to the earlier play."""
        seat = state.seat
        assert seat is not None
        moves = legal_moves(state)
        found = self.outcomes(state, moves)
        relief = self.relief(seat, running.hands_bits(state)[seat], state.trick)
        best, best_value = found[0], float("-inf")
        for move, outcome in zip(moves, found):
            winner, delta = outcome
            value = (delta if winner % 2 == seat % 2 else -delta) + sum([relief[c] for c in move])
            if value > best_value:
                best, best_value = outcome, value
        return best


def _short_suit_preference(view: SeatView, decks: int) -> list[float]:
    """Per suit, SHORT_SUIT_PREFERENCE × (its average length in the other hands − its length in the seat's)."""
    prefs = []
    for suit in range(len(SUITS)):
        own = _suit_count(view.hand, suit)
        others = (SUIT_SIZE * decks - _suit_count(view.played, suit) - own) / (SEATS - 1)
        prefs.append(SHORT_SUIT_PREFERENCE * (others - own))
    return prefs


def greedy_trick_play(state: DealState, *, samples: int, seed: int) -> Play:
    """The legal play with the best value one trick ahead, for the seat's side, over ``samples`` deals.

    Built like an open-source "greedy" Gong Zhu AI (docs/bot.md, "Arena"): it does not play
    deals out. Each sample deals the unseen cards consistently with the seat's information set
    (``DealState.resample``: hand sizes, exposed copies, voids). On that deal every legal
    play is tried; each seat still to play in the trick answers, in order, with its legal play
    (``legal_moves``, applied and undone on the sampled state) that maximizes its own side's
    value given the later seats' answers (a max-n search of at most three more plays; the side of
    seat s is s and s + 2, whatever the scoring). A seat's value of a play:

    - the trick's points for its side minus the other side's: the change of the winner's raw score
      (the engine's), and, when the trick gives the winner its first transformer (C10),
      (factor − 1) × the average points per seat still out (not yet taken);
    - plus the relief of the card(s) it gives up (``_TrickSearch.relief``): ``RANK_BURDEN`` by
      rank (hearts above 10: none); SA +50, SK +30 while the pig is in another hand; DA −30,
      DK −20, DQ −10 while the sheep is; CA, CK, CQ, CJ −0.4, −0.3, −0.2, −0.1 × (points out
      per seat + the seat's own points) while the transformer is.

    The seat's value of a play is its mean over the samples (one sample when its play completes
    the trick: nothing hidden decides it) plus its relief and, leading in the first three
    tricks, the short-suit preference (``_short_suit_preference``). Ties go to the earlier play
    in ``legal_moves`` order. The random stream is seeded from ``seed`` and the number of plays
    made, so a decision depends on the position and the seed only.
    """
    moves = legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    view = state.view()
    seat = view.seat
    search = _TrickSearch(state)
    relief = search.relief(seat, view.hand, state.trick)
    rng = random.Random(f"greedy-trick:{seed}:{running.plays_count(state)}")
    rounds = 1 if len(state.trick) == SEATS - 1 else samples
    totals = [0.0] * len(moves)
    for _ in range(rounds):
        root = state.resample(view, rng)
        for i, (winner, delta) in enumerate(search.outcomes(root, moves)):
            totals[i] += delta if winner % 2 == seat % 2 else -delta
    values = [totals[i] / rounds + sum([relief[c] for c in move]) for i, move in enumerate(moves)]
    if not state.trick and running.trick_number(state) < EARLY_TRICKS:
        prefs = _short_suit_preference(view, state.rules.decks)
        values = [v + prefs[_suit(move[0])] for v, move in zip(values, moves)]
    best = max(range(len(moves)), key=lambda i: (values[i], -i))
    return moves[best]
