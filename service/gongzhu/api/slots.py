"""Bot work bounded per worker process: a /suggest, /claim or /review search holds a slot while it runs. A request
that finds every slot taken gets 503 ``busy`` at once, never a queue, with ``Retry-After`` from what recent searches
of the running kind took; ``GONGZHU_MAX_BUDGET_MS`` caps /suggest's budget and ``GONGZHU_MAX_REVIEW_BUDGET_MS``
/review's (docs/deployment.md, "Bot slots", "Budget cap").
"""
from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from . import messages as text
from .problems import ApiProblem

SLOTS_ENV = "GONGZHU_BOT_SLOTS"
BUDGET_CAP_ENV = "GONGZHU_MAX_BUDGET_MS"
DEFAULT_SLOTS = 1
DEFAULT_BUDGET_CAP_MS = 1000
# /review's budget is for a whole deal: its own cap, below nginx's wait for an answer (docs/deployment.md,
# "Budget cap").
REVIEW_BUDGET_CAP_ENV = "GONGZHU_MAX_REVIEW_BUDGET_MS"
DEFAULT_REVIEW_BUDGET_CAP_MS = 10_000
REVIEW_BUDGET_CAP_MS = int(os.environ.get(REVIEW_BUDGET_CAP_ENV, DEFAULT_REVIEW_BUDGET_CAP_MS))


class Busy(ApiProblem):
    """Every bot slot of this worker is taken: 503 ``busy`` with ``Retry-After``."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(503, "busy", text.BUSY(seconds=retry_after_s),
                         headers=(("Retry-After", str(retry_after_s)),))
        self.retry_after_s = retry_after_s


# Weight of the latest search in a kind's moving average of slot time.
RECENT_WEIGHT = 0.3


@dataclass(slots=True, eq=False)
class Held:
    """A slot being held: by what kind of search, since when, and until when at most."""

    kind: str | None
    started: float
    bound: float


class BotSlots:
    """A fixed number of slots, taken without waiting; ``budget()`` applies the cap."""

    def __init__(self, slots: int, budget_cap_ms: int) -> None:
        if slots < 1 or budget_cap_ms < 1:
            raise ValueError("bot slots and the budget cap must be at least 1")
        self.slots = slots
        self.budget_cap_ms = budget_cap_ms
        self._lock = threading.Lock()
        self._held: list[Held] = []
        # seconds a search of each kind held its slot, as a moving average
        self.recent: dict[str, float] = {}

    @classmethod
    def from_env(cls) -> BotSlots:
        return cls(int(os.environ.get(SLOTS_ENV, DEFAULT_SLOTS)),
                   int(os.environ.get(BUDGET_CAP_ENV, DEFAULT_BUDGET_CAP_MS)))

    def budget(self, requested_ms: int) -> int:
        return min(requested_ms, self.budget_cap_ms)

    def expected_end(self, held: Held, now: float) -> float:
        """When a running search is expected to give its slot back."""
        typical = self.recent.get(held.kind) if held.kind is not None else None
        if typical is not None and held.started + typical > now:
            return held.started + typical
        return held.bound

    @contextmanager
    def slot(self, budget_ms: int, on_busy: Callable[[], None] | None = None,
             kind: str | None = None) -> Iterator[None]:
        """Hold a slot for a search of ``kind`` bounded by ``budget_ms``; ``Busy`` at once
        when none is free (after calling ``on_busy``, which counts the request shed)."""
        now = time.monotonic()
        held = Held(kind, now, now + budget_ms / 1000)
        with self._lock:
            if len(self._held) >= self.slots:
                wait = min(self.expected_end(h, now) for h in self._held) - now
                if on_busy is not None:
                    on_busy()
                raise Busy(max(1, math.ceil(wait)))
            self._held.append(held)
        try:
            yield
        finally:
            took = time.monotonic() - held.started
            with self._lock:
                self._held.remove(held)
                if kind is not None:
                    before = self.recent.get(kind)
                    self.recent[kind] = took if before is None else \
                        before + RECENT_WEIGHT * (took - before)


BOT = BotSlots.from_env()
