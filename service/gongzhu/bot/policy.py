"""A learned playout policy (one deck): a linear score over binary features of each legal card.

A seat's decision is read as what that seat may know: its hand, the cards played (the trick on
the table included), the trick in order, which seats are void in which suits, how many tricks
are done, and whether the seats across are partners. Each legal card switches on a few
binary features (``card_features``): which card it is, how many higher and lower cards of its
suit are still out, its suit's length, whether it takes the trick so far and what is on the
table, where the pig, the sheep and the transformer are (played, the seat's own, or out) … in
one of three blocks: leading, following the led suit, or discarding on it. The card's score
is the sum of its features' weights; the best score is played (ties to the lower card).

The weights are fitted offline (``bench/bot/policy_fit.py``; bench/bot/README.md gives the commands
that reproduce them) to the decisions of a Monte Carlo search and shipped with the package
(``policy_weights.json``); nothing is loaded from outside.
Two-deck plays are left to the baseline heuristic.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Final

from gongzhu.rules import PIG, SHEEP, TRANSFORMER, Card, DealState, Play, running
from gongzhu.rules.cards import HEART_MASK, HEARTS, ONE_PLANE, SEATS, SUIT_SIZE
from gongzhu.rules.scoring import HEART_VALUES
from gongzhu.rules.table import Chooser, LiveDeal

from .heuristic import heuristic_play

LEAD: Final = 0
FOLLOW: Final = 1
DISCARD: Final = 2
NO_DOUBLES: Final[tuple[Play, ...]] = ()
# where a special card is, seen from the seat: already played, in its own hand, in another hand
GONE: Final = 0
MINE: Final = 1
OUT: Final = 2
# the special card of each suit (spades: the pig; diamonds: the sheep; clubs: the transformer)
SPECIAL: Final = (PIG, -1, SHEEP, TRANSFORMER)


def _sizes() -> dict[str, int]:
    return {
        # leading
        "lead_card": 52, "lead_higher": 16, "lead_lower": 16, "lead_length": 16, "lead_out": 16,
        "lead_voids": 12, "lead_special": 27, "lead_phase": 12, "lead_pile": 16, "lead_mine_below": 12,
        "lead_mine_above": 12, "lead_higher_lower": 16,
        # following the led suit
        "follow_card": 52, "follow_place": 6, "follow_sure": 3, "follow_hearts": 3, "follow_pig": 1,
        "follow_sheep": 1, "follow_transformer": 1, "follow_duck": 3, "follow_over": 3, "follow_higher": 8,
        "follow_left": 4, "follow_special": 54, "follow_partner": 2, "follow_later_void": 6, "follow_phase": 6,
        "follow_win_card": 52, "follow_win_pile": 4, "follow_win_doubled": 1,
        # discarding
        "discard_card": 52, "discard_left": 16, "discard_higher": 16, "discard_special": 27,
        "discard_partner": 5, "discard_place": 6, "discard_transformer_pile": 4, "discard_onto_doubled": 1,
        # the baseline heuristic's play, by block
        "heuristic": 3,
    }


def _offsets() -> tuple[dict[str, int], int]:
    offsets: dict[str, int] = {}
    at = 0
    for name, size in _sizes().items():
        offsets[name] = at
        at += size
    return offsets, at


OFFSETS, FEATURES = _offsets()
L_CARD: Final = OFFSETS["lead_card"]
L_HIGHER: Final = OFFSETS["lead_higher"]
L_LOWER: Final = OFFSETS["lead_lower"]
L_LENGTH: Final = OFFSETS["lead_length"]
L_OUT: Final = OFFSETS["lead_out"]
L_VOIDS: Final = OFFSETS["lead_voids"]
L_SPECIAL: Final = OFFSETS["lead_special"]
L_PHASE: Final = OFFSETS["lead_phase"]
L_PILE: Final = OFFSETS["lead_pile"]
L_MINE_BELOW: Final = OFFSETS["lead_mine_below"]
L_MINE_ABOVE: Final = OFFSETS["lead_mine_above"]
L_HIGHER_LOWER: Final = OFFSETS["lead_higher_lower"]
F_CARD: Final = OFFSETS["follow_card"]
F_PLACE: Final = OFFSETS["follow_place"]
F_SURE: Final = OFFSETS["follow_sure"]
F_HEARTS: Final = OFFSETS["follow_hearts"]
F_PIG: Final = OFFSETS["follow_pig"]
F_SHEEP: Final = OFFSETS["follow_sheep"]
F_TRANSFORMER: Final = OFFSETS["follow_transformer"]
F_DUCK: Final = OFFSETS["follow_duck"]
F_OVER: Final = OFFSETS["follow_over"]
F_HIGHER: Final = OFFSETS["follow_higher"]
F_LEFT: Final = OFFSETS["follow_left"]
F_SPECIAL: Final = OFFSETS["follow_special"]
F_PARTNER: Final = OFFSETS["follow_partner"]
F_LATER_VOID: Final = OFFSETS["follow_later_void"]
F_PHASE: Final = OFFSETS["follow_phase"]
F_WIN_CARD: Final = OFFSETS["follow_win_card"]
F_WIN_PILE: Final = OFFSETS["follow_win_pile"]
F_WIN_DOUBLED: Final = OFFSETS["follow_win_doubled"]
D_CARD: Final = OFFSETS["discard_card"]
D_LEFT: Final = OFFSETS["discard_left"]
D_HIGHER: Final = OFFSETS["discard_higher"]
D_SPECIAL: Final = OFFSETS["discard_special"]
D_PARTNER: Final = OFFSETS["discard_partner"]
D_PLACE: Final = OFFSETS["discard_place"]
D_TRANSFORMER_PILE: Final = OFFSETS["discard_transformer_pile"]
D_ONTO_DOUBLED: Final = OFFSETS["discard_onto_doubled"]
HEURISTIC: Final = OFFSETS["heuristic"]


def _table(size: int, function: Callable[[int], int]) -> tuple[int, ...]:
    return tuple([function(n) for n in range(size)])


# small counts as features read them: capped at 3 (BUCKET4) or 2 (MIN2); cards out in a suit: 0; 1-2;
# 3-5; 6 or more (OUT_BUCKET)
BUCKET4: Final = _table(SUIT_SIZE + 2, lambda n: min(n, 3))
MIN2: Final = _table(SUIT_SIZE + 2, lambda n: min(n, 2))
OUT_BUCKET: Final = _table(SUIT_SIZE + 1, lambda n: 0 if n == 0 else 1 if n <= 2 else 2 if n <= 5 else 3)
# the points of the hearts of a 13-bit mask of ranks (positive: 10 for H5 ... 50 for HA)
HEART_POINTS: Final = _table(1 << SUIT_SIZE, lambda m: -sum(v for r, v in enumerate(HEART_VALUES) if m >> r & 1))
# the number of ranks in a 13-bit mask, and the ranks themselves (ascending): int methods are generic calls
# in the compiled build, table lookups are not
COUNT: Final = _table(1 << SUIT_SIZE, lambda m: bin(m).count("1"))
RANKS_OF: Final[tuple[tuple[int, ...], ...]] = tuple([tuple([r for r in range(SUIT_SIZE) if m >> r & 1])
                                                      for m in range(1 << SUIT_SIZE)])
RANK_MASK: Final = (1 << SUIT_SIZE) - 1
SUIT_BASES: Final = (0, SUIT_SIZE, 2 * SUIT_SIZE, 3 * SUIT_SIZE)
# each suit's place among the suits with a special card (spades 0, diamonds 1, clubs 2; hearts none)
SPECIAL_INDEX: Final = (0, -1, 1, 2)


def _phase(tricks_done: int) -> int:
    """Early (tricks 1-4), middle (5-9), late (10-13)."""
    if tricks_done < 4:
        return 0
    return 1 if tricks_done < 9 else 2


def _where(card: int, hand: int, out: int) -> int:
    if hand >> card & 1:
        return MINE
    return OUT if out >> card & 1 else GONE


def _kind(card: Card, special: int) -> int:
    """Below the suit's special card, the special card itself, above it."""
    if card == special:
        return 1
    return 0 if card < special else 2


def _heart_points(cards: int) -> int:
    return HEART_POINTS[(cards & HEART_MASK) >> HEARTS * SUIT_SIZE]


def _pile_bucket(pile: int) -> int:
    """A pile's points so far without the transformer: -100 or less; below 0; 0; above 0."""
    points = -_heart_points(pile)
    if pile >> PIG & 1:
        points -= 100
    if pile >> SHEEP & 1:
        points += 100
    if points <= -100:
        return 0
    if points < 0:
        return 1
    return 2 if points == 0 else 3


class Decision:
    """What a seat knows when it plays one card (one deck), shared by the features of its cards."""

    def __init__(self, hand: int, played: int, trick: Sequence[Play], seat: int, voids: Sequence[int],
                 tricks_done: int, partnership: bool, captured: Sequence[int], options: int) -> None:
        self.hand = hand = hand & ONE_PLANE
        self.out = out = ONE_PLANE & ~hand & ~played
        self.phase = _phase(tricks_done)
        self.place = place = len(trick)
        table = 0
        for play in trick:
            table |= 1 << play[0]
        self.table = table
        self.suit = suit = trick[0][0] // SUIT_SIZE if trick else -1
        top = -1
        winner_place = 0
        if trick:
            suit_top = (suit + 1) * SUIT_SIZE
            for i in range(place):
                card = trick[i][0]
                if top < card < suit_top:
                    top, winner_place = card, i
        self.top = top
        self.partner_winning = partnership and place - winner_place == 2
        pile = captured[seat] | (captured[(seat + 2) % SEATS] if partnership else 0)
        self.pile = _pile_bucket(pile)
        self.doubled = bool(pile >> TRANSFORMER & 1)
        winner = (seat - place + winner_place) % SEATS
        self.winner_pile = _pile_bucket(captured[winner]) if trick else 2
        self.winner_doubled = bool(trick) and bool(captured[winner] >> TRANSFORMER & 1)
        # the baseline heuristic's card among the options (``options``: the legal single cards, or one of
        # each interchangeable run: the heuristic then plays the lowest card of the run it would play)
        self.heuristic = heuristic_play(hand, options & ONE_PLANE, NO_DOUBLES, trick, played)[0]
        hearts = _heart_points(table)
        self.hearts_bucket = 0 if hearts == 0 else (1 if hearts <= 30 else 2)
        # per suit: the other seats void in it (capped at 2), and where its special card is
        self.seats_void = [MIN2[sum([1 for s in range(SEATS) if s != seat and voids[s] >> x & 1])]
                           for x in range(4)]
        self.where = [_where(SPECIAL[x], hand, out) if SPECIAL[x] >= 0 else 0 for x in range(4)]
        # the seats still to play in this trick that are void in the led suit (capped at 2)
        later = 0
        if suit >= 0:
            for i in range(place + 1, SEATS):
                if voids[(seat + i - place) % SEATS] >> suit & 1:
                    later += 1
        self.later_voids = MIN2[later]


class Tally:
    """The features a card switches on: summed as weights (``score``), or listed (``found``)."""

    def __init__(self, weights: list[float], listing: bool) -> None:
        self.weights = weights
        self.listing = listing
        self.score = 0.0
        self.found: list[int] = []

    def on(self, feature: int) -> None:
        if self.listing:
            self.found.append(feature)
        else:
            self.score += self.weights[feature]


NO_WEIGHTS: Final[list[float]] = []


def card_features(d: Decision, card: Card) -> list[int]:
    """The features a legal ``card`` switches on in decision ``d``."""
    tally = Tally(NO_WEIGHTS, True)
    _tally(d, card, tally)
    return tally.found


def card_score(d: Decision, card: Card, tally: Tally) -> float:
    """The sum of the weights of ``card``'s features (``tally`` holds the weights; its score is reset)."""
    tally.score = 0.0
    _tally(d, card, tally)
    return tally.score


def _tally(d: Decision, card: Card, t: Tally) -> None:  # noqa: PLR0912, PLR0915 - one block of features a case
    suit = card // SUIT_SIZE
    base = suit * SUIT_SIZE
    rank = card - base
    # the suit's cards as 13-bit masks of ranks: out in other hands, the seat's own
    out_suit = d.out >> base & RANK_MASK
    mine = d.hand >> base & RANK_MASK
    out_count = COUNT[out_suit]
    higher = COUNT[out_suit >> rank + 1]
    lower = out_count - higher
    length = COUNT[mine]
    special = SPECIAL[suit]
    index = SPECIAL_INDEX[suit]
    if d.suit < 0:
        t.on(L_CARD + card)
        t.on(L_HIGHER + suit * 4 + BUCKET4[higher])
        t.on(L_LOWER + suit * 4 + BUCKET4[lower])
        t.on(L_LENGTH + suit * 4 + BUCKET4[length - 1])
        t.on(L_OUT + suit * 4 + OUT_BUCKET[out_count])
        t.on(L_VOIDS + suit * 3 + d.seats_void[suit])
        t.on(L_PHASE + d.phase * 4 + suit)
        t.on(L_PILE + d.pile * 4 + suit)
        t.on(L_HIGHER_LOWER + BUCKET4[higher] * 4 + BUCKET4[lower])
        below = COUNT[mine & ((1 << rank) - 1)]
        t.on(L_MINE_BELOW + suit * 3 + MIN2[below])
        t.on(L_MINE_ABOVE + suit * 3 + MIN2[length - 1 - below])
        if card == d.heuristic:
            t.on(HEURISTIC + LEAD)
        if index >= 0:
            t.on(L_SPECIAL + index * 9 + d.where[suit] * 3 + _kind(card, special))
        return
    if suit == d.suit:
        wins = 1 if card > d.top else 0
        t.on(F_CARD + card)
        t.on(F_PLACE + (d.place - 1) * 2 + wins)
        t.on(F_HIGHER + wins * 4 + BUCKET4[higher])
        t.on(F_LEFT + BUCKET4[length - 1])
        t.on(F_LATER_VOID + wins * 3 + d.later_voids)
        t.on(F_PHASE + d.phase * 2 + wins)
        if wins:
            if d.place == SEATS - 1 or higher == 0:
                t.on(F_SURE + d.place - 1)
            t.on(F_HEARTS + d.hearts_bucket)
            t.on(F_WIN_CARD + card)
            t.on(F_WIN_PILE + d.pile)
            if d.doubled:
                t.on(F_WIN_DOUBLED)
            table = d.table
            if table >> PIG & 1:
                t.on(F_PIG)
            if table >> SHEEP & 1:
                t.on(F_SHEEP)
            if table >> TRANSFORMER & 1:
                t.on(F_TRANSFORMER)
            top_rank = d.top - base
            t.on(F_OVER + MIN2[COUNT[mine & ((1 << rank) - 1) & ~((2 << top_rank) - 1)]])
        else:
            top_rank = d.top - base
            t.on(F_DUCK + MIN2[COUNT[mine & ((1 << top_rank) - 1) & ~((2 << rank) - 1)]])
        if index >= 0:
            t.on(F_SPECIAL + index * 18 + d.where[suit] * 6 + _kind(card, special) * 2 + wins)
        if d.partner_winning:
            t.on(F_PARTNER + wins)
        if card == d.heuristic:
            t.on(HEURISTIC + FOLLOW)
        return
    t.on(D_CARD + card)
    t.on(D_LEFT + suit * 4 + BUCKET4[length - 1])
    t.on(D_HIGHER + suit * 4 + BUCKET4[higher])
    t.on(D_PLACE + (d.place - 1) * 2 + (1 if card == PIG or card == TRANSFORMER or suit == HEARTS else 0))
    if index >= 0:
        t.on(D_SPECIAL + index * 9 + d.where[suit] * 3 + _kind(card, special))
    if card == TRANSFORMER:
        t.on(D_TRANSFORMER_PILE + d.winner_pile)
    if d.winner_doubled and (suit == HEARTS or card == PIG):
        t.on(D_ONTO_DOUBLED)
    if d.partner_winning:
        kind = 1 if suit == HEARTS else 2 if card == PIG else 3 if card == TRANSFORMER else 4 if card == SHEEP else 0
        t.on(D_PARTNER + kind)
    if card == d.heuristic:
        t.on(HEURISTIC + DISCARD)


WEIGHTS_FILE: Final = "policy_weights.json"
SCORINGS: Final = ("individual", "partnership")


def load_weights(partnership: bool) -> list[float]:
    """The shipped weights for individual or partnership scoring (``policy_weights.json``:
    ``{"features": N, "individual": {"weights": [...]}, "partnership": {...}}``)."""
    text = resources.files("gongzhu.bot").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return parse_weights(text, partnership)


def parse_weights(text: str, partnership: bool) -> list[float]:
    """One scoring's weights from the text of a weights file (``load_weights``)."""
    data = json.loads(text)
    weights = [float(w) for w in data[SCORINGS[partnership]]["weights"]]
    if data.get("features") != FEATURES or len(weights) != FEATURES:
        raise ValueError(f"{WEIGHTS_FILE} has {len(weights)} weights for {FEATURES} features")
    return weights


def best_card(d: Decision, options: int, weights: list[float]) -> Card:
    """The legal card (``options``, a one-plane mask) with the highest score; ties to the lower card."""
    best = -1
    best_score = 0.0
    tally = Tally(weights, False)
    for base in SUIT_BASES:
        for rank in RANKS_OF[options >> base & RANK_MASK]:
            card = base + rank
            score = card_score(d, card, tally)
            if best < 0 or score > best_score:
                best, best_score = card, score
    return best


def decision(state: DealState, options: int) -> Decision:
    """The decision of the seat to act in ``state`` (one deck) among the single cards ``options``, from
    what that seat may know."""
    seat = state.seat
    assert seat is not None, "the deal is finished"
    return Decision(running.hands_bits(state)[seat], running.played(state), state.trick, seat, running.voids(state),
                    running.trick_number(state), state.rules.partnership, running.captured_bits(state), options)


class PolicyChooser(Chooser):
    """The learned policy as a playout policy on the deal a one-deck play loop plays (``deal``, read as
    the loop plays); ``fallback`` chooses the plays it does not score (two-card plays)."""

    def __init__(self, deal: LiveDeal, weights: list[float], fallback: Chooser) -> None:
        self.weights = weights
        self.fallback = fallback
        self.deal = deal
        self.partnership = deal.rules.partnership

    def decision(self, options: int) -> Decision:
        """The decision of the seat to act, as ``decision(state)`` reads it outside the play loop."""
        deal = self.deal
        seat = deal.seat
        return Decision(deal.hands[seat], deal.played(), deal.trick, seat, deal.voids(), len(deal.winners),
                        self.partnership, deal.captured, options)

    def choose(self, singles: int, pairs: int, others: Sequence[Play]) -> Play:
        if pairs or others:
            return self.fallback.choose(singles, pairs, others)
        if not singles & (singles - 1):
            return (singles.bit_length() - 1,)
        return (best_card(self.decision(singles), singles & ONE_PLANE, self.weights),)


__all__ = ["FEATURES", "SCORINGS", "WEIGHTS_FILE", "Decision", "PolicyChooser", "Tally", "best_card", "card_features",
           "card_score", "decision", "load_weights", "parse_weights"]
