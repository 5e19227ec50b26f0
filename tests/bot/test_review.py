"""The deal review (``gongzhu.bot.review``): one decision a play, exact values in the last tricks, estimates
blind to the hidden cards and carrying their standard errors, verdicts never calling noise a mistake, the same
verdicts from two seeds, and a seat playing at random losing more a decision than a decent one."""
from __future__ import annotations

import random
from statistics import mean

import pytest

from bench.bot.opponents import rules2_play
from bench.perf.review import mixed_deals, stability
from gongzhu import bot
from gongzhu.bot import deal_review as review_module
from gongzhu.bot.deal_review import EXACT_TRICKS, estimate
from gongzhu.bot.fair_values import MIN_DEALS, raw_value
from gongzhu.bot.verdicts import NOISE_Z, Verdict, accuracy, verdict
from gongzhu.rules import RuleError, Rules, deal_hands, legal_moves, replay, running
from gongzhu.solve import OpenValues, tricks_left

from .states import Position, random_position, reshuffled


def _start(rules: Rules, seed: int):
    return replay(rules, hands=deal_hands(rules, seed))


def _played(rules: Rules, seed: int, choose) -> tuple:
    """(start state, plays) of a deal seeded ``seed`` played to the end by ``choose(state, rng)``."""
    state = _start(rules, seed)
    rng = random.Random(seed)
    while not state.finished:
        state.apply(choose(state, rng))
    return _start(rules, seed), running.plays(state)


def _heuristic(state, _rng):
    return bot.heuristic_suggestion(state).move


def test_a_review_has_a_decision_a_play_and_leaves_the_state_as_found():
    rules = Rules()
    start, plays = _played(rules, 3, _heuristic)
    found = bot.review(start, plays, budget_ms=200, seed=5)
    assert running.plays_count(start) == 0 and start.seat is not None
    assert [d.play for d in found.decisions] == list(range(len(plays)))
    assert [d.played for d in found.decisions] == plays
    assert sorted(p for s in found.seats for p in s.decisions) == list(range(len(plays)))
    state = _start(rules, 3)
    for decision in found.decisions:
        moves = legal_moves(state)
        assert (decision.seat, decision.trick) == (state.seat, running.trick_number(state))
        values = dict(decision.values) if decision.values is not None else {decision.played: decision.value}
        assert list(values) == moves
        top = max(values.values())
        assert decision.best == tuple(m for m in moves if values[m] == top)
        assert decision.loss == pytest.approx(top - decision.value) and decision.loss >= 0
        assert (decision.values is None) == (len(moves) == 1)
        if tricks_left(state) <= EXACT_TRICKS:
            assert decision.exact
        state.apply(decision.played)


def test_exact_values_are_the_open_card_values_and_the_last_play_is_what_it_scores():
    rules = Rules(partnership=True)
    start, plays = _played(rules, 8, _heuristic)
    found = bot.review(start, plays, budget_ms=100, seed=1)
    state = _start(rules, 8)
    solver = OpenValues()
    for decision in found.decisions:
        if decision.exact:
            assert decision.values is None or dict(decision.values) == solver.values(state)
        state.apply(decision.played)
    last = found.decisions[-1]
    assert last.exact and last.values is None
    assert last.value == raw_value(rules, running.raw_scores(state), last.seat)


def test_mistakes_are_the_largest_losses_largest_first():
    start, plays = _played(Rules(), 11, lambda state, rng: rng.choice(legal_moves(state)))
    found = bot.review(start, plays, budget_ms=200, seed=2)
    for seat in found.seats:
        losses = sorted((-d.loss, d.play) for d in found.decisions if d.seat == seat.seat and d.loss > 0)
        assert list(seat.mistakes) == [(play, -loss) for loss, play in losses[:3]]
        assert seat.loss == pytest.approx(sum(d.loss for d in found.decisions if d.seat == seat.seat))


@pytest.mark.parametrize("seed, decks", [(s, d) for s in range(6) for d in (1, 2)])
def test_an_estimate_ignores_the_hidden_cards(seed, decks):
    p = random_position(seed, decks)
    other = reshuffled(p, random.Random(seed))
    if other is None:
        pytest.skip("no other deal fits this history")
    assert estimate(p.state, budget_ms=100, seed=seed, play=len(p.plays)) == \
        estimate(other, budget_ms=100, seed=seed, play=len(p.plays), played=None)


def test_every_estimate_of_a_review_is_the_same_with_the_hidden_cards_dealt_anew():
    rules = Rules()
    start, plays = _played(rules, 4, _heuristic)
    found = bot.review(start, plays, budget_ms=300, seed=9)
    estimated = [d for d in found.decisions if not d.exact]
    assert estimated
    hands = deal_hands(rules, 4)
    for decision in estimated[::5]:
        state = replay(rules, hands=hands, plays=plays[:decision.play])
        seats = [d.seat for d in found.decisions[:decision.play]]
        p = Position(rules, hands, state.exposed, plays[:decision.play], seats, True, None, state)
        other = reshuffled(p, random.Random(decision.play))
        assert other is not None
        found_again = estimate(other, budget_ms=300, seed=9, play=decision.play, played=decision.played)
        values = tuple(zip(found_again.moves, found_again.values))
        assert values == (decision.values or ((decision.played, decision.value),))
        assert found_again.errors == (decision.errors or (decision.error,))


def test_a_stop_stops_the_review_and_the_state_is_left_as_found():
    start, plays = _played(Rules(), 3, _heuristic)
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 5

    with pytest.raises(bot.Stopped):
        bot.review(start, plays, budget_ms=100, seed=1, stop=stop)
    assert running.plays_count(start) == 0
    with pytest.raises(RuleError) as raised:
        start.undo()
    assert raised.value.code == "nothing_to_undo"


def test_without_a_seed_past_the_budget_the_remaining_estimates_get_the_fewest_deals_and_say_so(monkeypatch):
    deals = []
    real = review_module.fair_values
    monkeypatch.setattr(review_module, "fair_values", lambda *a, **k: deals.append(k["playouts"]) or real(*a, **k))
    start, plays = _played(Rules(), 3, _heuristic)
    found = bot.review(start, plays, budget_ms=1)
    assert found.budget_cut
    # once past the budget, every estimate left gets the fewest (how many came before depends on the machine)
    cut = review_module.CUT_PLAYOUTS
    assert cut in deals and set(deals[deals.index(cut):]) == {cut}
    assert {d.deals for d in found.decisions[:-1] if not d.exact and d.values is not None} == {MIN_DEALS}
    # with a seed the clock does not count
    deals.clear()
    assert not bot.review(start, plays, budget_ms=1, seed=1).budget_cut


def test_every_estimate_has_its_standard_error_and_no_noise_is_called_a_mistake():
    start, plays = _played(Rules(partnership=True), 5, lambda state, rng: rng.choice(legal_moves(state)))
    found = bot.review(start, plays, budget_ms=300, seed=4)
    estimated = [d for d in found.decisions if not d.exact]
    assert estimated and all(d.lens == "fair" for d in estimated)
    for d in estimated:
        assert d.error is not None and d.error >= 0 and d.loss_error is not None and d.deals >= MIN_DEALS
        assert d.values is None or d.errors is not None and len(d.errors) == len(d.values)
        if d.verdict in (Verdict.MISTAKE, Verdict.BLUNDER):
            assert d.loss > NOISE_Z * d.loss_error
    assert all(d.lens == "hindsight" and d.error is None for d in found.decisions if d.exact)


@pytest.mark.parametrize("loss, error, expected", [
    (0, None, Verdict.BEST), (5, None, Verdict.GOOD), (10, None, Verdict.INACCURACY), (19.9, None, Verdict.INACCURACY),
    (20, None, Verdict.MISTAKE), (99.9, None, Verdict.MISTAKE), (100, None, Verdict.BLUNDER),
    # an estimate within two standard errors of 0 is at most an inaccuracy
    (100, 50.0, Verdict.INACCURACY), (100, 49.9, Verdict.BLUNDER), (40, 25.0, Verdict.INACCURACY),
    (5, 10.0, Verdict.GOOD)])
def test_verdict_thresholds(loss, error, expected):
    assert verdict(loss, error) == expected


def test_accuracy_is_the_mean_of_each_decisions_exp_of_its_loss():
    assert accuracy([]) is None
    assert accuracy([0, 0]) == 100.0
    assert accuracy([0, 100]) == 68.4  # (100 + 36.79) / 2
    seats = bot.review(*_played(Rules(), 3, _heuristic), budget_ms=200, seed=1).seats
    assert all(s.accuracy is not None and 0 <= s.accuracy <= 100 and sum(s.verdicts) > 0 for s in seats)


def _decent_or_random(state, rng):
    # seats 0 and 2 play rules2 (written apart from the bot), seats 1 and 3 at random
    if state.seat in (0, 2):
        return rules2_play(state)
    return rng.choice(legal_moves(state))


# The review's discrimination bar, not reached yet: over 20 such deals at the default budget the random seats
# lose ×1.4 what rules2 loses a decision, over all decisions and over the estimated ones alone (docs/review.md,
# "How stable an estimate is"); the test stands for the bar and fails loudly (strict) once it is met.
@pytest.mark.xfail(strict=True, reason="the discrimination bar (×2) is not reached yet: docs/review.md")
def test_random_seats_lose_at_least_twice_what_a_decent_seat_loses_a_decision():
    losses: dict[tuple[bool, bool], list[float]] = {(a, b): [] for a in (True, False) for b in (True, False)}
    for seed in range(6):
        start, plays = _played(Rules(partnership=True), 200 + seed, _decent_or_random)
        for d in bot.review(start, plays, budget_ms=1000, seed=seed).decisions:
            if d.values is not None:
                losses[d.seat in (0, 2), d.exact].append(d.loss)
    every = {decent: losses[decent, True] + losses[decent, False] for decent in (True, False)}
    assert mean(every[False]) >= 2 * mean(every[True]) > 0
    assert mean(losses[False, False]) >= 2 * mean(losses[True, False]) > 0


@pytest.mark.slow
def test_two_seeds_give_the_same_verdicts_at_the_default_budget():
    deals = mixed_deals(20, 1)
    first, second = ([bot.review(start, plays, seed=seed) for start, plays in deals] for seed in (1, 2))
    found = stability(first, second)
    assert found["estimated"] >= 200
    assert found["p90"] <= 10 and found["flips"] <= 0.05


def _bot_or_random(state, rng):
    # seats 0 and 2 play at random, seats 1 and 3 the bot's suggestion
    if state.seat in (0, 2):
        return rng.choice(legal_moves(state))
    return bot.suggest(state, budget_ms=50, seed=rng.randrange(1 << 30)).move


@pytest.mark.slow
def test_random_seats_lose_at_least_twice_what_the_bot_loses_a_decision():
    lost: dict[bool, list[float]] = {True: [], False: []}
    for seed in range(20):
        start, plays = _played(Rules(), 100 + seed, _bot_or_random)
        for decision in bot.review(start, plays, budget_ms=150, seed=seed).decisions:
            lost[decision.seat in (0, 2)].append(decision.loss)
    assert len(lost[True]) == len(lost[False]) == 20 * 26
    assert mean(lost[True]) >= 2 * mean(lost[False]) > 0
