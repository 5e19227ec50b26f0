"""Optional OpenTelemetry tracing (docs/operations.md, "Tracing (optional)"): opentelemetry-instrumentation-wsgi's
middleware, inside ``Telemetry``, makes the server span and reads the client's ``traceparent``; its hook names the
span after the operation ``Telemetry`` matched. Off, nothing of OpenTelemetry is imported.
"""
import logging
import os

from . import keys

ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_ENDPOINT"
SERVICE_NAME_ENV = "OTEL_SERVICE_NAME"
SERVICE_NAME = "gongzhu-service"

log = logging.getLogger(__name__)


def wrap(app, provider=None):
    """``app`` in the middleware that traces each request, or ``app`` itself when tracing is off."""
    if provider is None and not os.environ.get(ENDPOINT_ENV):
        return app
    try:
        from opentelemetry.instrumentation.wsgi import OpenTelemetryMiddleware

        provider = provider or otlp_provider()
    except ImportError as error:
        log.warning("tracing is off: %s is set but OpenTelemetry is not installed (%s); install the otel extra",
                    ENDPOINT_ENV, error)
        return app
    # the stable HTTP names (http.request.method, url.path, http.response.status_code) unless the operator
    # chose others; read once, when the process's first middleware is made
    os.environ.setdefault("OTEL_SEMCONV_STABILITY_OPT_IN", "http")
    return OpenTelemetryMiddleware(app, request_hook=_name, tracer_provider=provider)


def _name(span, environ) -> None:
    """The span's name is the operation (not the raw path: low cardinality), its route the contract's template."""
    span.update_name(environ.get(keys.OPERATION, keys.UNKNOWN_OPERATION))  # a Telemetry given no matcher
    span.set_attribute("gongzhu.request_id", environ[keys.REQUEST_ID])
    found = environ.get(keys.MATCH)
    if found:  # a path of no operation has no route to name
        span.set_attribute("http.route", next(iter(found.methods.values())).operation.path)


def otlp_provider():
    """A tracer provider exporting with OTLP over HTTP (raises ImportError without the extra). Built once, in
    gunicorn's master before it forks: the SDK's BatchSpanProcessor starts its thread again in each child
    (``os.register_at_fork``), so every worker exports its own spans."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    name = os.environ.get(SERVICE_NAME_ENV, SERVICE_NAME)
    provider = TracerProvider(resource=Resource.create({"service.name": name}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    return provider
