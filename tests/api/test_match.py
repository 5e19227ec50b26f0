"""POST /match (docs/rules.md §10) through the app: deals appended as ``/play``
answers them in ``record``, problems pointing into ``/deals/<n>/…`` (in Chinese
too), the bound on the number of deals, and the property that ties a match to
the single-deal operations: for random matches played to the end, its totals are
the sums of ``/score``, its ledger the sum of ``/ingots`` and its next leader
``/play``'s ``next_leader``."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gongzhu.rules import CARD_NAMES, Rules
from tests.rules.matches import deal_lead, pig_trick_winner, random_match

FIXED = dict(derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def names(rows):
    return [[CARD_NAMES[c] for c in row] for row in rows]


def record_body(record):
    return {"hands": names(record.hands), "exposed": names(record.exposed), "plays": names(record.plays)}


def play_to_the_end(client, rules_body, record, first_deal, leader):
    """The deal's last play sent to /play: its answer (score, next_leader, record)."""
    body = {**record_body(record), "rules": rules_body, "first_deal": first_deal}
    if leader is not None:
        body["leader"] = leader
    body["move"] = body["plays"].pop()
    answer = client.post("/play", json=body)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def summed(rows):
    return [sum(column) for column in zip(*rows, strict=True)] if rows else [0, 0, 0, 0]


@settings(max_examples=30, **FIXED)
@given(seed=st.integers(0, 2**32 - 1), decks=st.sampled_from((1, 2)), partnership=st.booleans(),
       rotation=st.booleans(), target=st.sampled_from((300, 1000)), multiplier=st.integers(1, 3),
       fee=st.integers(0, 10))
def test_match_is_the_sum_of_score_and_ingots_per_deal(client, seed, decks, partnership, rotation, target,
                                                       multiplier, fee):
    rules = Rules(decks=decks, partnership=partnership)
    rules_body = {"decks": decks, "partnership": partnership}
    leader_rule = "rotation" if rotation else "pig_taker"
    played = random_match(rules, seed, leader_rule=leader_rule, target=target, exposure=0.3)
    records, scores, ingots, next_leaders = [], [], [], []
    for number, record in enumerate(played.records):
        first_deal, leader = deal_lead(leader_rule, played.states[:number])
        answer = play_to_the_end(client, rules_body, record, first_deal, leader)
        records.append(answer["record"])
        next_leaders.append(answer["score"]["next_leader"])
        captured = answer["next"]["taken"]
        score = client.post("/score", json={"rules": rules_body, "captured": captured,
                                            "exposed": record_body(record)["exposed"]}).get_json()
        assert score["raw"] == answer["score"]["raw"]
        scores.append(score["normalized"])
        ingots.append(client.post("/ingots", json={"scores": score["raw"], "multiplier": multiplier,
                                                   "fee": fee}).get_json()["net"])
    options = {"rules": rules_body, "target": target, "leader_rule": leader_rule, "multiplier": multiplier,
               "fee": fee}
    match = client.post("/match", json={**options, "deals": records}).get_json()
    assert match["totals"] == summed(scores) == list(played.totals)
    assert match["ledger"] == summed(ingots)
    assert [d["totals"] for d in match["deals"]] == [summed(scores[:n + 1]) for n in range(len(scores))]
    assert match["finished"] == (played.ending_deal is not None)
    assert match.get("ending_deal") == played.ending_deal
    if leader_rule == "pig_taker":
        assert [d["leader"] for d in match["deals"][1:]] == next_leaders[:-1]
    if match["finished"] and len(records) > 1:
        before = client.post("/match", json={**options, "deals": records[:-1]}).get_json()
        assert not before["finished"]
        expected = next_leaders[-2] if leader_rule == "pig_taker" else (len(records) - 1) % 4
        assert before["next"] == {"first_deal": False, "leader": expected}
    elif not match["finished"]:
        expected = next_leaders[-1] if leader_rule == "pig_taker" else len(records) % 4
        assert match["next"] == {"first_deal": False, "leader": expected}


def test_records_from_play_append_to_a_match_and_a_deal_after_the_end_is_refused(client):
    played = random_match(Rules(), 2)
    records = []
    for number, record in enumerate(played.records):
        first_deal, leader = deal_lead("pig_taker", played.states[:number])
        records.append(play_to_the_end(client, {}, record, first_deal, leader)["record"])
    match = client.post("/match", json={"deals": records}).get_json()
    assert match["totals"] == [116, -686, 1021, -451]
    assert (match["finished"], match["ending_deal"], match["winners"]) == (True, 10, [2])
    assert "next" not in match
    over = client.post("/match", json={"deals": [*records, records[0]]})
    assert over.status_code == 422
    problem = over.get_json()
    assert problem["code"] == "match_over"
    assert [(e["pointer"], e["code"]) for e in problem["errors"]] == [("/deals/11", "match_over")]


def test_wrong_leader_in_deal_3_in_chinese(client):
    played = random_match(Rules(), 2, max_deals=5)
    deals = [record_body(r) for r in played.records]
    deals[3]["leader"] = 1
    answer = client.post("/match", json={"deals": deals}, headers={"Accept-Language": "zh"}).get_json()
    assert answer["code"] == "wrong_leader"
    assert [(e["pointer"], e["code"]) for e in answer["errors"]] == [("/deals/3/leader", "wrong_leader")]
    assert answer["detail"] == "第 3 局由座位 0 首引：它在第 2 局得到猪（两副牌时为第一只猪），而不是座位 1"


def test_an_unfinished_last_deal(client):
    played = random_match(Rules(), 4, max_deals=3, unfinished_plays=10)
    match = client.post("/match", json={"deals": [record_body(r) for r in played.records]}).get_json()
    last = match["deals"][-1]
    # the pig fell in the first ten plays: its taker is known, the deal's scores are not
    assert last == {"first_deal": False, "leader": 0, "finished": False, "pig_taker": 1,
                    "totals": [-486, 420, 34, 32], "ledger": match["deals"][2]["ledger"]}
    assert pig_trick_winner(played.states[-1]) == 1
    assert (match["finished"], match["totals"]) == (False, [-486, 420, 34, 32])
    assert "next" not in match and "winners" not in match


def test_at_most_200_deals(client):
    record = record_body(random_match(Rules(), 2, max_deals=1).records[0])
    answer = client.post("/match", json={"deals": [record] * 201}).get_json()
    assert answer["code"] == "schema_violation"
    assert [(e["pointer"], e["keyword"]) for e in answer["errors"]] == [("/deals", "maxItems")]


def test_play_answers_a_record_only_when_the_deal_ends(client):
    record = random_match(Rules(), 2, max_deals=1).records[0]
    body = {**record_body(record), "first_deal": True}
    move = body["plays"].pop()
    before = body["plays"].pop()
    middle = client.post("/play", json={**body, "move": before}).get_json()
    assert "record" not in middle and middle["score"] is None
    last = client.post("/play", json={**middle["state"], "move": move}).get_json()
    assert last["record"] == {"first_deal": True, "leader": 0, **record_body(record)}
