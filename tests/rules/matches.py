"""Random matches for the match tests (docs/rules.md §10): deals dealt from a
``random.Random``, played by the engine's random chooser, each led as the rule
texts say — derived here from the tricks, not by the match module: the first deal
by the opening card's holder, every later one by the seat that won the trick in
which the first pig fell (R: "以后每局由上一局得到猪牌的一方首先出牌"; two decks: the
first pig), or by seat n mod 4 in deal n (P: 固定首引人). A match stops once a
running total of normalized (or partnership) scores, summed with the oracle,
reaches ±target."""

import random
from dataclasses import dataclass

import gongzhu.rules as R
from gongzhu.rules import running

from . import oracle as O


@dataclass(frozen=True)
class PlayedMatch:
    records: tuple
    states: tuple
    totals: tuple          # after the last finished deal
    ledger: tuple
    ending_deal: object    # index of the deal that reached ±target, else None


def pig_trick_winner(state):
    """The seat that won the first trick holding a pig (None before the pig falls)."""
    for trick in state.history:
        if any(O.PIG in play for play in trick.plays):
            return trick.winner
    return None


def deal_lead(leader_rule, states):
    """(first_deal, leader) of deal number len(states); leader None: the opening card's holder."""
    if leader_rule == "rotation":
        return False, len(states) % O.SEATS
    if not states:
        return True, None
    return False, pig_trick_winner(states[-1])


def shuffled_hands(rules, rng):
    """Four hands of the deck shuffled by ``rng.shuffle``, dealt a card at a time: the seeded matches
    below were chosen for what they show (a total exactly at the target, a tie, ...) with these deals."""
    cards = list(R.cards.full_deck(rules.decks))
    rng.shuffle(cards)
    return tuple(tuple(cards[seat::O.SEATS]) for seat in range(O.SEATS))


def play_deal(rules, rng, *, first_deal, leader, exposure=0.0, plays=None):
    """A dealt and randomly played deal: its record and its final state (``plays`` cuts it short)."""
    hands = shuffled_hands(rules, rng)
    exposed = tuple(tuple(c for c in hand if c in O.EXPOSABLE and rng.random() < exposure) for hand in hands)
    state = R.replay(rules, hands=hands, exposed=exposed, first_deal=first_deal, leader=leader)
    R.table.advance(state, R.table.random_chooser(rng), -1 if plays is None else plays)
    record = R.match.DealRecord(hands=hands, exposed=exposed, plays=tuple(running.plays(state)))
    return record, state


def base(rules, raw):
    return O.partnership(raw) if rules.partnership else O.normalize(raw)


def random_match(rules, seed, *, leader_rule="pig_taker", target=1000, exposure=0.0, multiplier=1, fee=0,
                 max_deals=200, unfinished_plays=None):
    """Deals until a total reaches ±target (or ``max_deals``); with ``unfinished_plays`` one more
    deal, cut after that many plays, follows when the match has not ended."""
    rng = random.Random(seed)
    records, states = [], []
    totals, ledger = (0,) * O.SEATS, (0,) * O.SEATS
    ending = None
    while ending is None and len(records) < max_deals:
        first_deal, leader = deal_lead(leader_rule, states)
        record, state = play_deal(rules, rng, first_deal=first_deal, leader=leader, exposure=exposure)
        records.append(record)
        states.append(state)
        raw = R.running.score_state(state).raw
        totals = tuple(t + s for t, s in zip(totals, base(rules, raw), strict=True))
        ledger = tuple(t + s for t, s in zip(ledger, O.ingots(raw, multiplier, fee)[1], strict=True))
        if any(abs(t) >= target for t in totals):
            ending = len(records) - 1
    if ending is None and unfinished_plays is not None:
        first_deal, leader = deal_lead(leader_rule, states)
        record, state = play_deal(rules, rng, first_deal=first_deal, leader=leader, exposure=exposure,
                                  plays=unfinished_plays)
        records.append(record)
        states.append(state)
    return PlayedMatch(records=tuple(records), states=tuple(states), totals=totals, ledger=ledger,
                       ending_deal=ending)
