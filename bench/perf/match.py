"""How long ``POST /match`` takes for a long match: every deal replayed and checked,
scored and settled (docs/rules.md §10, ``service/gongzhu/rules/match.py``).

    python3 bench/perf/match.py                 # 100 deals, one and two decks, 20 requests each
    python3 bench/perf/match.py --deals 200 --requests 50

It plays seeded random matches of ``--deals`` deals (each led as the match rules say,
every card chosen by the engine's random chooser; a target of 1,000,000 keeps them
going) and times (1) the engine alone, ``score_match``, in process CPU time, and
(2) the whole request against gunicorn started as ``make run`` starts it (one worker):
wall time from the first byte sent to the last byte read, over one keep-alive
connection. Figures: the body size, p50 and max milliseconds.
"""
from __future__ import annotations

import sys
from pathlib import Path

# bench/: its _server (loaded once, by its name) keeps bench/perf, whose http.py shadows the stdlib, off sys.path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _server  # noqa: E402

_server.bootstrap()

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

from gongzhu import rules as engine  # noqa: E402
from gongzhu.rules import running  # noqa: E402

NEVER_ENDS = 1_000_000


def played_match(decks: int, deals: int, seed: int) -> tuple[engine.Rules, list[engine.match.DealRecord]]:
    """A seeded match of ``deals`` deals, each led by the last deal's first pig taker."""
    rules = engine.Rules(decks=decks)
    rng = random.Random(seed)
    records: list[engine.match.DealRecord] = []
    first_deal, leader = True, None
    while len(records) < deals:
        hands = engine.deal_hands(rules, rng=rng)
        state = engine.initial_state(rules, hands, first_deal=first_deal, leader=leader)
        engine.table.advance(state, engine.table.random_chooser(rng))
        records.append(engine.match.DealRecord(hands=hands, plays=tuple(running.plays(state))))
        first_deal, leader = False, running.first_pig_taker(state)
    return rules, records


def body_of(rules: engine.Rules, records: list[engine.match.DealRecord]) -> bytes:
    deals = [{"hands": [engine.format_cards(h) for h in r.hands],
              "plays": [engine.format_cards(p) for p in r.plays]} for r in records]
    return json.dumps({"rules": {"decks": rules.decks}, "target": NEVER_ENDS, "deals": deals}).encode()


def engine_ms(rules: engine.Rules, records: list[engine.match.DealRecord], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.process_time()
        engine.score_match(rules, records, target=NEVER_ENDS)
        times.append((time.process_time() - started) * 1000)
    return times


def http_ms(base_port: int, body: bytes, runs: int) -> list[float]:
    connection = http.client.HTTPConnection(_server.HOST, base_port, timeout=30)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        connection.request("POST", "/match", body, {"Content-Type": "application/json"})
        answer = connection.getresponse()
        data = answer.read()
        times.append((time.perf_counter() - started) * 1000)
        if answer.status != 200:
            raise SystemExit(f"/match answered {answer.status}: {data[:500]!r}")
    connection.close()
    return times


def figures(times: list[float]) -> str:
    return f"p50 {statistics.median(times):7.1f} ms   max {max(times):7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(_server.machine_notes())
    matches = {decks: played_match(decks, args.deals, args.seed) for decks in (1, 2)}
    with _server.Server(workers=1) as server:
        for decks, (rules, records) in matches.items():
            body = body_of(rules, records)
            print(f"{args.deals} deals, {decks} deck(s), body {len(body) / 1024:.0f} KiB")
            print(f"  engine score_match   {figures(engine_ms(rules, records, args.requests))}")
            print(f"  POST /match (HTTP)   {figures(http_ms(server.port, body, args.requests))}")


if __name__ == "__main__":
    main()
