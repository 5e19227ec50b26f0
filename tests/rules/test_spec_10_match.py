"""Matches (一场), docs/rules.md §10, from the rule texts: a match ends when a seat's
total reaches ±1000 (P: "一般某人得到正一千分或负一千分"); the first deal is led by the
opening card's holder, every later one by the seat that took the pig last deal (R:
"以后每局由上一局得到猪牌的一方首先出牌"; two decks: "上一局第一个得到猪牌的一方"), or
by the fixed rotation of formal competitions (P: 固定首引人); partners share a score
(R: 打对家); ingots are settled deal by deal (R: 元宝结算规则).

The matches are random (tests/rules/matches.py): each test names its seed and
asserts the exact totals, and that they are the oracle's sums per deal."""

from dataclasses import replace

import pytest

import gongzhu.rules as R
from gongzhu.rules import running

from . import oracle as O
from .matches import deal_lead, pig_trick_winner, random_match

ONE_DECK = R.Rules()


def scored(rules, played, **options):
    return R.score_match(rules, played.records, **options)


def leaders(match):
    return [deal.leader for deal in match.deals]


def test_seed_match_ends_exactly_at_minus_1000():
    played = random_match(ONE_DECK, 1)
    match = scored(ONE_DECK, played)
    assert len(match.deals) == 29
    assert match.totals == played.totals == (928, 43, 29, -1000)
    assert match.finished and match.ending_deal == 28 == played.ending_deal
    assert match.winners == (0,)
    assert match.next_deal is None
    assert [(s.seat, s.total, s.place) for s in match.standings] == [(0, 928, 1), (1, 43, 2), (2, 29, 3),
                                                                     (3, -1000, 4)]
    # the totals before the last deal are all within the target
    assert all(abs(t) < 1000 for t in match.deals[-2].totals)


def test_seed_match_ends_above_1000():
    played = random_match(ONE_DECK, 2)
    match = scored(ONE_DECK, played)
    assert match.totals == played.totals == (116, -686, 1021, -451)
    assert match.ending_deal == 10 and match.winners == (2,)
    assert match.next_deal is None


def test_seed_tie_for_first():
    played = random_match(ONE_DECK, 231)
    match = scored(ONE_DECK, played)
    assert match.totals == played.totals == (656, 656, -121, -1191)
    assert match.ending_deal == 28
    assert match.winners == (0, 1)
    assert [(s.seat, s.place) for s in match.standings] == [(0, 1), (1, 1), (2, 3), (3, 4)]


def test_seed_every_later_deal_is_led_by_the_last_deals_pig_taker():
    played = random_match(ONE_DECK, 2)
    match = scored(ONE_DECK, played)
    holder = R.deal.first_leader(ONE_DECK, played.records[0].hands)
    assert leaders(match) == [holder] + [pig_trick_winner(s) for s in played.states[:-1]]
    assert leaders(match)[:8] == [0, 3, 3, 0, 2, 1, 1, 1]
    assert [d.first_deal for d in match.deals] == [True] + [False] * 10
    assert [d.pig_taker for d in match.deals] == [pig_trick_winner(s) for s in played.states]


def test_seed_partnership_totals():
    rules = R.Rules(partnership=True)
    played = random_match(rules, 5)
    match = scored(rules, played)
    assert match.totals == played.totals == (-1030, 1030, -1030, 1030)
    assert match.ending_deal == 49
    assert match.winners == (1, 3)
    assert all(d.scores == O.partnership(d.raw) for d in match.deals)
    going = scored(rules, random_match(rules, 5, max_deals=4))
    assert going.totals == (35, -35, 35, -35) and going.winners == ()
    assert [(s.seat, s.place) for s in going.standings] == [(0, 1), (2, 1), (1, 3), (3, 3)]
    assert going.next_deal == R.match.NextDeal(first_deal=False, leader=0)


def test_seed_rotation_leads_north_west_south_east():
    played = random_match(ONE_DECK, 3, leader_rule="rotation", max_deals=6)
    match = scored(ONE_DECK, played, leader_rule="rotation")
    assert leaders(match) == [0, 1, 2, 3, 0, 1]
    assert not any(d.first_deal for d in match.deals)
    assert match.totals == played.totals == (4, 31, 190, -225)
    assert match.next_deal == R.match.NextDeal(first_deal=False, leader=2)


def test_seed_rotation_deal_0_is_not_a_first_deal():
    played = random_match(ONE_DECK, 3, leader_rule="rotation", max_deals=2)
    records = [replace(played.records[0], first_deal=True), played.records[1]]
    with pytest.raises(R.InvalidDeal) as caught:
        R.score_match(ONE_DECK, records, leader_rule="rotation")
    assert [(p.code, p.path) for p in caught.value.problems] == [("wrong_leader", "/deals/0/first_deal")]


def test_seed_two_decks_the_first_pig_taker_leads():
    rules = R.Rules(decks=2)
    played = random_match(rules, 1, max_deals=2)
    first = played.states[0]
    pigs = [t.winner for t in first.history for play in t.plays for card in play if card == O.PIG]
    assert pigs == [3, 2]
    match = scored(rules, played)
    assert leaders(match) == [2, 3]
    assert match.deals[0].pig_taker == 3
    assert match.totals == played.totals == (24, 397, -257, -164)
    assert match.next_deal == R.match.NextDeal(first_deal=False, leader=pig_trick_winner(played.states[1])) \
        == R.match.NextDeal(first_deal=False, leader=3)


def test_wrong_leader_in_deal_3():
    played = random_match(ONE_DECK, 2, max_deals=5)
    assert deal_lead("pig_taker", played.states[:3]) == (False, 0)
    records = list(played.records)
    records[3] = replace(records[3], leader=1)
    with pytest.raises(R.InvalidDeal) as caught:
        R.score_match(ONE_DECK, records)
    [problem] = caught.value.problems
    assert (problem.code, problem.path) == ("wrong_leader", "/deals/3/leader")
    assert problem.detail == ("deal 3 is led by seat 0, who took the pig in deal 2 (with two decks, the first pig), "
                              "not by seat 1")
    assert problem.detail.render("zh").startswith("第 3 局由座位 0 首引")
    # the right leader stated is accepted
    records[3] = replace(records[3], leader=0, first_deal=False)
    assert leaders(R.score_match(ONE_DECK, records))[3] == 0


def test_a_later_deal_sent_as_a_first_deal():
    records = list(random_match(ONE_DECK, 2, max_deals=3).records)
    records[2] = replace(records[2], first_deal=True)
    with pytest.raises(R.InvalidDeal) as caught:
        R.score_match(ONE_DECK, records)
    assert [(p.code, p.path) for p in caught.value.problems] == [("wrong_leader", "/deals/2/first_deal")]
    records = [replace(records[0], first_deal=False)]
    with pytest.raises(R.InvalidDeal) as caught:
        R.score_match(ONE_DECK, records)
    assert [(p.code, p.path) for p in caught.value.problems] == [("wrong_leader", "/deals/0/first_deal")]


def test_a_deal_after_the_end():
    played = random_match(ONE_DECK, 2)
    extra = random_match(ONE_DECK, 3, max_deals=1).records[0]
    with pytest.raises(R.RuleError) as caught:
        R.score_match(ONE_DECK, [*played.records, extra])
    assert (caught.value.code, caught.value.path) == ("match_over", "/deals/11")
    assert caught.value.detail == ("the match ended with deal 10 (totals [116, -686, 1021, -451] reach ±1000): "
                                   "no deal may follow it")


def test_an_unfinished_last_deal():
    played = random_match(ONE_DECK, 4, max_deals=3, unfinished_plays=10)
    match = scored(ONE_DECK, played)
    last = match.deals[-1]
    assert (last.finished, last.raw, last.ingots) == (False, None, None)
    assert last.leader == pig_trick_winner(played.states[2]) == 0
    assert running.plays_count(last.state) == 10
    assert match.totals == played.totals == last.totals == match.deals[2].totals == (-486, 420, 34, 32)
    assert match.ledger == match.deals[2].ledger
    assert not match.finished and match.winners == ()
    assert match.next_deal is None


def test_only_the_last_deal_may_be_unfinished():
    played = random_match(ONE_DECK, 4, max_deals=3, unfinished_plays=10)
    records = [*played.records, played.records[0]]
    with pytest.raises(R.RuleError) as caught:
        R.score_match(ONE_DECK, records)
    assert (caught.value.code, caught.value.path) == ("unfinished_deal", "/deals/3/plays")


def test_an_illegal_play_points_into_its_deal():
    played = random_match(ONE_DECK, 2, max_deals=3)
    records = list(played.records)
    plays = list(records[1].plays)
    plays[0], plays[1] = plays[1], plays[0]
    records[1] = replace(records[1], plays=tuple(plays))
    with pytest.raises(R.InvalidDeal) as caught:
        R.score_match(ONE_DECK, records)
    [problem] = caught.value.problems
    assert problem.path.startswith("/deals/1/plays/0")
    assert problem.detail.startswith("deal 1: play 0: ")


def test_seed_ingots_are_settled_per_deal_with_multiplier_and_fee():
    played = random_match(ONE_DECK, 6, max_deals=5, multiplier=2, fee=5, exposure=0.5)
    match = scored(ONE_DECK, played, multiplier=2, fee=5)
    assert match.ledger == played.ledger == (2455, -3925, -365, 1735)
    assert sum(match.ledger) == -4 * 5 * 5
    for deal in match.deals:
        winners, net, _ = O.ingots(deal.raw, 2, 5)
        assert (deal.ingots.winners, deal.ingots.net) == (tuple(winners), net)


def test_target_is_reached_at_its_value():
    played = random_match(ONE_DECK, 2, max_deals=3)
    highest = max(abs(t) for t in played.totals)
    assert R.score_match(ONE_DECK, played.records, target=highest).ending_deal == 2
    assert R.score_match(ONE_DECK, played.records, target=highest + 1).ending_deal is None


def test_an_unknown_leader_rule():
    with pytest.raises(R.RuleError) as caught:
        R.score_match(ONE_DECK, [], leader_rule="winner")
    assert (caught.value.code, caught.value.path) == ("invalid_rules", "/leader_rule")


def test_no_deal_yet():
    match = R.score_match(ONE_DECK, [])
    assert (match.totals, match.finished, match.next_deal) == ((0, 0, 0, 0), False,
                                                               R.match.NextDeal(first_deal=True, leader=None))
    assert R.score_match(ONE_DECK, [], leader_rule="rotation").next_deal == R.match.NextDeal(first_deal=False, leader=0)
