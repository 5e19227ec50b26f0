"""Invariants of random legal deals, shared by the hypothesis property tests
(tests/rules/test_properties.py) and bench/drills/properties.py.

A deal is drawn from a random.Random (hands, exposures, rule options,
first deal or not), played out by choosing among the engine's legal moves,
and checked at every play against the independent oracle (oracle.py): legal move
sets, rejection of unlisted moves, trick winners, captured cards, raw
scores and their permutation, settlements, and replay of the history."""

import random
from collections import Counter, _count_elements
from dataclasses import dataclass

import gongzhu.rules as R
from gongzhu.rules import running

from . import oracle as O

MOVE_CODES = frozenset({
    "must_follow_suit", "must_follow_pair", "exposed_card_first_round",
    "must_lead_opening_card", "first_trick_ban", "invalid_move",
})
EXPOSURE_CHANCES = (0.0, 0.25, 0.5, 1.0)


class InvariantBroken(AssertionError):
    pass


class Checker:
    """Counts checks; raises InvariantBroken naming the invariant."""

    def __init__(self):
        self.checks = 0

    def __call__(self, condition, name, detail=""):
        self.checks += 1
        if not condition:
            raise InvariantBroken(f"{name}: {detail() if callable(detail) else detail}")


@dataclass(frozen=True)
class DealSpec:
    decks: int
    rules: dict
    hands: tuple
    exposed: tuple
    first_deal: bool
    leader: object

    def describe(self):
        return (f"decks={self.decks} rules={self.rules} first_deal={self.first_deal} leader={self.leader} "
                f"hands={[list(h) for h in self.hands]} exposed={[list(e) for e in self.exposed]}")


def random_spec(rng, *, decks=None, options=True):
    """Hands dealt round-robin from a shuffled deck, random exposures, and
    (with options) random rule options."""
    decks = decks or rng.choice((1, 2))
    cards = O.deck(decks)
    rng.shuffle(cards)
    hands = tuple(tuple(cards[seat::O.SEATS]) for seat in range(O.SEATS))
    chance = rng.choice(EXPOSURE_CHANCES)
    exposed = tuple(
        tuple(card for card in hand if card in O.EXPOSABLE and rng.random() < chance) for hand in hands
    )
    rules = {"decks": decks}
    if options:
        rules.update(
            opening_card=rng.choice(tuple(O.OPENING_CARDS)),
            must_lead_opening_card=rng.random() < 0.7,
            first_trick_ban=rng.random() < 0.4,
            pig_flips_with_all_hearts=rng.random() < 0.5,
            partnership=rng.random() < 0.5,
        )
    first_deal = rng.random() < 0.6
    if first_deal:
        leader = None if rng.random() < 0.7 else O.first_leader(decks, rules.get("opening_card", "C2"), hands)
    else:
        leader = rng.randrange(O.SEATS)
    return DealSpec(decks=decks, rules=rules, hands=hands, exposed=exposed, first_deal=first_deal, leader=leader)


def check_deal(spec, rng, ck, *, apply_limit=None, probe_rate=1.0):
    """Play one random legal deal and check every invariant; returns the
    plays made."""
    rules = R.Rules(**spec.rules)
    decks = spec.decks
    state = R.replay(rules, hands=spec.hands, exposed=spec.exposed, first_deal=spec.first_deal, leader=spec.leader)
    leader = spec.leader
    if spec.first_deal:
        leader = O.first_leader(decks, spec.rules.get("opening_card", "C2"), spec.hands)
        ck(R.deal.first_leader(rules, spec.hands) == leader, "first leader",
           lambda: R.deal.first_leader(rules, spec.hands))
    ck(running.leader(state) == leader and state.seat == leader, "leader of trick 1",
       lambda: (running.leader(state), state.seat, leader))
    effective = O.effective_exposure(decks, spec.hands, spec.exposed)
    ck(_per_seat(state.exposed) == _per_seat(effective), "effective exposure", lambda: (state.exposed, effective))
    model = O.Model(decks=decks, rules=spec.rules, hands=spec.hands, exposed=spec.exposed,
                    first_deal=spec.first_deal, leader=leader)
    plays = []
    while not model.finished:
        moves = R.legal_moves(state)
        ck(running.plays_count(state) == len(plays), "plays count", lambda: (running.plays_count(state), len(plays)))
        ck([tuple(m) for m in state.trick] == [m for _, m in model.trick], "current trick",
           lambda: (state.trick, model.trick))
        ck(all(_same_cards(h, model.hand(seat)) for seat, h in enumerate(state.hands)), "all four hands")
        _check_position(state, model, moves, ck)
        _check_listed_moves_apply(state, moves, rng, ck, apply_limit)
        if probe_rate >= 1.0 or rng.random() < probe_rate:
            _probe_unlisted(state, model, moves, rng, ck)
        move = rng.choice(moves)
        state = R.apply_move(state, move)
        tricks_before = model.trick_number
        model.apply(move)
        plays.append(tuple(move))
        if model.trick_number > tricks_before:
            _check_trick(rules, state, model, ck)
        else:
            ck(running.completed_trick(state) is None, "no completed trick mid-trick",
               lambda: running.completed_trick(state))
    _check_finished(rules, spec, state, model, plays, rng, ck)
    return plays


def _per_seat(lists):
    return [sorted(seat) for seat in lists]


def _same_cards(cards, counted) -> bool:
    """Whether a list of cards holds each card as often as a Counter with no zero counts (the model's
    hands) says: both compared as plain dicts, in C (Counter's own ``==`` goes key by key in Python,
    and ``Counter(cards)`` checks its argument's type on every call)."""
    counts: dict = {}
    _count_elements(counts, cards)
    return dict.__eq__(counts, counted) is True


def _normalized(moves):
    return sorted(tuple(sorted(move)) for move in moves)


def _check_position(state, model, moves, ck):
    seat = model.seat
    ck(not state.finished and state.seat == seat, "seat to act", lambda: (state.seat, seat))
    ck(running.trick_number(state) == model.trick_number, "trick number",
       lambda: (running.trick_number(state), model.trick_number))
    ck(_same_cards(state.hands[seat], model.hand(seat)), "hand of the seat to act",
       lambda: (sorted(state.hands[seat]), sorted(model.hand(seat).elements())))
    listed = _normalized(moves)
    ck(len(set(listed)) == len(listed), "no duplicate legal moves", lambda: listed)
    ck(len(listed) > 0, "a seat to act has a legal move")
    expected = model.expected_moves()
    if expected is not None:
        ck(listed == expected, "legal move set (rules.md §2–4)",
           lambda: f"seat {seat} trick {model.trick_number} trick so far {model.trick} "
                   f"hand {sorted(model.hand(seat).elements())} exposed {dict(model.exposed[seat])} "
                   f"led before {sorted(model.led_before)}: engine {listed} oracle {expected}")
    else:
        hand = model.hand(seat)
        size = len(model.trick[0][1]) if model.trick else None
        for move in listed:
            ck(not Counter(move) - hand and (size is None or len(move) == size), "listed move is held and sized",
               lambda: move)


def _check_listed_moves_apply(state, moves, rng, ck, limit):
    """Every listed move is legal; all (or a sample of `limit`) are applied."""
    for move in moves:
        ck(R.is_legal_move(state, move), "listed move is_legal_move", lambda: move)
    sample = moves if limit is None or len(moves) <= limit else rng.sample(moves, limit)
    for move in sample:
        try:
            R.apply_move(state, move)
        except R.RuleError as error:
            ck(False, "listed legal move applies", lambda error=error: f"{move}: {error.code} {error}")


def _expect_rejected(state, move, codes, ck, name):
    try:
        R.check_move(state, move)
    except R.IllegalMove as error:
        ck(error.code in codes, name,
           lambda error=error: f"move {move}: code {error.code}, expected one of {sorted(codes)}")
        ck(R.is_legal_move(state, move) is False, "is_legal_move agrees with check_move", lambda: move)
        return
    ck(False, name, lambda: f"move {move} accepted, expected {sorted(codes)}")


def _probe_unlisted(state, model, moves, rng, ck):
    seat = model.seat
    hand = model.hand(seat)
    listed = set(_normalized(moves))
    size = len(model.trick[0][1]) if model.trick else None
    _probe_wrong_seat(state, moves[0], ck)
    # Held cards whose single play is not listed.
    if size in (None, 1):
        unlisted = [card for card in hand if (card,) not in listed]
        for card in rng.sample(unlisted, min(3, len(unlisted))):
            code = _expected_single_code(model, card)
            _expect_rejected(state, (card,), {code} if code else MOVE_CODES, ck, "unlisted held card rejected")
    else:
        combos = O.two_card_plays(hand)
        unlisted = [m for m in combos if m not in listed]
        for move in rng.sample(unlisted, min(3, len(unlisted))):
            code = _expected_pair_follow_code(model, move)
            _expect_rejected(state, move, {code} if code else MOVE_CODES, ck, "unlisted two-card play rejected")
    # A card the seat does not hold, in a play of the right size.
    missing = [card for card in range(O.CARDS_PER_DECK) if hand[card] == 0]
    if missing:
        card = rng.choice(missing)
        move = (card,) if size in (None, 1) else (card, card)
        _expect_rejected(state, move, {"card_not_in_hand"}, ck, "card not held")
    if model.decks == 2 and size in (None, 2):
        singles_held = [card for card, n in hand.items() if n == 1]
        if singles_held:
            card = rng.choice(singles_held)
            _expect_rejected(state, (card, card), {"card_not_in_hand"}, ck, "pair of a single copy")
    # Wrong sizes.
    held = sorted(hand.elements())
    _expect_rejected(state, (), {"invalid_move"}, ck, "empty play")
    if len(held) >= 3:
        _expect_rejected(state, tuple(held[:3]), {"invalid_move"}, ck, "three-card play")
    if model.decks == 1 and len(held) >= 2:
        _expect_rejected(state, tuple(held[:2]), {"invalid_move"}, ck, "two cards in one deck")
    if model.decks == 2 and size == 1 and len(held) >= 2:
        _expect_rejected(state, tuple(held[:2]), {"invalid_move"}, ck, "two cards after a single lead")
    if model.decks == 2 and size == 2:
        _expect_rejected(state, (held[0],), {"invalid_move"}, ck, "one card after a pair lead")
    if model.decks == 2 and size is None:
        distinct = sorted(set(held))
        if len(distinct) >= 2:
            _expect_rejected(state, tuple(distinct[:2]), {"invalid_move"}, ck, "two-card lead that is not a pair")


def _probe_wrong_seat(state, move, ck):
    other = (state.seat + 1) % O.SEATS
    try:
        R.check_move(state, move, other)
    except R.IllegalMove as error:
        ck(error.code == "not_your_turn", "other seat: not_your_turn", lambda error=error: error.code)
        return
    ck(False, "other seat: not_your_turn", "accepted")


def _expected_single_code(model, card):
    """The code for an unlisted held single, where rules.md leaves one cause."""
    banned_now = model.ban and model.trick_number == 0
    if banned_now and card in O.FIRST_TRICK_BANNED:
        unbanned = model.expected_moves(with_ban=False)
        return "first_trick_ban" if (card,) in unbanned else None
    if not model.trick:
        if model.first_deal and model.trick_number == 0 and model.must_lead:
            return "must_lead_opening_card"
        return "exposed_card_first_round"
    led_suit = model.led_suit()
    if O.suit_of(card) != led_suit:
        return "must_follow_suit"
    return "exposed_card_first_round"


def _expected_pair_follow_code(model, move):
    """must_follow_pair where the seat has a usable pair of the led suit and
    plays two different usable cards of it; otherwise no single opinion."""
    if model.ban and model.trick_number == 0:
        return None
    suit = model.led_suit()
    seat = model.seat
    usable = model.unexposed[seat] if suit not in model.led_before else model.hand(seat)
    has_pair = any(n >= 2 and O.suit_of(card) == suit for card, n in usable.items())
    a, b = move
    both_usable = a != b and usable[a] > 0 and usable[b] > 0 and O.suit_of(a) == O.suit_of(b) == suit
    return "must_follow_pair" if has_pair and both_usable else None


def _check_trick(rules, state, model, ck):
    plays, winner, top, discards = model.last_trick
    done = running.completed_trick(state)
    ck(done is not None, "completed trick reported")
    ranking = list(done.ranking)
    def detail():
        return f"plays {plays}: engine {ranking} oracle top {top} discards {sorted(discards)}"
    ck(done.winner == winner, "trick winner (rules.md §4)", detail)
    ck(ranking[:len(top)] == top and set(ranking[len(top):]) == discards, "trick ranking (rules.md §4)", detail)
    ck(done.led_suit == O.SUITS[O.suit_of(plays[0][1][0])], "led suit", lambda: done.led_suit)
    cards = [card for _, move in plays for card in move]
    ck(sorted(done.point_cards) == sorted(card for card in cards if card in O.SCORING_CARDS), "point cards",
       lambda: done.point_cards)
    again = R.rank_trick(rules, plays[0][0], [move for _, move in plays])
    ck(again.winner == winner and list(again.ranking) == ranking, "rank_trick agrees with play",
       lambda: (again.winner, again.ranking))
    if not model.finished:
        ck(state.seat == winner and running.leader(state) == winner, "winner leads next", lambda: (state.seat, winner))


def _check_finished(rules, spec, state, model, plays, rng, ck):
    decks = spec.decks
    ck(state.finished and state.seat is None and R.legal_moves(state) == [], "finished deal",
       lambda: (state.finished, state.seat))
    played = Counter(card for move in plays for card in move)
    ck(played == Counter(O.deck(decks)), "every card played once per copy")
    captured = [list(seat) for seat in running.captured(state)]
    ck([Counter(c) for c in captured] == [Counter(c) for c in model.captured], "captured cards",
       lambda: (captured, model.captured))
    ck(running.first_pig_taker(state) == model.first_pig_taker, "first pig taker",
       lambda: (running.first_pig_taker(state), model.first_pig_taker))
    counts = O.exposure_counts(O.effective_exposure(decks, spec.hands, spec.exposed))
    flips = spec.rules.get("pig_flips_with_all_hearts", False)
    raw = O.raw_scores(decks, model.captured, counts, pig_flips=flips)
    sheet = R.running.score_state(state)
    ck(tuple(sheet.raw) == raw, "raw scores (rules.md §5)",
       lambda: f"engine {tuple(sheet.raw)} oracle {raw} exposed {dict(counts)} captured {captured}")
    ck(_flat_counts(sheet.exposed) == counts, "deal-wide exposure in score sheet", lambda: sheet.exposed)
    _check_score_total(decks, model.captured, counts, raw, flips, ck)
    again = R.score_cards(rules, captured, spec.exposed)
    ck(tuple(again.raw) == raw, "score_cards of the captured piles", lambda: again.raw)
    order = list(range(O.SEATS))
    rng.shuffle(order)
    permuted = R.score_cards(rules, [captured[seat] for seat in order], spec.exposed)
    ck(tuple(permuted.raw) == tuple(raw[seat] for seat in order), "raw scores follow permuted piles",
       lambda: (order, permuted.raw, raw))
    check_settlement(rules, decks, raw, rng, ck)
    replayed = R.replay(rules, hands=spec.hands, exposed=spec.exposed, plays=plays,
                        first_deal=spec.first_deal, leader=spec.leader)
    ck(replayed.finished and tuple(replayed.scores().raw) == raw, "replay of the history reproduces the scores",
       lambda: replayed.scores().raw)
    ck([Counter(c) for c in running.captured(replayed)] == [Counter(c) for c in captured], "replay reproduces captures")


def _flat_counts(exposed):
    """Counts of a flat card list or of per-seat lists."""
    counts = Counter()
    for item in exposed:
        counts.update(item if isinstance(item, (tuple, list)) else [item])
    return counts


def _check_score_total(decks, captured, counts, raw, flips, ck):
    """rules.md §5 implies: a seat without the transformer and without 满红/满贯
    scores the plain sum of its cards' values, and the plain values of the
    four piles add up to the deal's hearts (−200 per deck, ×2^kA), pigs and
    sheep (the transformer only multiplies)."""
    heart_factor = 2 ** counts[O.HEART_ACE]
    pig = O.PIG_VALUE * 2 ** counts[O.PIG]
    sheep = O.SHEEP_VALUE * 2 ** counts[O.SHEEP]

    def plain(taken):
        hearts = sum(O.HEART_VALUES[O.rank_of(c)] for c in taken if O.suit_of(c) == O.HEART_SUIT)
        return hearts * heart_factor + pig * taken.count(O.PIG) + sheep * taken.count(O.SHEEP)

    for seat, taken in enumerate(captured):
        all_hearts = sum(1 for c in taken if O.suit_of(c) == O.HEART_SUIT) == 13 * decks
        if O.TRANSFORMER not in taken and not all_hearts:
            ck(raw[seat] == plain(taken), "plain score of a seat without transformer or 满红",
               lambda: (seat, raw[seat], plain(taken)))
    total = (-200 * heart_factor + pig + sheep) * decks
    ck(sum(plain(taken) for taken in captured) == total,
       "card values of a deal add up to the rules' total (rules.md §5)", lambda: total)


def check_settlement(rules, decks, raw, rng, ck):
    normalized = tuple(R.settlement.normalize(raw))
    ck(sum(normalized) == 0 and normalized == O.normalize(raw), "normalized scores (rules.md §6)",
       lambda: (raw, normalized, O.normalize(raw)))
    total = sum(raw)
    ck(all(abs(3 * n - (4 * r - total)) < 3 for n, r in zip(normalized, raw)), "normalized within 1 of exact",
       lambda: normalized)
    pairs = tuple(R.settlement.partnership(raw))
    ck(sum(pairs) == 0 and pairs == O.partnership(raw), "partnership scores", lambda: (raw, pairs))
    final = tuple(R.final_scores(rules, raw))
    ck(final == O.final_scores(decks, rules.partnership, raw), "final scores",
       lambda: (raw, final, O.final_scores(decks, rules.partnership, raw)))
    multiplier = rng.choice((1, 2, 5))
    fee = rng.choice((0, 0, 10, 35))
    ingots = R.settle_ingots(raw, multiplier, fee)
    winners, net, transfers = O.ingots(raw, multiplier, fee)
    ck(tuple(ingots.net) == net and sum(ingots.net) == -4 * fee, "ingot nets",
       lambda: (raw, multiplier, fee, ingots.net, net))
    ck(list(ingots.winners) == winners, "ingot winners", lambda: ingots.winners)
    ck(sorted((t.payer, t.payee, t.amount) for t in ingots.transfers) == sorted(transfers), "ingot transfers",
       lambda: ingots.transfers)


def run_random_deals(count, seed, *, decks=None, options=True, apply_limit=None, probe_rate=1.0, ck=None):
    """Check `count` random deals drawn from random.Random(seed); returns
    (checker, failures) with failures as (deal index, message)."""
    ck = ck or Checker()
    rng = random.Random(seed)
    failures = []
    for index in range(count):
        spec = random_spec(rng, decks=decks, options=options)
        try:
            check_deal(spec, rng, ck, apply_limit=apply_limit, probe_rate=probe_rate)
        except Exception as error:  # every failure is reported, the run goes on
            failures.append((index, f"{type(error).__name__}: {error}\n  deal: {spec.describe()}"))
    return ck, failures
