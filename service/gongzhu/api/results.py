"""Response bodies built from engine values (openapi.yaml ``components.schemas``). Plain functions, no marshmallow
dump: on the hot path a dump would cost more than the engine call it reports on. Cards become their names here;
orjson writes the answer (``pipeline.encode``).
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import fields

from gongzhu.bot.deal_review import Decision, Hindsight, Review, SeatReview
from gongzhu.bot.verdicts import VERDICTS
from gongzhu.rules import (
    TRANSFORMER,
    DealState,
    IllegalMove,
    Ingots,
    Match,
    Rules,
    ScoreSheet,
    final_scores,
    legal_moves,
    running,
)
from gongzhu.rules import replay as replay_history
from gongzhu.rules.cards import CARD_NAMES, ONE_PLANE, PLANE, Play, bits_cards, format_card, mask_cards
from gongzhu.rules.match import MatchDeal, deal_leader
from gongzhu.rules.running import hand_sizes, score_state, seated_plays, void_suits, winning_seat
from gongzhu.rules.scoring import exposure_values
from gongzhu.rules.settlement import base_scores
from gongzhu.rules.titles import Title
from gongzhu.solve import tricks_left

from . import metrics

STATE_FIELDS = ("rules", "first_deal", "leader", "hands", "exposed")


def cards(row: Iterable[int]) -> list[str]:
    """The names of a row of cards (a hand, a play)."""
    names: tuple[str, ...] = CARD_NAMES
    return [names[card] for card in row]


def card_lists(rows: Iterable[Iterable[int]]) -> list[list[str]]:
    """The names of rows of cards (moves, a trick's plays, hands)."""
    return [cards(row) for row in rows]


def pile(bits: int) -> list[str]:
    """The names of the cards of two-plane ``bits`` (a pile taken), as ``bits_cards`` orders them (ascending,
    a card taken twice twice), without its tuple between: two-deck piles are most of an answer's cards."""
    names: tuple[str, ...] = CARD_NAMES
    twice = bits >> PLANE
    out: list[str] = []
    for card in mask_cards(bits & ONE_PLANE):
        out.append(names[card])
        if twice >> card & 1:
            out.append(names[card])
    return out


# the contract's Rules object has the engine's options, in their order
RULE_FIELDS = tuple(field.name for field in fields(Rules))


def rules_out(rules: Rules) -> dict:
    return {name: getattr(rules, name) for name in RULE_FIELDS}


def trick_out(trick) -> dict:
    return {
        "leader": trick.leader,
        "plays": card_lists(trick.plays),
        "led_suit": trick.led_suit,
        "winner": trick.winner,
        "ranking": list(trick.ranking),
        "points_cards": cards(trick.point_cards),
    }


def deal_state(data: dict) -> DealState:
    """The engine's state for a converted deal-state body (raises ``InvalidDeal``)."""
    return replay_history(data["rules"], hands=data["hands"], exposed=data["exposed"], plays=data["plays"],
                          first_deal=data["first_deal"], leader=data.get("leader"))


def replay(data: dict) -> DealState:
    """``deal_state``, its time to ``gongzhu_engine_replay_seconds``."""
    started = time.perf_counter()
    try:
        return deal_state(data)
    finally:
        metrics.observe_replay(time.perf_counter() - started)


def table_out(state: DealState, out: dict) -> dict:
    """``out`` with what the table shows at ``state``: the trick, who is winning it, the running state."""
    # running_state's values, the piles taken written from their bits (no tuple of cards between)
    out["finished"] = state.finished
    out["trick_number"] = running.trick_number(state)
    out["trick_leader"] = running.leader(state)
    out["trick"] = card_lists(state.trick)
    out["winning"] = winning_seat(state)
    out["taken"] = [pile(bits) for bits in running.captured_bits(state)]
    out["points"] = list(running.raw_scores(state))
    out["hand_sizes"] = list(hand_sizes(state))
    out["exposed"] = card_lists(state.exposed)
    return out


def legal_moves_out(state: DealState, moves) -> dict:
    """The turn at ``state`` (``LegalMoves``): who acts, the legal plays and the table."""
    return table_out(state, {"seat": state.seat, "moves": card_lists(moves)})


def view_out(state: DealState, seat: int) -> dict:
    """What ``seat`` may see at ``state`` (``SeatView``): its own hand, never another seat's
    unexposed cards."""
    acts = state.seat == seat
    hand = running.hands_bits(state)[seat]
    out = table_out(state, {"seat": seat, "hand": cards(bits_cards(hand)), "to_act": state.seat,
                            "moves": card_lists(legal_moves(state)) if acts else None})
    out["plays"] = [{"seat": who, "cards": cards(play)} for who, play in seated_plays(state)]
    out["voids"] = [list(suits) for suits in void_suits(state)]
    return out


def move_problem(error: IllegalMove) -> IllegalMove:
    """The engine's verdict on a move, pointing at the body field at fault."""
    if error.code == "not_your_turn":
        return IllegalMove(error.detail, code=error.code, path="/seat")
    return IllegalMove(error.detail, code=error.code, path="/move" if error.index is None else f"/move/{error.index}")


def score_out(rules: Rules, sheet: ScoreSheet) -> dict:
    base = base_scores(rules, sheet.raw)
    return {
        "rules": rules_out(rules),
        "raw": list(sheet.raw),
        "normalized": list(base),
        "final": list(final_scores(rules, sheet.raw, base)),
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


def play_out(body: dict, after: DealState) -> dict:
    """The answer to ``/play``: the state as sent with the move played, the trick it completed, the
    score of a finished deal and the next turn. The state's hands and exposures are the names as sent
    (validated card names), its plays those sent and the move."""
    state = {key: body[key] for key in STATE_FIELDS if key in body}
    state["plays"] = [*body.get("plays", ()), body["move"]]
    completed = running.completed_trick(after)
    score = None
    if after.finished:
        score = score_out(after.rules, score_state(after))
        score["next_leader"] = running.first_pig_taker(after)
    out = {
        "state": state,
        "trick": trick_out(completed) if completed else None,
        "score": score,
        "next": legal_moves_out(after, legal_moves(after)),
    }
    if after.finished:
        out["record"] = record_out(state, after)
    return out


def record_out(state: dict, after: DealState) -> dict:
    """The finished deal as ``/match`` takes it in ``deals``: the state as sent, without its
    rules (the match's apply), its first deal flag and leader stated."""
    return {"first_deal": state.get("first_deal", True), "leader": deal_leader(after),
            "hands": state["hands"], "exposed": state.get("exposed", [[], [], [], []]), "plays": state["plays"]}


def match_deal_out(deal: MatchDeal) -> dict:
    """One deal of a match (``MatchDeal``): scores and ingots only once it is finished."""
    out: dict = {"first_deal": deal.first_deal, "leader": deal.leader, "finished": deal.finished}
    if deal.pig_taker is not None:
        out["pig_taker"] = deal.pig_taker
    if deal.raw is not None and deal.scores is not None and deal.ingots is not None:
        out.update(raw=list(deal.raw), normalized=list(deal.scores), ingots=ingots_out(deal.ingots))
    out.update(totals=list(deal.totals), ledger=list(deal.ledger))
    return out


def match_out(data: dict, match: Match) -> dict:
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


def exposures_out(rules: Rules, requested, effective) -> dict:
    automatic = []
    for seat, (asked, shown) in enumerate(zip(requested, effective)):
        extra = Counter(shown) - Counter(asked)
        automatic += [{"seat": seat, "card": format_card(c)} for c in sorted(extra.elements())]
    alone = exposure_values(rules, effective)
    return {
        "rules": rules_out(rules),
        "exposed": card_lists(effective),
        "automatic": automatic,
        "values": {format_card(card): seat.raw for card, seat in alone.items()},
        "transformer_factor": alone[TRANSFORMER].transformer_factor,
    }


def ingots_out(ingots: Ingots) -> dict:
    return {
        "winners": list(ingots.winners),
        "net": list(ingots.net),
        "transfers": [{"from": t.payer, "to": t.payee, "amount": t.amount}
                      for t in ingots.transfers],
    }


def title_out(title: Title) -> dict:
    return {"name": title.name, "pinyin": title.pinyin, "points": title.points}


def decision_out(decision: Decision) -> dict:
    out = {"play": decision.play, "trick": decision.trick, "seat": decision.seat, "played": cards(decision.played),
           "value": decision.value, "best": card_lists(decision.best), "loss": decision.loss,
           "exact": decision.exact, "lens": decision.lens, "verdict": str(decision.verdict)}
    if not decision.exact:
        out.update(se=decision.error, loss_se=decision.loss_error, deals=decision.deals)
    if decision.values is not None:
        errors = decision.errors
        out["values"] = [{"move": cards(move), "value": value} if errors is None else
                         {"move": cards(move), "value": value, "se": errors[i]}
                         for i, (move, value) in enumerate(decision.values)]
    if decision.hindsight is not None:
        out["hindsight"] = hindsight_out(decision.hindsight)
    return out


def hindsight_out(hindsight: Hindsight) -> dict:
    return {"value": hindsight.value, "best": card_lists(hindsight.best), "loss": hindsight.loss,
            "verdict": str(hindsight.verdict),
            "values": [{"move": cards(move), "value": value} for move, value in hindsight.values]}


def seat_review_out(seat: SeatReview) -> dict:
    out = {"seat": seat.seat, "decisions": list(seat.decisions), "loss": seat.loss,
           "mistakes": [{"play": play, "loss": loss} for play, loss in seat.mistakes],
           "verdicts": {str(v): n for v, n in zip(VERDICTS, seat.verdicts)}, "accuracy": seat.accuracy}
    if seat.loss_error is not None:
        out["loss_se"] = seat.loss_error
    return out


def review_out(state: DealState, review: Review, budget_ms: int) -> dict:
    """``/review``'s answer for the deal ``state`` (its whole history replayed) and its review."""
    rules = state.rules
    return {"rules": rules_out(rules), "finished": state.finished,
            "decisions": [decision_out(d) for d in review.decisions],
            "seats": [seat_review_out(s) for s in review.seats],
            "score": score_out(rules, state.scores()) if state.finished else None,
            "budget_ms": budget_ms, "budget_cut": review.budget_cut}


def solve_out(state: DealState, bounds: dict[Play, tuple[int, int]], budget_ms: int) -> dict:
    """``/solve``'s answer for ``state`` and ``OpenValues.bounds``' answer: every legal move in ``/legal-moves``
    order with its value, or its bounds where the budget cut it, and the moves that are (or may still be) best."""
    highest = max(low for low, _ in bounds.values())
    exact = all(low == high for low, high in bounds.values())
    return {"rules": rules_out(state.rules), "seat": state.seat, "tricks_left": tricks_left(state),
            "exact": exact, "best": card_lists(move for move, (_, high) in bounds.items() if high >= highest),
            "values": [{"move": cards(move), "value": low if low == high else None, "lower": low, "upper": high,
                        "exact": low == high} for move, (low, high) in bounds.items()],
            "budget_ms": budget_ms}
