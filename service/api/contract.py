"""The hand-written contract, ``service/openapi.yaml`` (package data), loaded once."""
from __future__ import annotations

from importlib import resources

CONTRACT_FILE = "openapi.yaml"


def load_contract() -> bytes:
    """The bytes of openapi.yaml as shipped in the package."""
    return resources.files("service").joinpath(CONTRACT_FILE).read_bytes()
