"""The deal review (``gongzhu.bot.review``): one decision a play, exact values in the last tricks, estimates
blind to the hidden cards and carrying their standard errors, verdicts never calling noise a mistake, and a seat
playing at random losing more a decision than the bot. The bars measured against rules2 and greedy-trick seats
(two seeds' verdicts, the discrimination bar) are tests/bot/test_review_bars.py's."""
from __future__ import annotations

import random
from statistics import mean

import pytest

from gongzhu import bot
from gongzhu.bot import deal_review as review_module
from gongzhu.bot.deal_review import EXACT_TRICKS, estimate
from gongzhu.bot.fair_values import MIN_DEALS, SOLVED_PER_MS, SOLVED_TRICKS, raw_value
from gongzhu.bot.knowledge import absent_cards, knowledge
from gongzhu.bot.verdicts import NOISE_Z, Verdict, accuracy, verdict
from gongzhu.rules import RuleError, Rules, deal_hands, legal_moves, replay, running
from gongzhu.solve import OpenValues, tricks_left

from .states import Position, deal_start, played_deal, random_position, reshuffled


def _heuristic(state, _rng):
    return bot.heuristic_suggestion(state).move


def test_a_review_has_a_decision_a_play_and_leaves_the_state_as_found():
    rules = Rules()
    start, plays = played_deal(rules, 3, _heuristic)
    found = bot.review(start, plays, budget_ms=200, seed=5)
    assert running.plays_count(start) == 0 and start.seat is not None
    assert [d.play for d in found.decisions] == list(range(len(plays)))
    assert [d.played for d in found.decisions] == plays
    assert sorted(p for s in found.seats for p in s.decisions) == list(range(len(plays)))
    state = deal_start(rules, 3)
    for decision in found.decisions:
        moves = legal_moves(state)
        assert (decision.seat, decision.trick) == (state.seat, running.trick_number(state))
        values = dict(decision.values) if decision.values is not None else {decision.played: decision.value}
        assert list(values) == moves
        top = max(values.values())
        assert decision.best == tuple(m for m in moves if values[m] == top)
        assert decision.loss == pytest.approx(top - decision.value) and decision.loss >= 0
        assert (decision.values is None) == (len(moves) == 1)
        # a play with a choice is judged in the fair lens, its hindsight beside it where the exact search reached
        assert decision.exact == (decision.values is None and decision.error is None)
        if tricks_left(state) <= EXACT_TRICKS:
            assert decision.exact or decision.hindsight is not None
        state.apply(decision.played)


def test_exact_values_are_the_open_card_values_and_the_last_play_is_what_it_scores():
    rules = Rules(partnership=True)
    start, plays = played_deal(rules, 8, _heuristic)
    found = bot.review(start, plays, budget_ms=100, seed=1)
    state = deal_start(rules, 8)
    solver = OpenValues()
    for decision in found.decisions:
        if decision.exact:
            assert decision.values is None and {decision.played: decision.value} == solver.values(state)
        if decision.hindsight is not None:
            hindsight = decision.hindsight
            assert not decision.exact and dict(hindsight.values) == solver.values(state)
            top = max(v for _, v in hindsight.values)
            assert hindsight.value == dict(hindsight.values)[decision.played]
            assert hindsight.loss == top - hindsight.value
            assert hindsight.best == tuple(m for m, v in hindsight.values if v == top)
            assert hindsight.verdict == verdict(hindsight.loss, None)
        elif tricks_left(state) <= EXACT_TRICKS:
            assert decision.exact
        state.apply(decision.played)
    last = found.decisions[-1]
    assert last.exact and last.values is None
    assert last.value == raw_value(rules, running.raw_scores(state), last.seat)


def test_mistakes_are_the_largest_losses_largest_first():
    start, plays = played_deal(Rules(), 11, lambda state, rng: rng.choice(legal_moves(state)))
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
    start, plays = played_deal(rules, 4, _heuristic)
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


def test_near_the_end_a_fair_value_is_the_mean_of_the_exact_values_of_the_deals_sampled():
    rules = Rules()
    start, plays = played_deal(rules, 6, lambda state, rng: rng.choice(legal_moves(state)))
    checked = 0
    for index in range(len(plays)):
        state = replay(rules, hands=start.hands, plays=plays[:index])
        moves = legal_moves(state)
        if tricks_left(state) > SOLVED_TRICKS[1] or len(moves) < 2:
            continue
        found = estimate(state, budget_ms=100, seed=3, play=index)
        rng = random.Random(f"review 3 {index}")
        solver, k, absent = OpenValues(), knowledge(state), absent_cards(state)
        count = max(MIN_DEALS, int(100 * SOLVED_PER_MS[1]))
        deals = [solver.values(state.resample(k, rng, absent)) for _ in range(count)]
        assert found.moves == tuple(moves) and set(found.deals) == {len(deals)}
        assert found.values == tuple(round(mean(deal[move] for deal in deals), 1) for move in moves)
        checked += 1
    assert checked >= 3


def test_a_stop_stops_the_review_and_the_state_is_left_as_found():
    start, plays = played_deal(Rules(), 3, _heuristic)
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
    start, plays = played_deal(Rules(), 3, _heuristic)
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
    start, plays = played_deal(Rules(partnership=True), 5, lambda state, rng: rng.choice(legal_moves(state)))
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
    seats = bot.review(*played_deal(Rules(), 3, _heuristic), budget_ms=200, seed=1).seats
    assert all(s.accuracy is not None and 0 <= s.accuracy <= 100 and sum(s.verdicts) > 0 for s in seats)


def _bot_or_random(state, rng):
    # seats 0 and 2 play at random, seats 1 and 3 the bot's suggestion
    if state.seat in (0, 2):
        return rng.choice(legal_moves(state))
    return bot.suggest(state, budget_ms=50, seed=rng.randrange(1 << 30)).move


@pytest.mark.slow
def test_random_seats_lose_at_least_twice_what_the_bot_loses_a_decision():
    lost: dict[bool, list[float]] = {True: [], False: []}
    for seed in range(20):
        start, plays = played_deal(Rules(), 100 + seed, _bot_or_random)
        for decision in bot.review(start, plays, budget_ms=150, seed=seed).decisions:
            lost[decision.seat in (0, 2)].append(decision.loss)
    assert len(lost[True]) == len(lost[False]) == 20 * 26
    assert mean(lost[True]) >= 2 * mean(lost[False]) > 0
