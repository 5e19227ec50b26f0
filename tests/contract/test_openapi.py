"""The contract (openapi.yaml) and the app agree.

- openapi.yaml is a valid OpenAPI 3.1 document;
- every route (the request pipeline's and Flask's) is a path of the contract
  and every path is routed, with the same methods;
- every example of every operation is sent through the app: the request and
  the response validate against the contract (openapi-core), and the response
  equals the example of the same name under the status it is filed under;
- the error responses the HTTP layer produces itself (400, 404, 405, 413,
  415, 500) validate too;
- the marshmallow conversion schemas name exactly the fields the contract names.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIResponse
from openapi_core.exceptions import OpenAPIError
from openapi_core.testing import MockRequest
from openapi_spec_validator import validate
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from gongzhu.api import PIPELINE_KEY, create_app, schemas
from gongzhu.api import operations as handlers
from gongzhu.api.pipeline import Pipeline
from tests.conftest import load_contract

ROOT = Path(__file__).resolve().parents[2]
CONTRACT_PATH = ROOT / "service" / "gongzhu" / "openapi.yaml"
CONTRACT = load_contract()
BASE_URL = "http://localhost:8080"
METHODS = {"get", "post", "put", "delete", "patch"}
# Sent with every request: problem bodies echo it as request_id, which examples omit.
REQUEST_ID = "contract-test"


def _text(data: bytes) -> str:
    return data.decode("utf-8")


def _binary(data: bytes) -> str:
    # A PNG is a string of octets to JSON Schema (contentMediaType image/png).
    return data.decode("latin-1")


# How openapi-core reads each media type the contract answers with.
DESERIALIZERS = {
    "application/problem+json": json.loads,
    "application/yaml": yaml.safe_load,
    "text/html": _text,
    "text/css": _text,
    "text/javascript": _text,
    "application/javascript": _text,
    "image/png": _binary,
}


@pytest.fixture(scope="module")
def openapi():
    config = Config(extra_media_type_deserializers=DESERIALIZERS)
    return OpenAPI.from_file_path(str(CONTRACT_PATH), config=config)


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def call(client, method: str, path: str, body=None, **kwargs):
    """The app's response, with the request as openapi-core sees it attached."""
    if body is not None:
        kwargs = {"data": json.dumps(body, ensure_ascii=False).encode(),
                  "content_type": "application/json"}
    response = client.open(path, method=method.upper(), base_url=BASE_URL,
                           headers={"X-Request-ID": REQUEST_ID}, **kwargs)
    data = kwargs.get("data")
    response.sent = MockRequest(BASE_URL, method.lower(), path,
                                data=data.encode() if isinstance(data, str) else data,
                                content_type=kwargs.get("content_type", "application/json"))
    return response


# The problem code of requests the contract itself rejects.
SHAPE_CODES = {"schema_violation"}


def validate_exchange(openapi, response, *, request_valid: bool = True) -> None:
    """The response is in the contract; the request is valid exactly when expected."""
    if request_valid:
        openapi.validate_request(response.sent)
    else:
        with pytest.raises(OpenAPIError):
            openapi.validate_request(response.sent)
    openapi.validate_response(response.sent, WerkzeugOpenAPIResponse(response))


def answer(response):
    """The JSON answer as the examples show it: a problem's request_id (checked) left out."""
    body = response.get_json()
    if response.mimetype == "application/problem+json":
        assert body.pop("request_id") == REQUEST_ID
    # a batch's problems carry the batch's request id too
    for item in body.get("responses", ()) if isinstance(body, dict) else ():
        if item["status"] >= 400:
            assert item["body"].pop("request_id") == REQUEST_ID
    return body


def operations():
    for path, item in CONTRACT["paths"].items():
        for method, op in item.items():
            if method in METHODS:
                yield path, method, op


def request_examples():
    """Every request body of the contract: the request examples, and the bodies the
    contract rejects, filed as ``x-request-body`` with the 422 answer they get."""
    for path, method, op in operations():
        content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
        for name, example in content.get("examples", {}).items():
            yield pytest.param(path, method, name, example["value"], id=f"{method} {path} {name}")
        problems = op.get("responses", {}).get("422", {}).get("content", {}).get("application/problem+json", {})
        for name, example in problems.get("examples", {}).items():
            if "x-request-body" in example:
                yield pytest.param(path, method, name, example["x-request-body"],
                                   id=f"{method} {path} {name} (rejected)")


def parameter_examples():
    for path, method, op in operations():
        for parameter in op.get("parameters", []):
            for name, example in parameter.get("examples", {}).items():
                url = path.replace("{" + parameter["name"] + "}", str(example["value"]))
                yield pytest.param(path, method, name, url, id=f"{method} {path} {name}")


def response_example(op: dict, name: str):
    """(status, media type, value) of the response example called ``name``."""
    found = []
    for status, response in op["responses"].items():
        for media, content in response.get("content", {}).items():
            if name in content.get("examples", {}):
                found.append((int(status), media, content["examples"][name]["value"]))
    assert len(found) == 1, f"example {name!r} needs exactly one response example, has {found}"
    return found[0]


def test_contract_is_valid_openapi_3_1():
    validate(CONTRACT)
    assert CONTRACT["openapi"].startswith("3.1")


def test_root_openapi_yaml_is_the_packaged_contract():
    assert (ROOT / "openapi.yaml").read_bytes() == CONTRACT_PATH.read_bytes()


def test_every_operation_of_the_contract_is_served_by_the_one_router():
    app = create_app()
    assert not list(app.url_map.iter_rules()), "Flask routes nothing: the pipeline is the one router"
    pipeline = app.extensions[PIPELINE_KEY]
    assert isinstance(pipeline, Pipeline)
    served = {(path, method.lower()) for path, methods in pipeline.routes().items() for method in methods}
    pages = {(route.operation.path, route.operation.method.lower())
             for methods in [*pipeline.static.values(), *(m for _, m in pipeline.templated)]
             for route in methods.values() if route.page is not None}
    assert not served & pages
    documented = {(path, method) for path, method, _ in operations()}
    assert served | pages == documented


def test_every_operation_has_examples_and_problem_responses():
    for path, method, op in operations():
        assert "500" in op["responses"], (path, method)
        if method == "post":
            assert op["requestBody"]["content"]["application/json"]["examples"], path
            assert {"400", "413", "415", "422"} <= set(op["responses"]), path
            ok = op["responses"]["200"]["content"]["application/json"]
            assert ok["examples"], path
            assert op["responses"]["422"]["content"]["application/problem+json"]["examples"], path


@pytest.mark.parametrize("path, method, name, body", list(request_examples()))
def test_request_example_round_trip(openapi, client, path, method, name, body):
    status, media, expected = response_example(CONTRACT["paths"][path][method], name)
    response = call(client, method, path, body)
    # A request the contract rejects by its shape is answered by a shape code.
    shape_error = status == 422 and expected["code"] in SHAPE_CODES
    validate_exchange(openapi, response, request_valid=not shape_error)
    assert response.status_code == status
    assert response.mimetype == media
    assert answer(response) == expected


@pytest.mark.parametrize("path, method, name, url", list(parameter_examples()))
def test_parameter_example_round_trip(openapi, client, path, method, name, url):
    response = call(client, method, url)
    validate_exchange(openapi, response)
    op = CONTRACT["paths"][path][method]
    if path == "/ranks/{points}":
        status, media, expected = response_example(op, name)
        assert (response.status_code, response.mimetype) == (status, media)
        assert answer(response) == expected
    else:
        assert response.status_code == 200


@pytest.mark.parametrize("path", ["/", "/ranks", "/healthz", "/readyz"])
def test_get_examples_equal_the_answers(openapi, client, path):
    response = call(client, "get", path)
    validate_exchange(openapi, response)
    examples = CONTRACT["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["examples"]
    assert [e["value"] for e in examples.values()] == [response.get_json()]


@pytest.mark.parametrize("path, media", [("/openapi.yaml", "application/yaml"), ("/docs", "text/html"),
                                         ("/", "application/json"),
                                         ("/docs/swagger-ui-bundle.js", None), ("/docs/swagger-ui.css", "text/css"),
                                         ("/docs/favicon-32x32.png", "image/png"), ("/table", "text/html"),
                                         ("/table/table.js", "text/javascript"), ("/table/table.css", "text/css")])
def test_documents_validate(openapi, client, path, media):
    response = call(client, "get", path)
    validate_exchange(openapi, response)
    assert response.status_code == 200
    if media:
        assert response.mimetype == media


# ---- the HTTP layer's own errors, produced for real -----------------------------------------

def problem_validator():
    registry = Registry().with_resource("urn:contract", DRAFT202012.create_resource(CONTRACT))
    return Draft202012Validator({"$ref": "urn:contract#/components/schemas/Problem"},
                                registry=registry)


@pytest.mark.parametrize("method, path, kwargs, status", [
    ("post", "/legal-moves", {"data": "{", "content_type": "application/json"}, 400),
    ("post", "/play", {"data": "{}", "content_type": "text/plain"}, 415),
    ("post", "/score", {"data": "[" + " " * 300_000 + "]", "content_type": "application/json"}, 413),
    ("get", "/ranks/twelve", {}, 422),
    ("get", "/rank/12", {}, 404),
])
def test_http_layer_errors_validate(openapi, client, method, path, kwargs, status):
    response = call(client, method, path, **kwargs)
    assert response.status_code == status
    if status == 404:
        # Not an operation: the body must still be the contract's Problem.
        problem_validator().validate(response.get_json())
    else:
        validate_exchange(openapi, response, request_valid=False)


def test_a_content_coding_is_the_contracts_415(openapi, client):
    data = gzip.compress(b'{"scores": [100, 0, -200, -200]}')
    response = client.open("/ingots", method="POST", base_url=BASE_URL, data=data, content_type="application/json",
                           headers={"X-Request-ID": REQUEST_ID, "Content-Encoding": "gzip"})
    response.sent = MockRequest(BASE_URL, "post", "/ingots", data=data, content_type="application/json")
    assert (response.status_code, response.get_json()["code"]) == (415, "unsupported_content_encoding")
    validate_exchange(openapi, response, request_valid=False)
    documented = CONTRACT["components"]["responses"]["UnsupportedMediaType"]
    assert response.headers["Accept-Encoding"] == documented["headers"]["Accept-Encoding"]["schema"]["const"]
    assert "`unsupported_content_encoding`" in CONTRACT["info"]["description"]


@pytest.mark.parametrize("method, path, allowed", [("GET", "/play", "POST"), ("OPTIONS", "/healthz", "GET, HEAD"),
                                                   ("DELETE", "/ranks", "GET, HEAD")])
def test_405_is_the_contracts_method_not_allowed(client, method, path, allowed):
    # The contract's description: any method a path does not offer, with Allow listing those it does.
    response = client.open(path, method=method)
    assert response.status_code == 405
    assert response.mimetype == "application/problem+json"
    problem_validator().validate(response.get_json())
    assert response.get_json()["code"] == "method_not_allowed"
    assert response.headers["Allow"] == allowed
    assert "`method_not_allowed`" in CONTRACT["info"]["description"]


def test_500_validates(openapi, monkeypatch):
    failing = handlers.Handler(handlers.HANDLERS["settle_ingots"].convert, lambda call: 1 / 0)
    monkeypatch.setitem(handlers.HANDLERS, "settle_ingots", failing)
    app = create_app()
    response = call(app.test_client(), "post", "/ingots", {"scores": [0, 0, 0, 0]})
    assert response.status_code == 500
    validate_exchange(openapi, response)


def test_every_problem_example_validates():
    validator = problem_validator()
    count = 0
    for _path, _method, op in operations():
        for status, response in op["responses"].items():
            if "$ref" in response:
                name = response["$ref"].rsplit("/", 1)[1]
                response = CONTRACT["components"]["responses"][name]
            for example in response.get("content", {}).get("application/problem+json", {}).get("examples", {}).values():
                validator.validate(example["value"])
                assert example["value"]["status"] == int(status)
                count += 1
    for response in CONTRACT["components"]["responses"].values():
        for example in response["content"]["application/problem+json"]["examples"].values():
            validator.validate(example["value"])
            count += 1
    assert count > 40


# ---- marshmallow and the contract name the same fields -----------------------------------------

@pytest.mark.parametrize("schema, component", [
    (schemas.DEAL_STATE, "DealState"), (schemas.PLAY, "PlayRequest"), (schemas.TRICK, "TrickRequest"),
    (schemas.SCORE, "ScoreRequest"), (schemas.INGOTS, "IngotsRequest"),
    (schemas.EXPOSURES, "ExposuresRequest"), (schemas.DEAL, "DealRequest"),
    (schemas.RulesSchema(), "Rules"), (schemas.SUGGEST, "SuggestRequest"),
    (schemas.SUGGEST_EXPOSURES, "SuggestExposuresRequest"), (schemas.CLAIM, "ClaimRequest"),
    (schemas.VIEW, "ViewRequest"), (schemas.MATCH, "MatchRequest"), (schemas.DEAL_RECORD, "DealRecord"),
    (schemas.REVIEW, "ReviewRequest"), (schemas.SOLVE, "SolveRequest"),
])
def test_request_schemas_match_the_contract(schema, component):
    contract = CONTRACT["components"]["schemas"][component]
    assert contract["additionalProperties"] is False
    assert set(schema.fields) == set(contract["properties"])
    # The contract alone says what is required: the conversion schemas say nothing.
    assert not any(field.required for field in schema.fields.values())


def test_request_bodies_use_the_request_schemas():
    bodies = {path: op["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
              for path, method, op in operations() if method == "post"}
    assert bodies == {"/legal-moves": "DealState", "/play": "PlayRequest", "/trick": "TrickRequest",
                      "/score": "ScoreRequest", "/ingots": "IngotsRequest",
                      "/exposures": "ExposuresRequest", "/deal": "DealRequest",
                      "/suggest": "SuggestRequest", "/suggest-exposures": "SuggestExposuresRequest",
                      "/claim": "ClaimRequest", "/view": "ViewRequest", "/match": "MatchRequest",
                      "/batch": "BatchRequest",
                      "/review": "ReviewRequest", "/solve": "SolveRequest"}
