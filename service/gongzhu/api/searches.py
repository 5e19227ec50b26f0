"""The operations that search — ``/suggest``, ``/claim``, ``/review`` — and ``/suggest-exposures``, and where
their searches run: the one module of the API that calls the engine's searches. Under gunicorn each worker runs
them in child processes of its own (``start``: one per bot slot, forked before the worker has threads), else in
the calling thread, the same function either way (docs/deployment.md, "Searches run beside serving, not in it").
A worker asks between polls of its child whether the client still waits (``clients.gone``), and stops the search
when not, in a batch too. A child is stuck when it is silent past its bound: a review tells its worker it goes on
between its decisions, so that a seeded review's fixed work on a busy machine is never taken for a stuck search.
``/suggest-exposures`` is a rule of thumb over one hand, not a search: it runs in the request thread.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import queue
import signal
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from gongzhu import bot
from gongzhu import rules as engine
from gongzhu import solve as solver
from gongzhu.rules.running import plays as plays_of
from gongzhu.solve.claims import POSITIONS_PER_SECOND

from . import messages as text
from . import metrics
from . import schemas as s
from .clients import ClientGone, gone
from .results import card_lists, cards, deal_state, replay, review_out, rules_out, score_out, solve_out
from .slots import BOT, REVIEW_BUDGET_CAP_MS, Busy

# The claims search stops at whichever comes first and answers null: the positions one core searches in its slot's
# time, or that time on the wall clock (worst-case positions, or a pod short of CPU, would otherwise take several).
CLAIM_SLOT_MS = 1000
CLAIM_MAX_POSITIONS = {decks: rate * CLAIM_SLOT_MS // 1000 for decks, rate in POSITIONS_PER_SECOND.items()}
# A child silent past STUCK_FACTOR times its bound (the contract's bound for an answer is 4 × the budget) plus
# STUCK_GRACE_S is stuck: it is killed and replaced, and the request gets 503 ``busy`` (a matter of load).
STUCK_FACTOR = 4
STUCK_GRACE_S = 5.0
# A review ends by its budget (bot/review.py), unless seeded: then its work is fixed, and a busy machine makes it
# longer. It says it goes on between decisions (at most every ALIVE_S); one silent past REVIEW_STUCK_FACTOR times
# its budget plus STUCK_GRACE_S since it last did is stuck: at the cap (10 s) that is 25 s, inside nginx's wait
# for an answer (the request timeout + 20 s: 30 s).
REVIEW_STUCK_FACTOR = 2
ALIVE_S = 0.5
# What a search process sends while it goes on, before its answer.
ALIVE = "alive"
# How often a worker waiting on a review asks whether its client still waits.
CLIENT_POLL_S = 0.1
# Serving (event loop, probes, short requests) comes first when the cores are busy.
SEARCH_NICENESS = 10
# Signals gunicorn's master and worker handle: a child leaves them to its worker.
PARENT_SIGNALS = ("SIGINT", "SIGQUIT", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGWINCH", "SIGTTIN", "SIGTTOU")


def _suggest(body: dict, budget_ms: int) -> tuple:
    data = s.SUGGEST.convert(body)
    state = deal_state(data)
    advice = bot.suggest(state, budget_ms=budget_ms, seed=data.get("seed"), plays=data["plays"])
    return advice.move, advice.reason, advice.samples, advice.budget_cut


def _claim(body: dict, _budget_ms: int) -> tuple:
    data = s.CLAIM.convert(body)
    state = deal_state(data)
    seat, kind = data["claim"]
    verdict = solver.decide_claim(state, seat, kind, CLAIM_MAX_POSITIONS[state.rules.decks], CLAIM_SLOT_MS / 1000)
    return verdict.holds, verdict.refutation, verdict.nodes


def _review(body: dict, budget_ms: int, stop: Callable[[], bool] | None = None) -> dict:
    data = s.REVIEW.convert(body)
    state = deal_state(data)
    start = deal_state({**data, "plays": ()})
    found = bot.review(start, plays_of(state), budget_ms=budget_ms, seed=data.get("seed"), stop=stop)
    return review_out(state, found, budget_ms)


def _solve(body: dict, budget_ms: int) -> dict:
    data = s.SOLVE.convert(body)
    state = deal_state(data)
    bounds = solver.OpenValues().bounds(state, deadline=time.monotonic() + budget_ms / 1000)
    return solve_out(state, bounds, budget_ms)


SEARCHES: dict[str, Callable[[dict, int], Any]] = {"suggest": _suggest, "claim": _claim, "review": _review,
                                                   "solve": _solve}
# The searches whose budget is the client's for the whole call, capped as /review's (``REVIEW_BUDGET_CAP_MS``): the
# budget when none is sent
BUDGETS = {"review": s.REVIEW_BUDGET_MS, "solve": s.SOLVE_BUDGET_MS}
# The operations that search, by operationId: a batch starts one only with its bound left before its deadline
# (batch.py, ``search_bound_s``).
SEARCH_OPERATIONS = frozenset(SEARCHES)


def search_bound_s(operation: str, body: object) -> float:
    """The seconds a call of ``operation`` with ``body`` (as sent, not yet validated) may hold a bot slot: 0 for
    no search; a review its budget (capped), the others the longest they are given."""
    if operation not in SEARCH_OPERATIONS:
        return 0.0
    if operation in BUDGETS:
        asked = body.get("budget_ms") if isinstance(body, dict) else None
        budget = asked if isinstance(asked, int) and asked > 0 else BUDGETS[operation]
        return min(budget, REVIEW_BUDGET_CAP_MS) / 1000
    return max(BOT.budget_cap_ms, CLAIM_SLOT_MS) / 1000


class Child:
    """One search process and the parent's end of its pipe."""

    def __init__(self, context: Any) -> None:
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, self.pipe), daemon=True,
                                       name="gongzhu-search")
        self.process.start()
        theirs.close()

    def run(self, kind: str, body: dict, budget_ms: int, bound_s: float, factor: float = STUCK_FACTOR,
            gone: Callable[[], bool] | None = None) -> Any:
        """The search's answer; ``TimeoutError`` past ``factor`` × ``bound_s`` + the grace, ``ClientGone`` as
        soon as ``gone`` (asked every ``CLIENT_POLL_S``) says nobody waits for it."""
        self.pipe.send((kind, body, budget_ms))
        silent_s = bound_s * factor + STUCK_GRACE_S
        until = time.monotonic() + silent_s
        while True:
            while not self.pipe.poll(CLIENT_POLL_S if gone is not None else max(0.0, until - time.monotonic())):
                if time.monotonic() >= until:
                    raise TimeoutError(f"a {kind} search did not end within its bound")
                if gone is not None and gone():
                    raise ClientGone
            outcome, value = self.pipe.recv()
            if outcome != ALIVE:
                break
            until = time.monotonic() + silent_s
        if outcome != "ok":
            raise RuntimeError(f"the {kind} search failed: {value}")
        return value

    def stop(self) -> None:
        self.pipe.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(1)


def _serve(pipe: Connection, parents: Connection) -> None:
    """A search process: one search at a time, until its worker closes the pipe."""
    parents.close()
    for name in PARENT_SIGNALS:
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.nice(SEARCH_NICENESS)
    while True:
        try:
            kind, body, budget_ms = pipe.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple = ("ok", _review(body, budget_ms, _Alive(pipe)) if kind == "review"
                            else SEARCHES[kind](body, budget_ms))
        except Exception as error:  # noqa: BLE001 — the worker logs it and answers a 500
            reply = ("error", f"{type(error).__name__}: {error}")
        pipe.send(reply)


class _Alive:
    """A review's ``stop`` in a search process: never stops it (its worker does, by killing the process), and tells
    the worker the review goes on, at most every ``ALIVE_S``."""

    def __init__(self, pipe: Connection) -> None:
        self.pipe = pipe
        self.told = time.monotonic()

    def __call__(self) -> bool:
        now = time.monotonic()
        if now - self.told >= ALIVE_S:
            self.pipe.send((ALIVE, None))
            self.told = now
        return False


class Processes:
    """The worker's search processes; a bot slot (``slots.BOT``) is held while one is used."""

    def __init__(self, count: int) -> None:
        self.context = multiprocessing.get_context("fork")
        self.free: queue.SimpleQueue[Child] = queue.SimpleQueue()
        self.children = [Child(self.context) for _ in range(count)]
        for child in self.children:
            self.free.put(child)

    def run(self, kind: str, body: dict, budget_ms: int, bound_s: float, factor: float = STUCK_FACTOR,
            gone: Callable[[], bool] | None = None) -> Any:
        child = self.free.get()
        try:
            return child.run(kind, body, budget_ms, bound_s, factor, gone)
        except (TimeoutError, ClientGone, EOFError, OSError) as error:
            # stuck, unwanted or gone: a fresh process takes its place
            child.stop()
            self.children.remove(child)
            child = Child(self.context)
            self.children.append(child)
            if isinstance(error, TimeoutError):
                raise Busy(max(1, math.ceil(bound_s))) from error
            raise
        finally:
            self.free.put(child)

    def stop(self) -> None:
        for child in self.children:
            child.stop()


_processes: list[Processes] = []


def start() -> None:
    """Run this process's searches in child processes, one per bot slot (the worker calls it before any thread)."""
    if not _processes:
        _processes.append(Processes(BOT.slots))


def running() -> bool:
    return bool(_processes)


def stop() -> None:
    while _processes:
        _processes.pop().stop()


def _search(kind: str, call: s.Call, budget_ms: int) -> Any:
    """A search's answer, from the worker's search process (stopped if the call's client goes) or this thread."""
    if _processes:
        return _processes[0].run(kind, call.body, budget_ms, budget_ms / 1000, gone=lambda: gone(call.environ))
    return SEARCHES[kind](call.body, budget_ms)


def suggest(call: s.Call) -> dict:
    data = call.data
    state = replay(data)
    if state.finished:
        raise engine.IllegalMove(text.NO_SEAT_TO_ACT(), code="deal_finished", path="/plays")
    budget_ms = BOT.budget(data["budget_ms"])
    with BOT.slot(budget_ms, on_busy=metrics.count_bot_shed, kind="suggest"):
        started = time.perf_counter()
        move, reason, samples, budget_cut = _search("suggest", call, budget_ms)
    metrics.observe_bot(reason, samples, time.perf_counter() - started, budget_ms)
    return {"seat": state.seat, "move": cards(move), "reason": reason,
            "samples": samples, "budget_cut": budget_cut}


def claim(call: s.Call) -> dict:
    data = call.data
    seat, kind = data["claim"]
    state = replay(data)
    # the engine's checks of the claim with no position to search: a claim it refuses is a rule error here
    solver.decide_claim(state, seat, kind, 0)
    with BOT.slot(CLAIM_SLOT_MS, on_busy=metrics.count_bot_shed, kind="claim"):
        holds, refutation, positions = _search("claim", call, CLAIM_SLOT_MS)
    rules, score = state.rules, None
    if holds and kind == "all_tricks":
        score = score_out(rules, engine.score_cards(rules, solver.claimed_captures(state, seat), state.exposed))
    return {"claim": {"seat": seat, "kind": kind}, "holds": holds,
            "reason": None if holds is not None else "search_budget",
            "refutation": None if refutation is None else card_lists(refutation),
            "score": score, "tricks_left": solver.tricks_left(state), "positions": positions}


def review(call: s.Call) -> dict:
    """The deal's review, in a search process while a bot slot is held; a client gone meanwhile stops it."""
    replay(call.data)
    budget_ms = min(call.data["budget_ms"], REVIEW_BUDGET_CAP_MS)

    def stop() -> bool:
        return gone(call.environ)

    with BOT.slot(budget_ms, on_busy=metrics.count_bot_shed, kind="review"):
        if _processes:
            return _processes[0].run("review", call.body, budget_ms, budget_ms / 1000, REVIEW_STUCK_FACTOR, stop)
        try:
            return _review(call.body, budget_ms, stop)
        except bot.Stopped:
            raise ClientGone from None


def suggest_exposures(call: s.Call) -> dict:
    data = call.data
    shown, reason = bot.suggest_exposures(data["rules"], data["hand"])
    return {"rules": rules_out(data["rules"]), "expose": cards(shown), "reason": reason}


def solve(call: s.Call) -> dict:
    """Every legal move's exact open-card value, or the bounds proven within the budget (``OpenValues.bounds``),
    in a search process while a bot slot is held; a client gone meanwhile stops it."""
    state = replay(call.data)
    if state.finished:
        raise engine.IllegalMove(text.NO_SEAT_TO_ACT(), code="deal_finished", path="/plays")
    budget_ms = min(call.data["budget_ms"], REVIEW_BUDGET_CAP_MS)
    with BOT.slot(budget_ms, on_busy=metrics.count_bot_shed, kind="solve"):
        return _search("solve", call, budget_ms)
