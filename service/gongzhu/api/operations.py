"""The operations of the contract, by ``operationId``. Each one takes its
converted input, calls the engine and builds the answer; ``openapi.yaml``
describes every field. The request pipeline (``pipeline.py``) has already
read, validated and converted the input and answers any error raised here.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from gongzhu import bot, solve
from gongzhu import rules as engine

from . import messages as text
from . import metrics
from . import schemas as s
from .results import (
    card_lists,
    cards,
    exposures_out,
    ingots_out,
    legal_moves_out,
    match_out,
    move_problem,
    play_out,
    replay,
    rules_out,
    score_out,
    title_out,
    trick_out,
    view_out,
)
from .slots import BOT


class Call(NamedTuple):
    """One request's input: the converted body, the body as sent, the path parameters."""

    data: Any
    body: Any
    params: dict[str, Any]


def legal_moves(call: Call) -> dict:
    state = replay(call.data)
    return legal_moves_out(state, engine.legal_moves(state))


def play(call: Call) -> dict:
    data = call.data
    state = replay(data)
    move = data["move"]
    try:
        engine.check_move(state, move, data.get("seat"))
    except engine.IllegalMove as error:
        raise move_problem(error, state, move) from None
    # the state is this request's own: the move is applied to it, not to a copy
    state.apply_unchecked(tuple(sorted(move)))
    return play_out(call.body, data, state)


def view(call: Call) -> dict:
    data = call.data
    return view_out(replay(data), data["seat"])


def rank_trick(call: Call) -> dict:
    data = call.data
    return trick_out(engine.rank_trick(data["rules"], data["leader"], data["plays"]))


def score(call: Call) -> dict:
    data = call.data
    sheet = engine.score_cards(data["rules"], data["captured"], data["exposed"])
    return score_out(data["rules"], sheet)


def settle_ingots(call: Call) -> dict:
    data = call.data
    return ingots_out(engine.settle_ingots(data["scores"], data["multiplier"], data["fee"]))


def exposures(call: Call) -> dict:
    data = call.data
    exposed = engine.exposure.effective_exposure(data["rules"], data["hands"], data["exposed"])
    return exposures_out(data["rules"], data["exposed"], exposed)


def deal(call: Call) -> dict:
    data = call.data
    hands = engine.deal_hands(data["rules"], data.get("seed"))
    leader = engine.deal.first_leader(data["rules"], hands) if data["first_deal"] else None
    return {"rules": rules_out(data["rules"]), "first_deal": data["first_deal"],
            "seed": data.get("seed"), "leader": leader, "hands": card_lists(hands)}


def suggest(call: Call) -> dict:
    data = call.data
    state = replay(data)
    if state.finished:
        raise engine.IllegalMove(text.NO_SEAT_TO_ACT(), code="deal_finished", path="/plays")
    budget_ms = BOT.budget(data["budget_ms"])
    with BOT.slot(budget_ms, on_busy=metrics.count_bot_shed, kind="suggest"):
        started = time.perf_counter()
        advice = bot.suggest(state, budget_ms=budget_ms, seed=data.get("seed"), plays=data["plays"])
    metrics.observe_bot(advice.reason, advice.samples, time.perf_counter() - started, budget_ms)
    return {"seat": state.seat, "move": cards(advice.move), "reason": advice.reason,
            "samples": advice.samples, "budget_cut": advice.budget_cut}


def suggest_exposures(call: Call) -> dict:
    data = call.data
    shown, reason = bot.suggest_exposures(data["rules"], data["hand"])
    return {"rules": rules_out(data["rules"]), "expose": cards(shown), "reason": reason}


# The claims search stops at whichever comes first and answers null: a number of
# positions (by the number of decks: a two-deck position costs far more than a one-deck one),
# or a second of wall-clock time (worst-case positions, or a pod short of CPU, would otherwise
# take several; bench/perf/claims.py measures both).
CLAIM_MAX_POSITIONS = {1: 200_000, 2: 10_000}
CLAIM_SLOT_MS = 1000
# (max_nodes, max_seconds) of decide_claim by decks
CLAIM_LIMITS = {decks: (positions, CLAIM_SLOT_MS / 1000) for decks, positions in CLAIM_MAX_POSITIONS.items()}


def claim(call: Call) -> dict:
    data = call.data
    seat, kind = data["claim"]
    state = replay(data)
    # a search of up to a second: it takes a bot slot like /suggest
    with BOT.slot(CLAIM_SLOT_MS, on_busy=metrics.count_bot_shed, kind="claim"):
        verdict = solve.decide_claim(state, seat, kind, *CLAIM_LIMITS[state.rules.decks])
    rules, score = state.rules, None
    if verdict.holds and kind == "all_tricks":
        score = score_out(rules, engine.score_cards(rules, solve.claimed_captures(state, seat), state.exposed))
    return {"claim": {"seat": seat, "kind": kind}, "holds": verdict.holds,
            "reason": None if verdict.holds is not None else "search_budget",
            "refutation": None if verdict.refutation is None else card_lists(verdict.refutation),
            "score": score, "tricks_left": solve.tricks_left(state), "positions": verdict.nodes}


def match(call: Call) -> dict:
    data = call.data
    found = engine.score_match(data["rules"], data["deals"], target=data["target"], leader_rule=data["leader_rule"],
                               multiplier=data["multiplier"], fee=data["fee"])
    return match_out(data, found)


def titles(call: Call) -> dict:
    return {"titles": [title_out(t) for t in engine.titles.TITLES]}


def title_for(call: Call) -> dict:
    points = int(call.params["points"])
    return {"points": points, "title": title_out(engine.title_for(points))}


@dataclass(frozen=True, slots=True)
class Handler:
    """What serves an operation: the schema converting its body, the function answering it."""

    convert: Callable[[Any], Any] | None
    answer: Callable[[Call], dict]


HANDLERS: dict[str, Handler] = {
    "legal_moves": Handler(s.DEAL_STATE.convert, legal_moves),
    "play": Handler(s.PLAY.convert, play),
    "view": Handler(s.VIEW.convert, view),
    "rank_trick": Handler(s.TRICK.convert, rank_trick),
    "score": Handler(s.SCORE.convert, score),
    "settle_ingots": Handler(s.INGOTS.convert, settle_ingots),
    "exposures": Handler(s.EXPOSURES.convert, exposures),
    "deal": Handler(s.DEAL.convert, deal),
    "suggest": Handler(s.SUGGEST.convert, suggest),
    "suggest_exposures": Handler(s.SUGGEST_EXPOSURES.convert, suggest_exposures),
    "claim": Handler(s.CLAIM.convert, claim),
    "match": Handler(s.MATCH.convert, match),
    "titles": Handler(None, titles),
    "title_for": Handler(None, title_for),
}
