"""POST /batch: each call answered exactly as the same request alone (status, body bytes, language, request
id), the envelope's own problems with their codes and pointers, the calls a batch does not carry, the body
limit, the deadline, the metrics and the log header."""
from __future__ import annotations

import itertools
import json
from functools import cache

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gongzhu.api import batch as batch_module
from gongzhu.api import create_app, metrics, pipeline, searches
from gongzhu.api.telemetry import LOG_HEADER
from gongzhu.settings import DEFAULT_MAX_BODY as MAX_BODY
from tests.api.deals import SEED1
from tests.api.test_review import _finished as _review_deal
from tests.api.wire_corpus import JSON_TYPE, requests
from tests.conftest import load_contract

REQUEST_ID = "batch-test"
LANGUAGES = (None, "zh-CN", "en", "zh-Hant;q=0.5, en;q=0.4")
INGOTS = {"scores": [100, 0, -200, -200]}


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


@cache
def calls() -> list[tuple[str, str, bytes | None]]:
    """(method, url, raw body or None: no body) of every corpus request a batch can carry as it is sent: a JSON
    body the strict reader reads, sent as plain ``application/json``, within the single request's size limit
    (a batch's calls share the batch's); and calls refused alone."""
    found: list[tuple[str, str, bytes | None]] = []
    for _, method, path, headers, raw in requests():
        if method != "POST" or headers.get("Content-Type") != JSON_TYPE or raw is None or len(raw) > MAX_BODY:
            continue
        try:
            pipeline.parse_json(raw)
        except Exception:  # noqa: BLE001 — a body a batch's envelope cannot hold
            continue
        found.append((method, path, raw))
    body = json.dumps(INGOTS).encode()
    found += [("POST", "/nowhere", body), ("POST", "/ranks", body), ("POST", "/ingots", None),
              ("PUT", "/score", body), ("POST", "/ranks/12", body)]
    return found


def alone(client, method: str, url: str, raw: bytes | None, language: str | None):
    headers = {"X-Request-ID": REQUEST_ID, **({"Accept-Language": language} if language else {})}
    return client.open(url, method=method, data=raw or b"", content_type=JSON_TYPE, headers=headers)


def send(client, envelope, language: str | None = None, **headers):
    headers = {"X-Request-ID": REQUEST_ID, **({"Accept-Language": language} if language else {}), **headers}
    return client.post("/batch", data=orjson.dumps(envelope), content_type=JSON_TYPE, headers=headers)


def call(index: int, method: str, url: str, raw: bytes | None, language: str | None = None) -> dict:
    item: dict = {"id": f"c{index}", "method": method, "url": url}
    if raw is not None:
        item["body"] = pipeline.parse_json(raw)
    if language is not None:
        item["headers"] = {"Accept-Language": language}
    return item


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picks=st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(LANGUAGES)), min_size=1, max_size=12),
       batch_language=st.sampled_from(LANGUAGES))
def test_spec_each_call_of_a_batch_is_answered_as_it_is_alone(client, picks, batch_language):
    chosen = [(*calls()[index % len(calls())], language) for index, language in picks]
    response = send(client, {"requests": [call(i, *c) for i, c in enumerate(chosen)]}, batch_language)
    assert response.status_code == 200
    answers = orjson.loads(response.data)["responses"]
    assert [a["id"] for a in answers] == [f"c{i}" for i in range(len(chosen))]
    for (method, url, raw, language), found in zip(chosen, answers, strict=True):
        single = alone(client, method, url, raw, language or batch_language)
        assert found["status"] == single.status_code, (url, single.data)
        # the very bytes of the answer alone (less its line end) sit in the batch's
        assert single.data.endswith(b"\n") and single.data[:-1] in response.data
        assert orjson.dumps(found["body"]) + b"\n" == single.data
        if single.status_code >= 400:
            assert found["headers"] == {name: single.headers[name] for name in ("Content-Language", "Retry-After",
                                                                                 "Allow") if name in single.headers}
        else:
            assert "headers" not in found


def test_a_problem_is_the_same_bytes_with_the_same_request_id(client):
    sent = {"hands": [["SQ"]] * 4}
    response = send(client, {"requests": [{"id": "a", "method": "POST", "url": "/legal-moves", "body": sent}]},
                    **{"X-Request-ID": "table-7"})
    single = client.post("/legal-moves", data=json.dumps(sent), content_type=JSON_TYPE,
                         headers={"X-Request-ID": "table-7"})
    assert single.status_code == 422 and b'"request_id":"table-7"' in single.data
    assert response.headers["X-Request-ID"] == "table-7"
    assert single.data[:-1] in response.data


# ---- the envelope: refused whole, no call run ----------------------------------------------------

def problem(response, status: int, code: str) -> list[tuple[str, str]]:
    assert response.status_code == status, response.data
    assert response.mimetype == "application/problem+json"
    found = response.get_json()
    assert found["code"] == code and found["request_id"] == REQUEST_ID
    return [(e["pointer"], e["code"]) for e in found.get("errors", [])]


def test_duplicate_ids_are_422_pointing_at_each_later_call(client):
    ids = ["a", "b", "a", "c", "b"]
    response = send(client, {"requests": [{"id": i, "method": "POST", "url": "/ingots", "body": INGOTS}
                                          for i in ids]})
    assert problem(response, 422, "duplicate_id") == [("/requests/2/id", "duplicate_id"),
                                                      ("/requests/4/id", "duplicate_id")]
    assert response.get_json()["detail"] == ('the id "a" is used by /requests/0 already: each call of a batch '
                                             'has its own id')


@pytest.mark.parametrize("envelope, pointer, keyword", [
    ([], "", "type"),
    ({}, "/requests", "required"),
    ({"requests": []}, "/requests", "minItems"),
    ({"requests": [{"id": "a", "method": "post", "url": "/ingots"}]}, "/requests/0/method", "pattern"),
    ({"requests": [{"id": "a", "method": "POST", "url": "ingots"}]}, "/requests/0/url", "pattern"),
    ({"requests": [{"id": "a", "method": "POST", "url": "/ingots?x=1"}]}, "/requests/0/url", "pattern"),
    ({"requests": [{"id": "", "method": "POST", "url": "/ingots"}]}, "/requests/0/id", "minLength"),
    ({"requests": [{"id": "a", "method": "POST", "url": "/ingots", "headers": {"X-Request-ID": "x"}}]},
     "/requests/0/headers/X-Request-ID", "additionalProperties"),
])
def test_an_envelope_off_the_contract_is_422_for_the_whole_batch(client, envelope, pointer, keyword):
    response = send(client, envelope)
    errors = response.get_json()["errors"]
    assert problem(response, 422, "schema_violation")[0] == (pointer, "schema_violation")
    assert errors[0]["keyword"] == keyword


def test_more_than_1000_calls_are_422_too_many_calls_before_any_is_validated(client):
    calls = [{"id": "same", "method": "POST", "url": "/ingots", "body": INGOTS}] * 1000
    assert send(client, {"requests": calls}).status_code == 422  # duplicate ids: at the cap, validated
    response = send(client, {"requests": [*calls, "not a call"]})
    assert problem(response, 422, "too_many_calls") == [("/requests", "too_many_calls")]
    assert response.get_json()["detail"] == "the batch has 1001 calls; a batch carries at most 1000"


def test_a_batch_over_its_body_limit_is_413_and_other_operations_keep_theirs():
    client = create_app({"MAX_BATCH_BODY": 4096, "MAX_CONTENT_LENGTH": 1024}).test_client()
    envelope = {"requests": [{"id": str(i), "method": "POST", "url": "/ingots", "body": INGOTS}
                             for i in range(60)]}
    assert len(orjson.dumps(envelope)) > 4096
    assert problem(send(client, envelope), 413, "payload_too_large") == []
    # a batch larger than the single limit, within its own
    envelope["requests"] = envelope["requests"][:20]
    assert 1024 < len(orjson.dumps(envelope)) <= 4096
    assert send(client, envelope).status_code == 200
    large = {"hands": SEED1, "leader": 0, "first_deal": False, "plays": [["SQ"]] * 100}
    single = client.post("/legal-moves", data=json.dumps(large), content_type=JSON_TYPE)
    assert single.status_code == 413


def test_a_call_larger_than_a_single_requests_limit_answers_413_as_alone_and_the_others_are_served():
    client = create_app({"MAX_CONTENT_LENGTH": 256}).test_client()
    large = {"hands": SEED1, "first_deal": False, "leader": 0, "plays": [], "exposed": [[], [], [], []]}
    sent = json.dumps(large).encode()
    by_itself = alone(client, "POST", "/legal-moves", sent, None)
    assert 256 < len(sent) and by_itself.status_code == 413
    small = json.dumps(INGOTS).encode()
    answers = send(client, {"requests": [call(0, "POST", "/legal-moves", sent),
                                         call(1, "POST", "/ingots", small)]}).get_json()["responses"]
    assert [(a["status"], a["body"].get("code")) for a in answers] == [(413, "payload_too_large"), (200, None)]
    assert answers[0]["body"] == {**by_itself.get_json(), "request_id": REQUEST_ID}


def test_a_calls_size_is_the_bytes_it_was_sent_in_whitespace_and_escapes_included():
    client = create_app({"MAX_CONTENT_LENGTH": 64}).test_client()
    # 64 bytes as sent: the largest body the limit admits, spaces counted
    body = '{"scores": [100, 0, -200, -200]' + " " * (64 - 32) + "}"
    over = body[:-1] + " }"
    escaped = '{"scores": [100, 0, -200, -200], "x": "\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"}'
    envelope = ('{"requests": [' + ", ".join(f'{{"id": "{i}", "method": "POST", "url": "/ingots", "body": {b}}}'
                                             for i, b in enumerate([body, over, escaped])) + "]}").encode()
    assert [len(b.encode()) for b in (body, over)] == [64, 65] and len(escaped.encode()) > 64
    answers = client.post("/batch", data=envelope, content_type=JSON_TYPE).get_json()["responses"]
    assert [a["status"] for a in answers] == [200, 413, 413]
    assert [alone(client, "POST", "/ingots", b.encode(), None).status_code for b in (body, over, escaped)] == \
        [200, 413, 413]


def test_a_calls_body_is_read_as_strictly_as_alone_each_fault_its_own_answer(client):
    bodies = ['{"scores": [100, 0, -200, -200], "scores": [0, 0, 0, 0]}',  # a key written twice
              '{"scores": [NaN, 0, -200, -200]}',
              '{"scores": [100, 0, -200, -200], "x": "\\ud800"}',  # a lone surrogate
              "[" * 40 + "]" * 40,  # deeper than any request may nest
              '{"scores": [100, 0, -200, -200]}']
    envelope = ('{"requests": [' + ", ".join(f'{{"id": "{i}", "method": "POST", "url": "/ingots", "body": {b}}}'
                                             for i, b in enumerate(bodies)) + "]}").encode()
    answers = client.post("/batch", data=envelope, content_type=JSON_TYPE,
                          headers={"X-Request-ID": REQUEST_ID}).get_json()["responses"]
    assert [(a["status"], a["body"].get("code")) for a in answers] == [(400, "malformed_json")] * 4 + [(200, None)]
    for item, body in zip(answers[:4], bodies[:4], strict=True):
        single = alone(client, "POST", "/ingots", body.encode(), None)
        assert item["body"] == single.get_json()


def test_the_envelope_is_read_as_any_body(client):
    response = client.post("/batch", data=b'{"requests": [', content_type=JSON_TYPE,
                           headers={"X-Request-ID": REQUEST_ID})
    assert problem(response, 400, "malformed_json") == []
    response = client.post("/batch", data=b"{}", content_type="text/plain", headers={"X-Request-ID": REQUEST_ID})
    assert problem(response, 415, "unsupported_media_type") == []


# ---- calls refused on their own -------------------------------------------------------------------

@pytest.mark.parametrize("method, url, status, code, headers", [
    ("POST", "/batch", 422, "not_batchable", {"Content-Language": "en"}),
    ("GET", "/ranks", 422, "not_batchable", {"Content-Language": "en"}),
    ("GET", "/healthz", 422, "not_batchable", {"Content-Language": "en"}),
    ("GET", "/metrics", 422, "not_batchable", {"Content-Language": "en"}),
    ("GET", "/ranks/12", 422, "not_batchable", {"Content-Language": "en"}),
    ("HEAD", "/ranks", 422, "not_batchable", {"Content-Language": "en"}),
    ("GET", "/legal-moves", 405, "method_not_allowed", {"Content-Language": "en", "Allow": "POST"}),
    ("POST", "/nowhere", 404, "not_found", {"Content-Language": "en"}),
    ("POST", "/legal%2Dmoves/x", 404, "not_found", {"Content-Language": "en"}),
])
def test_a_call_a_batch_does_not_carry_is_refused_alone(client, method, url, status, code, headers):
    envelope = {"requests": [{"id": "before", "method": "POST", "url": "/ingots", "body": INGOTS},
                             {"id": "it", "method": method, "url": url, "body": {"requests": []}},
                             {"id": "after", "method": "POST", "url": "/ingots", "body": INGOTS}]}
    response = send(client, envelope)
    assert response.status_code == 200
    before, it, after = response.get_json()["responses"]
    assert before["status"] == after["status"] == 200 and before["body"] == after["body"]
    assert (it["id"], it["status"], it["body"]["code"], it["headers"]) == ("it", status, code, headers)
    assert it["body"]["request_id"] == REQUEST_ID and "errors" not in it["body"]


def test_a_percent_escaped_url_is_the_path_it_names(client):
    envelope = {"requests": [{"id": "a", "method": "POST", "url": "/legal%2Dmoves", "body": {"hands": SEED1}}]}
    [found] = send(client, envelope).get_json()["responses"]
    assert found["status"] == 200 and found["body"]["seat"] == 3


def test_a_body_that_is_not_an_object_is_the_calls_schema_violation(client):
    envelope = {"requests": [{"id": "a", "method": "POST", "url": "/ingots", "body": [1, 2]},
                             {"id": "b", "method": "POST", "url": "/ingots"}]}
    first, second = send(client, envelope).get_json()["responses"]
    assert (first["status"], first["body"]["code"], first["body"]["errors"][0]["pointer"],
            first["body"]["errors"][0]["keyword"]) == (422, "schema_violation", "", "type")
    assert (second["status"], second["body"]["code"]) == (400, "malformed_json")


# ---- the deadline ---------------------------------------------------------------------------------

def test_calls_not_started_by_the_deadline_answer_503_with_retry_after(client, monkeypatch):
    # the batch starts at 1000 s; its calls find the clock at 1001, 1009, 1011 and 1012 s (deadline 1010 s)
    monkeypatch.setattr(batch_module, "clock", iter([1000.0, 1001.0, 1009.0, 1011.0, 1012.0]).__next__)
    envelope = {"requests": [{"id": str(i), "method": "POST", "url": "/ingots", "body": INGOTS} for i in range(4)]}
    answers = send(client, envelope).get_json()["responses"]
    assert [a["status"] for a in answers] == [200, 200, 503, 503]
    for late in answers[2:]:
        assert late["headers"] == {"Retry-After": "1", "Content-Language": "en"}
        assert (late["body"]["code"], late["body"]["detail"]) == ("busy", "the request waited past its deadline; retry")


def test_a_search_starts_only_with_its_longest_time_left(client, monkeypatch):
    # 9.5 s after the start: a /ingots call still runs, a /claim (1 s at most) does not
    monkeypatch.setattr(batch_module, "clock", itertools.chain([1000.0], itertools.repeat(1009.5)).__next__)
    claim = {"hands": SEED1, "claim": {"seat": 0, "kind": "all_tricks"}}
    envelope = {"requests": [{"id": "s", "method": "POST", "url": "/claim", "body": claim},
                             {"id": "i", "method": "POST", "url": "/ingots", "body": INGOTS}]}
    search, other = send(client, envelope).get_json()["responses"]
    assert (search["status"], search["body"]["code"], search["headers"]["Retry-After"]) == (503, "busy", "1")
    assert other["status"] == 200


def test_a_batch_that_finds_another_running_in_its_worker_is_503_busy_at_once(client):
    work = client.application.extensions["gongzhu.pipeline"].whole["batch"]
    sent = {"requests": [{"id": "a", "method": "POST", "url": "/ingots", "body": INGOTS}]}
    with work.running:  # another batch runs in this worker: this one does not wait for it, holding a thread
        response = send(client, sent)
    assert problem(response, 503, "busy") == [] and response.headers["Retry-After"] == "1"
    documented = load_contract()["paths"]["/batch"]["post"]["responses"]["503"]["content"][
        "application/problem+json"]["examples"]["batches_busy"]["value"]
    assert {k: v for k, v in response.get_json().items() if k != "request_id"} == documented
    assert send(client, sent).status_code == 200


class LeavingClient:
    """nginx's connection to the worker, as ``clients.gone`` peeks at it: open for ``open_for`` looks, then
    closed (its client gone)."""

    def __init__(self, open_for: int) -> None:
        self.looks = 0
        self.open_for = open_for

    def recv(self, _size: int, _flags: int) -> bytes:
        self.looks += 1
        if self.looks > self.open_for:
            return b""
        raise BlockingIOError


def test_a_batch_whose_client_left_starts_no_more_calls_and_answers_499_with_the_rest_counted(client):
    def counted(operation: str, status: str) -> float:
        return metrics.BATCH_ITEMS.labels(operation, status)._value.get()

    before = counted("settle_ingots", "200"), counted("none", "499")
    envelope = {"requests": [{"id": str(i), "method": "POST", "url": "/ingots", "body": INGOTS} for i in range(5)]}
    # open when the envelope is read and before the first two calls; gone before the third
    leaving = LeavingClient(open_for=3)
    response = client.post("/batch", data=orjson.dumps(envelope), content_type=JSON_TYPE,
                           environ_overrides={"gunicorn.socket": leaving})
    assert (response.status_code, response.data, leaving.looks) == (499, b"", 4)
    assert (counted("settle_ingots", "200") - before[0], counted("none", "499") - before[1]) == (2, 3)


def test_a_review_stopped_because_its_client_left_stops_the_batch_and_counts_no_500(client, monkeypatch):
    monkeypatch.setattr(searches, "gone", lambda _environ: True)  # asked between the review's decisions
    review = {**_review_deal(), "seed": 1, "budget_ms": 300}
    envelope = {"requests": [{"id": "i", "method": "POST", "url": "/ingots", "body": INGOTS},
                             {"id": "r", "method": "POST", "url": "/review", "body": review},
                             {"id": "j", "method": "POST", "url": "/ingots", "body": INGOTS}]}
    before = [metrics.BATCH_ITEMS.labels(*key)._value.get() for key in [("review", "500"), ("none", "499")]]
    assert send(client, envelope).status_code == 499
    after = [metrics.BATCH_ITEMS.labels(*key)._value.get() for key in [("review", "500"), ("none", "499")]]
    assert [a - b for a, b in zip(after, before, strict=True)] == [0, 2]


# ---- what is counted and logged ---------------------------------------------------------------------

def test_calls_are_counted_by_operation_and_status_and_logged_on_the_batchs_line(client):
    def counted(operation: str, status: str) -> float:
        return metrics.BATCH_ITEMS.labels(operation, status)._value.get()

    before = {key: counted(*key) for key in [("settle_ingots", "200"), ("none", "404"), ("titles", "422")]}
    envelope = {"requests": [{"id": "1", "method": "POST", "url": "/ingots", "body": INGOTS},
                             {"id": "2", "method": "POST", "url": "/ingots", "body": INGOTS},
                             {"id": "3", "method": "POST", "url": "/nowhere", "body": INGOTS},
                             {"id": "4", "method": "GET", "url": "/ranks"}]}
    response = client.post("/batch", data=orjson.dumps(envelope), content_type=JSON_TYPE)
    assert response.status_code == 200
    assert {key: counted(*key) - value for key, value in before.items()} == \
        {("settle_ingots", "200"): 2, ("none", "404"): 1, ("titles", "422"): 1}
    assert response.headers.get(LOG_HEADER) == "batch items=4 refused=2"


def test_a_refused_envelope_is_logged_with_its_problem(client):
    response = client.post("/batch", data=b"[]", content_type=JSON_TYPE)
    assert response.headers.get(LOG_HEADER) == "batch schema_violation"
