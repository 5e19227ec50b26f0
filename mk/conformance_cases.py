"""Drafts the conformance case files (service/gongzhu/conformance/cases/*.json) from scenarios.

Run by a maintainer to write the files; the committed files are the source of truth, and a case is
changed by editing its file. This script only saves typing. For each scenario it sends the request
to our app in process and copies the fields the scenario names into the case, after checking them
against:

- the literal answer the scenario states where it was worked out by hand from docs/rules.md (the
  hard cases; the reasoning is the case's description), and
- the rules oracle (tests/rules/oracle.py, docs/rules.md read without the engine, the one the rules
  tests use): the seeded deal (§2), raw, normalized, final and partnership scores (§5, §6), ingots
  (§6) and the ranking of a trick (§4).

A disagreement stops the script: the engine or the oracle is wrong, and a person decides. ``make
test`` runs the check (tests/conformance/test_case_drafts.py).

    .venv/bin/python mk/conformance_cases.py            # rewrites the files
    .venv/bin/python mk/conformance_cases.py --check    # only checks, writes nothing
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "service" / "gongzhu" / "conformance" / "cases"
sys.path[:0] = [str(ROOT / "service"), str(ROOT)]

from gongzhu.api import create_app  # noqa: E402
from gongzhu.conformance.expect import MISSING, mismatches, resolve  # noqa: E402
from gongzhu.conformance.transport import Answer, in_process  # noqa: E402
from tests.rules import oracle  # noqa: E402  (the one independent reading of docs/rules.md, which make test runs)

SEND = in_process(create_app())
SUITS = "SHDC"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [s + r for s in SUITS for r in RANKS]
SPECIAL = ("SQ", "DJ", "C10", "HA")
FILES: dict[str, dict[str, Any]] = {}
IDS: set[str] = set()

WORDS = {
    "deal": "第一局游戏由得到 2 的一方首先出牌，并且必须出 2",
    "deal2": "第一局游戏由得到第一个 2 的一方首先出牌(由系统判断谁先得到第一张)，并且必须出 2",
    "later": "以后每局由上一局得到猪牌 (Q ) 的一方首先出牌",
    "opening": "持有黑桃2、黑桃3、黑桃7或梅花2的先出（视各地情况而定）",
    "must_lead": "有的人还规定，持有这些牌张的人在首引时必须出相应的牌",
    "ban": "但第一轮牌里，不允许出猪、变压器",
    "rotation": "以四副牌为一个轮转周期，第一副牌由北家首引，第二副牌由西家首引，第三副牌由南家首引，第四副牌由东家首引",  # noqa: E501 (a quotation)
    "expose": "开始出牌前，玩家将手中的猪 (Q) 、羊 (J ) 、变压器 (10 ) 、 A 亮出来，这些牌的分值加倍",
    "auto": "在一副牌的 4 张中如果有 3 张已经亮过，则第 4 张自动亮出来",
    "exposed_play": "亮过的牌不能在该花色首轮出牌时出，但在出其他花色时可以垫。玩家该花色只有一张牌时，则不论是否亮过都必须出",  # noqa: E501 (a quotation)
    "exposed_copy": "如果 Q 只亮过一张，则亮过的这张首轮不能出，没亮过的那张可以出",
    "follow": "后面的玩家必须和首家出相同花色的牌，如果没有该花色，可以垫其他花色的牌",
    "discard_low": "一轮出牌后，最大方得到该轮的所有分牌，垫其他花色者算最小",
    "pair_lead": "首家出牌的可以出一张或者一对",
    "pair_follow": "后面的玩家该花色如果有对必须跟对",
    "pair_rank": "对 三门牌，对子小于两张单牌。 牌中，对子大于两张单牌",
    "hearts": "2 、 3 、 4 算 0 分。5 、 6 、 7 、 8 、 9 、 10 每个负 10 分。J 负 20 ， Q 负 30 ， K 负 40 ， A 负 50",
    "pig": "“猪”Q 是负 100 分，如果卖过则是负 200 分",
    "sheep": "“羊”J 是正 100 分，如果卖过则是正 200 分",
    "ha": "如果 A 卖过，则所有红桃的分数加倍",
    "transformer": "得到 “变压器”10 的玩家，手中其他牌的分数之和 *2 ，如果 10 卖过，则 *4",
    "transformer_alone": "如果玩家手中除了 10 没有其他分牌，则得正 50 分，如果卖过则得正 100 分",
    "transformer_zero": "如果除了 10 ，还有其他分牌，且其他分数之和为 0 ，则总分数记为 0",
    "all_hearts": "注意要收齐 13 张红桃，包括 2 、 3 、 4 。 一副牌的情况下：此时得到正 200 分。如果 A 亮过牌，则得正 400 分",  # noqa: E501 (a quotation)
    "grand_slam": "如果一方在一轮游戏结束时将全部含有分值的牌都收齐了，称为满贯。一副牌的情况下，得 800 分。如果有亮牌，则相应加倍计算",  # noqa: E501 (a quotation)
    "two_decks_exposure": "Q 亮了一张后，两张 Q 的分数都为负 200 ，如果两张都亮了，则每张的分为负 400",
    "two_decks_transformer": "10 亮了一张后，得任意一张分数 * 4 ，两张都得，分数 * 8",
    "two_decks_all_hearts": "注意必须把两副牌 26 张红桃全部收齐。此时得正 400 分。如果 A 亮过一张牌，则得正 800 分，如果两张 A 都亮过，则得正 1600 分",  # noqa: E501 (a quotation)
    "two_decks_grand_slam": "注意必须把两副牌的都收齐。得 1600 分。如果有亮牌，则相应加倍计算",
    "normalize": "某玩家最后得分 = 该玩家原始分 – ( 其他 3 家原始分之和 ) / 3",
    "times12": "一副牌拱猪的得分都乘 12 再加到玩家的积分中去",
    "partnership": "处理后 A 、 C 的得分都是 (a+c-(b+d))/2 ， B 和 D 的得分都是 (b+d-(a+c))/2 。如果是一副牌，还要将分数都 *12",  # noqa: E501 (a quotation)
    "ingots": "由负分最少的人赢其他所有人，并且赢家分别和每一个人计算分差，然后乘以房间倍数",
    "ingots_tie": "当有多人负分最少时，则有多个赢家，各自计算输赢",
    "fee": "注：以上计算结果不包含房间每局扣除的元宝",
    "claim": "在一副牌未打完之前，某位牌手出于缩短打牌过程等考虑，就把自己手中的未出牌张明亮出来，并声明自本圈牌之后有分值牌张的归属，谓声称",  # noqa: E501 (a quotation)
    "match_end": "拱猪时力争多得正分或少得负分，一般某人得到正一千分或负一千分",
    "two_decks_later": "以后每局由上一局第一个得到猪牌 (Q ) 的一方首先出牌",
    "rank": "大小按如下顺序递减： A 、 K 、 Q 、 J 、 10 、 9 、 8 、 7 、 6 、 5 、 4 、 3 、 2",
}


# ---------------------------------------------------------------- talking to the app


def call(
    method: str, path: str, body: Any = None, headers: dict[str, str] | None = None, **extra: Any
) -> tuple[dict[str, Any], Answer]:
    request: dict[str, Any] = {"method": method, "path": path}
    if headers:
        request["headers"] = headers
    if body is not None:
        request["body"] = body
    request.update(extra)
    return request, SEND(request)


def post(path: str, body: Any) -> Any:
    _, answer = call("POST", path, body)
    assert answer.status == 200, (path, answer.body[:500])
    return json.loads(answer.body)


def add(
    file: str,
    case_id: str,
    description: str,
    section: str,
    tags: list[str],
    request: dict[str, Any],
    answer: Answer,
    *,
    equal: tuple[str, ...] = (),
    unordered: tuple[str, ...] = (),
    words: str | None = None,
    hand: dict[str, Any] | None = None,
    problem_errors: bool = True,
    headers: dict[str, str] | None = None,
) -> None:
    """One case: the pinned fields of ``answer``; ``hand`` (an expect worked out by hand) must agree."""
    assert case_id not in IDS, case_id
    IDS.add(case_id)
    body = json.loads(answer.body) if answer.body[:1] in (b"{", b"[") else None
    expect: dict[str, Any] = {"status": answer.status}
    if equal:
        expect["equal"] = {p: resolve(body, p) for p in equal}
    if unordered:
        expect["unordered"] = {p: resolve(body, p) for p in unordered}
    if answer.status >= 400:
        problem: dict[str, Any] = {"code": body["code"]}
        if problem_errors and "errors" in body:
            problem["errors"] = [{"pointer": e["pointer"], "code": e["code"]} for e in body["errors"]]
        expect["problem"] = problem
    if headers:
        expect["headers"] = headers
    if hand is not None:
        faults = mismatches(hand, answer)
        assert not faults, (case_id, faults)
        for key, value in hand.items():
            if key == "status":
                continue
            if isinstance(value, dict) and isinstance(expect.get(key), dict):
                expect[key] = {**expect[key], **value}
            else:
                expect[key] = value
    faults = mismatches(expect, answer)
    assert not faults, (case_id, faults)
    source = {"section": section}
    if words:
        source["words"] = WORDS.get(words, words)
    FILES[file]["cases"].append(
        {
            "id": case_id,
            "description": description,
            "source": source,
            "tags": tags,
            "request": request,
            "expect": expect,
        }
    )


def new_file(name: str, description: str) -> None:
    FILES[name] = {"description": description, "cases": []}


# ---------------------------------------------------------------- the oracle's reading of rules.md, by card name


def card_numbers(cards: list[str]) -> list[int]:
    return [DECK.index(card) for card in cards]


def deal_hands(seed: int | str, decks: int) -> list[list[str]]:
    """rules.md §2, "Seeds"."""
    return [[DECK[card] for card in hand] for hand in oracle.seeded_deal(seed, decks)]


def raw_score(taken: list[str], exposed: list[str], decks: int, flips: bool = False) -> int:
    """rules.md §5 for one seat; ``exposed`` every exposed copy at the table."""
    # who holds an automatically exposed fourth card does not change a score: the whole deck as one seat's
    shown = oracle.effective_exposure(decks, [oracle.deck(decks)], [card_numbers(exposed)])
    return oracle.raw_score(decks, card_numbers(taken), oracle.exposure_counts(shown), pig_flips=flips)


def normalized(raw: list[int]) -> list[int]:
    """rules.md §6: r - (others)/3 by the largest remainder, ties to the lower seat."""
    return list(oracle.normalize(raw))


def final(raw: list[int], decks: int, partners: bool) -> list[int]:
    return list(oracle.final_scores(decks, partners, raw))


def ingots(scores: list[int], multiplier: int = 1, fee: int = 0) -> dict[str, Any]:
    winners, net, _ = oracle.ingots(scores, multiplier, fee)
    return {"winners": winners, "net": list(net)}


def trick_ranking(leader: int, plays: list[list[str]]) -> list[int]:
    """rules.md §4: best first; discards last in play order; exact ties to the earlier play."""
    return oracle.trick_ranking([((leader + i) % 4, tuple(card_numbers(play))) for i, play in enumerate(plays)])


# ---------------------------------------------------------------- walking deals through the API


def deal_state(hands, plays, rules=None, exposed=None, first_deal=None, leader=None) -> dict[str, Any]:
    state: dict[str, Any] = {}
    if rules:
        state["rules"] = rules
    if first_deal is not None:
        state["first_deal"] = first_deal
    if leader is not None:
        state["leader"] = leader
    state["hands"] = hands
    if exposed:
        state["exposed"] = exposed
    state["plays"] = plays
    return state


def walk(state: dict[str, Any], rng: random.Random, steps: int) -> list[list[str]]:
    """``steps`` more plays from ``state``, each a random legal move (fewer if the deal ends)."""
    plays = list(state["plays"])
    for _ in range(steps):
        turn = post("/legal-moves", {**state, "plays": plays})
        if turn["finished"]:
            break
        plays.append(rng.choice(turn["moves"]))
    return plays


def random_exposure(hands: list[list[str]], rng: random.Random, decks: int) -> list[list[str]]:
    exposed: list[list[str]] = [[], [], [], []]
    for seat, hand in enumerate(hands):
        for card in SPECIAL:
            for _ in range(hand.count(card)):
                if rng.random() < 0.5:
                    exposed[seat].append(card)
    return exposed


def build_hands(decks: int, fixed: dict[int, list[str]], rng: random.Random) -> list[list[str]]:
    """Hands with ``fixed`` cards for some seats, the rest of the deck(s) dealt at random."""
    size = 13 * decks
    rest = [card for card in DECK for _ in range(decks)]
    for cards in fixed.values():
        for card in cards:
            rest.remove(card)
    rng.shuffle(rest)
    hands = []
    for seat in range(4):
        hand = list(fixed.get(seat, []))
        while len(hand) < size:
            hand.append(rest.pop())
        hands.append(hand)
    return hands


def rules_for(decks: int, **options: Any) -> dict[str, Any]:
    return {"decks": 2, **options} if decks == 2 else dict(options)


def deck_tag(decks: int) -> str:
    return "two-decks" if decks == 2 else "one-deck"


def dn(decks: int) -> str:
    return f"{decks}d"


# ---------------------------------------------------------------- §1 cards


def cards_cases() -> None:
    new_file("cards.json", "rules.md §1: card notation.")
    for i, bad in enumerate(["sq", "S1", "10C", "ST", "SQ ", "H11", "X2", "c10"]):
        request, answer = call("POST", "/score", {"captured": [[bad], [], [], []]})
        add(
            "cards.json",
            f"cards-notation-rejected-{i}",
            f"{bad!r} is not a card: suit letter then rank, upper case.",
            "rules.md §1 Cards",
            ["one-deck", "problems", "cards"],
            request,
            answer,
            hand={
                "status": 422,
                "problem": {
                    "code": "schema_violation",
                    "errors": [{"pointer": "/captured/0/0", "code": "schema_violation"}],
                },
            },
        )
    for decks, taken in ((1, ["SQ", "SQ"]), (2, ["SQ", "SQ", "SQ"])):
        request, answer = call("POST", "/score", {"rules": rules_for(decks), "captured": [taken, [], [], []]})
        add(
            "cards.json",
            f"cards-{dn(decks)}-pig-too-often",
            f"{len(taken)} pigs captured with {decks} deck(s): each card exists once a deck.",
            "rules.md §1 Cards",
            [deck_tag(decks), "problems", "cards"],
            request,
            answer,
            hand={"status": 422, "problem": {"code": "duplicate_card"}},
        )
    request, answer = call("POST", "/score", {"rules": {"decks": 2}, "captured": [["SQ", "SQ"], [], [], []]})
    add(
        "cards.json",
        "cards-2d-two-pigs-are-two-copies",
        "Two decks: the two copies of SQ are identical cards; one seat may take both: -100 a copy, raw -200.",
        "rules.md §1 Cards",
        ["two-decks", "cards"],
        request,
        answer,
        hand={"status": 200, "equal": {"/raw": [-200, 0, 0, 0]}},
    )


# ---------------------------------------------------------------- §2 dealing and the first lead


def first_c2_holder(hands: list[list[str]]) -> int:
    positions = [4 * k + s for s in range(4) for k, c in enumerate(hands[s]) if c == "C2"]
    return min(positions) % 4


def deal_cases() -> None:
    new_file("deal.json", "rules.md §2: the seeded deal and the first lead, with every opening option.")
    for decks in (1, 2):
        for seed in [0, 1, 2, 7, 42, 2026, 9007199254740991] + (
            ["3f" * 32, "ABCDEF0123456789" * 4] if decks == 1 else ["00" * 32]
        ):
            body = {"seed": seed} if decks == 1 else {"rules": {"decks": 2}, "seed": seed}
            request, answer = call("POST", "/deal", body)
            hands = deal_hands(seed, decks)
            label = seed if isinstance(seed, int) else f"hex-{seed[:4].lower()}"
            add(
                "deal.json",
                f"deal-{dn(decks)}-seed-{label}",
                "The seeded deal (SHA-256 stream, Fisher-Yates from the end, position p to seat p mod 4), "
                "re-derived independently of the engine; the leader is the seat dealt the first C2.",
                "rules.md §2 Dealing, Seeds",
                [deck_tag(decks), "deal", "first-lead"],
                request,
                answer,
                equal=("/first_deal",),
                words="deal2" if decks == 2 else "deal",
                hand={
                    "status": 200,
                    "equal": {
                        "/hands": hands,
                        "/leader": first_c2_holder(hands),
                        "/seed": seed.lower() if isinstance(seed, str) else seed,
                    },
                },
            )
    for decks in (1, 2):
        for seed in range(1, 9):
            hands = deal_hands(seed, decks)
            leader = first_c2_holder(hands)
            state = deal_state(hands, [], rules_for(decks) or None)
            request, answer = call("POST", "/legal-moves", state)
            moves = [["C2"]] + ([["C2", "C2"]] if hands[leader].count("C2") == 2 else [])
            add(
                "deal.json",
                f"first-lead-{dn(decks)}-seed-{seed}",
                "The first deal's first lead: the holder of C2 (two decks: of the first C2 dealt) must lead it "
                "(two decks: C2 or the pair C2 C2 when it holds both).",
                "rules.md §2 First lead",
                [deck_tag(decks), "first-lead"],
                request,
                answer,
                words="deal2" if decks == 2 else "deal",
                equal=("/trick_number",),
                hand={"status": 200, "equal": {"/seat": leader}, "unordered": {"/moves": moves}},
            )
    rng = random.Random(21)
    for decks in (1, 2):
        for card in ("S2", "S3", "S7", "C2"):
            hands = build_hands(decks, {}, rng)
            holder = first_dealt(hands, card)
            for must in (True, False):
                rules = rules_for(decks, opening_card=card, must_lead_opening_card=must)
                request, answer = call("POST", "/legal-moves", deal_state(hands, [], rules))
                if must:
                    moves = [[card]] + ([[card, card]] if hands[holder].count(card) == 2 else [])
                    hand = {"status": 200, "equal": {"/seat": holder}, "unordered": {"/moves": moves}}
                else:
                    hand = {"status": 200, "equal": {"/seat": holder}}
                add(
                    "deal.json",
                    f"opening-{dn(decks)}-{card.lower()}-{'must' if must else 'free'}",
                    f"opening_card {card}, must_lead_opening_card {str(must).lower()}: its holder leads"
                    + (
                        " and must lead it."
                        if must
                        else ", any card of its hand (every single" + (" and every pair" if decks == 2 else "") + ")."
                    ),
                    "rules.md §2 Rule options",
                    [deck_tag(decks), "first-lead", "variants"],
                    request,
                    answer,
                    unordered=() if must else ("/moves",),
                    words="must_lead" if must else "opening",
                    hand=hand,
                )
    for decks in (1, 2):
        for n in range(1, 9):
            hands = deal_hands(100 + n, decks)
            state = deal_state(hands, [], rules_for(decks) or None, first_deal=False, leader=(n - 1) % 4)
            request, answer = call("POST", "/legal-moves", state)
            add(
                "deal.json",
                f"rotation-{dn(decks)}-deal-{n}",
                f"固定首引人: deal {n} of a match is led by seat ({n} - 1) mod 4 = {(n - 1) % 4}, any card "
                "(first_deal false lifts the opening-card rules).",
                "rules.md §2 Fixed first leader",
                [deck_tag(decks), "first-lead", "variants"],
                request,
                answer,
                unordered=("/moves",),
                words="rotation",
                hand={"status": 200, "equal": {"/seat": (n - 1) % 4}},
            )
    for decks in (1, 2):
        hands = deal_hands(5, decks)
        request, answer = call(
            "POST", "/legal-moves", deal_state(hands, [], rules_for(decks) or None, first_deal=False)
        )
        add(
            "deal.json",
            f"later-deal-{dn(decks)}-missing-leader",
            "A later deal (first_deal false) must say who leads: the previous deal's pig taker.",
            "rules.md §2 Later deals",
            [deck_tag(decks), "first-lead", "problems"],
            request,
            answer,
            words="later",
            hand={"status": 422, "problem": {"code": "missing_leader"}},
        )
        wrong = next(s for s in range(4) if "C2" not in hands[s])
        request, answer = call("POST", "/legal-moves", deal_state(hands, [], rules_for(decks) or None, leader=wrong))
        add(
            "deal.json",
            f"first-deal-{dn(decks)}-wrong-leader",
            f"First deal led by seat {wrong}, which holds no C2.",
            "rules.md §2 Decisions",
            [deck_tag(decks), "first-lead", "problems"],
            request,
            answer,
            words="deal",
            hand={
                "status": 422,
                "problem": {"code": "wrong_leader", "errors": [{"pointer": "/leader", "code": "wrong_leader"}]},
            },
        )
    # two decks, C2 split between two seats: either holder may be named; without leader, the first dealt
    for seed in range(1, 40):
        hands = deal_hands(seed, 2)
        holders = [s for s in range(4) if "C2" in hands[s]]
        if len(holders) == 2:
            break
    for holder in holders:
        sorted_hands = [sorted(h) for h in hands]
        request, answer = call("POST", "/legal-moves", deal_state(sorted_hands, [], {"decks": 2}, leader=holder))
        add(
            "deal.json",
            f"first-deal-2d-either-c2-holder-{holder}",
            f"Two decks, seed {seed}: C2 is held by seats "
            f"{holders[0]} and {holders[1]}; a first deal sent with sorted hands may name either as leader.",
            "rules.md §2 Decisions",
            ["two-decks", "first-lead"],
            request,
            answer,
            hand={"status": 200, "equal": {"/seat": holder}, "unordered": {"/moves": [["C2"]]}},
        )
    request, answer = call("POST", "/legal-moves", deal_state(hands, [], {"decks": 2}))
    add(
        "deal.json",
        "first-deal-2d-first-dealt-c2-leads",
        f"Two decks, seed {seed}, hands in the order dealt and no "
        f"leader: card k of seat s is dealt at 4k + s; the first C2 dealt is seat {first_c2_holder(hands)}'s.",
        "rules.md §2 First lead",
        ["two-decks", "first-lead"],
        request,
        answer,
        words="deal2",
        hand={"status": 200, "equal": {"/seat": first_c2_holder(hands)}},
    )


def first_dealt(hands: list[list[str]], card: str) -> int:
    return min(4 * k + s for s in range(4) for k, c in enumerate(hands[s]) if c == card) % 4


# ---------------------------------------------------------------- §3 exposure


def spades_hand_case() -> list[list[str]]:
    """rules.md Example 3.1's hands: South (2) holds SQ S9 S3, East (1) S5, North (0) the other spades."""
    spades = [c for c in DECK if c[0] == "S" and c not in ("SQ", "S9", "S3", "S5")]
    others = [c for c in DECK if c[0] != "S"]
    return [spades + others[22:26], ["S5"] + others[10:22], ["SQ", "S9", "S3"] + others[:10], others[26:]]


def exposure_cases() -> None:
    f = "exposure.json"
    new_file(f, "rules.md §3: exposures (亮牌), the automatic fourth card and the play restriction.")
    rng = random.Random(3)
    for i in range(12):
        hands = deal_hands(300 + i, 1)
        exposed = [[c for c in SPECIAL if c in hands[s] and rng.random() < 0.7] for s in range(4)]
        request, answer = call("POST", "/exposures", {"hands": hands, "exposed": exposed})
        shown = sum(map(len, exposed))
        add(
            f,
            f"exposures-1d-{i}",
            f"One deck, {shown} of SQ DJ C10 HA exposed"
            + (
                ": the fourth is exposed automatically for whoever holds it."
                if shown == 3
                else ": no automatic card (only three exposed make the fourth automatic)."
            ),
            "rules.md §3 Exposure",
            ["one-deck", "exposure"],
            request,
            answer,
            equal=("/exposed", "/automatic", "/values", "/transformer_factor"),
            words="auto",
        )
    for i in range(8):
        hands = deal_hands(320 + i, 2)
        exposed = [[c for c in SPECIAL for _ in range(hands[s].count(c)) if rng.random() < 0.6] for s in range(4)]
        request, answer = call("POST", "/exposures", {"rules": {"decks": 2}, "hands": hands, "exposed": exposed})
        add(
            f,
            f"exposures-2d-{i}",
            "Two decks: exposure is per copy and there is no automatic card.",
            "rules.md §3 Exposure",
            ["two-decks", "exposure"],
            request,
            answer,
            equal=("/exposed", "/automatic", "/values", "/transformer_factor"),
            words="two_decks_exposure",
            hand={"status": 200, "equal": {"/automatic": []}},
        )
    # the automatic fourth, by hand
    hands = deal_hands(1, 1)  # seat 0 SQ HA, seat 2 C10, seat 3 DJ (rules.md §3)
    request, answer = call("POST", "/exposures", {"hands": hands, "exposed": [["SQ", "HA"], [], [], ["DJ"]]})
    add(
        f,
        "exposures-1d-automatic-fourth-readme",
        "rules.md §3's example: SQ and HA (seat 0) and DJ (seat 3) "
        "exposed make C10, held by seat 2, exposed automatically; its value doubles to +100 alone and the "
        "transformer factor becomes 4.",
        "rules.md §3 Exposure",
        ["one-deck", "exposure", "transformer"],
        request,
        answer,
        words="auto",
        hand={
            "status": 200,
            "equal": {
                "/exposed": [["SQ", "HA"], [], ["C10"], ["DJ"]],
                "/automatic": [{"seat": 2, "card": "C10"}],
                "/values": {"SQ": -200, "DJ": 200, "C10": 100, "HA": -100},
                "/transformer_factor": 4,
            },
        },
    )
    for i, (seat, bad, why) in enumerate(
        [(0, "DJ", "not held"), (0, "S5", "not exposable"), (1, "HA", "not held"), (2, "C2", "not exposable")]
    ):
        exposed: list[list[str]] = [[], [], [], []]
        exposed[seat] = [bad]
        request, answer = call("POST", "/exposures", {"hands": hands, "exposed": exposed})
        add(
            f,
            f"exposures-1d-illegal-{i}",
            f"Seat {seat} exposes {bad}: {why}.",
            "rules.md §3 Exposure",
            ["one-deck", "exposure", "problems"],
            request,
            answer,
            words="expose",
            hand={
                "status": 422,
                "problem": {
                    "code": "illegal_exposure",
                    "errors": [{"pointer": f"/exposed/{seat}/0", "code": "illegal_exposure"}],
                },
            },
        )
    # Example 3.1 and its variations
    hands = spades_hand_case()
    base = dict(hands=hands, first_deal=False, leader=1)
    request, answer = call("POST", "/legal-moves", {**base, "exposed": [[], [], ["SQ"], []], "plays": [["S5"]]})
    add(
        f,
        "exposed-1d-example-3-1",
        "rules.md Example 3.1: South exposed SQ and holds SQ S9 S3; East leads S5 in "
        "the first spade trick: South may play only S3 or S9.",
        "rules.md §3 Play restriction",
        ["one-deck", "exposure"],
        request,
        answer,
        words="exposed_play",
        hand={"status": 200, "equal": {"/seat": 2}, "unordered": {"/moves": [["S3"], ["S9"]]}},
    )
    request, answer = call("POST", "/legal-moves", {**base, "plays": [["S5"]]})
    add(
        f,
        "exposed-1d-example-3-1-unexposed",
        "Example 3.1 without the exposure: SQ S9 S3 all legal.",
        "rules.md §3 Play restriction",
        ["one-deck", "exposure"],
        request,
        answer,
        hand={"status": 200, "unordered": {"/moves": [["S3"], ["S9"], ["SQ"]]}},
    )
    request, answer = call(
        "POST", "/play", {**base, "exposed": [[], [], ["SQ"], []], "plays": [["S5"]], "move": ["SQ"]}
    )
    add(
        f,
        "exposed-1d-example-3-1-refused",
        "Example 3.1: playing the exposed SQ in the first spade round while S9 and S3 are held is refused.",
        "rules.md §3 Play restriction",
        ["one-deck", "exposure", "problems"],
        request,
        answer,
        words="exposed_play",
        hand={
            "status": 422,
            "problem": {
                "code": "exposed_card_first_round",
                "errors": [{"pointer": "/move", "code": "exposed_card_first_round"}],
            },
        },
    )
    # only card of the suit: must be played although exposed
    only = [
        [c for c in DECK if c[0] == "S" and c not in ("SQ", "S5")] + [c for c in DECK if c[0] == "D"][:2],
        ["S5"] + [c for c in DECK if c[0] == "D"][2:13] + ["C3"],
        ["SQ"] + [c for c in DECK if c[0] == "H"][:12],
        [c for c in DECK if c[0] == "C" and c != "C3"] + ["HA"],
    ]
    request, answer = call(
        "POST",
        "/legal-moves",
        {"hands": only, "first_deal": False, "leader": 1, "exposed": [[], [], ["SQ"], []], "plays": [["S5"]]},
    )
    add(
        f,
        "exposed-1d-only-card-of-suit",
        "South's only spade is its exposed SQ: it must play it in the first "
        "spade round (R: 玩家该花色只有一张牌时，则不论是否亮过都必须出).",
        "rules.md §3 Play restriction",
        ["one-deck", "exposure"],
        request,
        answer,
        words="exposed_play",
        hand={"status": 200, "unordered": {"/moves": [["SQ"]]}},
    )
    # discard of an exposed card on another suit
    disc = [
        [c for c in DECK if c[0] == "C"],
        [c for c in DECK if c[0] == "D"],
        ["SQ"] + [c for c in DECK if c[0] == "H"][:12],
        [c for c in DECK if c[0] == "S" and c != "SQ"] + ["HA"],
    ]
    request, answer = call(
        "POST",
        "/legal-moves",
        {"hands": disc, "first_deal": False, "leader": 1, "exposed": [[], [], ["SQ"], []], "plays": [["D5"]]},
    )
    add(
        f,
        "exposed-1d-discard-allowed",
        "South, void in diamonds, may discard its exposed SQ on a diamond lead "
        "(R: 但在出其他花色时可以垫): all 13 cards are legal.",
        "rules.md §3 Play restriction",
        ["one-deck", "exposure"],
        request,
        answer,
        words="exposed_play",
        hand={"status": 200, "unordered": {"/moves": [[c] for c in disc[2]]}},
    )
    # leading an exposed card: only if no unexposed card of the suit
    lead = [
        ["SQ", "S2"] + [c for c in DECK if c[0] == "H"][:11],
        [c for c in DECK if c[0] == "D"],
        [c for c in DECK if c[0] == "C"],
        [c for c in DECK if c[0] == "S" and c not in ("SQ", "S2")] + [c for c in DECK if c[0] == "H"][11:],
    ]
    request, answer = call(
        "POST",
        "/legal-moves",
        {"hands": lead, "first_deal": False, "leader": 0, "exposed": [["SQ"], [], [], []], "plays": []},
    )
    moves = [["S2"]] + [[c] for c in lead[0][2:]]
    add(
        f,
        "exposed-1d-lead-held-back",
        "Seat 0 leads, holds SQ (exposed) and S2: spades not led yet, so the "
        "exposed SQ may not be led while the unexposed S2 is held; S2 and every heart are legal.",
        "rules.md §3 Decision",
        ["one-deck", "exposure"],
        request,
        answer,
        words="exposed_play",
        hand={"status": 200, "unordered": {"/moves": moves}},
    )
    # second round of spades: the exposed SQ is free
    state = {**base, "exposed": [[], [], ["SQ"], []]}
    plays = [["S5"], ["S3"]]
    plays += walk_to_seat(state, plays, 0) + [["SA"], ["S2"]]
    plays += walk_to_seat(state, plays, 2)
    request, answer = call("POST", "/legal-moves", {**state, "plays": plays})
    add(
        f,
        "exposed-1d-second-round-free",
        "Example 3.1 played on: South follows S5 with S3, North wins with SA "
        "and leads S2; in this second spade round the exposed SQ is free: South may play S9 or SQ.",
        "rules.md §3 Play restriction",
        ["one-deck", "exposure"],
        request,
        answer,
        words="exposed_play",
        hand={"status": 200, "equal": {"/seat": 2}, "unordered": {"/moves": [["S9"], ["SQ"]]}},
    )
    # two decks: an exposed and an unexposed copy
    hearts = [c for c in DECK if c[0] == "H"] * 2
    two = build_hands(2, {0: ["SQ", "SQ", "S3"] + hearts[:23], 1: ["S5", "S5", "S6"]}, random.Random(8))
    for exp, lead_play, label in (
        (["SQ"], ["S5"], "single"),
        (["SQ"], ["S5", "S5"], "pair"),
        (["SQ", "SQ"], ["S5"], "both-single"),
        (["SQ", "SQ"], ["S5", "S5"], "both-pair"),
    ):
        state = {
            "rules": {"decks": 2},
            "hands": two,
            "first_deal": False,
            "leader": 1,
            "exposed": [exp, [], [], []],
            "plays": [],
        }
        state["plays"] = [lead_play] + walk_to_seat(state, [lead_play], 0)
        request, answer = call("POST", "/legal-moves", state)
        add(
            f,
            f"exposed-2d-copy-{label}",
            f"Two decks: seat 0 holds SQ SQ S3 with {len(exp)} SQ exposed; "
            f"spades are led for the first time ({' '.join(lead_play)}). In the first round of a suit the exposed "
            "copies are held back: the follow rules apply to the unexposed cards, exposed copies coming back only "
            "as far as those are too few.",
            "rules.md §3 Decision",
            ["two-decks", "exposure"] + (["pairs"] if len(lead_play) == 2 else []),
            request,
            answer,
            words="exposed_copy",
            unordered=("/moves",),
            equal=("/seat",),
        )


def walk_to_seat(state: dict[str, Any], plays: list[list[str]], seat: int) -> list[list[str]]:
    """The lowest-card plays of the seats between the leader and ``seat`` (their first legal move)."""
    more: list[list[str]] = []
    while True:
        turn = post("/legal-moves", {**state, "plays": plays + more})
        if turn["seat"] == seat:
            return more
        more.append(turn["moves"][0])


# ---------------------------------------------------------------- §4 play


def position_cases(
    f: str,
    decks: int,
    count: int,
    seed0: int,
    rng: random.Random,
    *,
    exposures: bool,
    options: dict[str, Any] | None = None,
    tag: str = "play",
) -> None:
    """Legal moves at random points of seeded deals played at random."""
    for i in range(count):
        seed = seed0 + i
        hands = deal_hands(seed, decks)
        exposed = random_exposure(hands, rng, decks) if exposures else None
        rules = rules_for(decks, **(options or {})) or None
        state = deal_state(hands, [], rules, exposed)
        steps = rng.randrange(1, 13 * decks * 4 - 1) if rng.random() < 0.7 else rng.randrange(1, 12)
        state["plays"] = walk(state, rng, steps)
        request, answer = call("POST", "/legal-moves", state)
        body = json.loads(answer.body)
        if body["finished"]:
            continue
        words = "pair_follow" if decks == 2 and len(body["trick"][:1] and body["trick"][0]) == 2 else "follow"
        lead = body["trick"][0] if body["trick"] else None
        tags = [deck_tag(decks), tag] + (["exposure"] if exposures else []) + (["variants"] if options else [])
        if lead and len(lead) == 2:
            tags.append("pairs")
        add(
            f,
            f"{tag}-{dn(decks)}-{'exposed-' if exposures else ''}{'-'.join(sorted(options or {})).replace('_', '-')}"
            f"{'-' if options else ''}seed-{seed}-play-{len(state['plays'])}",
            f"Seed {seed}, after {len(state['plays'])} random legal plays"
            + (f" with exposures {exposed}" if exposures else "")
            + (f", rules {options}" if options else "")
            + (
                f": trick {body['trick_number'] + 1}, {' '.join(lead)} led"
                if lead
                else f": seat {body['seat']} leads trick {body['trick_number'] + 1}"
            )
            + ". The legal moves (as a set), the trick's winner so far and the running state.",
            "rules.md §4 Play" if not exposures else "rules.md §3 Play restriction",
            tags,
            request,
            answer,
            words=words if not exposures else "exposed_play",
            equal=("/seat", "/trick_number", "/trick_leader", "/winning", "/points", "/hand_sizes", "/finished"),
            unordered=("/moves",),
        )


def trick_cases() -> None:
    f = "tricks.json"
    new_file(f, "rules.md §4: ranking a trick (POST /trick), one and two decks, pairs, discards and ties.")
    rng = random.Random(4)
    for i in range(16):
        leader = rng.randrange(4)
        deck = list(DECK)
        rng.shuffle(deck)
        suit = rng.choice(SUITS)
        lead = next(c for c in deck if c[0] == suit)
        deck.remove(lead)
        plays = [[lead]]
        for _ in range(3):
            card = deck[0] if rng.random() < 0.4 else next(c for c in deck if c[0] == suit)
            deck.remove(card)
            plays.append([card])
        request, answer = call("POST", "/trick", {"leader": leader, "plays": plays})
        ranking = trick_ranking(leader, plays)
        add(
            f,
            f"trick-1d-{i}",
            "One deck: the highest card of the led suit wins; discards rank last in play order.",
            "rules.md §4 Play",
            ["one-deck", "trick"],
            request,
            answer,
            words="discard_low",
            equal=("/led_suit",),
            unordered=("/points_cards",),
            hand={"status": 200, "equal": {"/winner": ranking[0], "/ranking": ranking}},
        )
    for i in range(44):
        leader = rng.randrange(4)
        pool = [c for c in DECK for _ in range(2)]
        rng.shuffle(pool)
        suit = SUITS[i % 4]
        pair = i % 3 != 0
        of_suit = [c for c in pool if c[0] == suit]
        lead_card = of_suit[0]
        pool.remove(lead_card)
        plays = [[lead_card, lead_card] if pair else [lead_card]]
        if pair:
            pool.remove(lead_card)
        for _ in range(3):
            kind = rng.random()
            of_suit = [c for c in pool if c[0] == suit]
            if not pair:
                card = of_suit[0] if kind < 0.7 else pool[0]
                play = [card]
            elif kind < 0.35 and any(of_suit.count(c) == 2 for c in of_suit):
                c = next(c for c in of_suit if of_suit.count(c) == 2)
                play = [c, c]
            elif kind < 0.7:
                play = of_suit[:2] if of_suit[0] != of_suit[1] else [of_suit[0], of_suit[2]]
            elif kind < 0.85:
                play = [of_suit[0], next(c for c in pool if c[0] != suit)]
            else:
                play = [c for c in pool if c[0] != suit][:2]
            for c in play:
                pool.remove(c)
            plays.append(play)
        request, answer = call("POST", "/trick", {"rules": {"decks": 2}, "leader": leader, "plays": plays})
        ranking = trick_ranking(leader, plays)
        add(
            f,
            f"trick-2d-{'pair' if pair else 'single'}-{suit.lower()}-{i}",
            "Two decks"
            + (
                f", a pair led in {suit}: "
                + (
                    "pairs beat two singles, two singles beat discards"
                    if suit == "D"
                    else "two singles of the suit beat any pair, pairs beat discards"
                )
                + "; pairs compare by rank, two singles by "
                "their higher card"
                if pair
                else ", a single led"
            )
            + "; exact ties go to the earlier play, discards rank last in play order.",
            "rules.md §4 Ranking a pair-lead trick",
            ["two-decks", "trick"] + (["pairs"] if pair else []),
            request,
            answer,
            words="pair_rank" if pair else "discard_low",
            equal=("/led_suit",),
            unordered=("/points_cards",),
            hand={"status": 200, "equal": {"/winner": ranking[0], "/ranking": ranking}},
        )
    hand_tricks = [
        (
            "readme-spades",
            0,
            [["S4", "S4"], ["SK", "SK"], ["SQ", "S8"], ["SJ", "HK"]],
            [2, 1, 0, 3],
            "R's own example (A 44, B KK, C Q8, D JK): in spades two singles beat any pair, so C's Q8 wins, then "
            "B's KK, A's 44, and D's J+K (one spade and a heart) is a discard.",
        ),
        (
            "diamonds-pairs-win",
            0,
            [["D4", "D4"], ["DK", "DK"], ["DQ", "D8"], ["DJ", "HK"]],
            [1, 0, 2, 3],
            "The same shapes in diamonds: pairs beat two singles, so KK, then 44, then Q8, then the discard.",
        ),
        (
            "tie-pair-earlier",
            1,
            [["S9", "S9"], ["S2", "SQ"], ["S3", "SQ"], ["SA", "SA"]],
            [2, 3, 0, 1],
            "Tie in a two-deck trick: 2+Q and 3+Q are two singles with the same higher card Q: the earlier play "
            "(seat 2, second to play) ranks first; the pairs follow by rank, AA above 99.",
        ),
        (
            "tie-single-copies",
            3,
            [["HK"], ["HK"], ["H2"], ["SA"]],
            [3, 0, 1, 2],
            "Two identical HK: the earlier one (the leader's, seat 3) wins the trick; SA is a discard and ranks last.",
        ),
        (
            "hearts-singles-beat-pair",
            2,
            [["H5", "H5"], ["HA", "HA"], ["H2", "H3"], ["C2", "C3"]],
            [0, 3, 2, 1],
            "Hearts: two singles H2 H3 (seat 0) beat the pairs AA (seat 3) and 55 (seat 2); C2 C3 is a discard.",
        ),
        (
            "clubs-discard-with-one",
            0,
            [["C7", "C7"], ["C8", "SA"], ["CA", "CA"], ["C2", "C2"]],
            [2, 0, 3, 1],
            "A play of one card of the led suit and another card counts as a discard, whatever its rank (C8+SA).",
        ),
    ]
    for name, leader, plays, ranking, why in hand_tricks:
        request, answer = call("POST", "/trick", {"rules": {"decks": 2}, "leader": leader, "plays": plays})
        add(
            f,
            f"trick-2d-hand-{name}",
            why,
            "rules.md §4 Ranking a pair-lead trick",
            ["two-decks", "trick", "pairs" if len(plays[0]) == 2 else "ties"],
            request,
            answer,
            words="pair_rank",
            hand={"status": 200, "equal": {"/winner": ranking[0], "/ranking": ranking}},
        )


def pair_follow_cases() -> None:
    f = "pairs.json"
    new_file(f, "rules.md §4: following a pair lead with two decks (the four follow rules).")
    examples = [
        ("pair-held", ["SK", "SK", "S7", "H3"], ["SK", "SK"], "holding a pair of spades → a pair of spades"),
        ("two-singles", ["SK", "S7", "H3", "H3"], None, "no spade pair, two spades → those two spades"),
        ("one-card", ["S7", "H3", "H5"], None, "one spade → it plus any card (a discard)"),
        ("void", ["H3", "H5", "D9"], None, "no spade → any two cards"),
        ("two-pairs", ["SK", "SK", "S7", "S7", "S2"], None, "two spade pairs → either pair"),
        (
            "three-singles",
            ["SK", "S7", "S2", "D4", "D4"],
            None,
            "three spades, no pair → any two of them (the diamond pair does not count)",
        ),
    ]
    for name, held, _, why in examples:
        hands = build_hands(2, {0: ["S4", "S4"] + [c for c in DECK if c[0] == "D"][:0], 1: held}, random.Random(5))
        # seat 1 must hold only ``held`` in spades: swap its other spades away
        hands = only_spades(hands, 1, held)
        state = {"rules": {"decks": 2}, "hands": hands, "first_deal": False, "leader": 0, "plays": [["S4", "S4"]]}
        request, answer = call("POST", "/legal-moves", state)
        add(
            f,
            f"pair-follow-2d-{name}",
            f"S4 S4 led; seat 1 holds {' '.join(c for c in held if c[0] == 'S') or 'no spade'}: " + why + ".",
            "rules.md §4 Play: pairs",
            ["two-decks", "pairs", "play"],
            request,
            answer,
            words="pair_follow",
            unordered=("/moves",),
            equal=("/seat",),
        )
        request, answer = call("POST", "/play", {**state, "move": bad_follow(held)})
        if answer.status == 422:
            add(
                f,
                f"pair-follow-2d-{name}-refused",
                "A follow breaking the pair rules is refused.",
                "rules.md §4 Play: pairs",
                ["two-decks", "pairs", "problems"],
                request,
                answer,
                words="pair_follow",
            )


def only_spades(hands: list[list[str]], seat: int, held: list[str]) -> list[list[str]]:
    """``hands`` with seat ``seat``'s spades exactly those of ``held`` (swapped with another seat's non-spades)."""
    hands = [list(h) for h in hands]
    want = [c for c in held if c[0] == "S"]
    extra = [c for c in hands[seat] if c[0] == "S"]
    for c in want:
        if c in extra:
            extra.remove(c)
    donor = 2 if seat != 2 else 3
    for card in extra:
        swap = next(c for c in hands[donor] if c[0] != "S")
        hands[seat].remove(card)
        hands[donor].remove(swap)
        hands[seat].append(swap)
        hands[donor].append(card)
    return hands


def bad_follow(held: list[str]) -> list[str]:
    spades = [c for c in held if c[0] == "S"]
    others = [c for c in held if c[0] != "S"]
    if len(spades) >= 2:
        return [spades[0], others[0]] if others else spades[:2]
    return others[:2]


# ---------------------------------------------------------------- §5, §6 scores


def score_request(decks: int, captured, exposed=None, **options: Any) -> dict[str, Any]:
    body: dict[str, Any] = {}
    rules = rules_for(decks, **options)
    if rules:
        body["rules"] = rules
    body["captured"] = captured
    if exposed:
        body["exposed"] = exposed
    return body


def check_score(decks: int, captured, exposed, options: dict[str, Any]) -> dict[str, Any]:
    flat = [c for e in (exposed or [[], [], [], []]) for c in e]
    raw = [raw_score(t, flat, decks, options.get("pig_flips_with_all_hearts", False)) for t in captured]
    partners = options.get("partnership", False)
    equal: dict[str, Any] = {"/raw": raw, "/final": final(raw, decks, partners)}
    if not partners:
        equal["/normalized"] = normalized(raw)
    return {"status": 200, "equal": equal}


def score_cases() -> None:
    f1, f2 = "scores-one-deck.json", "scores-two-decks.json"
    new_file(f1, "rules.md §5-§6 with one deck: raw, normalized and final scores (POST /score).")
    new_file(f2, "rules.md §5-§6 with two decks: raw, normalized and final scores (POST /score).")
    rng = random.Random(5)
    for decks, f, count in ((1, f1, 40), (2, f2, 44)):
        for i in range(count):
            scoring = [c for c in DECK if c[0] == "H" or c in ("SQ", "DJ", "C10")] * decks
            rng.shuffle(scoring)
            captured: list[list[str]] = [[], [], [], []]
            weights = [rng.random() ** 2 for _ in range(4)]
            for card in scoring:
                captured[rng.choices(range(4), weights)[0]].append(card)
            exposed: list[list[str]] = [[], [], [], []]
            if i % 2:
                owners = list(range(4))
                for card in SPECIAL:
                    for _ in range(decks):
                        if rng.random() < 0.4:
                            exposed[rng.choice(owners)].append(card)
            options = {}
            if i % 5 == 4:
                options["partnership"] = True
            request, answer = call(
                "POST", "/score", score_request(decks, captured, exposed if i % 2 else None, **options)
            )
            if answer.status != 200:
                continue  # an exposure the same card twice in one deck, say: skip
            tags = [deck_tag(decks), "scoring"] + (["exposure"] if i % 2 else []) + (["partnership"] if options else [])
            add(
                f,
                f"score-{dn(decks)}-random-{i}",
                "Raw scores by rules.md §5 (hearts, pig, sheep, transformer, "
                "exposures doubling), normalized by the largest remainder and"
                + (" the partnership split (AC-BD)/2" if options else "")
                + (" ×12 (one deck)" if decks == 1 else "")
                + "; re-computed independently of the engine.",
                "rules.md §5 Raw score",
                tags,
                request,
                answer,
                words="transformer",
                hand=check_score(decks, captured, exposed if i % 2 else None, options),
            )
    hearts = [c for c in DECK if c[0] == "H"]
    rest_h = hearts[:-1]  # H2-HK: -150, not all hearts
    others = [c for c in DECK if c[0] in "SD" and c not in ("SQ", "DJ")]
    one = [
        (
            "transformer-alone",
            [["C10"], ["SQ"], rest_h, ["DJ", "HA"]],
            None,
            {},
            [50, -100, -150, 50],
            "The transformer with nothing else taken: +50 (25 × 2); H2-HK -150; DJ + HA = 100 - 50 = 50",
            "transformer_alone",
            ["transformer"],
        ),
        (
            "transformer-alone-exposed",
            [["C10", "S2", "D3"], ["SQ"], rest_h, ["DJ", "HA"]],
            [["C10"], [], [], []],
            {},
            [100, -100, -150, 50],
            "The transformer alone with non-scoring cards (S2 D3 are not scoring cards), exposed: 25 × 4 = +100",
            "transformer_alone",
            ["transformer", "exposure"],
        ),
        (
            "transformer-low-hearts-zero",
            [["C10", "H2", "H3", "H4"], ["SQ"], hearts[3:], ["DJ"]],
            None,
            {},
            [0, -100, -200, 100],
            "C10 with H2 H3 H4 only: they are scoring cards worth 0, so the transformer is not "
            "alone and the total is 2 × 0 = 0 (R: 其他分数之和为 0，则总分数记为 0)",
            "transformer_zero",
            ["transformer"],
        ),
        (
            "transformer-pig-sheep-cancel",
            [["C10", "SQ", "DJ"], [], rest_h, ["HA"]],
            None,
            {},
            [0, 0, -150, -50],
            "C10 with SQ and DJ: -100 + 100 = 0, times 2 is 0, not +50",
            "transformer_zero",
            ["transformer"],
        ),
        (
            "transformer-doubles-pig",
            [["C10", "SQ", "DJ"], [], rest_h, ["HA"]],
            [["SQ"], [], [], []],
            {},
            [-200, 0, -150, -50],
            "C10, SQ (exposed: -200) and DJ (+100): 2 × (-100) = -200 (rules.md §5's raw('C10 SQ DJ', 'SQ'))",
            "transformer",
            ["transformer", "exposure"],
        ),
        (
            "transformer-all-exposed",
            [["C10", "SQ", "HA"], [], hearts[:-1], ["DJ"]],
            [["C10", "SQ", "HA"], [], [], []],
            {},
            [-1200, 0, -300, 200],
            "C10, SQ and HA taken by seat 0, all three exposed (rules.md §5's "
            "raw('C10 SQ HA', 'C10 SQ HA')): t = 4, SQ -200, HA -50 × 2 = -100, so 4 × (-300) = -1200; HA exposed "
            "doubles every heart, so seat 2's H2-HK count -150 × 2 = -300; three of the four exposed make the fourth, "
            "DJ, exposed automatically (rules.md §3), so seat 3's DJ counts +200",
            "transformer",
            ["transformer", "exposure"],
        ),
        (
            "all-hearts",
            [hearts, ["SQ"], ["DJ"], ["C10"]],
            None,
            {},
            [200, -100, 100, 50],
            "满红: all 13 hearts (H2-H4 included) +200",
            "all_hearts",
            ["all-hearts"],
        ),
        (
            "all-hearts-ha-exposed",
            [hearts, ["SQ"], ["DJ"], ["C10"]],
            [["HA"], [], [], []],
            {},
            [400, -100, 100, 50],
            "满红 with HA exposed: +400 (R: 如果 A 亮过牌，则得正 400 分)",
            "all_hearts",
            ["all-hearts", "exposure"],
        ),
        (
            "all-hearts-with-pig",
            [hearts + ["SQ"], [], ["DJ"], ["C10"]],
            None,
            {},
            [100, 0, 100, 50],
            "满红 and the pig: +200 - 100 = +100 (the pig stays negative by default)",
            "all_hearts",
            ["all-hearts"],
        ),
        (
            "all-hearts-pig-flips",
            [hearts + ["SQ"], [], ["DJ"], ["C10"]],
            None,
            {"pig_flips_with_all_hearts": True},
            [300, 0, 100, 50],
            "满红 and the pig with pig_flips_with_all_hearts: +200 + 100 = +300",
            "all_hearts",
            ["all-hearts", "variants"],
        ),
        (
            "all-hearts-pig-flips-exposed",
            [hearts + ["SQ"], [], ["DJ"], ["C10"]],
            [["SQ", "HA"], [], [], []],
            {"pig_flips_with_all_hearts": True},
            [600, 0, 100, 50],
            "满红 with HA and SQ exposed, the pig flipping: 400 (HA exposed) + 200 (the exposed pig, positive) = 600",
            "all_hearts",
            ["all-hearts", "variants", "exposure"],
        ),
        (
            "all-hearts-transformer-exposed",
            [hearts + ["C10"], ["SQ"], ["DJ"], []],
            [["HA", "C10"], [], [], []],
            {},
            [1600, -100, 100, 0],
            "满红 with HA and C10 exposed: 400 × 4 = 1600 (rules.md §5)",
            "all_hearts",
            ["all-hearts", "transformer", "exposure"],
        ),
        (
            "all-hearts-sheep-transformer",
            [hearts + ["DJ", "C10"], ["SQ"], [], []],
            None,
            {},
            [600, -100, 0, 0],
            "满红 with the sheep and the transformer: 2 × (200 + 100) = 600",
            "all_hearts",
            ["all-hearts", "transformer"],
        ),
        (
            "grand-slam",
            [hearts + ["SQ", "DJ", "C10"], others[:5], [], []],
            None,
            {},
            [800, 0, 0, 0],
            "满贯: all 16 scoring cards, nothing exposed: (200 + 100 + 100) × 2 = 800; the pig turns positive",
            "grand_slam",
            ["grand-slam", "transformer"],
        ),
        (
            "grand-slam-all-exposed",
            [hearts + ["SQ", "DJ", "C10"], [], [], []],
            [["HA", "SQ", "DJ", "C10"], [], [], []],
            {},
            [3200, 0, 0, 0],
            "满贯 with all four exposed: (400 + 200 + 200) × 4 = 3200",
            "grand_slam",
            ["grand-slam", "exposure"],
        ),
        (
            "grand-slam-pig-exposed",
            [hearts + ["SQ", "DJ", "C10"], [], [], []],
            [["SQ"], [], [], []],
            {},
            [1000, 0, 0, 0],
            "满贯 with SQ exposed: (200 + 200 + 100) × 2 = 1000",
            "grand_slam",
            ["grand-slam", "exposure"],
        ),
        (
            "no-grand-slam-without-transformer",
            [hearts + ["SQ", "DJ"], ["C10"], [], []],
            None,
            {},
            [200, 50, 0, 0],
            "All hearts, pig and sheep but not C10: 满红 (+200) - 100 + 100 = 200, no 满贯; C10 alone +50",
            "all_hearts",
            ["all-hearts", "transformer"],
        ),
        (
            "readme-example",
            [["HK", "H10", "H9"], ["SQ", "HA", "HQ", "H8"], ["H2"], ["DJ", "C10", "H7"]],
            [[], ["HA"], [], []],
            {},
            [-120, -280, 0, 160],
            "R's example: raw -120, -280, 0, 160 (HA exposed), normalized -80, -293, 80, 293, ×12",
            "normalize",
            ["normalize", "exposure"],
        ),
        (
            "partnership-readme",
            [["SQ", "HA", "HK"], ["C10"], ["H5"], []],
            None,
            {"partnership": True},
            [-190, 50, -10, 0],
            "R's partnership example: raw -190, 50, -10, 0 → AC -125, BD 125, ×12: -1500, 1500",
            "partnership",
            ["partnership"],
        ),
        (
            "partnership-halves",
            [["C10"], [], [], []],
            None,
            {"partnership": True},
            [50, 0, 0, 0],
            "Partnership halves: AC 50, BD 0 → 25 and -25, ×12: 300, -300, 300, -300",
            "partnership",
            ["partnership"],
        ),
    ]
    for name, captured, exposed, options, raw, why, words, tags in one:
        request, answer = call("POST", "/score", score_request(1, captured, exposed, **options))
        hand = check_score(1, captured, exposed, options)
        assert hand["equal"]["/raw"] == raw, (name, hand["equal"]["/raw"], raw)
        add(
            f1,
            f"score-1d-{name}",
            why + ".",
            "rules.md §5 Raw score",
            ["one-deck", "scoring"] + tags,
            request,
            answer,
            words=words,
            hand=hand,
        )
    hearts2 = hearts * 2
    two = [
        (
            "readme-ha-tens",
            [["HA", "C10", "C10"], [], [], []],
            [["HA", "HA", "SQ"], ["SQ", "C10", "C10"], [], []],
            [-3200, 0, 0, 0],
            "R's two-deck example, both 10s, both As and both Qs exposed: HA -50 × 4 = -200, two "
            "tens both exposed ×16: -3200",
            "two_decks_transformer",
            ["transformer", "exposure"],
        ),
        (
            "readme-pigs-tens",
            [["SQ", "SQ", "C10", "C10"], [], [], []],
            [["HA", "HA", "SQ"], ["SQ", "C10", "C10"], [], []],
            [-12800, 0, 0, 0],
            "R's second example: two pigs at -400 each = -800, ×16 = -12800",
            "two_decks_transformer",
            ["transformer", "exposure"],
        ),
        (
            "tens-only",
            [["C10", "C10"], [], [], []],
            None,
            [100, 0, 0, 0],
            "Two decks, both tens and nothing else: 25 × 4 = +100",
            "two_decks_transformer",
            ["transformer"],
        ),
        (
            "one-ten-alone",
            [["C10"], ["C10"], [], []],
            None,
            [50, 50, 0, 0],
            "Two decks, one ten each and nothing else: 25 × 2 = +50 each",
            "two_decks_transformer",
            ["transformer"],
        ),
        (
            "one-ten-exposed-other-copy",
            [["C10"], ["C10"], [], []],
            [[], ["C10"], [], []],
            [100, 100, 0, 0],
            "One copy of C10 exposed: either ten counts ×4 for whoever takes it (R: 10 亮了一张后，得任意一张分数 * 4)",
            "two_decks_transformer",
            ["transformer", "exposure"],
        ),
        (
            "two-tens-one-exposed",
            [["C10", "C10", "SQ"], [], [], []],
            [["C10"], [], [], []],
            [-800, 0, 0, 0],
            "Both tens with one exposed: ×8; one pig -100: -800",
            "two_decks_transformer",
            ["transformer", "exposure"],
        ),
        (
            "two-tens-zero",
            [["C10", "C10", "H2", "H3"], [], [], []],
            None,
            [0, 0, 0, 0],
            "Both tens with H2 H3 (scoring cards worth 0): 4 × 0 = 0",
            "transformer_zero",
            ["transformer"],
        ),
        (
            "all-hearts",
            [hearts2, ["SQ", "SQ"], ["DJ", "DJ"], ["C10", "C10"]],
            None,
            [400, -200, 200, 100],
            "满红 with two decks: all 26 hearts +400",
            "two_decks_all_hearts",
            ["all-hearts"],
        ),
        (
            "all-hearts-one-ha",
            [hearts2, ["SQ", "SQ"], ["DJ", "DJ"], ["C10", "C10"]],
            [["HA"], [], [], []],
            [800, -200, 200, 100],
            "满红 with one HA exposed: +800",
            "two_decks_all_hearts",
            ["all-hearts", "exposure"],
        ),
        (
            "all-hearts-two-ha",
            [hearts2, ["SQ", "SQ"], ["DJ", "DJ"], ["C10", "C10"]],
            [["HA", "HA"], [], [], []],
            [1600, -200, 200, 100],
            "满红 with both HA exposed: +1600",
            "two_decks_all_hearts",
            ["all-hearts", "exposure"],
        ),
        (
            "not-all-hearts-25",
            [hearts2[:-1], ["HA", "SQ", "SQ"], ["DJ", "DJ"], ["C10", "C10"]],
            None,
            [-350, -250, 200, 100],
            "25 of the 26 hearts (one HA missing) is not 满红: -200 × 2 + 50 = -350",
            "two_decks_all_hearts",
            ["all-hearts"],
        ),
        (
            "grand-slam",
            [hearts2 + ["SQ", "SQ", "DJ", "DJ", "C10", "C10"], [], [], []],
            None,
            [1600, 0, 0, 0],
            "满贯 with two decks: all 32 scoring cards, nothing exposed: (400 + 200 + 200) × 2 = 1600 as R states",
            "two_decks_grand_slam",
            ["grand-slam"],
        ),
        (
            "grand-slam-exposures",
            [hearts2 + ["SQ", "SQ", "DJ", "DJ", "C10", "C10"], [], [], []],
            [["HA", "SQ"], ["C10"], [], []],
            [5600, 0, 0, 0],
            "满贯 with HA, SQ and C10 exposed once each (the exposures of any seat count): "
            "(400·2^kA + 200·2^kQ + 200·2^kJ) × 2^(1+kT) = (800 + 400 + 200) × 4 = 5600",
            "two_decks_grand_slam",
            ["grand-slam", "exposure"],
        ),
        (
            "no-grand-slam-one-ten-missing",
            [hearts2 + ["SQ", "SQ", "DJ", "DJ", "C10"], ["C10"], [], []],
            None,
            [800, 50, 0, 0],
            "All but one C10: no 满贯: 满红 400, two pigs -200, two sheep +200: 400, one ten ×2 = "
            "800; seat 1's lone ten 25 × 2 = 50",
            "two_decks_grand_slam",
            ["grand-slam", "transformer"],
        ),
        (
            "partnership",
            [["SQ", "SQ", "C10"], ["DJ"], ["HA", "HA"], ["C10"]],
            None,
            [-400, 100, -100, 50],
            "Two decks with partnership: no ×12",
            "partnership",
            ["partnership"],
        ),
    ]
    for name, captured, exposed, raw, why, words, tags in two:
        options = {"partnership": True} if "partnership" in tags else {}
        request, answer = call("POST", "/score", score_request(2, captured, exposed, **options))
        hand = check_score(2, captured, exposed, options)
        assert hand["equal"]["/raw"] == raw, (name, hand["equal"]["/raw"], raw)
        add(
            f2,
            f"score-2d-{name}",
            why + ".",
            "rules.md §5 Raw score",
            ["two-decks", "scoring"] + tags,
            request,
            answer,
            words=words,
            hand=hand,
        )


def results_cases() -> None:
    f = "results.json"
    new_file(f, "rules.md §6: ingots (元宝) and titles (等级).")
    rng = random.Random(6)
    fixed = [
        ([100, 0, -200, -200], 1, 0, "R's example: A wins 700, B pays 100, C and D 300 each", "ingots"),
        (
            [100, 0, -200, -200],
            1,
            5,
            "R's example with a room fee of 5 from every seat (R: 不包含房间每局扣除的元宝)",
            "fee",
        ),
        ([0, 0, -300, 100], 2, 0, "rules.md §6: one winner, multiplier 2", "ingots"),
        (
            [-50, -50, -300, -100],
            1,
            0,
            "Two seats tie for the best score: two winners, each loser pays each",
            "ingots_tie",
        ),
        ([0, 0, 0, 0], 3, 10, "All tie: everyone wins, nobody pays, the fee is still taken", "ingots_tie"),
        ([800, -266, -267, -267], 7, 0, "Multiplier 7 on a grand slam's raw score", "ingots"),
    ]
    for i in range(16):
        scores = [rng.randrange(-60, 30) * 10 for _ in range(4)]
        if i % 4 == 0:
            scores[1] = max(scores)
        fixed.append((scores, rng.choice([1, 2, 5, 10]), rng.choice([0, 0, 3]), "Random raw scores", "ingots"))
    for i, (scores, multiplier, fee, why, words) in enumerate(fixed):
        body = {"scores": scores, "multiplier": multiplier}
        if fee:
            body["fee"] = fee
        request, answer = call("POST", "/ingots", body)
        expected = ingots(scores, multiplier, fee)
        add(
            f,
            f"ingots-{i}",
            why
            + f"; every other seat pays each winner (winner - loser) × {multiplier}"
            + (f", and every seat pays the fee {fee}" if fee else "")
            + ".",
            "rules.md §6 Ingots",
            ["ingots"],
            request,
            answer,
            words=words,
            unordered=("/transfers",),
            hand={"status": 200, "equal": {"/winners": expected["winners"], "/net": expected["net"]}},
        )
    points = sorted(
        {p for _, at in oracle.TITLES for p in (at - 1, at, at + 1)}
        | {-99999, 9999, -100000, 10000, -1, 0, 1, 250000000, -60000000}
    )
    for p in points:
        request, answer = call("GET", f"/ranks/{p}")
        add(
            f,
            f"title-{'minus-' if p < 0 else ''}{abs(p)}",
            f"{p} points: R's table, a negative title holds at or "
            "below its number, a positive one at or above, 猪小弟 covers -99,999 to 9,999.",
            "rules.md §6 Titles",
            ["titles"],
            request,
            answer,
            equal=("/points",),
            hand={"status": 200, "equal": {"/title/name": oracle.title_for(p)}},
        )
    request, answer = call("GET", "/ranks")
    add(
        f,
        "titles-table",
        "The whole table of R, in order.",
        "rules.md §6 Titles",
        ["titles"],
        request,
        answer,
        hand={"status": 200, "equal": {"/titles": list(json.loads(answer.body)["titles"])}},
    )
    assert [(t["name"], t["points"]) for t in json.loads(answer.body)["titles"]] == oracle.TITLES
    for bad in ("abc", "1.5", "1e5"):
        request, answer = call("GET", f"/ranks/{bad}")
        add(
            f,
            f"title-bad-points-{bad.replace('.', '-')}",
            "Points must be an integer: the fault is in the path.",
            "openapi.yaml /ranks/{points}",
            ["titles", "problems"],
            request,
            answer,
        )


# ---------------------------------------------------------------- §2 first-trick ban, §7 errors

CLUBS = [c for c in DECK if c[0] == "C"]
BAN_HANDS = [
    ["C2"] + [c for c in DECK if c[0] == "D"][:12],
    ["C10", "C5"] + [c for c in DECK if c[0] == "H"][:11],
    [c for c in DECK if c[0] == "S"][:12] + ["DA"],
    [c for c in CLUBS if c not in ("C2", "C10", "C5")] + ["HK", "HA", "SA"],
]
BAN_ONLY = [
    BAN_HANDS[0],
    ["C10"] + [c for c in DECK if c[0] == "H"][:12],
    BAN_HANDS[2],
    [c for c in CLUBS if c not in ("C2", "C10")] + ["HA", "SA"],
]


def ban_cases() -> None:
    f = "first-trick-ban.json"
    new_file(f, "rules.md §2: first_trick_ban, SQ and C10 barred from trick 1 unless nothing else is legal.")
    ban = {"first_trick_ban": True}
    spades = BAN_HANDS[2]
    cases = [
        (
            "follower-c10",
            BAN_HANDS,
            ban,
            [["C2"]],
            1,
            [["C5"]],
            "Seat 1 holds C10 and C5 after the C2 lead: the ban leaves only C5.",
        ),
        (
            "follower-c10-off",
            BAN_HANDS,
            {},
            [["C2"]],
            1,
            [["C5"], ["C10"]],
            "The same position without the ban (the default): C5 and C10.",
        ),
        (
            "discard-sq",
            BAN_HANDS,
            ban,
            [["C2"], ["C5"]],
            2,
            [[c] for c in spades if c != "SQ"],
            "Seat 2, void in clubs, may discard anything but SQ in trick 1.",
        ),
        (
            "discard-sq-off",
            BAN_HANDS,
            {},
            [["C2"], ["C5"]],
            2,
            [[c] for c in spades],
            "Without the ban seat 2 may discard the pig in trick 1.",
        ),
        (
            "only-c10",
            BAN_ONLY,
            ban,
            [["C2"]],
            1,
            [["C10"]],
            "Seat 1's only club is C10: no other card is legal, so the ban yields and C10 must be played.",
        ),
    ]
    for name, hands, rules, plays, seat, moves, why in cases:
        request, answer = call("POST", "/legal-moves", deal_state(hands, plays, rules or None))
        add(
            f,
            f"ban-1d-{name}",
            why,
            "rules.md §2 Rule options",
            ["one-deck", "first-trick-ban", "variants"],
            request,
            answer,
            words="ban",
            hand={"status": 200, "equal": {"/seat": seat}, "unordered": {"/moves": moves}},
        )
    for name, plays, move in (("c10-refused", [["C2"]], ["C10"]), ("sq-refused", [["C2"], ["C5"]], ["SQ"])):
        request, answer = call("POST", "/play", {**deal_state(BAN_HANDS, plays, ban), "move": move})
        add(
            f,
            f"ban-1d-{name}",
            f"{move[0]} in trick 1 with the ban while another card is legal.",
            "rules.md §7 Errors",
            ["one-deck", "first-trick-ban", "variants", "problems"],
            request,
            answer,
            words="ban",
            hand={
                "status": 422,
                "problem": {"code": "first_trick_ban", "errors": [{"pointer": "/move", "code": "first_trick_ban"}]},
            },
        )
    lead = [
        ["SQ", "C10", "S2"] + [c for c in DECK if c[0] == "H"][:10],
        [c for c in DECK if c[0] == "D"],
        [c for c in DECK if c[0] == "C" and c != "C10"] + ["HQ"],
        [c for c in DECK if c[0] == "S" and c not in ("SQ", "S2")] + ["HK", "HA"],
    ]
    request, answer = call("POST", "/legal-moves", {"rules": ban, "first_deal": False, "leader": 0, "hands": lead})
    add(
        f,
        "ban-1d-leader",
        "The ban applies to the leader of trick 1 in every deal: seat 0 may lead S2 or a heart, not SQ or C10.",
        "rules.md §2 Decisions",
        ["one-deck", "first-trick-ban", "variants"],
        request,
        answer,
        words="ban",
        hand={"status": 200, "unordered": {"/moves": [[c] for c in lead[0] if c not in ("SQ", "C10")]}},
    )
    rng = random.Random(22)
    for i in range(14):
        seed = 700 + i
        hands = deal_hands(seed, 2)
        state = deal_state(hands, [], {"decks": 2, **ban}, first_deal=bool(i % 2), leader=None if i % 2 else i % 4)
        state["plays"] = walk(state, rng, 1 + i % 3)
        request, answer = call("POST", "/legal-moves", state)
        add(
            f,
            f"ban-2d-seed-{seed}",
            f"Two decks, seed {seed}, trick 1 with first_trick_ban: no SQ or C10 while another play is legal.",
            "rules.md §2 Rule options",
            ["two-decks", "first-trick-ban", "variants"],
            request,
            answer,
            words="ban",
            unordered=("/moves",),
            equal=("/seat",),
        )


def error_cases() -> None:
    f = "errors.json"
    new_file(f, "rules.md §7: every rule's problem code, with its JSON pointer, in English and Chinese.")
    hands = deal_hands(1, 1)  # seat 3 leads C2 (rules.md §2's README example)
    hands2 = deal_hands(2, 2)
    leader2 = first_c2_holder(hands2)
    cases = [
        (
            "wrong-card-count",
            "/legal-moves",
            {"hands": [hands[0][:12]] + hands[1:]},
            1,
            "A hand of 12 cards with one deck.",
            "wrong_card_count",
            None,
        ),
        (
            "wrong-card-count-2d",
            "/legal-moves",
            {"rules": {"decks": 2}, "hands": hands},
            2,
            "13-card hands with two decks (26 each).",
            "wrong_card_count",
            None,
        ),
        (
            "duplicate-card",
            "/legal-moves",
            {"hands": [hands[0][:12] + [hands[1][0]]] + hands[1:]},
            1,
            "A card dealt twice in one deck (and another missing).",
            None,
            None,
        ),
        (
            "card-not-in-hand",
            "/play",
            {"hands": hands, "move": ["SQ"], "plays": [["C2"], ["C8"]]},
            1,
            "Seat 1 plays SQ, which seat 0 holds.",
            "card_not_in_hand",
            None,
        ),
        (
            "invalid-move-two-cards-1d",
            "/play",
            {"hands": hands, "move": ["C2", "HJ"]},
            1,
            "Two cards in one play with one deck.",
            "invalid_move",
            None,
        ),
        (
            "invalid-move-not-pair-2d",
            "/play",
            {
                "rules": {"decks": 2},
                "hands": hands2,
                "first_deal": False,
                "leader": 0,
                "move": hands2[0][:1] + [next(c for c in hands2[0] if c != hands2[0][0])],
            },
            2,
            "A two-card lead that is not a pair with two decks.",
            "invalid_move",
            None,
        ),
        (
            "not-your-turn",
            "/play",
            {"hands": hands, "move": ["C8"], "seat": 0},
            1,
            "A play asserted for seat 0 while seat 3 is to lead.",
            "not_your_turn",
            None,
        ),
        (
            "must-lead-opening-card",
            "/play",
            {"hands": hands, "move": ["HJ"]},
            1,
            "The first lead of the first deal must be C2.",
            "must_lead_opening_card",
            "deal",
        ),
        (
            "must-lead-opening-card-replayed",
            "/legal-moves",
            {"hands": hands, "plays": [["HJ"]]},
            1,
            "A replayed first lead other than C2, at its play's pointer.",
            "must_lead_opening_card",
            "deal",
        ),
        (
            "must-follow-suit",
            "/play",
            {"hands": hands, "plays": [["C2"]], "move": ["SQ"]},
            1,
            "Seat 0 holds C8 and plays SQ on the C2 lead.",
            "must_follow_suit",
            "follow",
        ),
        (
            "must-follow-suit-replayed",
            "/legal-moves",
            {"hands": hands, "plays": [["C2"], ["SQ"]]},
            1,
            "The same fault inside the replayed plays, pointed at /plays/1.",
            "must_follow_suit",
            "follow",
        ),
        (
            "illegal-exposure-in-state",
            "/legal-moves",
            {"hands": hands, "exposed": [["DJ"], [], [], []]},
            1,
            "Seat 0 exposes DJ, which it does not hold.",
            "illegal_exposure",
            "expose",
        ),
        (
            "invalid-deal-several",
            "/legal-moves",
            {"hands": [hands[0][:12]] + hands[1:], "exposed": [[], ["S5"], [], []]},
            1,
            "Faults of two codes at once: invalid_deal, every fault listed with its own code.",
            "invalid_deal",
            None,
        ),
        (
            "must-follow-suit-2d-replayed",
            "/legal-moves",
            {"rules": {"decks": 2}, "hands": hands2, "plays": [["C2"], hands2[(leader2 + 1) % 4][:1]]},
            2,
            "Two decks, seed 2: the seat after the leader answers C2 with its first card, not a club, while it holds "
            "clubs: the replay stops at /plays/1.",
            "must_follow_suit",
            "follow",
        ),
    ]
    for name, path, body, decks, why, code, words in cases:
        request, answer = call("POST", path, body)
        hand = {"status": 422, "problem": {"code": code}} if code else None
        add(
            f,
            f"error-{name}",
            why,
            "rules.md §7 Errors",
            [deck_tag(decks), "problems"],
            request,
            answer,
            words=words,
            hand=hand,
        )
    # deal_finished: a play after the last trick
    state = deal_state(hands, [])
    state["plays"] = walk(state, random.Random(7), 52)
    request, answer = call("POST", "/play", {**state, "move": ["C2"]})
    add(
        f,
        "error-deal-finished",
        "A play after the 13th trick.",
        "rules.md §7 Errors",
        ["one-deck", "problems"],
        request,
        answer,
        hand={"status": 422, "problem": {"code": "deal_finished"}},
    )
    state2 = deal_state(hands2, [], {"decks": 2})
    state2["plays"] = walk(state2, random.Random(8), 200)
    request, answer = call("POST", "/play", {**state2, "move": ["C2"]})
    add(
        f,
        "error-2d-deal-finished",
        "Two decks: a play after the 26th trick.",
        "rules.md §7 Errors",
        ["two-decks", "problems"],
        request,
        answer,
        hand={"status": 422, "problem": {"code": "deal_finished"}},
    )
    # must_follow_pair
    for i in range(40):
        st = deal_state(deal_hands(900 + i, 2), [], {"decks": 2}, first_deal=False, leader=0)
        hand0 = st["hands"][0]
        pair = next((c for c in hand0 if hand0.count(c) == 2), None)
        if not pair:
            continue
        st["plays"] = [[pair, pair]]
        nxt = st["hands"][1]
        suit_cards = [c for c in nxt if c[0] == pair[0]]
        if any(suit_cards.count(c) == 2 for c in suit_cards):
            single = sorted(set(suit_cards))
            others = [c for c in nxt if c[0] != pair[0]]
            if len(single) >= 2:
                move = single[:2]
            else:
                move = [single[0], others[0]]
            request, answer = call("POST", "/play", {**st, "move": move})
            if answer.status == 422:
                add(
                    f,
                    "error-2d-must-follow-pair",
                    f"{pair} {pair} led; seat 1 holds a pair of {pair[0]} but plays {' '.join(move)}.",
                    "rules.md §7 Errors",
                    ["two-decks", "problems", "pairs"],
                    request,
                    answer,
                    words="pair_follow",
                    hand={"status": 422, "problem": {"code": "must_follow_pair"}},
                )
                break
    # languages
    for lang, content in (
        ("zh-CN", "zh-Hans"),
        ("zh-TW", "zh-Hans"),
        ("zh", "zh-Hans"),
        ("en", "en"),
        ("fr, zh;q=0.5", "zh-Hans"),
        ("*", "en"),
    ):
        request, answer = call(
            "POST",
            "/play",
            {"hands": hands, "plays": [["C2"]], "move": ["SQ"]},
            headers={"Accept-Language": lang, "Content-Type": "application/json"},
        )
        add(
            f,
            f"error-language-{re.sub('[^a-z0-9]+', '-', lang.lower().replace('*', 'any')).strip('-')}",
            f"Accept-Language {lang!r}: the problem in {content}; code and pointer never change.",
            "rules.md §7 Languages",
            ["one-deck", "problems", "language"],
            request,
            answer,
            headers={"Content-Language": content},
            hand={"status": 422, "problem": {"code": "must_follow_suit"}},
        )


# ---------------------------------------------------------------- /solve: exact values worked out by hand


def solve_cases() -> None:
    """``/solve`` at positions of the deal of seed 10 (played by the heuristic seat, as review.json's case) with
    1–2 tricks left, each move's value worked out by hand in the case's description (rules.md §5: hearts ♥5–10
    −10, ♥J −20, ♥Q −30, ♥K −40, ♥A −50, ♥2–4 0, all 13 hearts +200; the sheep +100; the pig −100; the
    transformer doubles its taker's score)."""
    f = "solve.json"
    new_file(f, "openapi.yaml /solve: every legal move's exact open-card value (best play by every seat, the "
             "others against the acting seat; with partnership each side for itself), on /review's scale, at "
             "positions with 1-2 tricks left a reader checks by hand (docs/review.md, \"The solver as an operation\").")
    review = json.loads((OUT / "review.json").read_text(encoding="utf-8"))["cases"][0]["request"]["body"]
    hands, plays = review["hands"], review["plays"]
    held = ("Seat 0 holds H10 HK and has taken every other heart but HJ (H2-H9, HQ, HA: -130) and the sheep (+100); "
            "seat 1 holds SA D2, seat 2 SK HJ (it has taken the pig and the transformer), seat 3 D3 D7, none of them "
            "a heart.")
    scenarios = (
        ("solve-1d-seed-10-lead-hk-takes-all-hearts", {}, 44, 0, 2,
         f"Play 44, two tricks left, seat 0 to lead. {held} Leading HK: seat 2 must follow with HJ, HK wins, and "
         "H10 wins the last trick (nobody else holds a heart): all 13 hearts, +200, and the sheep: 300. Leading "
         "H10: HJ wins, seat 2 leads SK to the last trick and seat 0 drops HK under it: -130 + 100 = -30.",
         [{"move": ["H10"], "value": -30}, {"move": ["HK"], "value": 300}], [["HK"]]),
        ("solve-1d-seed-10-keep-d2-or-take-hk", {}, 45, 1, 2,
         f"After H10 is led at play 44, seat 1 (no heart) discards. {held} Seat 2 wins the trick with HJ and leads "
         "SK to the last trick. Discarding SA now, seat 1 plays D2 under SK and takes nothing: 0. Discarding D2, "
         "seat 1 must win SK with SA and takes seat 0's HK: -40.",
         [{"move": ["SA"], "value": 0}, {"move": ["D2"], "value": -40}], [["SA"]]),
        ("solve-1d-seed-10-last-trick-forced", {}, 48, 2, 1,
         "Play 48, the last trick, seat 2 to lead its one card SK: seat 0 drops HK, seats 1 and 3 diamonds, and "
         "seat 2 takes SK and HK. Its pile: the pig (-100), H10, HJ (-30) and HK (-40), doubled by the "
         "transformer C10 it took: -340.",
         [{"move": ["SK"], "value": -340}], [["SK"]]),
        ("solve-1d-partnership-seed-10-lead-hk", {"partnership": True}, 44, 0, 2,
         f"Partnership (seats 0 and 2 against 1 and 3), the same cards at play 44, seat 0 to lead. {held} "
         "Values are the side's raw scores less the other side's. Leading HK: seat 0 takes all hearts, +200, "
         "and the sheep: 300; seat 2 the pig doubled by the transformer: -200; the other side 0: 100. Leading "
         "H10: seat 2 takes H10 and HJ; seat 1, playing for its side, discards SA, so that SK wins the last "
         "trick with seat 0's HK: seat 2 has (-100 - 10 - 20 - 40) x 2 = -340, seat 0 -30: -370 (keeping SA, "
         "seat 1 would take HK itself: -290 against -40, -250, worse for its side).",
         [{"move": ["H10"], "value": -370}, {"move": ["HK"], "value": 100}], [["HK"]]),
    )
    for case_id, rules, made, seat, left, description, values, best in scenarios:
        state = deal_state(hands, plays[:made], rules or None)
        request, answer = call("POST", "/solve", state)
        exact = [{**v, "lower": v["value"], "upper": v["value"], "exact": True} for v in values]
        add(f, case_id, description + " Exact within the default budget.", "openapi.yaml /solve",
            [deck_tag(1), "solve"], request, answer,
            hand={"status": 200, "equal": {"/seat": seat, "/tricks_left": left, "/exact": True, "/values": exact,
                                           "/best": best}})


# ---------------------------------------------------------------- §8 claims, §9 views, §10 matches


def claim_cases() -> None:
    f = "claims.json"
    new_file(f, "rules.md §8: claims (声称) refereed exactly.")
    rng = random.Random(8)
    made = 0
    for i in range(80):
        decks = 1 if i % 3 else 2
        left = rng.randrange(2, 6) if decks == 1 else rng.randrange(1, 4)
        hands = deal_hands(1000 + i, decks)
        state = deal_state(hands, [], rules_for(decks) or None)
        partial = rng.randrange(0, 4)
        state["plays"] = walk(state, rng, 13 * decks * 4 - 4 * left + partial)
        seat = rng.randrange(4)
        kind = rng.choice(["all_tricks", "no_tricks"])
        request, answer = call("POST", "/claim", {**state, "claim": {"seat": seat, "kind": kind}})
        body = json.loads(answer.body)
        if answer.status != 200:
            print("claim skipped:", body.get("code"), body.get("detail"))
            continue
        if body["holds"] is None:
            continue
        equal = ("/holds", "/tricks_left", "/claim") + (("/score/raw", "/score/final") if body["score"] else ())
        add(
            f,
            f"claim-{dn(decks)}-seed-{1000 + i}-seat-{seat}-{kind.replace('_', '-')}",
            f"Seed {1000 + i}, {body['tricks_left']} trick(s) left"
            + (f", {partial} card(s) on the table" if partial else "")
            + f": seat {seat} claims {kind}. Holds when the claimant has a way of playing that makes it true whatever "
            "the other three legally play; with all_tricks holding, the score gives every remaining card to the "
            "claimant.",
            "rules.md §8 Claims",
            [deck_tag(decks), "claims"],
            request,
            answer,
            words="claim",
            equal=equal,
        )
        made += 1
    hands = deal_hands(14, 1)
    state = deal_state(hands, [])
    plays: list[list[str]] = []
    while len(plays) < 40:
        plays.append(post("/legal-moves", {**state, "plays": plays})["moves"][0])
    for seat in range(4):
        request, answer = call(
            "POST", "/claim", {**state, "plays": plays, "claim": {"seat": seat, "kind": "all_tricks"}}
        )
        add(
            f,
            f"claim-1d-rules-md-seat-{seat}",
            "rules.md §8's example: seed 14, every play the first legal one, "
            "after ten tricks only seat 3 can claim every trick.",
            "rules.md §8 Claims",
            ["one-deck", "claims"],
            request,
            answer,
            words="claim",
            hand={"status": 200, "equal": {"/holds": seat == 3}},
        )
    request, answer = call("POST", "/claim", {**state, "plays": plays, "claim": {"seat": 1, "kind": "no_tricks"}})
    add(
        f,
        "claim-1d-rules-md-no-tricks",
        "rules.md §8's example: seat 1 can take no further trick.",
        "rules.md §8 Claims",
        ["one-deck", "claims"],
        request,
        answer,
        words="claim",
        hand={"status": 200, "equal": {"/holds": True}},
    )


def view_cases() -> None:
    f = "views.json"
    new_file(f, "rules.md §9: the running state and per-seat views.")
    rng = random.Random(9)
    for i in range(24):
        decks = 1 if i % 2 else 2
        hands = deal_hands(1100 + i, decks)
        exposed = random_exposure(hands, rng, decks) if i % 3 == 0 else None
        state = deal_state(hands, [], rules_for(decks) or None, exposed)
        state["plays"] = walk(state, rng, rng.randrange(4, 13 * decks * 4 - 2))
        seat = rng.randrange(4)
        request, answer = call("POST", "/view", {**state, "seat": seat})
        body = json.loads(answer.body)
        unordered = (
            ("/hand",)
            + tuple(f"/voids/{s}" for s in range(4))
            + tuple(f"/taken/{s}" for s in range(4))
            + (("/moves",) if body["moves"] is not None else ())
        )
        add(
            f,
            f"view-{dn(decks)}-seed-{1100 + i}-seat-{seat}",
            f"Seat {seat}'s view after {len(state['plays'])} "
            "plays: its hand, the seat to act, its moves when it acts, the cards each seat took, running points, "
            "the suits each seat has shown out of.",
            "rules.md §9 Running state and views",
            [deck_tag(decks), "views"] + (["exposure"] if exposed else []),
            request,
            answer,
            equal=(
                "/seat",
                "/to_act",
                "/trick_number",
                "/trick_leader",
                "/winning",
                "/points",
                "/hand_sizes",
                "/finished",
            )
            + (("/moves",) if body["moves"] is None else ()),
            unordered=unordered,
        )
    hands = deal_hands(14, 1)
    state = deal_state(hands, [])
    plays: list[list[str]] = []
    while len(plays) < 22:
        plays.append(post("/legal-moves", {**state, "plays": plays})["moves"][0])
    request, answer = call("POST", "/legal-moves", {**state, "plays": plays})
    add(
        f,
        "running-1d-rules-md",
        "rules.md §9's example: seed 14 after 22 first-legal plays: points -20, -80, -10, "
        "+50 (seat 3 took C10 with no other scoring card: +50), seat 1 winning the trick, hand sizes 8 7 7 8.",
        "rules.md §9 Running state and views",
        ["one-deck", "views", "transformer"],
        request,
        answer,
        unordered=tuple(f"/taken/{s}" for s in range(4)),
        hand={"status": 200, "equal": {"/points": [-20, -80, -10, 50], "/winning": 1, "/hand_sizes": [8, 7, 7, 8]}},
    )


def play_deal(hands, rng, rules=None, first_deal=None, leader=None, exposed=None, cut=None) -> dict[str, Any]:
    state = deal_state(hands, [], rules, exposed, first_deal, leader)
    state["plays"] = walk(state, rng, cut if cut is not None else 10_000)
    record = {k: v for k, v in state.items() if k != "rules"}
    return record


def pig_taker(record: dict[str, Any], rules: dict[str, Any] | None) -> int:
    body = post(
        "/play",
        {**({"rules": rules} if rules else {}), **record, "plays": record["plays"][:-1], "move": record["plays"][-1]},
    )
    return body["score"]["next_leader"]


def match_cases() -> None:
    f = "matches.json"
    new_file(f, "rules.md §10: matches (一场): leaders, totals, the end, ingots per deal, standings.")
    rng = random.Random(10)
    for n, (decks, options, leader_rule, target, deals_count, multiplier, fee) in enumerate(
        [
            (1, {}, "pig_taker", 1000, 3, 1, 0),
            (1, {}, "rotation", 1000, 4, 1, 0),
            (1, {}, "pig_taker", 300, 4, 2, 10),
            (1, {"partnership": True}, "pig_taker", 1000, 3, 1, 0),
            (2, {}, "pig_taker", 1000, 2, 1, 0),
            (2, {}, "rotation", 2000, 3, 3, 0),
            (2, {"partnership": True}, "pig_taker", 500, 3, 1, 5),
            (1, {}, "pig_taker", 100, 5, 1, 0),
            (1, {"first_trick_ban": True}, "pig_taker", 1000, 2, 1, 0),
            (2, {}, "pig_taker", 400, 3, 1, 0),
        ]
    ):
        rules = rules_for(decks, **options) or None
        deals = []
        leader = None
        for d in range(deals_count):
            hands = deal_hands(1200 + 10 * n + d, decks)
            if leader_rule == "rotation":
                record = play_deal(hands, rng, rules, False, d % 4)
            elif d == 0:
                record = play_deal(hands, rng, rules, True, None)
            else:
                record = play_deal(hands, rng, rules, False, leader)
            leader = pig_taker(record, rules)
            deals.append(record)
            body = {"rules": rules} if rules else {}
            body.update(
                {"target": target, "leader_rule": leader_rule, "multiplier": multiplier, "fee": fee, "deals": deals}
            )
            answer_body = post("/match", body)
            if answer_body["finished"]:
                break
        request, answer = call("POST", "/match", body)
        result = json.loads(answer.body)
        equal = ["/finished", "/totals", "/ledger", "/standings", "/next"] + (
            ["/ending_deal", "/winners"] if "ending_deal" in result else []
        )
        for d in range(len(deals)):
            equal += [
                f"/deals/{d}/leader",
                f"/deals/{d}/pig_taker",
                f"/deals/{d}/raw",
                f"/deals/{d}/totals",
                f"/deals/{d}/ingots/net",
            ]
        equal = [p for p in equal if resolve(result, p) is not MISSING]
        add(
            f,
            f"match-{dn(decks)}-{n}",
            f"A match of {len(deals)} deal(s), {leader_rule}, target {target}, "
            f"multiplier {multiplier}, fee {fee}"
            + (f", rules {options}" if options else "")
            + ": every deal's leader, pig taker, raw score, ingots, running totals (normalized, or partnership, "
            "before the one-deck ×12), the end and the standings.",
            "rules.md §10 Matches",
            [deck_tag(decks), "match"]
            + (["partnership"] if options.get("partnership") else [])
            + (["variants"] if options else []),
            request,
            answer,
            equal=tuple(equal),
            words="two_decks_later" if decks == 2 else "match_end",
        )
    # the worked match of rules.md §10
    first = []
    for seed, first_deal, leader in ((1, True, None), (2, False, 0)):
        hands = deal_hands(seed, 1)
        state = deal_state(hands, [], None, None, first_deal, leader)
        plays: list[list[str]] = []
        while True:
            turn = post("/legal-moves", {**state, "plays": plays})
            if turn["finished"]:
                break
            plays.append(turn["moves"][0])
        first.append({"hands": hands, "plays": plays})
    request, answer = call("POST", "/match", {"target": 350, "multiplier": 2, "fee": 10, "deals": first})
    add(
        f,
        "match-1d-rules-md",
        "rules.md §10's worked match: seat 1 stands at exactly 350 = target after deal 1 "
        "and wins; deal 0 led by seat 3 (C2), deal 1 by seat 0 (took the pig).",
        "rules.md §10 Matches",
        ["one-deck", "match", "ingots"],
        request,
        answer,
        words="match_end",
        hand={
            "status": 200,
            "equal": {
                "/deals/0/leader": 3,
                "/deals/0/pig_taker": 0,
                "/deals/0/raw": [-260, 200, -40, 0],
                "/deals/0/totals": [-313, 300, -20, 33],
                "/deals/0/ingots/net": [-930, 1790, -490, -410],
                "/deals/1/leader": 0,
                "/deals/1/pig_taker": 1,
                "/deals/1/raw": [0, -50, -300, 0],
                "/deals/1/totals": [-196, 350, -303, 149],
                "/deals/1/ledger": [-240, 1580, -1700, 280],
                "/finished": True,
                "/ending_deal": 1,
                "/winners": [1],
                "/standings": [
                    {"seat": 1, "total": 350, "place": 1},
                    {"seat": 3, "total": 149, "place": 2},
                    {"seat": 0, "total": -196, "place": 3},
                    {"seat": 2, "total": -303, "place": 4},
                ],
            },
        },
    )
    request, answer = call("POST", "/match", {"deals": first})
    add(
        f,
        "match-1d-rules-md-goes-on",
        "With the default target the match goes on; seat 1 took the pig in deal 1 and leads deal 2.",
        "rules.md §10 Matches",
        ["one-deck", "match"],
        request,
        answer,
        words="later",
        hand={"status": 200, "equal": {"/finished": False, "/next": {"first_deal": False, "leader": 1}}},
    )
    bad = [first[0], {**first[1], "leader": 2}]
    request, answer = call("POST", "/match", {"deals": bad})
    add(
        f,
        "match-1d-wrong-leader",
        "Deal 1 sent with leader 2; seat 0 took the pig in deal 0.",
        "rules.md §10 Matches",
        ["one-deck", "match", "problems"],
        request,
        answer,
        words="later",
        hand={
            "status": 422,
            "problem": {"code": "wrong_leader", "errors": [{"pointer": "/deals/1/leader", "code": "wrong_leader"}]},
        },
    )
    bad = [first[0], {**first[1], "first_deal": True}]
    request, answer = call("POST", "/match", {"deals": bad})
    add(
        f,
        "match-1d-wrong-first-deal",
        "Deal 1 sent as a first deal.",
        "rules.md §10 Matches",
        ["one-deck", "match", "problems"],
        request,
        answer,
        hand={"status": 422, "problem": {"code": "wrong_leader"}},
    )
    unfinished = [{**first[0], "plays": first[0]["plays"][:30]}, first[1]]
    request, answer = call("POST", "/match", {"deals": unfinished})
    add(
        f,
        "match-1d-unfinished-deal",
        "Only the last deal may be unfinished.",
        "rules.md §10 Matches",
        ["one-deck", "match", "problems"],
        request,
        answer,
        hand={
            "status": 422,
            "problem": {
                "code": "unfinished_deal",
                "errors": [{"pointer": "/deals/0/plays", "code": "unfinished_deal"}],
            },
        },
    )
    request, answer = call("POST", "/match", {"deals": [first[0], {**first[1], "plays": first[1]["plays"][:17]}]})
    add(
        f,
        "match-1d-last-unfinished",
        "The last deal unfinished: reported with its leader, adds nothing to the totals, no next.",
        "rules.md §10 Matches",
        ["one-deck", "match"],
        request,
        answer,
        equal=("/deals/1/finished",),
        hand={"status": 200, "equal": {"/totals": [-313, 300, -20, 33], "/finished": False, "/deals/1/leader": 0}},
    )
    request, answer = call("POST", "/match", {"target": 300, "deals": first})
    add(
        f,
        "match-1d-match-over",
        "Target 300: deal 0 brings seat 1 to 300, ending the match; deal 1 is refused.",
        "rules.md §10 Matches",
        ["one-deck", "match", "problems"],
        request,
        answer,
        words="match_end",
        hand={
            "status": 422,
            "problem": {"code": "match_over", "errors": [{"pointer": "/deals/1", "code": "match_over"}]},
        },
    )


# ---------------------------------------------------------------- the HTTP contract's problems


def http_cases() -> None:
    f = "http.json"
    new_file(f, "openapi.yaml: the problems of the HTTP layer (RFC 9457 answers with stable codes).")
    hands = deal_hands(1, 1)
    json_type = {"Content-Type": "application/json"}
    section = "openapi.yaml info.description Errors"
    cases: list[tuple[str, dict[str, Any], str, list[str]]] = [
        (
            "malformed-json",
            {"method": "POST", "path": "/score", "headers": json_type, "raw_body": '{"captured": ['},
            "The body is not JSON.",
            ["problems"],
        ),
        (
            "malformed-json-repeated-key",
            {
                "method": "POST",
                "path": "/ingots",
                "headers": json_type,
                "raw_body": '{"scores": [0, 0, 0, 0], "scores": [1, 1, 1, 1]}',
            },
            "A repeated object key.",
            ["problems"],
        ),
        (
            "malformed-json-nan",
            {"method": "POST", "path": "/ingots", "headers": json_type, "raw_body": '{"scores": [NaN, 0, 0, 0]}'},
            "NaN is not JSON.",
            ["problems"],
        ),
        (
            "payload-too-large",
            {
                "method": "POST",
                "path": "/score",
                "headers": json_type,
                "raw_body": "{}",
                "pad": {"where": "body", "text": " ", "times": 300000},
            },
            "A body over the default limit of 256 KiB.",
            ["problems"],
        ),
        (
            "unsupported-media-type",
            {
                "method": "POST",
                "path": "/score",
                "headers": {"Content-Type": "text/plain"},
                "raw_body": '{"captured": [[], [], [], []]}',
            },
            "The body is not sent as application/json.",
            ["problems"],
        ),
        (
            "unsupported-charset",
            {
                "method": "POST",
                "path": "/score",
                "headers": {"Content-Type": "application/json; charset=latin1"},
                "raw_body": '{"captured": [[], [], [], []]}',
            },
            "A charset other than utf-8.",
            ["problems"],
        ),
        (
            "unsupported-charset-utf16",
            {
                "method": "POST",
                "path": "/score",
                "headers": json_type,
                "raw_body": '{"captured": [[], [], [], []]}',
                "raw_encoding": "utf-16",
            },
            "A UTF-16 body.",
            ["problems"],
        ),
        (
            "schema-missing-hands",
            {"method": "POST", "path": "/legal-moves", "body": {}},
            "hands is required.",
            ["problems"],
        ),
        (
            "schema-unknown-field",
            {"method": "POST", "path": "/legal-moves", "body": {"hands": hands, "hand": []}},
            "A field the contract does not define is rejected, never ignored.",
            ["problems"],
        ),
        (
            "schema-decks-3",
            {"method": "POST", "path": "/score", "body": {"rules": {"decks": 3}, "captured": [[], [], [], []]}},
            "decks is 1 or 2.",
            ["problems", "variants"],
        ),
        (
            "schema-opening-card",
            {"method": "POST", "path": "/legal-moves", "body": {"rules": {"opening_card": "H2"}, "hands": hands}},
            "opening_card is one of C2 S2 S3 S7.",
            ["problems", "variants"],
        ),
        (
            "schema-seat-4",
            {"method": "POST", "path": "/play", "body": {"hands": hands, "move": ["C2"], "seat": 4}},
            "A seat is 0-3.",
            ["problems"],
        ),
        (
            "schema-three-card-play",
            {"method": "POST", "path": "/play", "body": {"hands": hands, "move": ["C2", "C3", "C4"]}},
            "A play is one or two cards.",
            ["problems"],
        ),
        (
            "schema-five-hands",
            {"method": "POST", "path": "/legal-moves", "body": {"hands": hands + [[]]}},
            "Four hands.",
            ["problems"],
        ),
        (
            "schema-integral-float-ok",
            {"method": "POST", "path": "/ingots", "body": {"scores": [100.0, 0, -200, -200], "multiplier": 1}},
            "JSON Schema semantics: 100.0 is an integer.",
            ["ingots"],
        ),
        (
            "schema-leader-rule",
            {
                "method": "POST",
                "path": "/match",
                "body": {"leader_rule": "random", "deals": [{"hands": hands, "plays": []}]},
            },
            "leader_rule is pig_taker or rotation.",
            ["problems", "match"],
        ),
        (
            "schema-claim-kind",
            {"method": "POST", "path": "/claim", "body": {"hands": hands, "claim": {"seat": 0, "kind": "some_tricks"}}},
            "A claim is all_tricks or no_tricks.",
            ["problems", "claims"],
        ),
        (
            "too-many-fields",
            {"method": "POST", "path": "/score", "body": {f"x{i}": i for i in range(65)}},
            "An object with more than 64 fields.",
            ["problems"],
        ),
        ("not-found", {"method": "GET", "path": "/no-such-thing"}, "No such resource.", ["problems"]),
        ("method-not-allowed", {"method": "GET", "path": "/score"}, "/score offers POST only.", ["problems"]),
        (
            "method-not-allowed-delete",
            {"method": "DELETE", "path": "/legal-moves"},
            "DELETE is not offered.",
            ["problems"],
        ),
    ]
    for name, request, why, tags in cases:
        answer = SEND(request)
        add(
            f,
            f"http-{name}",
            why,
            section,
            ["http"] + tags,
            request,
            answer,
            problem_errors=not name.startswith("malformed"),
        )
    request = {"method": "POST", "path": "/ingots", "headers": {"Content-Type": "application/json",
                                                                "Content-Encoding": "gzip"},
               "body": {"scores": [100, 0, -200, -200]}}
    add(f, "http-unsupported-content-encoding", "A body labelled gzip: the server decodes no content coding, "
        "and says it takes none (RFC 9110 §15.5.16).", section, ["http", "problems"], request, SEND(request),
        headers={"Accept-Encoding": "identity"})
    add_transport(f, hands)


def chunked_score(coding: str, raw_body: str) -> dict:
    """A POST /score whose body is sent as it is with ``Transfer-Encoding: coding``."""
    return {"method": "POST", "path": "/score", "raw_body": raw_body,
            "headers": {"Content-Type": "application/json", "Transfer-Encoding": coding}}


# Cases only a real HTTP server answers, their expectations written here by hand:
# (id, description, section, request, status, code).
TRANSPORT = (
    ("http-uri-too-long", "A request line over 8 KiB is refused by the server "
     "before it reaches an operation (no request_id in the body).", "openapi.yaml UriTooLong",
     {"method": "GET", "path": "/ranks/0?x=", "pad": {"where": "path", "text": "a", "times": 9000}},
     414, "uri_too_long"),
    ("http-bad-framing-chunk-size", "A chunked body whose chunk size is not hexadecimal: not valid HTTP/1.1, "
     "refused before any operation reads the body.", "openapi.yaml info.description Errors",
     chunked_score("chunked", "-a\r\n{}\r\n0\r\n\r\n"), 400, "bad_request"),
    ("http-bad-request-conflicting-lengths", "Two Content-Length fields that disagree: where the request "
     "ends is unknown, so the server refuses it (RFC 9112 §6.3) and closes the connection.",
     "openapi.yaml info.description Errors",
     {"method": "POST", "path": "/score", "headers": {"Content-Type": "application/json", "Content-Length": "2",
                                                      "content-length": "3"}, "raw_body": "{}"},
     400, "bad_request"),
    ("http-invalid-host", "A Host field that is no host name with an optional port (RFC 9110 §7.2).",
     "openapi.yaml info.description Errors", {"method": "GET", "path": "/ranks/0", "headers": {"Host": "a b"}},
     400, "invalid_host"),
    ("http-invalid-path", "A path that encodes a NUL byte (%00), which the server cannot read into a path: "
     "refused before any header is read, and not blamed on the Host.", "openapi.yaml info.description Errors",
     {"method": "GET", "path": "/ranks/1%00"}, 400, "invalid_path"),
    ("http-header-fields-too-large", "A header line over 8 KiB, past the server's limit.",
     "openapi.yaml info.description Errors",
     {"method": "GET", "path": "/ranks/0", "headers": {"X-Filler": "x" * 9000}},
     431, "header_fields_too_large"),
    ("http-unsupported-transfer-coding", "A transfer coding other than chunked (gzip, then chunked).",
     "openapi.yaml info.description Errors",
     chunked_score("gzip, chunked", "2\r\n{}\r\n0\r\n\r\n"), 501, "unsupported_transfer_coding"),
    ("http-upgrade-not-supported", "A request to switch to WebSocket: the server speaks HTTP/1.1 only.",
     "openapi.yaml info.description Errors",
     {"method": "GET", "path": "/healthz", "headers": {"Connection": "Upgrade", "Upgrade": "websocket"}},
     501, "upgrade_not_supported"),
)


def add_transport(f: str, hands: list[list[str]]) -> None:
    for case_id, description, section, request, status, code in TRANSPORT:
        IDS.add(case_id)
        FILES[f]["cases"].append(
            {"id": case_id, "description": description, "source": {"section": section},
             "tags": ["http", "problems", "transport"], "request": request,
             "expect": {"status": status, "problem": {"code": code}}})


# ---------------------------------------------------------------- whole deals


def deal_end_cases() -> None:
    for decks, f, count in ((1, "deals-one-deck.json", 24), (2, "deals-two-decks.json", 30)):
        new_file(f, f"Whole deals with {decks} deck(s) played to the end: /play's answer to the last play.")
        rng = random.Random(11 + decks)
        for i in range(count):
            seed = 1300 + i
            hands = deal_hands(seed, decks)
            exposed = random_exposure(hands, rng, decks) if i % 2 else None
            options = {"partnership": True} if i % 5 == 3 else {}
            if i % 7 == 6:
                options["pig_flips_with_all_hearts"] = True
            rules = rules_for(decks, **options) or None
            record = play_deal(hands, rng, rules, None, None, exposed)
            request, answer = call(
                "POST",
                "/play",
                {
                    **({"rules": rules} if rules else {}),
                    **record,
                    "plays": record["plays"][:-1],
                    "move": record["plays"][-1],
                },
            )
            body = json.loads(answer.body)
            taken = body["next"]["taken"]
            hand = check_score(decks, taken, body["next"]["exposed"], options)
            hand["equal"] = {f"/score{k}": v for k, v in hand["equal"].items()}
            add(
                f,
                f"deal-end-{dn(decks)}-seed-{seed}",
                f"Seed {seed} played at random to the end"
                + (f" with exposures {exposed}" if exposed else "")
                + (f", rules {options}" if options else "")
                + ": the last trick, the cards each seat took, the score (re-computed from the cards taken "
                "independently of the engine) and who leads the next deal (the first pig taker).",
                "rules.md §5 Raw score",
                [deck_tag(decks), "scoring", "play"]
                + (["exposure"] if exposed else [])
                + (["partnership"] if options.get("partnership") else [])
                + (["variants"] if options else []),
                request,
                answer,
                equal=("/trick/winner", "/trick/ranking", "/score/next_leader", "/next/finished"),
                unordered=tuple(f"/next/taken/{s}" for s in range(4)),
                hand=hand,
            )


FOUND = Path(__file__).with_name("conformance_mutation_requests.json")
# The fields pinned for a request found by the mutation run, by path (bench/conformance_mutants.py).
FOUND_PINS = {
    "/legal-moves": (("/seat", "/finished", "/trick_number", "/winning", "/points"), ("/moves",)),
    "/play": (("/trick", "/score/raw", "/score/final", "/next/seat", "/next/points"), ("/next/moves",)),
    "/view": (("/to_act", "/winning", "/points"), ("/hand",)),
    "/claim": (("/holds", "/tricks_left", "/score/raw"), ()),
    "/match": (("/totals", "/ledger", "/finished", "/standings"), ()),
    "/score": (("/raw", "/final"), ()),
    "/trick": (("/winner", "/ranking"), ()),
    "/exposures": (("/exposed", "/automatic", "/values"), ()),
}


def mutation_cases() -> None:
    """Requests on which a mutant that passed every other case answered differently (docs/conformance.md)."""
    if not FOUND.exists():
        return
    f = "mutation-found.json"
    new_file(f, "Requests found by the mutation run: each told apart a changed engine that every other case missed.")
    for i, found in enumerate(json.loads(FOUND.read_text(encoding="utf-8"))):
        request = found["request"]
        answer = SEND(request)
        body = json.loads(answer.body)
        equal, unordered = FOUND_PINS.get(request["path"], ((), ()))
        if answer.status >= 400:
            equal, unordered = (), ()
        equal = tuple(p for p in equal if resolve(body, p) is not MISSING)
        unordered = tuple(p for p in unordered if isinstance(resolve(body, p), list))
        rules = (request.get("body") or {}).get("rules") or {}
        decks = rules.get("decks", 1)
        section = {"/claim": "rules.md §8 Claims", "/match": "rules.md §10 Matches", "/score": "rules.md §5 Raw score",
                   "/trick": "rules.md §4 Play", "/exposures": "rules.md §3 Exposure"}.get(request["path"],
                                                                                       "rules.md §4 Play")
        add(f, f"mutation-{i}-{request['path'].strip('/').replace('/', '-')}",
            f"Found by the mutation run: {found['mutant']} passed every other case but answered this request "
            "differently. Pinned from the unchanged engine.", section, [deck_tag(decks), "mutation"], request, answer,
            equal=equal, unordered=unordered)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="check the scenarios only; write nothing")
    options = parser.parse_args()
    cards_cases()
    deal_cases()
    ban_cases()
    exposure_cases()
    new_file("positions-one-deck.json", "rules.md §3-§4, §9: legal moves and the running state, one deck.")
    new_file("positions-two-decks.json", "rules.md §3-§4, §9: legal moves and the running state, two decks.")
    rng = random.Random(12)
    position_cases("positions-one-deck.json", 1, 30, 400, rng, exposures=False)
    position_cases("positions-one-deck.json", 1, 20, 450, rng, exposures=True)
    position_cases("positions-two-decks.json", 2, 30, 500, rng, exposures=False)
    position_cases("positions-two-decks.json", 2, 20, 550, rng, exposures=True)
    trick_cases()
    pair_follow_cases()
    score_cases()
    results_cases()
    error_cases()
    claim_cases()
    solve_cases()
    view_cases()
    match_cases()
    http_cases()
    deal_end_cases()
    mutation_cases()
    total = sum(len(v["cases"]) for v in FILES.values())
    two = sum("two-decks" in c["tags"] for v in FILES.values() for c in v["cases"])
    print(f"{total} cases, {two} two-deck, in {len(FILES)} files")
    if not options.check:
        OUT.mkdir(parents=True, exist_ok=True)
        for old in OUT.glob("*.json"):
            old.unlink()
        for name, content in FILES.items():
            (OUT / name).write_text(json.dumps(content, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
