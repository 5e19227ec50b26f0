"""Assertions on RFC 9457 problem responses."""
from __future__ import annotations

PROBLEM_JSON = "application/problem+json"


def assert_problem(response, status: int, code: str, errors=None) -> dict:
    """The response is a problem with this status and code; ``errors`` is the exact
    list of (pointer, code) pairs, or None when the problem has no ``errors``."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM_JSON
    body = response.get_json(force=True)
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"] == f"urn:gongzhu:problem:{code}"
    assert body["title"] and body["detail"]
    if errors is None:
        assert "errors" not in body
    else:
        assert [(e["pointer"], e["code"]) for e in body["errors"]] == errors
    return body
