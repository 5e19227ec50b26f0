"""Which search answers whom (``gongzhu.solve``'s module docstring): claims, the bot's endgame and the review's
values on the deal state all reach the AND/OR core (``andor.AndOr.decide``); the endgame's and the review's
values are found by the one driver (``endgame.mtd``), the review's plain one-deck positions included. Spied on in
the pure build only: the compiled build's classes cannot be patched."""
from __future__ import annotations

import pytest

from gongzhu import rules as engine
from gongzhu import solve
from gongzhu.solve import andor, endgame, plain_open, values

from . import reference

pytestmark = pytest.mark.skipif(not hasattr(andor.AndOr.decide, "__code__"),
                                reason="the compiled build's functions cannot be spied on")


@pytest.fixture
def calls(monkeypatch):
    """Counts of the calls to the AND/OR core and to the driver, by name."""
    counted = {"decide": 0, "mtd": 0}
    decide, mtd = andor.AndOr.decide, endgame.mtd

    def counting_decide(self, pos, depth):
        counted["decide"] += 1
        return decide(self, pos, depth)

    def counting_mtd(question, low, high, guess):
        counted["mtd"] += 1
        return mtd(question, low, high, guess)

    monkeypatch.setattr(andor.AndOr, "decide", counting_decide)
    for module in (endgame, plain_open):
        monkeypatch.setattr(module, "mtd", counting_mtd)
    return counted


def special_state() -> engine.DealState:
    """A stored two-deck position (no card plain to ``PlainOpen``)."""
    position = next(p for p in reference.positions() if p["rules"]["decks"] == 2 and p["left"] == 6)
    return reference.state_of(position)


def test_claims_reach_the_and_or_core(calls):
    state = special_state()
    solve.decide_claim(state, state.seat, "no_tricks")
    assert calls["decide"] > 0


def test_the_endgame_reaches_the_driver_and_the_core(calls):
    state = special_state()
    found, _ = solve.endgame_values(state, engine.legal_moves(state), max_nodes=10**7)
    assert found is not None
    assert calls["mtd"] >= 1 and calls["decide"] > 0


def test_the_review_reaches_the_driver_on_either_representation(calls):
    state = special_state()
    assert solve.OpenValues().values(state) is not None
    assert calls["mtd"] >= 1 and calls["decide"] > 0
    plain = next(reference.state_of(p) for p in reference.positions()
                 if p["rules"]["decks"] == 1 and plain_open.plain_open(reference.state_of(p)))
    calls["mtd"] = calls["decide"] = 0
    assert values.OpenValues().values(plain) is not None
    assert calls["mtd"] >= 1 and calls["decide"] == 0
