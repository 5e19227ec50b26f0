"""How long the deal review's exact solver (``gongzhu.solve.OpenValues``) takes: every legal move of one
position valued exactly, by tricks left; and whole deals reviewed within a budget.

    python3 bench/perf/review.py                                  # positions: 1 to 8 tricks left
    python3 bench/perf/review.py --decks 1 --tricks 6 7 8 --states 20
    python3 bench/perf/review.py --deals 20                       # whole deals too (--deals-only: only them)
    python3 bench/perf/review.py --reviews 20 --deals-only        # /review's own function on whole deals
    python3 bench/perf/review.py --stability 20 --deals-only      # the estimates' stability between two seeds
    python3 bench/perf/review.py --decks 1 --tricks 8 --base DIR  # against another checkout, in turn

Positions (``positions``): those of ``bench/perf/claims.py`` (seeded random deals played with random
legal moves until that many tricks remain, stopping anywhere in a trick; from two tricks left, with two legal
moves or more), one deck individual and
partnership, two decks individual, each solved by a fresh ``OpenValues`` (no table from an earlier
position) for every legal move. Process CPU time; a position not solved within ``--bound`` seconds
counts as cut (its time is the bound), and a row whose median is cut ends its kind's rows. Figures:
median, p90 and max milliseconds, the legal moves and how many were cut. With ``--base DIR`` (another
checkout, its engine built in place: ``python setup.py build_ext --inplace`` there, or pure) each position
is solved by both, each in a process of its own, in turn (this then base, then base then this): both
medians, the cuts, and the median of the positions' time ratios.

Whole deals (``deal_rows``, ``--deals N``): N seeded random deals per deck count played to the end with
random legal moves, then every decision valued with one ``OpenValues`` from the last play back to the
first (later positions are the cheap ones, and their tables serve the earlier), each decision with what
is left of ``--budget`` seconds (wall clock): the review time and the share of decisions valued exactly.

Reviews (``review_rows``, ``--reviews N``): what ``POST /review`` runs, ``gongzhu.bot.review``, on N seeded
random deals per deck count (individual scoring) played to the end with random legal moves (the bot's
own deals would be cheaper to solve: fewer points in play late), with ``--review-budget-ms`` (default
3000, the operation's) and a seed: the review's wall-clock time (median, p90, max), its process CPU time
(what the wall-clock time would be on an idle core), and the share of its decisions (every play, forced
ones included) valued exactly.

Stability (``stability_rows``, ``--stability N``): N seeded one-deck partnership deals played by ``rules2``
(bench/bot/opponents.py, a seat the bot's search did not shape; ``--decent``: another of its players) in seats 0
and 2 against uniformly random play in seats 1 and 3 (``mixed_deals``), each reviewed with seeds 1 and 2 at
``--review-budget-ms``: the CPU time, the share the exact search reached, and over the estimated decisions with a
choice (all, those the exact search reached, the others) the change of the loss of the play made between the
seeds (median, p90) and how often the verdict "lost 20 points or more" differs; then the random and the decent
seats' loss a decision (all in the fair lens, those the exact search reached in both lenses, the others) and
their verdicts and accuracy.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench._checkout import query  # noqa: E402
from bench.perf.claims import late_state  # noqa: E402
from gongzhu import bot, solve  # noqa: E402
from gongzhu import rules as engine  # noqa: E402
from gongzhu.bot.verdicts import VERDICTS  # noqa: E402
from tests.bot.review_measures import DECENT, VERDICT, mixed_deals, percentile, stability  # noqa: E402

# (label, decks, partnership) of the position rows
KINDS = (("1 deck individual", 1, False), ("1 deck partnership", 1, True), ("2 decks individual", 2, False))


def position_states(decks: int, partnership: bool, left: int, states: int, seed: int) -> list[engine.DealState]:
    """``states`` seeded positions with ``left`` tricks left and two legal moves or more (from two tricks left)."""
    rng = random.Random(seed * 1000 + decks * 100 + left + 50 * partnership)
    rules = engine.Rules(decks=decks, partnership=partnership)
    found: list[engine.DealState] = []
    while len(found) < states:
        state = late_state(rng, decks, left, rules)
        # (with one trick left every seat holds one card, or a pair with two decks: no choice is left)
        if state is None or left > 1 and len(engine.legal_moves(state)) < 2:
            continue
        found.append(state)
    return found


def solve_ms(state: engine.DealState, bound: float) -> tuple[float, bool]:
    """The process CPU milliseconds a fresh ``OpenValues`` takes on every legal move of ``state``, and whether
    it was cut at ``bound`` seconds (then the time is the bound)."""
    started = time.process_time()
    values = solve.OpenValues().values(state, deadline=time.monotonic() + bound)
    spent = time.process_time() - started
    return (bound * 1000, True) if values is None else (spent * 1000, False)


def position_row(decks: int, partnership: bool, left: int, states: int, bound: float, seed: int) -> dict:
    """``position_states``, each solved for every legal move by a fresh ``OpenValues`` within ``bound`` seconds."""
    times, moves, cut = [], [], 0
    for state in position_states(decks, partnership, left, states, seed):
        spent, was_cut = solve_ms(state, bound)
        cut += was_cut
        times.append(spent)
        moves.append(len(engine.legal_moves(state)))
    return {"moves": statistics.mean(moves), "p50": statistics.median(times), "p90": percentile(times, 0.9),
            "max": max(times), "cut": cut}


def positions(args: argparse.Namespace) -> None:
    print(f"\n## Positions: every legal move valued; {args.states} positions a row, bound {args.bound} s\n")
    print("| kind | tricks left | moves | median ms | p90 ms | max ms | cut |")
    print("|---|---|---|---|---|---|---|", flush=True)
    cut_kind = None
    for label, decks, partnership, left in rows(args):
        if label == cut_kind:
            continue
        r = position_row(decks, partnership, left, args.states, args.bound, args.seed)
        print(f"| {label} | {left} | {r['moves']:.1f} | {r['p50']:.1f} | {r['p90']:.1f} | {r['max']:.0f} | "
              f"{r['cut']} |", flush=True)
        if r["cut"] * 2 >= args.states:
            cut_kind = label


def rows(args: argparse.Namespace) -> Iterator[tuple[str, int, bool, int]]:
    """The position rows asked: each kind of ``--decks`` (label, decks, partnership) at each of ``--tricks``."""
    for label, decks, partnership in KINDS:
        if decks in args.decks:
            for left in args.tricks:
                yield label, decks, partnership, left


def solve_server() -> None:
    """``--solver``: one position a line on stdin (decks, partnership 0/1, tricks left, states, seed, index,
    bound), its ``solve_ms`` on stdout; or ``review`` and one seeded review (decks, deals, seed, index,
    budget_ms), its CPU seconds and exact share: a side of ``--base``'s comparison, in a process of its own."""
    known: dict[tuple[int, ...], list[engine.DealState]] = {}
    deals: dict[tuple[int, ...], list[tuple[engine.DealState, list]]] = {}
    print("ready", flush=True)
    for line in sys.stdin:
        words = line.split()
        if words[0] == "review":
            decks, count, seed, index, budget_ms = map(int, words[1:])
            if (decks, count, seed) not in deals:
                deals[decks, count, seed] = review_deals(decks, count, seed)
            cpu, share, _ = review_once(*deals[decks, count, seed][index], budget_ms=budget_ms, seed=index)
            print(f"{cpu:.3f} {share:.4f}", flush=True)
            continue
        row = tuple(int(word) for word in words[:5])
        if row not in known:
            known[row] = position_states(row[0], bool(row[1]), row[2], row[3], row[4])
        spent, cut = solve_ms(known[row][int(words[5])], float(words[6]))
        print(f"{spent:.3f} {int(cut)}", flush=True)


def compared(args: argparse.Namespace) -> None:
    """``--base DIR``: every position (unless ``--deals-only``) and every seeded review (``--reviews``) run by
    this checkout and by DIR's (its ``service/`` as built there: compiled in place, or pure), each side in a
    process of its own, the two in turn (this then base, then base then this)."""
    sides = {"this": Side(None), "base": Side(args.base.resolve() / "service")}
    try:
        if not args.deals_only:
            compared_positions(args, sides)
        if args.reviews:
            compared_reviews(args, sides)
    finally:
        for side in sides.values():
            side.close()


class Side:
    """A ``--solver`` process of this script, importing ``gongzhu`` from ``service`` (None: as installed)."""

    def __init__(self, service: Path | None) -> None:
        env = dict(os.environ)
        if service is not None:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(service), env.get("PYTHONPATH", "")]))
        self.process = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--solver"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        self.ask("")

    def ask(self, line: str) -> list[str]:
        """``line`` sent (none: only the answer read), the answer's words."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        if line:
            stdin.write(line + "\n")
            stdin.flush()
        return stdout.readline().split()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def in_turn(index: int) -> tuple[str, str]:
    return ("this", "base") if index % 2 == 0 else ("base", "this")


def compared_positions(args: argparse.Namespace, sides: dict[str, Side]) -> None:
    print(f"\n## Positions, this checkout against {args.base}: {args.states} positions a row, bound {args.bound} s, "
          f"in turn\n")
    print("| kind | tricks left | median ms | base median ms | cut | base cut | this / base (median of positions) |")
    print("|---|---|---|---|---|---|---|", flush=True)
    for label, decks, partnership, left in rows(args):
        times: dict[str, list[float]] = {"this": [], "base": []}
        cut = {"this": 0, "base": 0}
        for index in range(args.states):
            for name in in_turn(index):
                spent, was_cut = sides[name].ask(f"{decks} {int(partnership)} {left} {args.states} {args.seed} "
                                                 f"{index} {args.bound}")
                times[name].append(float(spent))
                cut[name] += int(was_cut)
        ratio = statistics.median([a / b for a, b in zip(times["this"], times["base"])])
        print(f"| {label} | {left} | {statistics.median(times['this']):.1f} | "
              f"{statistics.median(times['base']):.1f} | {cut['this']} | {cut['base']} | ×{ratio:.2f} |", flush=True)


def compared_reviews(args: argparse.Namespace, sides: dict[str, Side]) -> None:
    print(f"\n## Reviews, this checkout against {args.base}: {args.reviews} deals a row, budget_ms "
          f"{args.review_budget_ms}, seeded, in turn\n")
    print("| decks | CPU s median | base | exact share median | base | min | base | this / base CPU (median) |")
    print("|---|---|---|---|---|---|---|---|", flush=True)
    for decks in args.decks:
        cpu: dict[str, list[float]] = {"this": [], "base": []}
        shares: dict[str, list[float]] = {"this": [], "base": []}
        for index in range(args.reviews):
            for name in in_turn(index):
                used, share = sides[name].ask(f"review {decks} {args.reviews} {args.seed} {index} "
                                              f"{args.review_budget_ms}")
                cpu[name].append(float(used))
                shares[name].append(float(share))
        ratio = statistics.median([a / b for a, b in zip(cpu["this"], cpu["base"])])
        print(f"| {decks} | {statistics.median(cpu['this']):.2f} | {statistics.median(cpu['base']):.2f} | "
              f"{statistics.median(shares['this']):.0%} | {statistics.median(shares['base']):.0%} | "
              f"{min(shares['this']):.0%} | {min(shares['base']):.0%} | ×{ratio:.2f} |", flush=True)


def played_deal(rng: random.Random, decks: int, partnership: bool) -> list[engine.DealState]:
    """A seeded random deal played to the end with random legal moves: the state before each play."""
    rules = engine.Rules(decks=decks, partnership=partnership)
    state = engine.replay(rules, hands=engine.deal_hands(rules, seed=rng.randrange(1 << 40)),
                          exposed=((), (), (), ()), plays=(), first_deal=True)
    states = []
    while not state.finished:
        states.append(state)
        state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
    return states


def review_deal(states: list[engine.DealState], budget: float) -> tuple[float, int, int]:
    """Every decision of one deal valued by one ``OpenValues``, last first, within ``budget`` seconds:
    the seconds taken, the decisions (two legal moves or more) and how many were valued exactly."""
    solver = solve.OpenValues()
    started = time.monotonic()
    deadline = started + budget
    decisions = exact = 0
    for state in reversed(states):
        if len(engine.legal_moves(state)) < 2:
            continue
        decisions += 1
        if time.monotonic() < deadline and solver.values(state, deadline=deadline) is not None:
            exact += 1
    return time.monotonic() - started, decisions, exact


def deal_rows(args: argparse.Namespace) -> None:
    """Whole deals reviewed (see the module): ``--deals`` seeded deals a row."""
    print(f"\n## Whole deals: {args.deals} deals a row, budget {args.budget} s a deal (wall clock)\n")
    print("| decks | scoring | review s median | p90 | max | exact decisions median | min |")
    print("|---|---|---|---|---|---|---|", flush=True)
    for decks in args.decks:
        for partnership in (False, True):
            rng = random.Random(args.seed * 10 + decks * 2 + partnership)
            times, shares = [], []
            for _ in range(args.deals):
                spent, decisions, exact = review_deal(played_deal(rng, decks, partnership), args.budget)
                times.append(spent)
                shares.append(exact / decisions)
            scoring = "partnership" if partnership else "individual"
            print(f"| {decks} | {scoring} | {statistics.median(times):.2f} | {percentile(times, 0.9):.2f} | "
                  f"{max(times):.2f} | {statistics.median(shares):.0%} | {min(shares):.0%} |", flush=True)


def review_deals(decks: int, count: int, seed: int) -> list[tuple[engine.DealState, list]]:
    """``count`` seeded random deals (individual scoring) played to the end: each one's state before its first
    play and its plays."""
    rng = random.Random(seed * 10 + decks)
    found = []
    for _ in range(count):
        states = played_deal(rng, decks, False)
        last = states[-1].clone()
        last.apply(rng.choice(engine.legal_moves(last)))
        start = engine.replay(last.rules, hands=states[0].hands, plays=(), leader=states[0].seat)
        found.append((start, list(query(engine, "plays")(last))))
    return found


def exact_share(found: bot.Review) -> float:
    """The share of a review's decisions the exact search valued: forced plays valued exactly, and plays with a
    choice judged fair with their hindsight beside."""
    return sum(d.exact or d.hindsight is not None for d in found.decisions) / len(found.decisions)


def review_once(start: engine.DealState, plays: list, *, budget_ms: int, seed: int) -> tuple[float, float, float]:
    """One ``gongzhu.bot.review`` of ``plays`` from ``start`` with ``seed``: its process CPU seconds, the share of
    its decisions valued exactly, and its wall-clock seconds."""
    started, used = time.monotonic(), time.process_time()
    found = bot.review(start, plays, budget_ms=budget_ms, seed=seed)
    cpu = time.process_time() - used
    return cpu, exact_share(found), time.monotonic() - started


def review_rows(args: argparse.Namespace) -> None:
    """Whole deals reviewed by ``gongzhu.bot.review`` (see the module): ``--reviews`` seeded deals a row."""
    print(f"\n## Reviews (gongzhu.bot.review): {args.reviews} deals a row, budget_ms {args.review_budget_ms}, "
          f"seeded\n")
    print("| decks | review s median | p90 | max | CPU s median | p90 | exact share median | min | budget cut |")
    print("|---|---|---|---|---|---|---|---|---|", flush=True)
    for decks in args.decks:
        times, cpu, shares = [], [], []
        for number, (start, plays) in enumerate(review_deals(decks, args.reviews, args.seed)):
            used, share, spent = review_once(start, plays, budget_ms=args.review_budget_ms, seed=number)
            times.append(spent)
            cpu.append(used)
            shares.append(share)
        # (seeded: the clock cuts nothing, so no review is budget-cut)
        print(f"| {decks} | {statistics.median(times):.2f} | {percentile(times, 0.9):.2f} | {max(times):.2f} | "
              f"{statistics.median(cpu):.2f} | {percentile(cpu, 0.9):.2f} | {statistics.median(shares):.0%} | "
              f"{min(shares):.0%} | 0 |", flush=True)


# The stability and discrimination figures (docs/review.md, "How stable an estimate is"): one-deck partnership
# The discrimination rows: (label, which decisions with a choice, the loss read). Every such decision is judged in
# the fair lens; the exact search reaches the late ones, whose hindsight loss is the other lens.
ROWS = (("all (fair)", lambda d: True, lambda d: d.loss),
        ("reached by the exact search (fair)", lambda d: d.hindsight is not None, lambda d: d.loss),
        ("the same (hindsight)", lambda d: d.hindsight is not None, lambda d: d.hindsight.loss),
        ("not reached (fair)", lambda d: d.hindsight is None, lambda d: d.loss))


def discrimination(reviews: list, which=ROWS[0][1], loss=ROWS[0][2]) -> tuple[float, float]:
    """The mean loss (``loss``) a decision with a choice of the random seats and of the decent ones (``DECENT``),
    over ``reviews``' decisions ``which`` keeps."""
    losses: dict[bool, list[float]] = {True: [], False: []}
    for found in reviews:
        for d in found.decisions:
            if d.values is not None and which(d):
                losses[d.seat in DECENT].append(loss(d))
    return statistics.mean(losses[False]), statistics.mean(losses[True])


def stability_rows(args: argparse.Namespace) -> None:
    """``--stability N``: ``mixed_deals`` reviewed with seeds 1 and 2 at ``--review-budget-ms``."""
    print(f"\n## Stability and discrimination: {args.stability} one-deck partnership deals ({args.decent} in seats 0 "
          f"and 2, random in 1 and 3), budget_ms {args.review_budget_ms}, seeds 1 and 2\n", flush=True)
    from bench.bot.opponents import make_opponent
    deals = mixed_deals(args.stability, args.seed, lambda number: make_opponent(args.decent, number))
    reviews: dict[int, list] = {1: [], 2: []}
    cpu: list[float] = []
    for start, plays in deals:
        for seed in reviews:
            used = time.process_time()
            reviews[seed].append(bot.review(start, plays, budget_ms=args.review_budget_ms, seed=seed))
            cpu.append(time.process_time() - used)
    share = statistics.median(exact_share(r) for r in reviews[1])
    print("| estimated decisions | CPU s median | exact share median | decisions | loss change median | p90 | "
          f"verdict ≥ {VERDICT} flips |")
    print("|---|---|---|---|---|---|---|")
    for label, reached in (("all", None), ("reached by the exact search", True), ("not reached", False)):
        found = stability(reviews[1], reviews[2], reached)
        print(f"| {label} | {statistics.median(cpu):.2f} | {share:.0%} | {found['estimated']} | "
              f"{found['median']:.1f} | {found['p90']:.1f} | {found['flips']:.1%} |")
    print("\n| decisions | random seats' loss a decision | decent seats' | ratio |")
    print("|---|---|---|---|")
    for label, which, loss in ROWS:
        bad, good = discrimination(reviews[1], which, loss)
        print(f"| {label} | {bad:.1f} | {good:.1f} | ×{bad / good:.2f} |", flush=True)
    print("\n| seats | decisions with a choice | " + " | ".join(str(v) for v in VERDICTS)
          + " | accuracy (mean of seats) |")
    print("|---|---|" + "---|" * len(VERDICTS) + "---|")
    for label, decent in (("random (1, 3)", False), (f"{args.decent} (0, 2)", True)):
        counts = [sum(s.verdicts[k] for r in reviews[1] for s in r.seats if (s.seat in DECENT) == decent)
                  for k in range(len(VERDICTS))]
        accuracy = statistics.mean(s.accuracy for r in reviews[1] for s in r.seats
                                   if (s.seat in DECENT) == decent and s.accuracy is not None)
        print(f"| {label} | {sum(counts)} | " + " | ".join(f"{n / sum(counts):.0%}" for n in counts)
              + f" | {accuracy:.1f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--states", type=int, default=20, help="positions a row")
    ap.add_argument("--decks", type=int, nargs="*", default=[1, 2])
    ap.add_argument("--tricks", type=int, nargs="*", default=list(range(1, 9)))
    ap.add_argument("--bound", type=float, default=10.0, help="seconds a position may take before it counts as cut")
    ap.add_argument("--deals", type=int, default=0, help="whole deals a row (0: none)")
    ap.add_argument("--deals-only", action="store_true", help="only the whole deals")
    ap.add_argument("--budget", type=float, default=3.0, help="seconds a whole deal's review may take")
    ap.add_argument("--reviews", type=int, default=0, help="whole deals reviewed by gongzhu.bot.review (0: none)")
    ap.add_argument("--review-budget-ms", type=int, default=3000, help="the reviews' budget_ms")
    ap.add_argument("--stability", type=int, default=0,
                    help="deals reviewed with two seeds for the stability and discrimination figures (0: none)")
    ap.add_argument("--decent", default="rules2", help="the decent seats' player (bench/bot/opponents.py)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--base", type=Path, help="another checkout's root: its positions' times beside these, in turn")
    ap.add_argument("--solver", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.solver:
        solve_server()
        return
    print(f"# CPython {platform.python_version()}, {platform.machine()}, engine {engine.engine_build()}; "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    if args.base:
        compared(args)
        return
    elif not args.deals_only:
        positions(args)
    if args.deals:
        deal_rows(args)
    if args.reviews:
        review_rows(args)
    if args.stability:
        stability_rows(args)


if __name__ == "__main__":
    main()
