"""Seeded bot answers asked by many clients at once, for the tests that they match the idle answer."""
from __future__ import annotations

import threading

from gongzhu.bot import suggest

CLIENTS = 6
CALLS = 3


def answers_under_load(state, *, budget_ms: int, seed: int) -> list:
    """``suggest`` asked ``CALLS`` times by each of ``CLIENTS`` threads at once, on one process (the
    threads share one core's worth of interpreter): every answer, in no particular order."""
    answers = []

    def client():
        for _ in range(CALLS):
            answers.append(suggest(state, budget_ms=budget_ms, seed=seed))

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers
