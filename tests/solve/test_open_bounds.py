"""``OpenValues.bounds``, POST /solve's call (docs/review.md, "The solver as an operation"): exact where the
search finishes, equal to the brute-force minimax; where a node cap or a deadline cuts it, bounds that hold
the true value; the state left as found."""
from __future__ import annotations

import time

from gongzhu import solve

from .brute import brute_values, late_deals
from .test_endgame import endgames

# node caps from a cut in the first question to one late in the moves
CAPS = (1, 30, 200, 1000)


def test_bounds_uncut_are_the_brute_force_values():
    for state in late_deals(1, 6, 31) + late_deals(2, 3, 32):
        exact = brute_values(state.clone())
        assert solve.OpenValues().bounds(state) == {move: (value, value) for move, value in exact.items()}


def test_bounds_cut_by_a_node_cap_hold_the_true_value():
    cut = 0
    for state in late_deals(1, 6, 33) + late_deals(2, 3, 34):
        exact = brute_values(state.clone())
        for cap in CAPS:
            before = state.clone()
            found = solve.OpenValues().bounds(state, max_nodes=cap)
            assert state == before
            assert found.keys() == exact.keys()
            for move, (low, high) in found.items():
                assert low <= exact[move] <= high
                cut += low < high
    assert cut > 0


def test_bounds_past_a_deadline_answer_every_move_at_once():
    state = endgames(1, 8, 1, 22)[0]
    started = time.monotonic()
    found = solve.OpenValues().bounds(state, deadline=started - 1)
    assert time.monotonic() - started < 1
    assert found.keys() == set(state.legal_moves())
    assert any(low < high for low, high in found.values())
