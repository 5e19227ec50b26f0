"""Opponent policies for the arena (bench/arena.py): each maps a deal state to a legal play.

Every policy reads only what the seat to act may know (``gongzhu.rules.seat_view``)
plus the current trick, never the other hands the state carries.

- ``random``: a uniformly random legal play.
- ``heuristic``: the bot's baseline heuristic (``gongzhu.bot.heuristic_suggestion``).
- ``greedy``: flat Monte Carlo over the legal plays (``greedy_policy``).
- ``rules2``: a second rule-based seat, written apart from the baseline (``rules2_play``).
"""
from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from gongzhu.bot import heuristic_suggestion
from gongzhu.bot.search import playout_value
from gongzhu.rules import (
    DIAMONDS,
    HEARTS,
    PIG,
    SEATS,
    SHEEP,
    SPADES,
    SUIT_SIZE,
    SUITS,
    TRANSFORMER,
    Card,
    DealState,
    Play,
    SeatView,
    bits_cards,
    legal_moves,
    sample_hidden,
    seat_view,
)

Policy = Callable[[DealState], Play]
OPPONENTS = ("random", "heuristic", "greedy", "rules2")
DEFAULT_GREEDY_SAMPLES = 20

CLUBS = SUITS.index("C")
SPADE_KING = SPADES * SUIT_SIZE + 11
SPADE_ACE = SPADES * SUIT_SIZE + 12
# suits rules2 may lead its winners in: no penalty card of its own can fall on them
SAFE_SUITS = (CLUBS, DIAMONDS)
# two decks: a lead card up to this rank (8) held twice is led as a pair
LOW_PAIR_RANK = 6


def make_opponent(name: str, seed: int, *, greedy_samples: int = DEFAULT_GREEDY_SAMPLES) -> Policy:
    """The policy ``name`` (one of ``OPPONENTS``); ``seed`` fixes its random choices."""
    if name == "random":
        rng = random.Random(seed)
        return lambda state: rng.choice(legal_moves(state))
    if name == "heuristic":
        return lambda state: heuristic_suggestion(state).move
    if name == "greedy":
        return partial(greedy_play, samples=greedy_samples, seed=seed)
    if name == "rules2":
        return rules2_play
    raise ValueError(f"unknown opponent {name!r}; one of {', '.join(OPPONENTS)}")


# --- greedy: flat Monte Carlo -------------------------------------------------------------------

def greedy_play(state: DealState, *, samples: int, seed: int) -> Play:
    """The legal play with the best mean playout value over ``samples`` deals of the hidden cards.

    Each sample deals the unseen cards consistently with the seat's information
    set (``gongzhu.rules.sample_hidden``: hand sizes, exposed copies, voids);
    every legal play is played out on that same deal, all four seats then
    following the baseline heuristic (``gongzhu.bot.search.playout_value``). The
    value is the seat's exact normalized score (partnership: its side's). Ties go
    to the earlier play in ``legal_moves`` order. The random stream is seeded
    from ``seed`` and the number of plays made, so a decision depends on the
    position and the seed only.
    """
    moves = legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    view = seat_view(state)
    rng = random.Random(f"greedy:{seed}:{state.plays_count}")
    totals = [0.0] * len(moves)
    for _ in range(samples):
        root = state.clone()
        root.hands_bits[:] = sample_hidden(view, rng)
        for i, move in enumerate(moves):
            totals[i] += playout_value(root, move, view.seat)
    best = max(range(len(moves)), key=lambda i: (totals[i], -i))
    return moves[best]


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
    known voids (``seat_view``). Cards "out" are copies in another hand.

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
    view = seat_view(state)
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
