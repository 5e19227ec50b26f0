"""Arena: the bot against three opponents, duplicate format.

Every seeded deal (first deal of a match) is played four times with the bot
in seat 0, 1, 2, 3 in turn and the opponent policy (bench/bot/opponents.py) in
the other three seats, so each deal's luck is cancelled: a seat of equal
strength would average exactly 0 points per deal. The bot's result for a deal
is the mean of its four seats' scores: normalized (``settlement.normalize``),
or with ``--partnership`` its side's (``settlement.partnership``: half the
side difference; the bot's partner is the opponent policy). Prints one JSON
line: the mean per deal, the standard error over deals, and the bot's
decision time p50/p95, both wall clock and the thread's CPU time (other
processes' load on a shared machine stretches the wall clock, not the CPU
time).

``--exposures bot``: before play the bot's seat exposes what
``gongzhu.bot.suggest_exposures`` says (the other seats expose nothing);
``compare`` plays every deal both ways and also reports the paired gain (a seat
that exposes nothing is played once: both ways are the same deal).

    python -m bench.bot.arena --deals 2000 --opponent random --budget-ms 20
    python -m bench.bot.arena --deals 2000 --opponent heuristic --budget-ms 20
    python -m bench.bot.arena --deals 500 --opponent greedy --greedy-samples 20 --budget-ms 100 --jobs 2
    python -m bench.bot.arena --deals 500 --opponent rules2 --decks 2 --partnership --exposures compare
    python -m bench.bot.arena --deals 100 --opponent greedy-trick --partnership --budget-ms 100
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from functools import partial
from multiprocessing import Pool
from pathlib import Path

from gongzhu.bot import advice, suggest, suggest_exposures
from gongzhu.bot.policy import parse_weights
from gongzhu.rules import Rules, deal_hands, legal_moves, replay
from gongzhu.rules.cards import SEATS
from gongzhu.rules.play import apply_move
from gongzhu.rules.running import plays_count, score_state
from gongzhu.rules.settlement import base_scores

from .opponents import DEFAULT_GREEDY_SAMPLES, EXPERIMENTS, OPPONENTS, make_opponent

PERCENT = 100
# seeds of a --player policy's random choices, apart from the opponents' (deal seed × 4 + seat)
PLAYER_SEED = 1 << 40
# --exposures: which ways each deal is played (True: the bot's seat exposes as suggest_exposures says)
EXPOSURE_MODES = {"none": (False,), "bot": (True,), "compare": (True, False)}
# the policies that --greedy-samples sets
SAMPLING = {"greedy", "greedy-trick"}
# the ways' names in --results files
ROOT = Path(__file__).resolve().parents[2]
# where --results puts a bare file name (ignored by git, like all of build/)
RESULTS = ROOT / "build" / "results"
WAY_NAMES = {False: "plain", True: "exposed"}


@dataclass(frozen=True)
class Arena:
    """One arena's settings (picklable, for the worker processes)."""

    decks: int
    partnership: bool
    opponent: str
    budget_ms: int
    greedy_samples: int
    exposures: str
    # the policy in the measured seat: "bot" (suggest) or one of the opponents
    player: str = "bot"
    # the bot's exact endgames from this many tricks left (None: advice.EXACT_TRICKS as it is; 0: never)
    exact_tricks: int | None = None
    # the bot's playout policy (None: advice.PLAYOUT as it is)
    playout: str | None = None
    # the learned playout policy's weights file (None: the shipped policy_weights.json)
    weights: str | None = None
    # the bot's playouts per millisecond of budget (None: advice.PLAYOUTS_PER_MS as it is)
    playouts_per_ms: int | None = None

    @property
    def rules(self) -> Rules:
        return Rules(decks=self.decks, partnership=self.partnership)


@dataclass
class Searches:
    """Playouts per search: the bot's (``samples`` of each Monte Carlo answer) and the greedy
    opponents' (samples × legal plays, where there is a choice). A greedy-trick opponent makes no
    playouts (it searches one trick per sample) and is not counted."""

    bot: list[int] = field(default_factory=list)
    greedy: list[int] = field(default_factory=list)


@dataclass
class DealResult:
    """One duplicate deal: the bot's four seat scores per way of playing (the main way first), why it
    exposed in each seat (None: nothing shown), its decision times and its searches."""

    seed: int
    seat_scores: dict[bool, list[int]]
    reasons: list[str | None]
    times: list[tuple[float, float]]
    searches: Searches

    @property
    def means(self) -> dict[bool, float]:
        """The bot's mean over its four seats, per way of playing."""
        return {way: sum(scores) / SEATS for way, scores in self.seat_scores.items()}

    @property
    def exposing_seats(self) -> int:
        return sum(reason is not None for reason in self.reasons)


def bot_exposures(rules: Rules, hands, bot_seat: int) -> tuple[tuple[int, ...], ...]:
    """The exposure lists: the bot's seat shows what suggest_exposures says, the others nothing."""
    shown, _ = suggest_exposures(rules, hands[bot_seat])
    return tuple(shown if seat == bot_seat else () for seat in range(SEATS))


def play_deal(arena: Arena, deal_seed: int, bot_seat: int, expose: bool, times: list, searches: Searches) -> int:
    """One deal with the bot in ``bot_seat``: the bot's score.

    ``times`` gets the bot's decision times; ``searches`` the playouts of each search.
    """
    rules = arena.rules
    hands = deal_hands(rules, seed=deal_seed)
    exposed = bot_exposures(rules, hands, bot_seat) if expose else ((),) * SEATS
    state = replay(rules, hands=hands, exposed=exposed)
    other = make_opponent(arena.opponent, deal_seed * SEATS + bot_seat, greedy_samples=arena.greedy_samples)
    player = None if arena.player == "bot" else make_opponent(
        arena.player, PLAYER_SEED + deal_seed * SEATS + bot_seat, greedy_samples=arena.greedy_samples)
    plays = []
    while not state.finished:
        if state.seat == bot_seat:
            start, cpu = time.perf_counter(), time.thread_time()
            if player is None:
                suggestion = suggest(state, budget_ms=arena.budget_ms, seed=deal_seed * 1000 + plays_count(state),
                                     plays=plays)
                move = suggestion.move
                if suggestion.reason == "monte_carlo":
                    searches.bot.append(suggestion.samples)
            else:
                move = player(state)
            times.append(((time.perf_counter() - start) * 1000, (time.thread_time() - cpu) * 1000))
        else:
            if arena.opponent == "greedy":
                options = len(legal_moves(state))
                if options > 1:
                    searches.greedy.append(arena.greedy_samples * options)
            move = other(state)
        plays.append(move)
        state = apply_move(state, move)
    return base_scores(rules, score_state(state).raw)[bot_seat]


def exposure_reason(arena: Arena, deal_seed: int, bot_seat: int) -> str | None:
    """Why the bot in ``bot_seat`` exposes in this deal (``suggest_exposures``' reason), None if it shows nothing."""
    rules = arena.rules
    shown, reason = suggest_exposures(rules, deal_hands(rules, seed=deal_seed)[bot_seat])
    return reason if shown else None


def play_duplicate(arena: Arena, deal_seed: int) -> DealResult:
    """The deal four times, the bot in each seat, once per way of playing its exposures.

    ``arena.exact_tricks`` (when given) sets the bot's exact-endgame threshold, in this process.

    With ``compare`` a seat where the bot exposes nothing is not played a second time: with no
    exposure the deal, the seeds and so every play are those of the plain way, so its score is reused.
    """
    if arena.exact_tricks is not None:
        advice.EXACT_TRICKS = {1: arena.exact_tricks, 2: arena.exact_tricks}
    if arena.playout is not None:
        advice.PLAYOUT = {1: arena.playout, 2: arena.playout}
    if arena.playouts_per_ms is not None:
        advice.PLAYOUTS_PER_MS = {1: arena.playouts_per_ms, 2: arena.playouts_per_ms}
    if arena.weights is not None:
        text = Path(arena.weights).read_text(encoding="utf-8")
        advice.WEIGHTS.update({p: parse_weights(text, p) for p in (False, True)})
    times: list[tuple[float, float]] = []
    searches = Searches()
    ways = EXPOSURE_MODES[arena.exposures]
    plain = [play_deal(arena, deal_seed, seat, False, times, searches)
             for seat in range(SEATS)] if False in ways else []
    scores_by_way = {False: plain}
    reasons: list[str | None] = [None] * SEATS
    if True in ways:
        reasons = [exposure_reason(arena, deal_seed, seat) for seat in range(SEATS)]
        scores_by_way[True] = [plain[seat] if plain and reasons[seat] is None
                               else play_deal(arena, deal_seed, seat, True, times, searches)
                               for seat in range(SEATS)]
    # the main way first (the order of EXPOSURE_MODES)
    return DealResult(seed=deal_seed, seat_scores={way: scores_by_way[way] for way in ways}, reasons=reasons,
                      times=times, searches=searches)


def percentile(values: list[float], p: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / PERCENT))]


def summary(values: list[float]) -> dict[str, float | None]:
    """Mean, standard error over deals and the mean in standard errors."""
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return {"mean_normalized_per_deal": round(mean, 2), "standard_error": round(se, 2),
            "margin_in_se": round(mean / se, 1) if se else None}


def results_file(path: Path):
    """``path`` opened for writing, its folder made; a bare name is put under ``build/results/``: per-deal
    files are a run's output, reproducible from its command and seeds, never part of the tree."""
    if path.parent == Path("."):
        path = RESULTS / path
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.open("w", encoding="utf-8")


def report(arena: Arena, results: list[DealResult], seconds: float, jobs: int) -> dict[str, object]:
    times = [t for r in results for t in r.times]
    wall, cpu = [w for w, _ in times], [c for _, c in times]
    main_mode = EXPOSURE_MODES[arena.exposures][0]
    out: dict[str, object] = {
        "player": arena.player, "opponent": arena.opponent, "decks": arena.decks, "partnership": arena.partnership,
        "exposures": arena.exposures,
        "greedy_samples": arena.greedy_samples if {arena.opponent, arena.player} & SAMPLING else None,
        "deals": len(results), "budget_ms": arena.budget_ms, "exact_tricks": advice.EXACT_TRICKS[arena.decks]
        if arena.exact_tricks is None else arena.exact_tricks,
        "playout": advice.PLAYOUT[arena.decks] if arena.playout is None else arena.playout,
        **summary([r.means[main_mode] for r in results])}
    if arena.exposures != "none":
        out["bot_seats_exposing"] = sum(r.exposing_seats for r in results)
    if arena.exposures == "compare":
        without = summary([r.means[False] for r in results])
        gain = summary([r.means[True] - r.means[False] for r in results])
        out["without_exposures"] = without
        out["exposure_gain"] = gain
    out |= {"decisions": len(times),
            "decision_ms_p50": round(percentile(wall, 50), 2),
            "decision_ms_p95": round(percentile(wall, 95), 2),
            "decision_cpu_ms_p50": round(percentile(cpu, 50), 2),
            "decision_cpu_ms_p95": round(percentile(cpu, 95), 2),
            "bot_playouts_per_search": mean_or_none([n for r in results for n in r.searches.bot]),
            "greedy_playouts_per_search": mean_or_none([n for r in results for n in r.searches.greedy]),
            "jobs": jobs, "seconds": round(seconds)}
    return out


def mean_or_none(values: list[int]) -> float | None:
    return round(statistics.fmean(values), 1) if values else None


def deal_line(arena: Arena, result: DealResult) -> dict[str, object]:
    """The --results line of one duplicate deal."""
    line: dict[str, object] = {
        "seed": result.seed, "means": {WAY_NAMES[way]: v for way, v in result.means.items()},
        "exposing_seats": result.exposing_seats,
        "seats": {WAY_NAMES[way]: v for way, v in result.seat_scores.items()}}
    if arena.exposures != "none":
        line["reasons"] = result.reasons
    return line


def run(arena: Arena, seeds: range, jobs: int, progress: int, out=None) -> list[DealResult]:
    """Every duplicate deal, over ``jobs`` processes (results in seed order); ``out``: a file for one
    JSON line per deal (seed, the bot's mean and four seat scores per way of playing, its exposing
    seats and, with exposures, why each seat exposed)."""
    work = partial(play_duplicate, arena)
    results: list[DealResult] = []
    began = time.perf_counter()

    def note(result: DealResult) -> None:
        results.append(result)
        if out is not None:
            out.write(json.dumps(deal_line(arena, result)) + "\n")
            out.flush()
        if progress and len(results) % progress == 0:
            mean = statistics.fmean(r.means[EXPOSURE_MODES[arena.exposures][0]] for r in results)
            print(f"{len(results)} deals: mean {mean:.2f} ({time.perf_counter() - began:.0f} s)",
                  file=sys.stderr, flush=True)
    if jobs <= 1:
        for seed in seeds:
            note(work(seed))
    else:
        with Pool(jobs) as pool:
            for result in pool.imap(work, seeds):
                note(result)
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--opponent", choices=OPPONENTS, default="random")
    parser.add_argument("--player", choices=("bot", *OPPONENTS, *EXPERIMENTS), default="bot",
                        help="the policy in the measured seat: the bot (suggest), or an opponent policy "
                             "(e.g. --player greedy --opponent heuristic: greedy's own lead), or an experiment "
                             "(ismcts: bench/bot/ismcts.py)")
    parser.add_argument("--greedy-samples", type=int, default=DEFAULT_GREEDY_SAMPLES,
                        help="deals of the hidden cards per decision for greedy and greedy-trick")
    parser.add_argument("--budget-ms", type=int, default=20)
    parser.add_argument("--decks", type=int, choices=(1, 2), default=1)
    parser.add_argument("--partnership", action="store_true", help="score by side (打对家)")
    parser.add_argument("--exposures", choices=tuple(EXPOSURE_MODES), default="none",
                        help="bot: the bot's seat exposes per suggest_exposures; compare: both, same deals")
    parser.add_argument("--exact-tricks", type=int, default=None,
                        help="the bot solves each deal exactly from this many tricks left (0: never, main's "
                             "playouts only; default: the bot's own threshold, docs/bot.md)")
    parser.add_argument("--playout", choices=("heuristic", "learned"), default=None,
                        help="the bot's playout policy (default: the bot's own, docs/bot.md)")
    parser.add_argument("--playouts-per-ms", type=int, default=None,
                        help="the bot's playouts per millisecond of budget (default: the bot's own)")
    parser.add_argument("--weights", default=None,
                        help="the learned playout policy's weights file (default: the shipped one)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes over deals")
    parser.add_argument("--progress", type=int, default=100, help="print a running line every N deals")
    parser.add_argument("--results", type=Path, default=None,
                        help="write one JSON line per deal to this file (for paired comparisons); a bare "
                             f"name goes to {RESULTS.relative_to(ROOT)}/, which git ignores")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if args.results is not None:
        args.results = results_file(args.results)
    arena = Arena(decks=args.decks, partnership=args.partnership, opponent=args.opponent,
                  budget_ms=args.budget_ms, greedy_samples=args.greedy_samples, exposures=args.exposures,
                  player=args.player, exact_tricks=args.exact_tricks, playout=args.playout,
                  weights=args.weights, playouts_per_ms=args.playouts_per_ms)
    began = time.perf_counter()
    results = run(arena, range(args.first_seed, args.first_seed + args.deals), args.jobs, args.progress,
                  args.results)
    print(json.dumps(report(arena, results, time.perf_counter() - began, args.jobs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
