"""The arena's opponents (bench/bot/opponents.py), harness (bench/bot/arena.py) and the ISMCTS experiment: legal,
honest, reproducible. They test the lab, not the package, so ``make test`` does not run them (bench/README.md):

    .venv/bin/python -m pytest -q bench/bot/test_arena.py
"""
import json
import random

import pytest

from bench.bot import arena, arena_results, ismcts
from bench.bot.opponents import OPPONENTS, greedy_play, make_opponent
from gongzhu.rules import Rules, deal_hands, is_legal_move, legal_moves, parse_card, replay, running
from gongzhu.rules.play import apply_move
from tests import players
from tests.bot.states import random_position, reshuffled
from tests.players import rules2_play

FEW_SAMPLES = 2
POSITIONS = range(40)
REPORT_FIELDS = {"player", "opponent", "decks", "partnership", "exposures", "greedy_samples", "deals", "budget_ms",
                 "mean_normalized_per_deal", "standard_error", "margin_in_se", "decisions",
                 "decision_ms_p50", "decision_ms_p95", "decision_cpu_ms_p50", "decision_cpu_ms_p95",
                 "bot_playouts_per_search", "greedy_playouts_per_search"}


def opponent(name, seed=0):
    return make_opponent(name, seed, greedy_samples=FEW_SAMPLES)


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("name", OPPONENTS)
def test_every_opponent_plays_legal_moves_in_random_positions(name, decks):
    # random rules, exposures, first or later deal, any point of the deal
    for seed in POSITIONS:
        state = random_position(seed, decks=decks).state
        assert is_legal_move(state, opponent(name, seed)(state)), (name, seed)


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("name", OPPONENTS)
def test_every_opponent_plays_whole_deals_legally(name, decks):
    rules = Rules(decks=decks)
    hands = deal_hands(rules, seed=decks)
    exposed = [[parse_card("SQ")] if parse_card("SQ") in hands[0] else [], [], [], []]
    state = replay(rules, hands=hands, exposed=exposed)
    policy = opponent(name, decks)
    while not state.finished:
        move = policy(state)
        assert move in legal_moves(state)
        state = apply_move(state, move)


@pytest.mark.parametrize("decks", [1, 2])
def test_greedy_and_rules2_ignore_hidden_cards(decks):
    for seed in range(15):
        p = random_position(seed, decks=decks)
        other = reshuffled(p, random.Random(seed))
        if other is None:
            continue
        assert rules2_play(p.state) == rules2_play(other)
        assert greedy_play(p.state, samples=FEW_SAMPLES, seed=seed) == \
            greedy_play(other, samples=FEW_SAMPLES, seed=seed)


def test_greedy_is_reproducible_for_a_seed():
    states = [random_position(seed).state for seed in range(10)]
    first = [greedy_play(s, samples=3, seed=7) for s in states]
    assert [greedy_play(s, samples=3, seed=7) for s in states] == first


def run_arena(capsys, *args):
    assert arena.main(["--deals", "2", "--budget-ms", "2", "--greedy-samples", str(FEW_SAMPLES),
                       "--progress", "0", *args]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", OPPONENTS)
def test_a_two_deal_arena_reports_every_field(capsys, name):
    result = run_arena(capsys, "--opponent", name)
    assert REPORT_FIELDS <= result.keys()
    assert (result["opponent"], result["decks"], result["partnership"], result["exposures"], result["deals"]) == \
        (name, 1, False, "none", 2)
    assert result["greedy_samples"] == (FEW_SAMPLES if name in ("greedy", "greedy-trick") else None)
    assert result["decisions"] == 2 * 4 * 13
    # budget 2 ms = 8 playouts, in whole rounds of the n distinct plays (n <= 13): 5 to 13 a search
    assert 5 <= result["bot_playouts_per_search"] <= 13
    # greedy: its samples times the legal plays (2 to 13) where it has a choice; greedy-trick makes no playouts
    if name == "greedy":
        assert 2 * FEW_SAMPLES <= result["greedy_playouts_per_search"] <= 13 * FEW_SAMPLES
    else:
        assert result["greedy_playouts_per_search"] is None


def test_two_decks_partnership_exposures_compare(capsys):
    # deal 29: the bot exposes in seat 3 only (two decks); deal 30: nowhere
    result = run_arena(capsys, "--opponent", "rules2", "--decks", "2", "--partnership", "--exposures", "compare",
                       "--first-seed", "29")
    assert REPORT_FIELDS <= result.keys()
    assert (result["decks"], result["partnership"], result["exposures"]) == (2, True, "compare")
    assert result["bot_seats_exposing"] == 1
    with_, without = result["mean_normalized_per_deal"], result["without_exposures"]["mean_normalized_per_deal"]
    # each mean is rounded to the cent on its own, so their difference may be a cent off the rounded gain
    assert result["exposure_gain"]["mean_normalized_per_deal"] == pytest.approx(with_ - without, abs=0.0101)
    # the plain way in four seats a deal, the exposed way only where the bot exposed (one seat);
    # 26 cards per seat, one or two cards a play
    assert (2 * 4 + 1) * 13 <= result["decisions"] <= (2 * 4 + 1) * 26


def test_compare_gives_exactly_the_bot_and_none_runs(capsys):
    # deal 1: the bot exposes in seat 0 only, deal 2: nowhere; compare plays seat 0 of deal 1 again
    # and reuses the plain score elsewhere, which must be what a full run of each way gives
    args = ("--opponent", "rules2", "--first-seed", "1")
    compare = run_arena(capsys, *args, "--exposures", "compare")
    bot, none = run_arena(capsys, *args, "--exposures", "bot"), run_arena(capsys, *args)
    assert (compare["bot_seats_exposing"], bot["bot_seats_exposing"]) == (1, 1)
    assert compare["mean_normalized_per_deal"] == bot["mean_normalized_per_deal"]
    assert compare["without_exposures"]["mean_normalized_per_deal"] == none["mean_normalized_per_deal"]
    assert compare["decisions"] == none["decisions"] + 13


def test_results_give_the_exposure_gain_by_reason(capsys, tmp_path):
    # deal 1: the bot exposes in seat 0 only (the pig: pig_protected), deal 2: nowhere
    path = tmp_path / "deals.jsonl"
    result = run_arena(capsys, "--opponent", "rules2", "--first-seed", "1", "--exposures", "compare",
                       "--results", str(path))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["reasons"] for line in lines] == [["pig_protected", None, None, None], [None] * 4]
    for line in lines:
        assert sum(line["seats"]["plain"]) / 4 == line["means"]["plain"]
        assert sum(line["seats"]["exposed"]) / 4 == line["means"]["exposed"]
    assert lines[1]["seats"]["plain"] == lines[1]["seats"]["exposed"]
    assert arena_results.main([str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    seat_gain = lines[0]["seats"]["exposed"][0] - lines[0]["seats"]["plain"][0]
    assert summary["exposure_gain_by_reason"] == {
        "pig_protected": {"seats": 1, "mean_normalized_per_deal": round(seat_gain, 2), "standard_error": 0.0,
                          "margin_in_se": None}}
    # the deals' mean gain: seat 0's gain over four seats, over two deals
    assert seat_gain != 0
    assert result["exposure_gain"]["mean_normalized_per_deal"] == round(seat_gain / 4 / 2, 2)


def test_exposures_bot_and_greedy_runs_are_reproducible(capsys):
    # deal 1: the bot exposes in seat 0 only; deal 2: nowhere
    args = ("--opponent", "greedy", "--exposures", "bot", "--first-seed", "1")
    first, again = run_arena(capsys, *args), run_arena(capsys, *args)
    assert (first["exposures"], first["bot_seats_exposing"]) == ("bot", 1)
    assert (first["mean_normalized_per_deal"], first["standard_error"]) == \
        (again["mean_normalized_per_deal"], again["standard_error"])


@pytest.mark.parametrize("name", ["heuristic", "rules2"])
def test_a_deterministic_policy_against_itself_scores_exactly_zero(capsys, name):
    # the same policy in every seat plays each deal the same way whichever seat is measured
    result = run_arena(capsys, "--player", name, "--opponent", name)
    assert (result["player"], result["mean_normalized_per_deal"], result["standard_error"]) == (name, 0.0, 0.0)


def test_greedy_trick_can_be_the_measured_seat(capsys):
    result = run_arena(capsys, "--player", "greedy-trick", "--opponent", "heuristic")
    assert (result["player"], result["opponent"], result["greedy_samples"]) == \
        ("greedy-trick", "heuristic", FEW_SAMPLES)
    # no bot in the arena: no bot searches, no greedy playouts
    assert (result["bot_playouts_per_search"], result["greedy_playouts_per_search"]) == (None, None)
    assert result["decisions"] == 2 * 4 * 13


def test_results_has_one_line_per_deal(capsys, tmp_path):
    path = tmp_path / "deals.jsonl"
    result = run_arena(capsys, "--opponent", "rules2", "--first-seed", "5", "--results", str(path))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["seed"] for line in lines] == [5, 6]
    mean = sum(line["means"]["plain"] for line in lines) / 2
    assert round(mean, 2) == result["mean_normalized_per_deal"]


def test_parts_of_a_run_add_up_to_the_whole_run(capsys, tmp_path):
    whole, first, second = (tmp_path / name for name in ("whole.jsonl", "first.jsonl", "second.jsonl"))
    run_arena(capsys, "--opponent", "rules2", "--deals", "4", "--results", str(whole))
    run_arena(capsys, "--opponent", "rules2", "--deals", "2", "--results", str(first))
    run_arena(capsys, "--opponent", "rules2", "--deals", "2", "--first-seed", "2", "--results", str(second))
    assert arena_results.main([str(first), str(second)]) == 0
    parts = json.loads(capsys.readouterr().out)
    assert arena_results.main([str(whole)]) == 0
    assert parts == json.loads(capsys.readouterr().out)
    assert (parts["deals"], parts["contiguous"]) == (4, True)
    assert arena_results.main(["--paired", str(whole), str(first)]) == 0
    same = json.loads(capsys.readouterr().out)
    assert (same["deals"], same["difference"]["mean_normalized_per_deal"]) == (2, 0.0)
    with pytest.raises(SystemExit):
        arena_results.main([str(whole), str(first)])


def test_jobs_give_the_same_result_as_one_process(capsys):
    args = ("--opponent", "rules2")
    one, two = run_arena(capsys, *args), run_arena(capsys, *args, "--jobs", "2")
    assert (one["mean_normalized_per_deal"], one["standard_error"]) == \
        (two["mean_normalized_per_deal"], two["standard_error"])


def cards(text):
    return [parse_card(name) for name in text.split()]


def out_except(held, played=""):
    """Copies out in other hands (one deck): every card but the seat's own and those played."""
    gone = set(cards(held) + cards(played))
    return {c: int(c not in gone) for c in range(52)}


def test_rules2_leads_from_its_shortest_safe_suit():
    hand = "S2 S5 S7 H3 D4 D9 C3 C8 C9"
    # hearts are never led while another suit is held; diamonds are the shortest other suit, DA is out: lead low
    assert players._rules2_lead(cards(hand), out_except(hand), (0, 0, 0, 0)) == parse_card("D4")
    # spades shorter still, but the seat holds the pig: not spades
    pig_hand = "S2 SQ H3 D4 D9 D10 C3 C8 C9 C7"
    assert players._rules2_lead(cards(pig_hand), out_except(pig_hand), (0, 0, 0, 0)) == parse_card("D4")


def test_rules2_cashes_a_boss_in_a_safe_suit_nobody_is_void_in():
    hand = "H3 H4 CA C2 D2 D3 D5"
    out = out_except(hand)
    assert players._rules2_lead(cards(hand), out, (0, 0, 0, 0)) == parse_card("CA")
    clubs_void = 1 << 3
    assert players._rules2_lead(cards(hand), out, (0, clubs_void, 0, 0)) == parse_card("C2")


def test_rules2_discards_high_spades_before_hearts_while_the_pig_is_out():
    hand = "SK HA H2 C5"
    assert players._rules2_discard(cards(hand), True, tuple(cards(hand))) == parse_card("SK")
    assert players._rules2_discard(cards(hand), False, tuple(cards(hand))) == parse_card("HA")
    assert players._rules2_discard(cards("DJ C4 D2"), True, tuple(cards("DJ C4 D2"))) == parse_card("C4")


def test_rules2_takes_the_sheep_when_no_higher_diamond_is_out():
    trick = ((parse_card("D5"),), (parse_card("D8"),))
    hand = "DJ D2"
    assert players._rules2_follow(cards(hand), trick, False, out_except(hand, "DQ DK DA")) == (parse_card("DJ"))
    # DA still out: duck under D8 instead
    assert players._rules2_follow(cards(hand), trick, False, out_except(hand, "DQ DK")) == parse_card("D2")


def test_rules2_leads_low_pairs_with_two_decks():
    rules = Rules(decks=2)
    # deal 1, rules2 in every seat: D4 D4 and S8 S8 are led
    state = replay(rules, hands=deal_hands(rules, seed=1))
    while not state.finished:
        state = apply_move(state, rules2_play(state))
    pair_leads = [t.plays[0] for t in state.history if len(t.plays[0]) == 2]
    assert pair_leads == [(parse_card("D4"),) * 2, (parse_card("S8"),) * 2]


@pytest.mark.parametrize("prior", [False, True])
def test_the_ismcts_experiment_plays_a_whole_deal_legally_and_reproducibly(monkeypatch, prior):
    monkeypatch.setattr(ismcts, "PRIOR", prior)
    searches = []
    search = ismcts.search

    def counted(*args):
        searches.append(running.plays_count(args[0]))
        return search(*args)

    monkeypatch.setattr(ismcts, "search", counted)
    rules = Rules(decks=1, partnership=prior)
    state = replay(rules, hands=deal_hands(rules, seed=7))
    while not state.finished:
        move = ismcts.ismcts_play(state, seed=7, iterations=40, budget_ms=5)
        assert move in legal_moves(state)
        assert move == ismcts.ismcts_play(state, seed=7, iterations=40, budget_ms=5)
        state = apply_move(state, move)
    # the tree search, not only the bot's own answer, chose many of the plays
    assert len(set(searches)) >= 10
