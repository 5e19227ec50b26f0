"""The contract, ``service/gongzhu/openapi.yaml`` (package data): read and indexed by operation, once at
start-up. Its operations are the routes, its request schemas the validators (``validation.py``), its
``operationId`` the handler of each operation (``operations.py``). A start-up checks it against the OpenAPI 3.1
schema only when ``GONGZHU_CHECK_CONTRACT=1`` asks (the tests always do; docs/performance.md, "Start-up").
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

CONTRACT_FILE = "openapi.yaml"
CHECK_ENV = "GONGZHU_CHECK_CONTRACT"
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

    def operations(self) -> list[Operation]:
        return [_operation(path, method, item[method]) for path, item in self.document["paths"].items()
                for method in METHODS if method in item]


def _operation(path: str, method: str, spec: dict[str, Any]) -> Operation:
    body = spec.get("requestBody", {}).get("content", {}).get("application/json", {})
    return Operation(method=method.upper(), path=path, operation_id=spec["operationId"],
                     body_ref=body.get("schema", {}).get("$ref"),
                     parameters=tuple(spec.get("parameters", ())))


def load_contract() -> bytes:
    """The bytes of openapi.yaml as shipped in the package."""
    return resources.files("gongzhu").joinpath(CONTRACT_FILE).read_bytes()


def check_contract(document: dict[str, Any]) -> None:
    """The full OpenAPI 3.1 check (openapi-spec-validator); ``ContractError`` if it fails."""
    from openapi_spec_validator import validate as validate_openapi

    try:
        validate_openapi(document)
    except Exception as error:  # noqa: BLE001 — the validator raises several unrelated types
        raise ContractError(f"the API contract is not valid OpenAPI: {error}") from error


def read_contract() -> Contract:
    """The parsed contract (checked in full when ``GONGZHU_CHECK_CONTRACT=1``); ``ContractError`` if it
    cannot be used."""
    try:
        raw = load_contract()
        # libyaml's safe loader when PyYAML has it: the pure-Python one parses a contract this size slowly.
        document = yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, yaml.YAMLError) as error:
        raise ContractError(f"the API contract could not be read: {error}") from error
    if not isinstance(document, dict) or not str(document.get("openapi")).startswith("3.1") \
            or not document.get("paths"):
        raise ContractError("the API contract is not an OpenAPI 3.1 document with paths")
    if os.environ.get(CHECK_ENV) == "1":
        check_contract(document)
    return Contract(raw=raw, document=document)
