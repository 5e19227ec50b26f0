"""Response bodies built from engine values (openapi.yaml ``components.schemas``).

Plain functions, no marshmallow dump: on the hot path a dump would cost more
than the engine call it reports on.
"""
from __future__ import annotations

import time
from collections import Counter

from gongzhu import rules as engine

from . import metrics
from .schemas import card_lists, cards, rules_out, trick_out

STATE_FIELDS = ("rules", "first_deal", "leader", "hands", "exposed")


def replay(data: dict) -> engine.DealState:
    """The engine's state for a loaded deal-state body (raises ``InvalidDeal``); its
    time goes to ``gongzhu_engine_replay_seconds``."""
    started = time.perf_counter()
    try:
        return engine.replay(data["rules"], hands=data["hands"], exposed=data["exposed"],
                             plays=data["plays"], first_deal=data["first_deal"],
                             leader=data.get("leader"))
    finally:
        metrics.observe_replay(time.perf_counter() - started)


def table_out(state: engine.DealState) -> dict:
    """What the table shows at ``state``: the trick, who is winning it, the running state."""
    running = engine.running_state(state)
    return {
        "finished": state.finished,
        "trick_number": state.trick_number,
        "trick_leader": state.leader,
        "trick": card_lists(state.trick),
        "winning": running.winning,
        "taken": card_lists(running.taken),
        "points": list(running.points),
        "hand_sizes": list(running.hand_sizes),
        "exposed": card_lists(running.exposed),
    }


def legal_moves_out(state: engine.DealState, moves) -> dict:
    """The turn at ``state`` (``LegalMoves``): who acts, the legal plays and the table."""
    return {"seat": state.seat, "moves": card_lists(moves), **table_out(state)}


def view_out(state: engine.DealState, seat: int) -> dict:
    """What ``seat`` may see at ``state`` (``SeatView``): its own hand, never another seat's
    unexposed cards."""
    acts = state.seat == seat
    return {
        "seat": seat,
        "hand": cards(engine.bits_cards(state.hands_bits[seat])),
        "to_act": state.seat,
        "moves": card_lists(engine.legal_moves(state)) if acts else None,
        **table_out(state),
        "plays": [{"seat": who, "cards": cards(play)} for who, play in engine.seated_plays(state)],
        "voids": [list(suits) for suits in engine.void_suits(state)],
    }


def move_problem(error: engine.IllegalMove, state: engine.DealState, move) -> engine.IllegalMove:
    """The engine's verdict on ``move``, pointing at the body field at fault."""
    pointer = "/move"
    if error.code == "not_your_turn":
        pointer = "/seat"
    elif error.index is not None:
        pointer = f"/move/{error.index}"
    return engine.IllegalMove(error.detail, code=error.code, path=pointer)


def score_out(rules: engine.Rules, sheet: engine.ScoreSheet) -> dict:
    base = engine.base_scores(rules, sheet.raw)
    return {
        "rules": rules_out(rules),
        "raw": list(sheet.raw),
        "normalized": list(base),
        "final": list(engine.final_scores(rules, sheet.raw)),
        "seats": [{
            "hearts": seat.hearts,
            "pig": seat.pig,
            "sheep": seat.sheep,
            "transformer_factor": seat.transformer_factor,
            "all_hearts": seat.all_hearts,
            "grand_slam": seat.grand_slam,
            "raw": seat.raw,
        } for seat in sheet.seats],
        "exposed": cards(sheet.exposed),
    }


def play_out(body: dict, after: engine.DealState) -> dict:
    state = {key: body[key] for key in STATE_FIELDS if key in body}
    state["plays"] = [*body.get("plays", ()), body["move"]]
    completed = after.completed_trick
    score = None
    if after.finished:
        score = score_out(after.rules, engine.score_state(after))
        score["next_leader"] = after.first_pig_taker
    out = {
        "state": state,
        "trick": trick_out(completed) if completed else None,
        "score": score,
        "next": legal_moves_out(after, engine.legal_moves(after)),
    }
    if after.finished:
        out["record"] = record_out(state, after)
    return out


def record_out(state: dict, after: engine.DealState) -> dict:
    """The finished deal as ``/match`` takes it in ``deals``: the state as sent, without its
    rules (the match's apply), its first deal flag and leader stated."""
    return {"first_deal": state.get("first_deal", True), "leader": engine.deal_leader(after),
            "hands": state["hands"], "exposed": state.get("exposed", [[], [], [], []]), "plays": state["plays"]}


def match_deal_out(deal: engine.MatchDeal) -> dict:
    """One deal of a match (``MatchDeal``): scores and ingots only once it is finished."""
    out: dict = {"first_deal": deal.first_deal, "leader": deal.leader, "finished": deal.finished}
    if deal.pig_taker is not None:
        out["pig_taker"] = deal.pig_taker
    if deal.raw is not None and deal.scores is not None and deal.ingots is not None:
        out.update(raw=list(deal.raw), normalized=list(deal.scores), ingots=ingots_out(deal.ingots))
    out.update(totals=list(deal.totals), ledger=list(deal.ledger))
    return out


def match_out(data: dict, match: engine.Match) -> dict:
    """Where a match stands (``MatchReport``)."""
    out: dict = {
        "rules": rules_out(data["rules"]),
        "target": data["target"],
        "leader_rule": data["leader_rule"],
        "multiplier": data["multiplier"],
        "fee": data["fee"],
        "deals": [match_deal_out(deal) for deal in match.deals],
        "totals": list(match.totals),
        "ledger": list(match.ledger),
        "finished": match.finished,
        "standings": [{"seat": s.seat, "total": s.total, "place": s.place} for s in match.standings],
    }
    if match.ending_deal is not None:
        out.update(ending_deal=match.ending_deal, winners=list(match.winners))
    if match.next_deal is not None:
        out["next"] = {"first_deal": match.next_deal.first_deal, "leader": match.next_deal.leader}
    return out


def exposures_out(rules: engine.Rules, requested, effective) -> dict:
    automatic = []
    for seat, (asked, shown) in enumerate(zip(requested, effective)):
        extra = Counter(shown) - Counter(asked)
        automatic += [{"seat": seat, "card": engine.format_card(c)} for c in sorted(extra.elements())]
    alone = engine.exposure_values(rules, effective)
    return {
        "rules": rules_out(rules),
        "exposed": card_lists(effective),
        "automatic": automatic,
        "values": {engine.format_card(card): seat.raw for card, seat in alone.items()},
        "transformer_factor": alone[engine.TRANSFORMER].transformer_factor,
    }


def ingots_out(ingots: engine.Ingots) -> dict:
    return {
        "winners": list(ingots.winners),
        "net": list(ingots.net),
        "transfers": [{"from": t.payer, "to": t.payee, "amount": t.amount}
                      for t in ingots.transfers],
    }


def title_out(title: engine.Title) -> dict:
    return {"name": title.name, "pinyin": title.pinyin, "points": title.points}
