"""Prometheus metrics of the service, and ``/metrics``'s text.

Names and labels:

- ``gongzhu_http_requests_total{operation,status}`` and
  ``gongzhu_http_request_duration_seconds{operation,status}``: every request, by the
  contract's operationId (``none`` for a method and path the contract does not
  have) and HTTP status; counted once, outermost (``telemetry.Telemetry``).
- ``gongzhu_problems_total{code}``: problem answers by their stable code.
- ``gongzhu_engine_replay_seconds``: time to replay a deal state's history.
- ``gongzhu_build_info{version,engine}``: 1, labelled with the service version and the
  engine's build (``compiled`` or ``pure``, ``gongzhu.rules.engine_build()``).
- ``gongzhu_bot_decisions_total{reason}``, ``gongzhu_bot_samples``,
  ``gongzhu_bot_budget_used_ratio`` (thinking time / budget) and
  ``gongzhu_bot_shed_total`` (bot requests refused because the bot was busy).

Under gunicorn prometheus_client runs in multiprocess mode
(``service/gongzhu/gunicorn_hooks.py``) and ``render()`` sums every worker's files;
elsewhere (tests, a plain WSGI server) it reports this process's registry.
Label children are cached here: ``labels()`` takes a lock and builds a key on
every call, and the hot path should not pay for that twice per request.
"""
from __future__ import annotations

import os

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, generate_latest, multiprocess

from gongzhu import __version__
from gongzhu.rules import engine_build

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
# The classic text format, which every Prometheus version reads.
TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8"
# Seconds: a mid-deal /legal-moves is well under a millisecond, /suggest up to its budget.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
REPLAY_BUCKETS = (0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025)
SAMPLE_BUCKETS = (0, 10, 50, 100, 250, 500, 1000, 2500, 5000)
RATIO_BUCKETS = (0.1, 0.25, 0.5, 0.75, 0.9, 1.0, 1.1, 1.5, 2.0)

REQUESTS = Counter("gongzhu_http_requests", "HTTP requests by operation and status",
                   ["operation", "status"])
LATENCY = Histogram("gongzhu_http_request_duration_seconds",
                    "Time from the request reaching the app to the last byte of the answer",
                    ["operation", "status"], buckets=LATENCY_BUCKETS)
PROBLEMS = Counter("gongzhu_problems", "Problem answers by code", ["code"])
REPLAY = Histogram("gongzhu_engine_replay_seconds", "Time to replay a deal state's history",
                   buckets=REPLAY_BUCKETS)
BOT_DECISIONS = Counter("gongzhu_bot_decisions", "Bot suggestions by reason", ["reason"])
BOT_SAMPLES = Histogram("gongzhu_bot_samples", "Deals sampled per bot suggestion",
                        buckets=SAMPLE_BUCKETS)
BOT_BUDGET_USED = Histogram("gongzhu_bot_budget_used_ratio",
                            "Bot thinking time as a share of its budget", buckets=RATIO_BUCKETS)
# one series per build; every worker sets the same value ("max" reads it once across workers)
BUILD_INFO = Gauge("gongzhu_build_info", "The service version and the engine's build (compiled or pure)",
                   ["version", "engine"], multiprocess_mode="max")
BUILD_INFO.labels(__version__, engine_build()).set(1)
BOT_SHED = Counter("gongzhu_bot_shed", "Bot requests refused because the bot was busy")

_request_children: dict[tuple[str, int], tuple] = {}


def observe_request(operation: str, status: int, seconds: float) -> None:
    children = _request_children.get((operation, status))
    if children is None:
        label = str(status)
        children = (REQUESTS.labels(operation, label), LATENCY.labels(operation, label))
        _request_children[(operation, status)] = children
    children[0].inc()
    children[1].observe(seconds)


def count_problem(code: str) -> None:
    PROBLEMS.labels(code).inc()


def observe_replay(seconds: float) -> None:
    REPLAY.observe(seconds)


def observe_bot(reason: str, samples: int, seconds: float, budget_ms: int) -> None:
    BOT_DECISIONS.labels(reason).inc()
    BOT_SAMPLES.observe(samples)
    if budget_ms > 0:
        BOT_BUDGET_USED.observe(seconds * 1000 / budget_ms)


def count_bot_shed() -> None:
    BOT_SHED.inc()


def render() -> tuple[bytes, str]:
    """The exposition text of every worker (multiprocess mode) or of this process."""
    if os.environ.get(MULTIPROC_ENV):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), TEXT_FORMAT
    return generate_latest(REGISTRY), TEXT_FORMAT
