"""Bot work bounded per worker process: a /suggest search holds a slot while it runs.

The bot's search is CPU-bound Python, so one process makes no more progress with two
searches at once than with one (the GIL), and each would take twice as long. A
worker therefore has ``GONGZHU_BOT_SLOTS`` slots (default 1). A request that finds
every slot taken is answered at once — 503 problem ``busy`` with ``Retry-After``
(seconds until the running search's budget ends, at least 1) — and never queues, so
bot traffic can slow a pod's other answers by at most its slots' share of the CPU.

``GONGZHU_MAX_BUDGET_MS`` caps the thinking budget a request may ask for (default
1000 ms; docs/deployment.md has the measurements): a larger ``budget_ms`` is served
with the cap, so a slot is never held longer than the cap.
"""
from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from . import messages as text
from .problems import ApiProblem

SLOTS_ENV = "GONGZHU_BOT_SLOTS"
BUDGET_CAP_ENV = "GONGZHU_MAX_BUDGET_MS"
DEFAULT_SLOTS = 1
DEFAULT_BUDGET_CAP_MS = 1000


class Busy(ApiProblem):
    """Every bot slot of this worker is taken: 503 ``busy`` with ``Retry-After``."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(503, "busy", text.BUSY(seconds=retry_after_s),
                         headers=(("Retry-After", str(retry_after_s)),))
        self.retry_after_s = retry_after_s


class BotSlots:
    """A fixed number of slots, taken without waiting; ``budget()`` applies the cap."""

    def __init__(self, slots: int, budget_cap_ms: int) -> None:
        if slots < 1 or budget_cap_ms < 1:
            raise ValueError("bot slots and the budget cap must be at least 1")
        self.slots = slots
        self.budget_cap_ms = budget_cap_ms
        self._lock = threading.Lock()
        self._ends: list[float] = []

    @classmethod
    def from_env(cls) -> BotSlots:
        return cls(int(os.environ.get(SLOTS_ENV, DEFAULT_SLOTS)),
                   int(os.environ.get(BUDGET_CAP_ENV, DEFAULT_BUDGET_CAP_MS)))

    def budget(self, requested_ms: int) -> int:
        return min(requested_ms, self.budget_cap_ms)

    @contextmanager
    def slot(self, budget_ms: int, on_busy: Callable[[], None] | None = None) -> Iterator[None]:
        """Hold a slot for a search of ``budget_ms``; ``Busy`` at once when none is free
        (after calling ``on_busy``, which counts the request shed)."""
        end = time.monotonic() + budget_ms / 1000
        with self._lock:
            if len(self._ends) >= self.slots:
                wait = min(self._ends) - time.monotonic()
                if on_busy is not None:
                    on_busy()
                raise Busy(max(1, math.ceil(wait)))
            self._ends.append(end)
        try:
            yield
        finally:
            with self._lock:
                self._ends.remove(end)


BOT = BotSlots.from_env()
