"""Optional OpenTelemetry tracing: one server span per request, named after the operation, parented by
the client's ``traceparent`` (docs/operations.md, "Tracing (optional)"). Off, nothing of OpenTelemetry is
imported. The exporter's thread starts in each worker on its first request, never in gunicorn's master
before it forks (a thread does not survive ``fork``).
"""
from __future__ import annotations

import logging
import os
import threading
from typing import Any

from . import keys

ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_ENDPOINT"
SERVICE_NAME_ENV = "OTEL_SERVICE_NAME"
SERVICE_NAME = "gongzhu-service"
SERVER_ERROR = 500

log = logging.getLogger(__name__)


class Tracing:
    """The tracer of this process, built on first use; ``enabled`` is False when off."""

    def __init__(self, provider=None) -> None:
        self.enabled = provider is not None or bool(os.environ.get(ENDPOINT_ENV))
        self._provider = provider
        self._tracer: Any = None
        self.provider = None
        self._pid: int | None = None
        self._propagator: Any = None
        self._lock = threading.Lock()

    def _ready(self) -> bool:
        if self._pid != os.getpid():
            with self._lock:  # threaded workers: one provider per process
                if self._pid != os.getpid():
                    self._build()
        return self._tracer is not None

    def _build(self) -> None:
        try:
            from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

            provider = self.provider = self._provider or _otlp_provider()
        except ImportError as error:
            log.warning("tracing is off: %s is set but OpenTelemetry is not installed (%s); "
                        "install the otel extra", ENDPOINT_ENV, error)
            self.enabled = False
            self._tracer = None
        else:
            self._propagator = TraceContextTextMapPropagator()
            self._tracer = provider.get_tracer("gongzhu.api")
        self._pid = os.getpid()

    def start(self, environ, operation: str):
        """A started server span for this request, or None when tracing is off."""
        if not self._ready():
            return None
        from opentelemetry.trace import SpanKind

        carrier = {"traceparent": environ.get("HTTP_TRACEPARENT", ""),
                   "tracestate": environ.get("HTTP_TRACESTATE", "")}
        parent = self._propagator.extract(carrier) if carrier["traceparent"] else None
        attributes = {"http.request.method": environ.get("REQUEST_METHOD", ""),
                      "url.path": environ.get("PATH_INFO", "")}
        route = route_of(environ)
        if route is not None:
            attributes["http.route"] = route
        return self._tracer.start_span(operation, context=parent, kind=SpanKind.SERVER, attributes=attributes)

    @staticmethod
    def finish(span, status: int, request_id: str) -> None:
        span.set_attribute("http.response.status_code", status)
        span.set_attribute("gongzhu.request_id", request_id)
        if status >= SERVER_ERROR:
            from opentelemetry.trace import Status, StatusCode

            span.set_status(Status(StatusCode.ERROR))
        span.end()


def route_of(environ) -> str | None:
    """The contract's path template the request matched (``/ranks/{points}``), as the pipeline left it in
    the environ; None for a path of no operation, which has no route to name."""
    found = environ.get(keys.MATCH)
    if not found:
        return None
    return next(iter(found.methods.values())).operation.path


def _otlp_provider():
    """A tracer provider exporting with OTLP over HTTP (raises ImportError without the extra)."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    name = os.environ.get(SERVICE_NAME_ENV, SERVICE_NAME)
    provider = TracerProvider(resource=Resource.create({"service.name": name}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    return provider
