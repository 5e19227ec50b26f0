"""The operations of the contract, by ``operationId``. Each one takes its
converted input, calls the engine and builds the answer; ``openapi.yaml``
describes every field. The request pipeline (``pipeline.py``) has already
read, validated and converted the input and answers any error raised here.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gongzhu import rules as engine

from . import results
from . import schemas as s
from .schemas import Call
from .searches import claim, review, solve, suggest, suggest_exposures


def legal_moves(call: Call) -> dict:
    state = results.replay(call.data)
    return results.legal_moves_out(state, engine.legal_moves(state))


def play(call: Call) -> dict:
    data = call.data
    state = results.replay(data)
    try:
        # the state is this request's own: the move is applied to it, not to a copy
        state.apply(data["move"], data.get("seat"))
    except engine.IllegalMove as error:
        raise results.move_problem(error) from None
    return results.play_out(call.body, state)


def view(call: Call) -> dict:
    data = call.data
    return results.view_out(results.replay(data), data["seat"])


def rank_trick(call: Call) -> dict:
    data = call.data
    return results.trick_out(engine.rank_trick(data["rules"], data["leader"], data["plays"]))


def score(call: Call) -> dict:
    data = call.data
    sheet = engine.score_cards(data["rules"], data["captured"], data["exposed"])
    return results.score_out(data["rules"], sheet)


def settle_ingots(call: Call) -> dict:
    data = call.data
    return results.ingots_out(engine.settle_ingots(data["scores"], data["multiplier"], data["fee"]))


def exposures(call: Call) -> dict:
    data = call.data
    exposed = engine.exposure.effective_exposure(data["rules"], data["hands"], data["exposed"])
    return results.exposures_out(data["rules"], data["exposed"], exposed)


def deal(call: Call) -> dict:
    data = call.data
    hands = engine.deal_hands(data["rules"], data.get("seed"))
    leader = engine.deal.first_leader(data["rules"], hands) if data["first_deal"] else None
    return {"rules": results.rules_out(data["rules"]), "first_deal": data["first_deal"],
            "seed": data.get("seed"), "leader": leader, "hands": results.card_lists(hands)}


def match(call: Call) -> dict:
    data = call.data
    found = engine.score_match(data["rules"], data["deals"], target=data["target"], leader_rule=data["leader_rule"],
                               multiplier=data["multiplier"], fee=data["fee"])
    return results.match_out(data, found)


def titles(call: Call) -> dict:
    return {"titles": [results.title_out(t) for t in engine.titles.TITLES]}


def title_for(call: Call) -> dict:
    points = int(call.params["points"])
    return {"points": points, "title": results.title_out(engine.title_for(points))}


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
    "review": Handler(s.REVIEW.convert, review),
    "solve": Handler(s.SOLVE.convert, solve),
    "match": Handler(s.MATCH.convert, match),
    "titles": Handler(None, titles),
    "title_for": Handler(None, title_for),
}
