"""The operations answer exactly (rules.md §2, §6, §7). The worked examples of
rules.md §3–§6 are in openapi.yaml and checked, answer for answer, by
tests/contract/test_openapi.py; these cover what examples cannot show."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from gongzhu.api import contract, create_app
from gongzhu.rules import CARD_NAMES

from .deals import FULL_PLAYS, SEED1
from .problems import assert_problem

ONE_DECK = Counter(CARD_NAMES)
TWO_DECKS = ONE_DECK + ONE_DECK


def test_deal_with_seed_is_reproducible_and_documented(client):
    first = client.post("/deal", json={"seed": 1}).get_json()
    again = client.post("/deal", json={"seed": 1}).get_json()
    assert first == again
    assert first["hands"] == SEED1
    assert first["leader"] == 3 and "C2" in SEED1[3]


def test_deal_without_seed_is_a_fresh_full_deal(client):
    a = client.post("/deal", json={}).get_json()
    b = client.post("/deal", json={}).get_json()
    for dealt in (a, b):
        assert dealt["seed"] is None
        assert [len(h) for h in dealt["hands"]] == [13, 13, 13, 13]
        assert Counter(c for h in dealt["hands"] for c in h) == ONE_DECK
        assert "C2" in dealt["hands"][dealt["leader"]]
    # 52!/(13!)^4 deals: two equal ones mean the randomness is broken.
    assert a["hands"] != b["hands"]


def test_two_deck_deal(client):
    dealt = client.post("/deal", json={"rules": {"decks": 2}, "seed": 5}).get_json()
    assert [len(h) for h in dealt["hands"]] == [26, 26, 26, 26]
    assert Counter(c for h in dealt["hands"] for c in h) == TWO_DECKS
    assert dealt["rules"]["decks"] == 2


def test_later_deal_has_no_leader(client):
    dealt = client.post("/deal", json={"seed": 1, "first_deal": False}).get_json()
    assert dealt["leader"] is None and dealt["first_deal"] is False


def test_opening_card_option_decides_the_leader(client):
    dealt = client.post("/deal", json={"seed": 1, "rules": {"opening_card": "S7"}}).get_json()
    assert "S7" in dealt["hands"][dealt["leader"]]
    state = {"rules": {"opening_card": "S7"}, "hands": dealt["hands"]}
    moves = client.post("/legal-moves", json=state).get_json()
    assert moves["seat"] == dealt["leader"] and moves["moves"] == [["S7"]]


def test_play_echoes_the_state_as_sent_and_appends_the_move(client):
    body = {"rules": {"first_trick_ban": False}, "first_deal": True, "leader": 3,
            "hands": SEED1, "exposed": [[], [], [], []], "plays": [["C2"]], "move": ["C8"], "seat": 0}
    state = client.post("/play", json=body).get_json()["state"]
    assert state == {"rules": {"first_trick_ban": False}, "first_deal": True, "leader": 3,
                     "hands": SEED1, "exposed": [[], [], [], []], "plays": [["C2"], ["C8"]]}


def test_play_state_leaves_out_what_was_not_sent(client):
    state = client.post("/play", json={"hands": SEED1, "move": ["C2"]}).get_json()["state"]
    assert state == {"hands": SEED1, "plays": [["C2"]]}


def test_a_whole_deal_by_feeding_state_back(client):
    state = {"hands": SEED1}
    tricks = []
    for _number, move in enumerate(FULL_PLAYS):
        answer = client.post("/play", json={**state, "move": move}).get_json()
        state = answer["state"]
        if answer["trick"]:
            tricks.append(answer["trick"])
    assert len(tricks) == 13
    turn = answer["next"]
    assert (turn["seat"], turn["moves"], turn["finished"], turn["hand_sizes"]) == (None, [], True, [0, 0, 0, 0])
    score = answer["score"]
    assert turn["points"] == score["raw"]
    assert score["raw"] == [-260, 200, -40, 0]
    assert score["final"] == [-3756, 3600, -240, 396]
    assert sum(score["final"]) == 0
    pig_trick = next(t for t in tricks if "SQ" in t["points_cards"])
    assert score["next_leader"] == pig_trick["winner"] == 0
    taken = Counter(c for t in tricks for p in t["plays"] for c in p)
    assert taken == ONE_DECK


def test_legal_moves_mid_deal_reports_the_trick(client):
    answer = client.post("/legal-moves", json={"hands": SEED1, "plays": FULL_PLAYS[:6]}).get_json()
    assert answer == {"seat": 2, "moves": [["S3"], ["SA"]], "finished": False,
                      "trick_number": 1, "trick_leader": 0, "trick": [["S4"], ["S7"]],
                      "winning": 1, "taken": [["C2", "C3", "C4", "C8"], [], [], []], "points": [0, 0, 0, 0],
                      "hand_sizes": [11, 11, 12, 12], "exposed": [[], [], [], []]}


@pytest.mark.parametrize("points, name", [
    (-50, "猪小弟"), (-99_999, "猪小弟"), (9_999, "猪小弟"), (0, "猪小弟"),
    (10_000, "猪倌"), (-100_000, "微型猪"), (-300_000, "架子猪"), (-60_000_000, "八戒"),
    (250_000_000, "帝王"), (100_000_000, "帝王"), (99_999_999, "王爷"),
])
def test_title_for_points(client, points, name):
    answer = client.get(f"/ranks/{points}").get_json()
    assert answer["points"] == points
    assert answer["title"]["name"] == name


def test_title_ladder(client):
    titles = client.get("/ranks").get_json()["titles"]
    assert [t["name"] for t in titles] == [
        "八戒", "猪圣", "猪神", "猪王", "乳猪格格", "野猪", "架子猪", "微型猪", "猪小弟", "猪倌",
        "猎人", "屠夫", "饲养员", "优秀饲养员", "养猪专业户", "地主", "知县", "知州", "知府", "巡抚",
        "大学士", "宰相", "王爷", "帝王"]
    assert [t["points"] for t in titles] == sorted(t["points"] for t in titles)


def test_health_and_readiness(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}
    assert client.get("/readyz").get_json() == {"status": "ready"}


def test_not_ready_without_the_contract(monkeypatch):
    def missing():
        raise FileNotFoundError("openapi.yaml")

    monkeypatch.setattr(contract, "load_contract", missing)
    client = create_app().test_client()
    assert client.get("/healthz").status_code == 200
    assert_problem(client.get("/readyz"), 503, "not_ready")
    assert_problem(client.get("/openapi.yaml"), 500, "internal_error")
    # Without the contract there is nothing to validate against: no operation is served.
    assert_problem(client.post("/ingots", json={"scores": [0, 0, 0, 0]}), 404, "not_found")


def test_not_ready_with_a_contract_that_is_not_openapi_3_1(monkeypatch):
    monkeypatch.setattr(contract, "load_contract", lambda: b"openapi: 3.0.3\npaths: {}\n")
    assert_problem(create_app().test_client().get("/readyz"), 503, "not_ready")


def test_not_ready_with_a_contract_that_is_not_valid_openapi_when_asked_to_check(monkeypatch):
    text = b"openapi: 3.1.0\ninfo: {title: x}\npaths: {/a: {get: {responses: 7}}}\n"
    monkeypatch.setattr(contract, "load_contract", lambda: text)
    monkeypatch.setenv("GONGZHU_CHECK_CONTRACT", "1")
    assert_problem(create_app().test_client().get("/readyz"), 503, "not_ready")


def test_the_full_openapi_check_runs_at_start_up_only_when_asked(monkeypatch):
    """The packaged contract is checked by the tests (test_openapi.py), not on every start."""
    checked = []
    monkeypatch.setattr(contract, "check_contract", checked.append)
    monkeypatch.delenv("GONGZHU_CHECK_CONTRACT", raising=False)
    assert create_app().test_client().get("/readyz").status_code == 200
    assert checked == []
    monkeypatch.setenv("GONGZHU_CHECK_CONTRACT", "1")
    assert create_app().test_client().get("/readyz").status_code == 200
    assert [document["info"]["title"] for document in checked] == ["gongzhu-service"]


def test_contract_is_served_as_packaged(client):
    from gongzhu.api.contract import load_contract

    response = client.get("/openapi.yaml")
    assert response.status_code == 200
    assert response.mimetype == "application/yaml"
    assert response.data == load_contract()


def test_docs_load_nothing_from_outside(client):
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "://" not in html
    assets = re.findall(r'(?:src|href)="(/docs/[^"]+)"', html)
    assert len(assets) == 5
    for asset in assets:
        assert client.get(asset).status_code == 200, asset
    assert '"url": "/openapi.yaml"' in html
    assert '"validatorUrl": null' in html


def test_head_on_get_operations(client):
    response = client.head("/healthz")
    assert response.status_code == 200 and response.data == b""


def test_sorted_two_deck_hands_with_the_dealt_leader(client):
    # rules.md §2: an explicit first-deal leader stands when it holds C2 (either copy),
    # so a platform may send hands sorted as its UI shows them.
    dealt = client.post("/deal", json={"rules": {"decks": 2}, "seed": 2}).get_json()
    leader = dealt["leader"]
    order = {name: i for i, name in enumerate(c + r for c in "SHDC" for r in
                                                ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))}
    hands = [sorted(hand, key=order.__getitem__) for hand in dealt["hands"]]
    assert hands != dealt["hands"]
    body = {"rules": {"decks": 2}, "hands": hands, "leader": leader}
    answer = client.post("/legal-moves", json=body).get_json()
    assert answer["seat"] == leader
    assert answer["moves"] in ([["C2"]], [["C2"], ["C2", "C2"]])
    holders = [seat for seat, hand in enumerate(hands) if "C2" in hand]
    for seat in holders:
        assert client.post("/legal-moves", json={**body, "leader": seat}).get_json()["seat"] == seat
    # without leader the seat dealt the first C2 leads: read from the order of the hands sent
    sorted_leader = min(holders, key=lambda s: 4 * hands[s].index("C2") + s)
    assert client.post("/legal-moves", json={"rules": {"decks": 2}, "hands": hands}).get_json()["seat"] \
        == sorted_leader
    assert client.post("/legal-moves", json={"rules": {"decks": 2}, "hands": dealt["hands"]}).get_json()["seat"] \
        == leader
    outsider = next(seat for seat in range(4) if seat not in holders)
    refused = client.post("/legal-moves", json={**body, "leader": outsider})
    assert refused.status_code == 422
    assert refused.get_json()["code"] == "wrong_leader"
