"""Bodies generated from the contract's own request schemas (hypothesis-jsonschema).

For every operation with a request body:
- a body the contract accepts never meets a contract complaint (``schema_violation``)
  and never a 5xx: it is answered 200 or by the rules (422 with a rule code);
- a body the contract rejects — an unknown field, a field of the wrong type, a
  required field left out — always gets 422 ``schema_violation``.
"""
from __future__ import annotations

import copy
import functools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from gongzhu.api import create_app
from tests.conftest import load_contract

# hypothesis-jsonschema bodies for every operation, the longest non-live run: make test-fast leaves it out
pytestmark = pytest.mark.slow

CONTRACT = load_contract()
EXAMPLES = 80
# A value of another JSON type than the schema asks for, for each type.
WRONG_TYPE = {"object": "text", "array": {"a": 1}, "string": 7, "integer": "7", "number": [1],
              "boolean": 0}


def inline(node):
    """The schema with every local $ref replaced by its target (the contract has no cycles)."""
    if isinstance(node, dict):
        if "$ref" in node:
            target = CONTRACT
            for token in node["$ref"].removeprefix("#/").split("/"):
                target = target[token]
            merged = {**inline(target), **{k: v for k, v in node.items() if k != "$ref"}}
            return inline(merged)
        return {k: inline(v) for k, v in node.items() if k not in ("examples", "description")}
    if isinstance(node, list):
        return [inline(v) for v in node]
    return node


def body_operations():
    for path, item in CONTRACT["paths"].items():
        op = item.get("post")
        if op and "requestBody" in op:
            yield pytest.param(path, inline(op["requestBody"]["content"]["application/json"]["schema"]),
                               id=path)


OPERATIONS = list(body_operations())


@functools.cache
def bodies(path: str):
    """The strategy of an operation's contract-valid bodies, built once (hypothesis-jsonschema
    canonicalises the schema each time it is asked)."""
    return from_schema(dict(OPERATIONS_BY_PATH[path]))


OPERATIONS_BY_PATH = {p.values[0]: p.values[1] for p in OPERATIONS}


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type="application/json")


GENERATED = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                     suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                            HealthCheck.data_too_large])


def test_every_body_operation_is_covered():
    assert len(OPERATIONS) == 15


@pytest.mark.parametrize("path, schema", OPERATIONS)
@GENERATED
@given(data=st.data())
def test_contract_valid_bodies_never_meet_a_contract_complaint(client, path, schema, data):
    body = data.draw(bodies(path))
    if "budget_ms" in body:
        body["budget_ms"] = 1  # a valid deal would let the bot think for up to 2 s
    response = post(client, path, body)
    assert response.status_code in (200, 422), response.get_data(as_text=True)
    if response.status_code == 422:
        assert response.get_json()["code"] != "schema_violation", response.get_data(as_text=True)


def _break(schema: dict, body: dict, how: str, name: str):
    broken = copy.deepcopy(body)
    if how == "unknown":
        broken["not_in_the_contract"] = 1
        return broken, "additionalProperties"
    if how == "missing":
        broken.pop(name, None)
        return broken, "required"
    expected = schema["properties"][name].get("type", "object")
    broken[name] = WRONG_TYPE[expected if isinstance(expected, str) else "object"]
    return broken, None


@pytest.mark.parametrize("path, schema", OPERATIONS)
@GENERATED
@given(data=st.data())
def test_contract_invalid_bodies_always_get_schema_violation(client, path, schema, data):
    body = data.draw(bodies(path))
    required = schema.get("required", [])
    ways = ["unknown"] + (["missing"] if required else []) + (["wrong_type"] if body else [])
    how = data.draw(st.sampled_from(ways))
    pool = required if how == "missing" else sorted(body)
    name = data.draw(st.sampled_from(pool)) if pool else ""
    broken, keyword = _break(schema, body, how, name)
    response = post(client, path, broken)
    assert response.status_code == 422, response.get_data(as_text=True)
    problem = response.get_json()
    assert problem["code"] == "schema_violation"
    assert all(e["code"] == "schema_violation" for e in problem["errors"])
    if keyword:
        assert keyword in {e["keyword"] for e in problem["errors"]}
