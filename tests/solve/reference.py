"""Positions 6 to 8 tricks from the end with every legal move's exact open-card value, as the solver before
the one search (commit 9a69570) found them: ``reference_values.json``, written by ``python -m
tests.solve.reference`` and read back by ``positions``. A stored answer, not a search: the search tested
against it cannot have written it."""
from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from gongzhu import rules as engine
from gongzhu import solve
from gongzhu.rules import running

FIXTURE = Path(__file__).with_name("reference_values.json")
# exposable cards (docs/rules.md §3): the pig, the sheep, the transformer, the ace of hearts
EXPOSABLE = frozenset({10, 35, 47, 25})
# (decks, tricks left, positions, seed); two decks only at 6 tricks (the old solver takes seconds beyond)
PLAN = ((1, 6, 20, 61), (1, 7, 20, 62), (1, 8, 12, 63), (2, 6, 12, 64))
# a position the old solver does not value within this many seconds is left out while writing
WRITE_SECONDS = 10.0


def deal_at(decks: int, left: int, rng: random.Random, partnership: bool, exposing: bool) -> dict[str, object]:
    """A random deal played with random legal moves until ``left`` tricks remain, then 0–3 plays into the
    trick, with the first-trick ban and the pig's flip at random: its rules, hands, exposures and plays."""
    rules = engine.Rules(decks=decks, partnership=partnership, first_trick_ban=rng.random() < 0.3,
                         pig_flips_with_all_hearts=rng.random() < 0.5)
    hands = engine.deal_hands(rules, seed=rng.randrange(1 << 30))
    exposed = tuple(tuple(c for c in hand if c in EXPOSABLE and exposing and rng.random() < 0.5) for hand in hands)
    state = engine.replay(rules, hands=hands, exposed=exposed, plays=(), first_deal=True)
    while solve.tricks_left(state) > left:
        state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
    for _ in range(rng.randrange(4)):
        state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
    return {"rules": {"decks": decks, "partnership": partnership, "first_trick_ban": rules.first_trick_ban,
                      "pig_flips_with_all_hearts": rules.pig_flips_with_all_hearts},
            "hands": [list(hand) for hand in hands], "exposed": [list(cards) for cards in exposed],
            "plays": [list(play) for play in running.plays(state)]}


def state_of(position: dict) -> engine.DealState:
    """The deal state of a stored position."""
    return engine.replay(engine.Rules(**position["rules"]), hands=position["hands"], exposed=position["exposed"],
                         plays=position["plays"], first_deal=True)


def positions() -> list[dict]:
    """The stored positions: each with ``left`` (tricks) and ``values`` ([move, raw points] pairs)."""
    return json.loads(FIXTURE.read_text())


def write() -> None:
    found = []
    for decks, left, count, seed in PLAN:
        rng = random.Random(seed)
        made = 0
        while made < count:
            position = deal_at(decks, left, rng, partnership=made % 2 == 1, exposing=made % 4 >= 2)
            start = time.monotonic()
            values = solve.OpenValues().values(state_of(position), deadline=start + WRITE_SECONDS)
            if values is None:
                continue
            position["left"] = left
            position["values"] = sorted([list(move), value] for move, value in values.items())
            found.append(position)
            print(decks, left, made, f"{time.monotonic() - start:.2f}s", file=sys.stderr)
            made += 1
    FIXTURE.write_text("[\n" + ",\n".join(json.dumps(p, separators=(",", ":")) for p in found) + "\n]\n")


if __name__ == "__main__":
    write()
