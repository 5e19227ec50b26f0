"""A fixed corpus of requests, valid and invalid, and the bytes the app answers to each
(tests/api/test_wire_bytes.py).

The requests are built from seeded random deals (one and two decks, every rule option, exposures,
histories cut anywhere, finished deals), each mutated into the invalid histories a client can send
(a card not held, a wrong follow, a play too many, duplicate or missing cards, a wrong leader, bad
exposures), scores of random piles, moves for ``/play`` (legal, illegal, the deal's last), the other
operations' bodies, and every error of the wire (not JSON, not UTF-8, the media type, the size,
unknown fields, schema violations, methods and paths), in English and Chinese.

An answer is its status line, its headers and its body; ``wire_answers.json`` holds the SHA-256 of each,
written from the code before a change that must not change them:

    .venv/bin/python tests/api/wire_corpus.py       # writes tests/api/wire_answers.json
"""
from __future__ import annotations

import gzip
import hashlib
import io
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from gongzhu.rules import running

ANSWERS = Path(__file__).with_name("wire_answers.json")
REQUEST_ID = "wire-corpus"
JSON_TYPE = "application/json"

Request = tuple[str, str, str, dict[str, str], bytes | None]


def _names(cards) -> list[str]:
    from gongzhu.rules import CARD_NAMES
    return [CARD_NAMES[c] for c in cards]


def _rules(rng: random.Random, decks: int) -> dict[str, Any]:
    """Rule options as a client sends them: some left out, some stated."""
    from gongzhu.rules.variants import OPENING_CARDS
    rules: dict[str, Any] = {}
    if decks == 2 or rng.random() < 0.3:
        rules["decks"] = decks if rng.random() < 0.8 else float(decks)
    for name, chance in (("partnership", 0.3), ("must_lead_opening_card", 0.2), ("first_trick_ban", 0.3),
                         ("pig_flips_with_all_hearts", 0.2)):
        if rng.random() < chance:
            rules[name] = rng.random() < 0.6
    if rng.random() < 0.2:
        rules["opening_card"] = rng.choice(OPENING_CARDS)
    return rules


def _engine_rules(sent: dict[str, Any]):
    from gongzhu.rules import Rules
    return Rules(**{k: (int(v) if k == "decks" else v) for k, v in sent.items()})


def _exposures(rng: random.Random, rules, hands) -> list[list[int]]:
    """Exposures each seat may make (some of its exposable cards)."""
    from gongzhu.rules.cards import EXPOSABLE
    exposed: list[list[int]] = [[], [], [], []]
    if rng.random() < 0.5:
        return exposed
    for seat, hand in enumerate(hands):
        for card in EXPOSABLE:
            for _ in range(hand.count(card)):
                if rng.random() < 0.35:
                    exposed[seat].append(card)
    return exposed


def _history(rng: random.Random, rules, hands, exposed, first_deal: bool, leader: int | None) -> list[tuple]:
    """A legal history played to the end with random legal moves."""
    from gongzhu.rules import legal_moves, replay
    from gongzhu.rules.play import apply_move
    state = replay(rules, hands=hands, exposed=exposed, first_deal=first_deal, leader=leader)
    plays = []
    while not state.finished:
        move = rng.choice(legal_moves(state))
        plays.append(move)
        state = apply_move(state, move)
    return plays


def _deal_state(rng: random.Random, decks: int) -> tuple[dict[str, Any], Any, list[tuple]]:
    """(body without plays, engine rules, a whole legal history)."""
    from gongzhu.rules import deal_hands
    from gongzhu.rules.deal import first_leader
    sent = _rules(rng, decks)
    rules = _engine_rules(sent)
    hands = [list(h) for h in deal_hands(rules, rng=rng)]
    body: dict[str, Any] = {}
    if sent or rng.random() < 0.3:
        body["rules"] = sent
    first_deal = rng.random() < 0.7
    leader: int | None = None
    if not first_deal:
        body["first_deal"] = False
        leader = rng.randrange(4)
        body["leader"] = leader
    else:
        if rng.random() < 0.2:
            body["first_deal"] = True
        if rng.random() < 0.4:
            leader = first_leader(rules, hands)
            body["leader"] = leader
    if rng.random() < 0.5:
        for hand in hands:
            rng.shuffle(hand)
        if first_deal and decks == 2 and leader is None:
            leader = first_leader(rules, hands)
    exposed = _exposures(rng, rules, hands)
    body["hands"] = [_names(h) for h in hands]
    if any(exposed) or rng.random() < 0.2:
        body["exposed"] = [_names(e) for e in exposed]
    plays = _history(rng, rules, hands, exposed, first_deal, leader)
    return body, rules, plays


def _post(name: str, path: str, body: Any, headers: dict[str, str] | None = None) -> Request:
    raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    return name, "POST", path, {"Content-Type": JSON_TYPE, **(headers or {})}, raw


def _zh(rng: random.Random) -> dict[str, str]:
    return {"Accept-Language": "zh-CN"} if rng.random() < 0.25 else {}


def _held_move(rng: random.Random, rules, body: dict[str, Any], plays: list[tuple], size: int) -> list[str]:
    """``size`` cards the seat to act after ``plays`` holds (legal or not)."""
    from gongzhu.rules import replay
    from gongzhu.rules.cards import CARD_BY_NAME, bits_cards
    state = replay(rules, hands=[[CARD_BY_NAME[c] for c in h] for h in body["hands"]],
                   exposed=[[CARD_BY_NAME[c] for c in e] for e in body.get("exposed", [[]] * 4)], plays=plays,
                   first_deal=body.get("first_deal", True), leader=body.get("leader"))
    held = list(bits_cards(running.hands_bits(state)[state.seat]))
    return _names(rng.sample(held, min(size, len(held))))


def _mutated_plays(rng: random.Random, rules, body: dict[str, Any], plays: list[tuple]) -> list[list[str]]:
    """The history with one play changed: to cards the seat holds (often an illegal follow), to any cards,
    or to another shape."""
    from gongzhu.rules import CARD_NAMES
    changed = [_names(p) for p in plays]
    at = rng.randrange(len(changed))
    kind = rng.random()
    if kind < 0.5:
        changed[at] = _held_move(rng, rules, body, plays[:at], len(changed[at]))
    elif kind < 0.7:
        changed[at] = [rng.choice(CARD_NAMES) for _ in changed[at]]
    elif kind < 0.85:
        changed[at] = [rng.choice(CARD_NAMES) for _ in range(3 - len(changed[at]) if rules.decks == 2 else 2)]
    else:
        changed[at] = list(reversed(changed[at])) if len(changed[at]) == 2 else changed[at] * 2
    return changed


def deal_requests(rng: random.Random, count: int) -> Iterator[Request]:
    """/legal-moves, /view, /play, /claim and /suggest-free requests from seeded deals, valid and not."""
    from gongzhu.rules import CARD_NAMES
    for n in range(count):
        decks = 1 if n % 3 else 2
        body, rules, plays = _deal_state(rng, decks)
        cut = rng.choice([0, 1, len(plays), len(plays) - 1, rng.randrange(len(plays) + 1),
                          rng.randrange(len(plays) + 1)])
        state = dict(body, plays=[_names(p) for p in plays[:cut]])
        if cut == 0 and rng.random() < 0.5:
            del state["plays"]
        zh = _zh(rng)
        yield _post(f"legal-moves {n}", "/legal-moves", state, zh)
        if n % 4 == 0:
            yield _post(f"view {n}", "/view", dict(state, seat=rng.randrange(4)), zh)
        if cut < len(plays):
            move = _names(plays[cut])
            yield _post(f"play {n}", "/play", dict(state, move=move), zh)
            if rng.random() < 0.3:
                yield _post(f"play {n} seat", "/play", dict(state, move=move, seat=rng.randrange(4)), zh)
            wrong = ([rng.choice(CARD_NAMES) for _ in move] if rng.random() < 0.3
                     else _held_move(rng, rules, body, plays[:cut], len(move)))
            yield _post(f"play {n} other move", "/play", dict(state, move=wrong), zh)
        else:
            yield _post(f"play {n} finished", "/play", dict(state, move=["C2"]), zh)
        if cut and n % 2 == 0:
            yield _post(f"legal-moves {n} changed", "/legal-moves",
                        dict(state, plays=_mutated_plays(rng, rules, body, plays[:cut])), zh)
        if n % 7 == 0:
            yield _post(f"legal-moves {n} too many", "/legal-moves",
                        dict(body, plays=[_names(p) for p in plays] + [["C2"]]), zh)
        if n % 6 == 1:
            yield from _broken_deals(rng, n, state, zh)
        if n % 9 == 0 and len(plays) - cut <= 12 and cut < len(plays):
            claim = {"seat": rng.randrange(4), "kind": rng.choice(["all_tricks", "no_tricks"])}
            yield _post(f"claim {n}", "/claim", dict(state, claim=claim), zh)


def _broken_deals(rng: random.Random, n: int, state: dict[str, Any], zh: dict[str, str]) -> Iterator[Request]:
    """The deal itself wrong: duplicate and missing cards, wrong sizes, leaders and exposures."""
    from gongzhu.rules import CARD_NAMES
    hands = [list(h) for h in state["hands"]]
    seat = rng.randrange(4)
    dup = [list(h) for h in hands]
    dup[seat][rng.randrange(len(dup[seat]))] = rng.choice(CARD_NAMES)
    yield _post(f"deal {n} a card replaced", "/legal-moves", dict(state, hands=dup), zh)
    short = [list(h) for h in hands]
    short[seat].pop()
    yield _post(f"deal {n} a card short", "/legal-moves", dict(state, hands=short), zh)
    long_ = [list(h) for h in hands]
    long_[seat].append(long_[(seat + 1) % 4][0])
    yield _post(f"deal {n} a card too many", "/legal-moves", dict(state, hands=long_), zh)
    yield _post(f"deal {n} leader", "/legal-moves", dict(state, leader=rng.randrange(4), plays=[]), zh)
    later = {k: v for k, v in state.items() if k != "leader"}
    yield _post(f"deal {n} later deal without leader", "/legal-moves", dict(later, first_deal=False), zh)
    shown = [[], [], [], []]
    shown[seat] = [rng.choice(["SQ", "DJ", "C10", "HA", "S2", "HK"]) for _ in range(rng.randrange(1, 4))]
    yield _post(f"deal {n} exposures", "/legal-moves", dict(state, exposed=shown, plays=[]), zh)
    yield _post(f"deal {n} three exposures", "/legal-moves",
                dict(state, exposed=[["SQ"], ["HA"], ["DJ"], []], plays=[]), zh)


def score_requests(rng: random.Random, count: int) -> Iterator[Request]:
    """/score of random piles: partial and whole deals, all hearts, exposures, duplicates."""
    from gongzhu.rules import CARD_NAMES
    from gongzhu.rules.cards import EXPOSABLE
    hearts = [name for name in CARD_NAMES if name[0] == "H"]
    for n in range(count):
        decks = 1 if n % 3 else 2
        deck = list(CARD_NAMES) * decks
        rng.shuffle(deck)
        kind = n % 5
        if kind == 0:
            piles = [deck[i::4] for i in range(4)]
        elif kind == 1:
            taker = rng.randrange(4)
            piles = [[] for _ in range(4)]
            piles[taker] = hearts * decks + (["SQ", "DJ", "C10"] * decks if rng.random() < 0.5 else ["SQ"])
            piles[(taker + 1) % 4] = ["S2", "D3"]
        else:
            taken = deck[:rng.randrange(0, len(deck) + 1)]
            piles = [taken[i::4] for i in range(4)]
        if n % 11 == 3:
            # a card taken once more than the decks hold, and the heart ace three times
            piles[rng.randrange(4)].append(deck[0])
            piles[0] += ["HA"] * 3
        body: dict[str, Any] = {"captured": piles}
        sent = _rules(rng, decks)
        if sent or rng.random() < 0.3:
            body["rules"] = sent
        if rng.random() < 0.6:
            exposed = [[], [], [], []]
            for card in EXPOSABLE:
                for _ in range(rng.choice([0, 0, 1, decks])):
                    exposed[rng.randrange(4)].append(CARD_NAMES[card])
            if n % 13 == 5:
                exposed[1] += ["S3", "SQ", "SQ", "SQ"]
            body["exposed"] = exposed
        yield _post(f"score {n}", "/score", body, _zh(rng))


def other_requests(rng: random.Random) -> Iterator[Request]:
    """The other operations' bodies (a few each) and their rule errors."""
    from gongzhu.rules import CARD_NAMES
    from tests.api.deals import FULL_PLAYS, SEED1, X, Y, Z
    for n in range(12):
        yield _post(f"deal {n}", "/deal", {"seed": n * 7919} if n % 3 else {
            "seed": f"{rng.getrandbits(256):064x}", "rules": {"decks": 1 + n % 2}, "first_deal": n % 2 == 0})
    for n in range(20):
        decks = 1 + n % 2
        deck = list(CARD_NAMES) * decks
        rng.shuffle(deck)
        lead = [deck[0]] if decks == 1 or n % 4 else [deck[0], deck[0]]
        plays = [lead] + [deck[1 + 2 * i:1 + 2 * i + len(lead)] for i in range(3)]
        yield _post(f"trick {n}", "/trick", {"rules": {"decks": decks}, "leader": n % 4, "plays": plays})
    yield _post("trick wrong size", "/trick", {"leader": 0, "plays": [["S2"], ["S3", "S4"], ["S5"], ["S6"]]})
    for n, scores in enumerate([[100, 0, -200, -200], [0, 0, 0, 0], [5, 5, -5, -5], [300, -100, -100, -100]]):
        yield _post(f"ingots {n}", "/ingots", {"scores": scores, "multiplier": 1 + n, "fee": n})
    for n, (hands, exposed) in enumerate([(SEED1, [["SQ", "HA"], [], [], ["DJ"]]), (X, [["SQ"], [], [], []]),
                                         (SEED1, [["C10"], [], [], []]), (SEED1, [["HK"], [], [], []])]):
        yield _post(f"exposures {n}", "/exposures", {"hands": hands, "exposed": exposed})
    yield _post("exposures two decks", "/exposures", {"rules": {"decks": 2}, "hands": Y,
                                                      "exposed": [["SQ", "SQ"], [], [], []]})
    yield _post("suggest exposures", "/suggest-exposures", {"hand": SEED1[0]})
    yield _post("play X", "/play", {"first_deal": False, "leader": 1, "hands": X, "exposed": [["SQ"], [], [], []],
                                    "plays": [["S5"]], "move": ["SQ"]})
    yield _post("play Y pair", "/play", {"rules": {"decks": 2}, "first_deal": False, "leader": 0, "hands": Y,
                                         "plays": [["S9", "S9"]], "move": ["SK", "H3"]})
    yield _post("play Z ban", "/play", {"rules": {"first_trick_ban": True}, "hands": Z, "plays": [["C2"]],
                                        "move": ["SQ"]})
    for name, body in [("X", {"first_deal": False, "leader": 1, "hands": X, "exposed": [["SQ"], [], [], []],
                               "plays": [["S5"], ["S7"], ["SK"], ["SQ"]]}),
                       ("Y", {"rules": {"decks": 2}, "first_deal": False, "leader": 0, "hands": Y,
                              "plays": [["S9", "S9"], ["SK", "H3"]]}),
                       ("Y pair", {"rules": {"decks": 2}, "first_deal": False, "leader": 0, "hands": Y,
                                   "plays": [["S9", "S9"], ["SK", "SK"]]}),
                       ("Z", {"rules": {"first_trick_ban": True}, "hands": Z, "plays": [["C2"], ["SQ"]]})]:
        yield _post(f"history {name}", "/legal-moves", body)
        yield _post(f"history {name} zh", "/legal-moves", body, {"Accept-Language": "zh-CN"})
    record = {"first_deal": True, "leader": 3, "hands": SEED1, "plays": FULL_PLAYS}
    yield _post("match", "/match", {"deals": [record]})
    yield _post("match two", "/match", {"deals": [record, dict(record, first_deal=False, leader=0, plays=[])],
                                        "leader_rule": "rotation", "target": 200})
    yield _post("match unfinished", "/match", {"deals": [dict(record, plays=FULL_PLAYS[:7])]})
    for path in ("/ranks", "/ranks/-300000", "/ranks/0", "/ranks/12.0", "/ranks/1e5", "/ranks/abc",
                 "/ranks/99999999999"):
        yield path, "GET", path, {}, None


def wire_requests() -> Iterator[Request]:
    """Every error of the wire and of the contract."""
    from tests.api.deals import SEED1
    state = json.dumps({"hands": SEED1}).encode()
    for name, headers, body in [
        ("not json", {}, b"{"), ("extra data", {}, b'{"hands": []} x'), ("array", {}, b"[]"),
        ("number", {}, b"3"), ("empty", {}, b""), ("bom", {}, b"\xef\xbb\xbf" + state),
        ("not utf-8", {}, b'{"hands": "\xff"}'), ("utf-16", {}, state.decode().encode("utf-16")),
        ("nan", {}, b'{"hands": NaN}'), ("infinity", {}, b'{"leader": 1e999, "hands": []}'),
        ("duplicate key", {}, b'{"hands": [], "hands": []}'), ("lone surrogate", {}, b'{"hands": ["\\ud800"]}'),
        ("escaped key", {}, b'{"h\\u0061nds": [["\\u0053Q"]]}'),
        ("too many fields", {}, json.dumps({f"k{i}": i for i in range(70)}).encode()),
        ("unknown fields", {}, json.dumps({"hands": SEED1, **{f"x{i}": i for i in range(60)}}).encode()),
        ("deep", {}, b"[" * 100000 + b"]" * 100000),
        ("too large", {}, b'{"hands": "' + b"x" * 300000 + b'"}'),
        ("media type", {"Content-Type": "text/plain"}, state),
        ("no media type", {"Content-Type": ""}, state),
        ("charset", {"Content-Type": "application/json; charset=utf-8"}, state),
        ("charset latin-1", {"Content-Type": "application/json; charset=latin-1"}, state),
        ("upper media type", {"Content-Type": "Application/JSON"}, state),
        ("zh not json", {"Accept-Language": "zh-CN"}, b"{"),
        ("client request id", {"X-Request-ID": "game-42/move-7"}, state),
        ("gzip", {"Content-Encoding": "gzip"}, gzip.compress(state, mtime=0)),
        ("labelled gzip", {"Content-Encoding": "gzip"}, state),
        ("identity", {"Content-Encoding": "identity"}, state),
    ]:
        yield (f"wire {name}", "POST", "/legal-moves",
               {"Content-Type": JSON_TYPE, **headers}, body)
    cards = ["SQ", "sq", "S1", "S10", "X2", "", 5, None, "SQQ"]
    for name, body in [
        ("hands missing", {}), ("hands short", {"hands": SEED1[:3]}), ("hands type", {"hands": "SQ"}),
        ("card names", {"hands": [cards, [], [], []]}), ("leader", {"hands": SEED1, "leader": 4}),
        ("leader float", {"hands": SEED1, "leader": 1.5}), ("leader integral float", {"hands": SEED1, "leader": 3.0}),
        ("rules", {"rules": {"decks": 3, "opening_card": "H2", "pig": 1}, "hands": SEED1}),
        ("rules type", {"rules": [], "hands": SEED1}),
        ("plays", {"hands": SEED1, "plays": [[], ["C2", "C3", "C4"], "C2", [5]]}),
        ("exposed", {"hands": SEED1, "exposed": [["SQ"]] * 5}),
        ("long string", {"hands": SEED1, "x" * 300: 1, "plays": [["y" * 300]]}),
        ("many errors", {"hands": [["bad"] * 26] * 4, "plays": [["bad"]] * 104}),
    ]:
        yield _post(f"schema {name}", "/legal-moves", body)
        yield _post(f"schema {name} zh", "/legal-moves", body, {"Accept-Language": "zh-Hans"})
    yield _post("schema play move", "/play", {"hands": SEED1, "move": []})
    yield _post("schema score", "/score", {"captured": [["SQ"], [], []], "exposed": [["XX"], [], [], []]})
    yield _post("schema ingots", "/ingots", {"scores": [100, 0, -200], "fee": -1})
    yield "method", "GET", "/legal-moves", {}, None
    yield "method put", "PUT", "/score", {"Content-Type": JSON_TYPE}, b"{}"
    yield "method options", "OPTIONS", "/play", {}, None
    yield "head", "HEAD", "/ranks", {}, None
    yield "not found", "GET", "/nowhere", {}, None
    yield "not found post", "POST", "/legal-moves/x", {"Content-Type": JSON_TYPE}, state
    yield "healthz", "GET", "/healthz", {}, None
    yield "readyz", "GET", "/readyz", {}, None
    yield "healthz head", "HEAD", "/healthz", {}, None


def requests() -> list[Request]:
    """The corpus, in a fixed order."""
    rng = random.Random(20261204)
    found = [*deal_requests(rng, 150), *score_requests(rng, 80), *other_requests(rng), *wire_requests()]
    names = [r[0] for r in found]
    assert len(set(names)) == len(names), "request names are unique"
    return found


LOG_HEADER = "X-Gongzhu-Log"


def answer(app: Callable, request: Request) -> bytes:
    """The whole answer to ``request``: status line, headers and body, as a client gets them (nginx hides the
    application's ``X-Gongzhu-Log``, for its access line)."""
    from werkzeug.test import EnvironBuilder
    _, method, path, headers, body = request
    headers = dict(headers)
    content_type = headers.pop("Content-Type", None)
    headers.setdefault("X-Request-ID", REQUEST_ID)
    environ = EnvironBuilder(path=path, method=method, headers=headers, data=body,
                             content_type=content_type).get_environ()
    if content_type == "":
        environ["CONTENT_TYPE"] = ""
    environ["wsgi.input"] = io.BytesIO(body or b"")
    started: list[Any] = []
    chunks = app(environ, lambda status, found, exc_info=None: started.extend((status, found)))
    try:
        data = b"".join(chunks)
    finally:
        chunks.close()
    status, found = started
    head = "\n".join([status, *(f"{name}: {value}" for name, value in found if name != LOG_HEADER)])
    return head.encode() + b"\n\n" + data


def digests(app: Callable) -> dict[str, str]:
    """SHA-256 of each request's answer, by request name."""
    return {request[0]: hashlib.sha256(answer(app, request)).hexdigest() for request in requests()}


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from gongzhu.api import create_app
    found = digests(create_app())
    ANSWERS.write_text(json.dumps(found, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(found)} answers written to {ANSWERS}")


if __name__ == "__main__":
    main()
