"""The operations of SPEC.md §7. Each view loads its body with a schema, calls
the engine, and builds the answer; openapi.yaml describes every field."""
from __future__ import annotations

from flask import Blueprint

from service import bot
from service import rules as engine

from . import schemas as s
from .body import load, load_with_body
from .slots import BOT
from .results import (exposures_out, ingots_out, legal_moves_out, move_problem, play_out,
                      replay, score_out, title_out)

api = Blueprint("api", __name__)


@api.post("/legal-moves")
def legal_moves():
    state = replay(load(s.DEAL_STATE))
    return legal_moves_out(state, engine.legal_moves(state))


@api.post("/play")
def play():
    body, data = load_with_body(s.PLAY)
    before = replay(data)
    try:
        after = engine.apply_move(before, data["move"], data.get("seat"))
    except engine.IllegalMove as error:
        raise move_problem(error, before, data["move"]) from None
    return play_out(body, after)


@api.post("/trick")
def trick():
    data = load(s.TRICK)
    return s.trick_out(engine.rank_trick(data["rules"], data["leader"], data["plays"]))


@api.post("/score")
def score():
    data = load(s.SCORE)
    sheet = engine.score_cards(data["rules"], data["captured"], data["exposed"])
    return score_out(data["rules"], sheet)


@api.post("/ingots")
def ingots():
    data = load(s.INGOTS)
    return ingots_out(engine.settle_ingots(data["scores"], data["multiplier"], data["fee"]))


@api.post("/exposures")
def exposures():
    data = load(s.EXPOSURES)
    exposed = engine.effective_exposure(data["rules"], data["hands"], data["exposed"])
    return exposures_out(data["rules"], data["exposed"], exposed)


@api.post("/deal")
def deal():
    data = load(s.DEAL)
    hands = engine.deal_hands(data["rules"], data.get("seed"))
    leader = engine.first_leader(data["rules"], hands) if data["first_deal"] else None
    return {"rules": s.rules_out(data["rules"]), "first_deal": data["first_deal"],
            "seed": data.get("seed"), "leader": leader, "hands": s.card_lists(hands)}


@api.get("/ranks")
def ranks():
    return {"titles": [title_out(t) for t in engine.TITLES]}


@api.get("/ranks/<int(signed=True):points>")
def rank(points: int):
    return {"points": points, "title": title_out(engine.title_for(points))}


@api.post("/suggest")
def suggest():
    data = load(s.SUGGEST)
    state = replay(data)
    if state.finished:
        raise engine.IllegalMove("the deal is finished: no seat is to act", code="deal_finished",
                                 path="/plays")
    budget_ms = BOT.budget(data["budget_ms"])
    with BOT.slot(budget_ms):
        advice = bot.suggest(state, budget_ms=budget_ms, seed=data.get("seed"), plays=data["plays"])
    return {"seat": state.seat, "move": s.cards(advice.move), "reason": advice.reason,
            "samples": advice.samples}


@api.post("/suggest-exposures")
def suggest_exposures():
    data = load(s.SUGGEST_EXPOSURES)
    shown, reason = bot.suggest_exposures(data["rules"], data["hand"])
    return {"rules": s.rules_out(data["rules"]), "expose": s.cards(shown), "reason": reason}
