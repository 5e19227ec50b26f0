"""OpenTelemetry: off and free unless OTEL_EXPORTER_OTLP_ENDPOINT is set and the
package is there; on, opentelemetry-instrumentation-wsgi's middleware makes one server
span per request, named after its operation and parented by the client's traceparent."""
from __future__ import annotations

import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from wsgiref.util import setup_testing_defaults

import pytest

from gongzhu.api import create_app, tracing
from gongzhu.api.telemetry import Telemetry

from .conftest import ClosingClient
from .deals import SEED1

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"


def telemetry_of(app):
    return app.wsgi_app


def traced(app) -> bool:
    return type(telemetry_of(app).app).__module__.startswith("opentelemetry")


def test_off_without_the_endpoint(monkeypatch):
    monkeypatch.delenv(tracing.ENDPOINT_ENV, raising=False)
    for name in [m for m in sys.modules if m.startswith("opentelemetry")]:
        monkeypatch.delitem(sys.modules, name)
    app = create_app()
    app.test_client_class = ClosingClient
    assert app.test_client().post("/legal-moves", json={"hands": SEED1}).status_code == 200
    assert not traced(app)
    assert not [m for m in sys.modules if m.startswith("opentelemetry")]


def test_off_when_the_package_is_missing(monkeypatch, caplog):
    monkeypatch.setenv(tracing.ENDPOINT_ENV, "http://127.0.0.1:4318")
    for name in [m for m in sys.modules if m.startswith("opentelemetry")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "opentelemetry", None)  # import fails as if not installed
    app = create_app()
    app.test_client_class = ClosingClient
    assert "OpenTelemetry is not installed" in caplog.text and "install the otel extra" in caplog.text
    assert not traced(app)
    assert app.test_client().get("/healthz").status_code == 200


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
    assert traced(app)
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
    assert (first.attributes["http.request.method"], first.attributes["http.route"]) == ("POST", "/legal-moves")
    assert (first.kind.name, first.status.is_ok) == ("SERVER", True)
    assert second.parent is None
    assert second.attributes["http.response.status_code"] == 400
    assert second.status.is_ok  # a client's mistake is no error of the server's


def test_a_server_error_is_an_error_span(spans):
    """5xx marks the span an error; a path of no operation is named "none"."""
    provider, exporter = spans

    def failing(environ, start_response):
        start_response("503 Service Unavailable", [("Content-Length", "0")])
        return [b""]

    environ = {"PATH_INFO": "/somewhere", "REQUEST_METHOD": "GET"}
    setup_testing_defaults(environ)
    answer = Telemetry(failing, provider)(environ, lambda status, headers, exc_info=None: None)
    list(answer)
    answer.close()
    [span] = exporter.get_finished_spans()
    assert (span.name, span.attributes["http.response.status_code"]) == ("none", 503)
    assert span.status.status_code.name == "ERROR"


def test_the_span_carries_the_answers_request_id(spans):
    """The span's gongzhu.request_id is the answer's X-Request-ID, which nginx's access line writes: a log line
    finds its trace."""
    provider, exporter = spans
    app = create_app({"TRACER_PROVIDER": provider})
    app.test_client_class = ClosingClient
    response = app.test_client().get("/healthz", headers={"traceparent": f"00-{TRACE_ID}-{PARENT_ID}-01"})
    assert response.status_code == 200
    [span] = exporter.get_finished_spans()
    assert span.attributes["gongzhu.request_id"] == response.headers["X-Request-ID"]
    assert f"{span.context.trace_id:032x}" == TRACE_ID


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
    built = []
    monkeypatch.setattr(tracing, "otlp_provider", lambda real=tracing.otlp_provider: built.append(real()) or built[0])
    app = create_app()
    app.test_client_class = ClosingClient
    assert app.test_client().post("/legal-moves", json={"hands": SEED1}).status_code == 200
    [provider] = built
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
