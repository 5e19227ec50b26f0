"""Random deal states with their history, and the same history with the
hidden cards dealt differently (consistent with everything public)."""
from __future__ import annotations

import random
from dataclasses import dataclass

from gongzhu.rules import InvalidDeal, Rules, deal_hands, legal_moves, replay, running
from gongzhu.rules.cards import EXPOSABLE, bits_cards
from gongzhu.rules.play import apply_move

SEATS = 4


@dataclass
class Position:
    rules: Rules
    hands: tuple
    exposed: tuple
    plays: list
    seats: list
    first_deal: bool
    leader: int | None
    state: object


def random_rules(rng: random.Random, decks: int) -> Rules:
    return Rules(decks=decks, partnership=rng.random() < 0.3,
                 opening_card=rng.choice(("C2", "S2", "S3", "S7")),
                 must_lead_opening_card=rng.random() < 0.8, first_trick_ban=rng.random() < 0.3,
                 pig_flips_with_all_hearts=rng.random() < 0.3)


def random_position(seed: int, decks: int = 1) -> Position:
    """A random legal position that is not finished, with its play history."""
    rng = random.Random(seed)
    rules = random_rules(rng, decks)
    hands = deal_hands(rules, rng=rng)
    exposed = tuple(tuple(c for c in EXPOSABLE if c in hand and rng.random() < 0.3)[:1] for hand in hands)
    first_deal = rng.random() < 0.7
    leader = None if first_deal else rng.randrange(SEATS)
    state = replay(rules, hands=hands, exposed=exposed, first_deal=first_deal, leader=leader)
    exposed = state.exposed
    stop = rng.randrange(rules.hand_size * SEATS)
    plays, seats = [], []
    while not state.finished and len(plays) < stop:
        move = rng.choice(legal_moves(state))
        seats.append(state.seat)
        plays.append(move)
        state = apply_move(state, move)
    if state.finished:
        return random_position(seed + 1, decks)
    return Position(rules, hands, exposed, plays, seats, first_deal, leader, state)


def reshuffled(p: Position, rng: random.Random):
    """The same public history with the other seats' unexposed cards dealt anew; None if none fits."""
    found = reshuffled_deal(p, rng)
    return None if found is None else found[2]


def reshuffled_deal(p: Position, rng: random.Random):
    """(hands as dealt, leader, state) of ``reshuffled``; None if no other deal fits."""
    me = p.state.seat
    others = [s for s in range(SEATS) if s != me]
    hidden = {s: list(bits_cards(running.hands_bits(p.state)[s])) for s in others}
    for s in others:
        for c in bits_cards(running.held_exposed(p.state)[s]):
            hidden[s].remove(c)
    pool = [c for s in others for c in hidden[s]]
    for _ in range(20):
        rng.shuffle(pool)
        at, new = 0, {}
        for s in others:
            new[s] = pool[at:at + len(hidden[s])]
            at += len(hidden[s])
        hands = []
        for s in range(SEATS):
            played = [c for play, by in zip(p.plays, p.seats) if by == s for c in play]
            held = list(bits_cards(running.held_exposed(p.state)[s]))
            current = list(p.hands[s]) if s == me else new[s] + held + played
            hands.append(tuple(current) if s != me else tuple(p.hands[s]))
        try:
            # the seat that led first is public (two decks: the seat dealt the first copy of the opening card)
            leader = p.seats[0] if p.seats else running.leader(p.state)
            other = replay(p.rules, hands=hands, exposed=p.exposed, plays=p.plays,
                           first_deal=p.first_deal, leader=leader)
        except InvalidDeal:
            # this deal breaks a void the history shows; try another
            continue
        if other.hands != p.state.hands:
            return hands, leader, other
    return None


def deal_start(rules: Rules, seed: int):
    return replay(rules, hands=deal_hands(rules, seed))


def played_deal(rules: Rules, seed: int, choose) -> tuple:
    """(start state, plays) of a deal seeded ``seed`` played to the end by ``choose(state, rng)``."""
    state = deal_start(rules, seed)
    rng = random.Random(seed)
    while not state.finished:
        state.apply(choose(state, rng))
    return deal_start(rules, seed), running.plays(state)
