"""OpenTelemetry: off and free unless OTEL_EXPORTER_OTLP_ENDPOINT is set and the
package is there; on, one server span per request named after its operation and
parented by the client's traceparent."""
from __future__ import annotations

import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from gongzhu.api import create_app, tracing

from .conftest import ClosingClient
from .deals import SEED1

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"


def telemetry_of(app):
    return app.wsgi_app


def test_off_without_the_endpoint(monkeypatch):
    monkeypatch.delenv(tracing.ENDPOINT_ENV, raising=False)
    app = create_app()
    assert telemetry_of(app).tracing.enabled is False
    app.test_client_class = ClosingClient
    assert app.test_client().post("/legal-moves", json={"hands": SEED1}).status_code == 200
    assert telemetry_of(app).tracing._tracer is None


def test_off_when_the_package_is_missing(monkeypatch, caplog):
    monkeypatch.setenv(tracing.ENDPOINT_ENV, "http://127.0.0.1:4318")
    for name in [m for m in sys.modules if m.startswith("opentelemetry")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "opentelemetry", None)  # import fails as if not installed
    app = create_app()
    app.test_client_class = ClosingClient
    assert telemetry_of(app).tracing.enabled is True
    response = app.test_client().get("/healthz")
    assert response.status_code == 200
    assert telemetry_of(app).tracing.enabled is False
    assert "OpenTelemetry is not installed" in caplog.text


@pytest.fixture()
def spans():
    sdk = pytest.importorskip("opentelemetry.sdk.trace", reason="the test extra installs opentelemetry-sdk")
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = sdk.TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


def test_a_span_per_request_named_after_the_operation(spans):
    provider, exporter = spans
    app = create_app({"TRACER_PROVIDER": provider})
    app.test_client_class = ClosingClient
    client = app.test_client()
    hot = client.post("/legal-moves", json={"hands": SEED1}, headers={
        "traceparent": f"00-{TRACE_ID}-{PARENT_ID}-01", "X-Request-ID": "t-1"})
    problem = client.post("/play", data=b"{", content_type="application/json")
    assert (hot.status_code, problem.status_code) == (200, 400)
    first, second = exporter.get_finished_spans()
    assert (first.name, second.name) == ("legal_moves", "play")
    assert f"{first.context.trace_id:032x}" == TRACE_ID
    assert f"{first.parent.span_id:016x}" == PARENT_ID
    assert first.attributes["http.response.status_code"] == 200
    assert first.attributes["gongzhu.request_id"] == "t-1"
    assert second.parent is None
    assert second.attributes["http.response.status_code"] == 400


def test_the_span_keeps_the_tracestate_and_names_the_route(spans):
    """W3C Trace Context: the vendors' tracestate travels with the traceparent; http.route is the
    contract's template (low cardinality), url.path the path as sent, and a path of no operation has none."""
    provider, exporter = spans
    app = create_app({"TRACER_PROVIDER": provider})
    app.test_client_class = ClosingClient
    client = app.test_client()
    state = "vendor1=opaque1,vendor2=opaque2"
    ranked = client.get("/ranks/-300000", headers={"traceparent": f"00-{TRACE_ID}-{PARENT_ID}-01",
                                                   "tracestate": state})
    missing = client.get("/nowhere")
    assert (ranked.status_code, missing.status_code) == (200, 404)
    first, second = exporter.get_finished_spans()
    assert first.parent.trace_state.to_header() == state
    assert first.context.trace_state.to_header() == state
    assert (first.attributes["http.route"], first.attributes["url.path"]) == ("/ranks/{points}", "/ranks/-300000")
    assert "http.route" not in second.attributes and second.attributes["url.path"] == "/nowhere"


class Collector(BaseHTTPRequestHandler):
    """An OTLP/HTTP receiver on loopback: keeps each request's path, type and body."""

    received: list = []

    def do_POST(self):  # noqa: N802 — http.server's name
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append((self.path, self.headers["Content-Type"], body))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture()
def collector():
    pytest.importorskip("opentelemetry.exporter.otlp.proto.http",
                        reason="the test extra installs opentelemetry-exporter-otlp-proto-http")
    Collector.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", Collector.received
    server.shutdown()
    server.server_close()


def test_the_otlp_exporter_sends_the_spans(collector, monkeypatch):
    """The on path as deployed: the endpoint from the environment, OTLP over HTTP, batched."""
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    endpoint, received = collector
    monkeypatch.setenv(tracing.ENDPOINT_ENV, endpoint)
    monkeypatch.delenv(tracing.SERVICE_NAME_ENV, raising=False)
    app = create_app()
    app.test_client_class = ClosingClient
    assert app.test_client().post("/legal-moves", json={"hands": SEED1}).status_code == 200
    provider = telemetry_of(app).tracing.provider
    assert provider.force_flush(timeout_millis=10_000)
    provider.shutdown()
    [(path, media, body)] = received
    assert (path, media) == ("/v1/traces", "application/x-protobuf")
    export = ExportTraceServiceRequest.FromString(body)
    [resource_spans] = export.resource_spans
    attributes = {a.key: a.value.string_value for a in resource_spans.resource.attributes}
    assert attributes["service.name"] == "gongzhu-service"
    [span] = [s for scope in resource_spans.scope_spans for s in scope.spans]
    assert span.name == "legal_moves"
