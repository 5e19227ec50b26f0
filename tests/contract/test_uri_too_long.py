"""The 4xx answer every GET operation of the contract lists: 414 ``uri_too_long``,
which gunicorn (our worker) answers before the application sees a request whose
request line is over 8,190 bytes, e.g. a long query string. Sent to a live server,
it must be the contract's ``UriTooLong`` response."""
from __future__ import annotations

import http.client
from urllib.parse import urlsplit

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from tests.conftest import load_contract

pytestmark = pytest.mark.live

CONTRACT = load_contract()
TOO_LONG = {"$ref": "#/components/responses/UriTooLong"}
GETS = [path for path, item in CONTRACT["paths"].items() if "get" in item]


def get(base: str, target: str) -> tuple[int, str, bytes]:
    url = urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    try:
        connection.request("GET", target)
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type"), response.read()
    finally:
        connection.close()


def test_every_get_operation_lists_414():
    assert [p for p in GETS if CONTRACT["paths"][p]["get"]["responses"].get("414") != TOO_LONG] == []


@pytest.mark.parametrize("path", GETS)
def test_a_request_line_over_the_limit_is_the_contracts_414(live_server, path):
    target = path.replace("{points}", "12").replace("{asset}", "swagger-ui.css") + "?q=" + "a" * 9000
    status, media, body = get(live_server, target)
    assert (status, media) == (414, "application/problem+json")
    problem = yaml.safe_load(body)
    registry = Registry().with_resource("urn:contract", DRAFT202012.create_resource(CONTRACT))
    Draft202012Validator({"$ref": "urn:contract#/components/schemas/Problem"}, registry=registry).validate(problem)
    example = CONTRACT["components"]["responses"]["UriTooLong"]["content"]["application/problem+json"]
    # the detail is fixed: it quotes nothing of the parser's
    assert problem == example["examples"]["uri_too_long"]["value"]
