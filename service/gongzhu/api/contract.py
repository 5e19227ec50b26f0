"""The hand-written contract, ``service/gongzhu/openapi.yaml`` (package data): read,
checked with openapi-spec-validator and indexed by operation, once at start-up.

The contract drives the HTTP layer: its operations are the routes, its request
schemas are the validators (``validation.py``) and its ``operationId`` names
the handler of each operation (``operations.py``).
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml
from openapi_spec_validator import validate as validate_openapi

CONTRACT_FILE = "openapi.yaml"
METHODS = ("get", "post", "put", "patch", "delete")


class ContractError(Exception):
    """The packaged contract is missing, not YAML, or not a valid OpenAPI 3.1 document."""


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation of the contract: where it is, its id, what it reads."""

    method: str                     # upper case, as in the WSGI environ
    path: str                       # the contract's template, e.g. /ranks/{points}
    operation_id: str
    body_ref: str | None            # the request body schema's $ref
    parameters: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Contract:
    raw: bytes
    document: dict[str, Any]

    @property
    def version(self) -> str:
        return str(self.document["info"]["version"])

    def operations(self) -> list[Operation]:
        found = []
        for path, item in self.document["paths"].items():
            for method in METHODS:
                if method in item:
                    found.append(_operation(path, method, item[method]))
        return found


def _operation(path: str, method: str, spec: dict[str, Any]) -> Operation:
    body = spec.get("requestBody", {}).get("content", {}).get("application/json", {})
    return Operation(method=method.upper(), path=path, operation_id=spec["operationId"],
                     body_ref=body.get("schema", {}).get("$ref"),
                     parameters=tuple(spec.get("parameters", ())))


def load_contract() -> bytes:
    """The bytes of openapi.yaml as shipped in the package."""
    return resources.files("gongzhu").joinpath(CONTRACT_FILE).read_bytes()


def read_contract() -> Contract:
    """The parsed, validated contract; ``ContractError`` if it cannot be used."""
    try:
        raw = load_contract()
        document = yaml.safe_load(raw)
    except (OSError, yaml.YAMLError) as error:
        raise ContractError(f"the API contract could not be read: {error}") from error
    if not isinstance(document, dict) or not str(document.get("openapi")).startswith("3.1") \
            or not document.get("paths"):
        raise ContractError("the API contract is not an OpenAPI 3.1 document with paths")
    try:
        validate_openapi(document)
    except Exception as error:  # noqa: BLE001 — the validator raises several unrelated types
        raise ContractError(f"the API contract is not valid OpenAPI: {error}") from error
    return Contract(raw=raw, document=document)
