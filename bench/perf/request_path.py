"""The request path's choices, in process CPU, in one run (docs/deployment.md, "The request path: decisions").

    .venv/bin/python bench/perf/request_path.py                   # 6 rounds, 2,000 calls a body and side
    .venv/bin/python bench/perf/request_path.py --rounds 4 --calls 1000

The router: the pipeline matching every operation and page (the app as ``make run`` serves it) against
Flask's URL map routing every operation (each operation a Flask view that reads, validates, converts and
answers as the pipeline does, telemetry's operation read from the URL map's match), whole WSGI calls in
alternating ABBA rounds. Printed: each side's median over the rounds in µs a request (``/healthz`` and
each body of ``bench/perf/http.py``), and flask/pipeline, the median of each round's ratio.

The conversion: each body's request schema (``gongzhu.api.schemas``) converting a contract-valid body
with its own ``convert`` (a function per field) against marshmallow's ``load`` of the same schema
(the fields' ``_deserialize``, ``load_default``), in µs a body.
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
from pathlib import Path

# request_cpu.py's loader, and the helpers it loads (bench/_server.py: the venv, the bodies)
_spec = importlib.util.spec_from_file_location("request_cpu", Path(__file__).with_name("request_cpu.py"))
assert _spec is not None and _spec.loader is not None
request_cpu = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(request_cpu)
_load, _server = request_cpu._load, request_cpu._server


def flask_routed_app():
    """The service with Flask's URL map as its one router: every operation of the contract a Flask rule."""
    from flask import Response, request
    from werkzeug.exceptions import HTTPException

    from gongzhu.api import PIPELINE_KEY, cors, create_app, pipeline, problems, telemetry

    app = create_app()
    served = app.extensions[PIPELINE_KEY]
    routes = [route for methods in [*served.static.values(), *(m for _, m in served.templated)]
              for route in methods.values()]

    def view_of(route):
        def view(**params):
            if route.page is not None:
                return route.page(**params)
            if route.whole is not None:
                return Response(route.whole(route, request.environ), content_type=pipeline.JSON)
            body = pipeline.encode(served.serve(route, request.environ, params))
            return Response(body, content_type=pipeline.JSON)
        return view

    for route in routes:
        rule = route.operation.path.replace("{", "<").replace("}", ">")
        app.add_url_rule(rule, route.operation.operation_id, view_of(route), methods=[route.operation.method])

    def handle(error):
        found = problems.answer(error, request.environ)
        return Response(found.body, found.status, headers=list(found.headers), mimetype=problems.PROBLEM_JSON)

    app.register_error_handler(HTTPException, handle)
    app.register_error_handler(Exception, handle)
    urls = app.url_map

    def operation_of(environ: dict) -> str:
        try:
            endpoint, _ = urls.bind_to_environ(environ).match()
        except HTTPException:
            return "none"
        return endpoint

    flask_wsgi = type(app).wsgi_app.__get__(app)
    app.wsgi_app = telemetry.Telemetry(cors.wrap(flask_wsgi, lambda environ: None, frozenset()),
                                       operation_of=operation_of)
    return app


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--calls", type=int, default=2000)
    args = ap.parse_args()
    if not 1 <= args.rounds <= 50 or not 100 <= args.calls <= 100_000:
        sys.exit("rounds 1..50, calls 100..100000")
    bench_http = _load("bench_http", "http.py")
    from gongzhu.api import create_app

    apps = {"pipeline": create_app(), "flask": flask_routed_app()}
    requests = {"healthz": ("GET", "/healthz", None),
                **{name: ("POST", path, raw) for name, (path, raw) in _server.bodies().items()}}
    for method, path, raw in requests.values():
        pipeline, flask = (apps[side].test_client().open(path, method=method, data=raw,
                                                         content_type="application/json") for side in apps)
        assert (pipeline.status_code, pipeline.data) == (flask.status_code, flask.data), path
    print(f"# {_server.machine_notes()}", flush=True)
    rows: dict[str, list[dict[str, float]]] = {side: [] for side in apps}
    for round_ in range(args.rounds):
        for side in (list(apps) if round_ % 2 == 0 else list(apps)[::-1]):
            rows[side].append({name: bench_http._cpu_us(bench_http._wsgi_call(apps[side], *request), args.calls)
                               for name, request in requests.items()})
    print(f"# in-process CPU µs a request, median of {args.rounds} rounds (each: best of 3 passes of "
          f"{args.calls} calls)", flush=True)
    for side in apps:
        print(f"{side:8s} " + ", ".join(f"{name} {statistics.median(r[name] for r in rows[side]):.1f}"
                                        for name in requests), flush=True)
    print("flask/pipeline " + ", ".join(
        f"{name} ×{statistics.median(f[name] / p[name] for f, p in zip(rows['flask'], rows['pipeline'])):.2f}"
        for name in requests), flush=True)

    conversion(args.calls)


def conversion(calls: int) -> None:
    from gongzhu.api import PIPELINE_KEY, create_app, pipeline

    bench_http = sys.modules["bench_http"]
    routes = create_app().extensions[PIPELINE_KEY].routes()
    print("# conversion of a contract-valid body, µs (best of 3 passes): the schema's convert, marshmallow load",
          flush=True)
    for name, (path, raw) in _server.bodies().items():
        body = pipeline.parse_json(raw)
        schema = routes[path]["POST"].handler.convert.__self__
        loaded, converted = schema.load(body), schema.convert(body)
        assert loaded.keys() == converted.keys(), name
        print(f"{name}: convert {bench_http._cpu_us(lambda: schema.convert(body), calls):.1f}, "
              f"marshmallow load {bench_http._cpu_us(lambda: schema.load(body), calls):.1f}", flush=True)


if __name__ == "__main__":
    main()
