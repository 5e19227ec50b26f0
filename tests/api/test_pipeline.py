"""The request pipeline: every operation is validated against the contract
(JSON Schema semantics, path parameters included), answers are bounded
whatever the input, and rule checks the contract cannot express stay in the
engine."""
from __future__ import annotations

import gzip
import json
import re
import zlib

import pytest

from gongzhu.api import PIPELINE_KEY, create_app, schemas
from gongzhu.api.pipeline import Pipeline
from gongzhu.rules import CARD_NAMES, Rules
from tests.conftest import load_contract
from tests.rules import oracle

from .deals import SEED1
from .problems import assert_problem

CONTRACT = load_contract()
MAX_ANSWER = 64 * 1024


def post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type="application/json")


def test_every_api_operation_is_served_by_the_pipeline_not_by_flask():
    app = create_app()
    pipeline: Pipeline = app.extensions[PIPELINE_KEY]
    served = pipeline.routes()
    tagged = {path for path, item in CONTRACT["paths"].items()
              for op in item.values() if set(op.get("tags", [])) & {"play", "rules", "bot", "batch"}}
    assert set(served) == tagged | {"/healthz", "/readyz"}  # the probes, without Flask too
    assert not list(app.url_map.iter_rules())


# ---- integers are JSON Schema integers: 5.0 is 5 -----------------------------------------------

@pytest.mark.parametrize("path, as_float, as_int", [
    ("/deal", {"seed": 5.0}, {"seed": 5}),
    ("/ingots", {"scores": [100.0, 0, -50, -50], "multiplier": 2.0, "fee": 1.0},
     {"scores": [100, 0, -50, -50], "multiplier": 2, "fee": 1}),
    ("/legal-moves", {"hands": SEED1, "first_deal": False, "leader": 1.0},
     {"hands": SEED1, "first_deal": False, "leader": 1}),
    ("/trick", {"rules": {"decks": 1.0}, "leader": 2.0, "plays": [["S5"], ["S6"], ["S7"], ["S8"]]},
     {"rules": {"decks": 1}, "leader": 2, "plays": [["S5"], ["S6"], ["S7"], ["S8"]]}),
    ("/suggest", {"hands": SEED1, "budget_ms": 5.0, "seed": 3.0}, {"hands": SEED1, "budget_ms": 5, "seed": 3}),
])
def test_spec_integral_numbers_are_integers(client, path, as_float, as_int):
    sent, expected = post(client, path, as_float), post(client, path, as_int)
    assert sent.status_code == 200, sent.get_data(as_text=True)
    assert sent.get_json() == expected.get_json()
    assert b".0" not in sent.data.replace(b'"', b"")


def test_a_seed_written_5_0_is_answered_as_the_integer_5(client):
    assert post(client, "/deal", {"seed": 5.0}).get_json()["seed"] == 5


def test_an_empty_hand_is_valid_by_the_contract_and_answered_by_the_rules(client):
    response = post(client, "/suggest-exposures", {"hand": []})
    assert_problem(response, 422, "wrong_card_count", [("/hand", "wrong_card_count")])


# ---- path parameters: a problem with a pointer, never a 404 ------------------------------------

@pytest.mark.parametrize("text, keyword", [
    ("99999999999999999999999", "maximum"), ("-9007199254740992", "minimum"), ("9" * 101, "maximum"),
    ("abc", "type"), ("1.5", "type"), ("0x10", "type"),
    # a path integer is written in digits only: no fraction, no exponent, no leading zero nor plus
    ("5.0", "type"), ("1e3", "type"), ("1e5", "type"), ("1e400", "type"), ("1E5", "type"), ("007", "type"),
    ("+5", "type"),
])
def test_spec_path_parameter_out_of_contract_is_422(client, text, keyword):
    body = assert_problem(client.get(f"/ranks/{text}"), 422, "schema_violation",
                          [("/points", "schema_violation")])
    assert body["errors"][0]["keyword"] == keyword
    assert body["errors"][0]["in"] == "path"


@pytest.mark.parametrize("text, points", [("9007199254740991", 2**53 - 1), ("-50", -50), ("0", 0), ("-0", 0),
                                          ("100000", 100000)])
def test_path_parameter_within_the_contract(client, text, points):
    response = client.get(f"/ranks/{text}")
    assert response.status_code == 200
    assert response.get_json()["points"] == points


# ---- rules the contract cannot express stay in the engine -------------------------------------

def test_trick_rejects_cards_beyond_the_decks_copies(client):
    body = {"leader": 0, "plays": [["S5"], ["S5"], ["S5"], ["S5"]]}
    assert_problem(post(client, "/trick", body), 422, "duplicate_card",
                   [("/plays/1/0", "duplicate_card"), ("/plays/2/0", "duplicate_card"),
                    ("/plays/3/0", "duplicate_card")])


def test_trick_with_two_decks_allows_two_copies(client):
    body = {"rules": {"decks": 2}, "leader": 0, "plays": [["S5"], ["S5"], ["S6"], ["S7"]]}
    response = post(client, "/trick", body)
    assert response.status_code == 200
    assert response.get_json()["winner"] == 3
    body["plays"][2] = ["S5"]
    assert_problem(post(client, "/trick", body), 422, "duplicate_card", [("/plays/2/0", "duplicate_card")])


# ---- bounded answers ----------------------------------------------------------------------------

def test_fifty_unknown_keys_are_each_reported(client):
    body = {"hands": SEED1, **{f"k{i}": 1 for i in range(60)}}
    response = post(client, "/legal-moves", body)
    problem = assert_problem(response, 422, "schema_violation",
                             [(f"/k{i}", "schema_violation") for i in range(50)])
    assert problem["truncated"] is True
    assert problem["detail"] == "/k0: unknown field: not part of this request (and 49+ more)"


def test_twenty_thousand_unknown_keys_get_a_small_bounded_answer(client):
    body = {"hands": SEED1, **{f"k{i}": 1 for i in range(20_000)}}
    response = post(client, "/legal-moves", body)
    assert_problem(response, 422, "too_many_fields")
    assert len(response.data) <= MAX_ANSWER


def test_many_bad_cards_are_cut_at_fifty(client):
    body = {"hands": [["XX"] * 26] * 4}
    problem = post(client, "/legal-moves", body).get_json()
    assert len(problem["errors"]) == 50 and problem["truncated"] is True


def test_no_detail_quotes_more_than_100_characters_of_the_input(client):
    long = "Q" * 10_000
    hands = [list(h) for h in SEED1]
    hands[0][0] = long
    body = {"hands": hands, long: 1, "leader": 10**30, "rules": {"opening_card": long}}
    assert len(body) < 64
    response = post(client, "/legal-moves", body)
    problem = assert_problem(response, 422, "schema_violation", [
        ("/hands/0/0", "schema_violation"), ("/leader", "schema_violation"),
        ("/rules/opening_card", "schema_violation"), ("", "schema_violation")])
    assert len(response.data) < 3_000
    for item in problem["errors"]:
        assert "Q" * 101 not in item["detail"]
    assert problem["errors"][-1]["detail"] == \
        "unknown field (a name of 10000 characters): not part of this request"


def test_a_rule_problem_with_many_faults_is_cut_at_fifty(client):
    two_decks = {"rules": {"decks": 2}, "hands": [["SQ"] * 26] * 4}
    problem = post(client, "/legal-moves", two_decks).get_json()
    assert problem["code"] == "duplicate_card"
    assert len(problem["errors"]) == 50 and problem["truncated"] is True


# ---- the body: UTF-8 JSON only ------------------------------------------------------------------

@pytest.mark.parametrize("content_type", ["application/json; charset=latin1",
                                          "application/json; charset=utf-16"])
def test_another_charset_is_415(client, content_type):
    response = client.post("/ingots", data=b'{"scores": [0, 0, 0, 0]}', content_type=content_type)
    body = assert_problem(response, 415, "unsupported_charset")
    assert body["detail"].startswith("send the body as UTF-8")


def test_utf16_is_415_and_a_utf8_byte_order_mark_is_ignored(client):
    text = '{"scores": [0, 0, 0, 0]}'
    utf16 = client.post("/ingots", data=text.encode("utf-16"), content_type="application/json")
    assert_problem(utf16, 415, "unsupported_charset")
    bom = client.post("/ingots", data=b"\xef\xbb\xbf" + text.encode(), content_type="application/json")
    assert bom.status_code == 200
    latin1 = client.post("/ingots", data='{"scores": [0, 0, 0, 0], "é": 1}'.encode("latin-1"),
                         content_type="application/json")
    assert_problem(latin1, 400, "malformed_json")


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "Application/JSON",
                                          'application/json; charset="UTF-8"'])
def test_utf8_json_media_types_are_accepted(client, content_type):
    response = client.post("/ingots", data=b'{"scores": [0, 0, 0, 0]}', content_type=content_type)
    assert response.status_code == 200


# ---- the body is sent as it is: no content coding is decoded -------------------------------------

INGOTS = b'{"scores": [100, 0, -200, -200]}'


@pytest.mark.parametrize("coding, body", [
    ("gzip", gzip.compress(INGOTS, mtime=0)), ("gzip", INGOTS), ("deflate", zlib.compress(INGOTS)), ("br", INGOTS),
    ("GZIP", INGOTS), ("identity, gzip", INGOTS), ("x" * 100, INGOTS),
    # a zip bomb: 256 KiB of zeros, far past the body limit once decoded, refused before it is read
    ("gzip", gzip.compress(b"[" + b"0," * 10_000_000 + b"0]", mtime=0)),
])
def test_a_content_coding_is_415_with_accept_encoding_identity(client, coding, body):
    response = client.post("/ingots", data=body, content_type="application/json", headers={"Content-Encoding": coding})
    problem = assert_problem(response, 415, "unsupported_content_encoding")
    assert problem["detail"] == f"send the body as it is, with no Content-Encoding (this server decodes none), " \
                                f"not {coding[:40]}"
    assert response.headers["Accept-Encoding"] == "identity"


def test_a_content_coding_is_415_in_chinese_and_for_a_batch(client):
    zh = client.post("/ingots", data=gzip.compress(INGOTS), content_type="application/json",
                     headers={"Content-Encoding": "gzip", "Accept-Language": "zh-CN"})
    assert assert_problem(zh, 415, "unsupported_content_encoding")["detail"].endswith("而不是 gzip")
    envelope = json.dumps({"requests": [{"id": "a", "method": "POST", "url": "/ingots", "body": {"scores": [0] * 4}}]})
    batch = client.post("/batch", data=gzip.compress(envelope.encode()), content_type="application/json",
                        headers={"Content-Encoding": "gzip"})
    assert_problem(batch, 415, "unsupported_content_encoding")


@pytest.mark.parametrize("coding", ["identity", "Identity", " identity ", ""])
def test_no_content_coding_is_read_as_sent(client, coding):
    response = client.post("/ingots", data=INGOTS, content_type="application/json",
                           headers={"Content-Encoding": coding})
    assert response.status_code == 200 and response.get_json()["net"] == [700, -100, -300, -300]


def test_huge_numbers_are_400_not_500(client):
    response = client.post("/ingots", data=b'{"scores": [1e999, 0, 0, 0]}', content_type="application/json")
    assert_problem(response, 400, "malformed_json")


# ---- defaults: what the contract's descriptions promise is what the server applies ------------

DEFAULT = re.compile(r"Default: `([^`]+)`")


@pytest.mark.parametrize("component, schema", [
    ("DealState", schemas.DEAL_STATE), ("PlayRequest", schemas.PLAY),
    ("ScoreRequest", schemas.SCORE), ("IngotsRequest", schemas.INGOTS),
    ("ExposuresRequest", schemas.EXPOSURES), ("DealRequest", schemas.DEAL),
    ("SuggestRequest", schemas.SUGGEST),
])
def test_spec_defaults_in_the_contract_are_the_servers(component, schema):
    properties = CONTRACT["components"]["schemas"][component]["properties"]
    converted = schema.convert({})
    for name, prop in properties.items():
        stated = DEFAULT.search(prop.get("description", ""))
        if stated:
            assert converted[name] == json.loads(stated.group(1)), name


def test_spec_rules_defaults_in_the_contract_are_the_engines():
    properties = CONTRACT["components"]["schemas"]["Rules"]["properties"]
    defaults = Rules()
    for name, prop in properties.items():
        stated = DEFAULT.search(prop["description"]).group(1)
        value = getattr(defaults, name)
        assert value == (stated if name == "opening_card" else json.loads(stated)), name


def test_request_schemas_state_no_default_keyword():
    # Generated clients make a field with a `default` required; defaults live in descriptions.
    for name in ("Rules", "DealState", "PlayRequest", "IngotsRequest", "SuggestRequest", "DealRequest"):
        for prop in CONTRACT["components"]["schemas"][name]["properties"].values():
            assert "default" not in prop


# ---- 256-bit seeds ------------------------------------------------------------------------------

HEX_SEED = "3f" * 32


def test_spec_hex_seed_deals_reproducibly_and_differently_from_others(client):
    first = post(client, "/deal", {"seed": HEX_SEED}).get_json()
    again = post(client, "/deal", {"seed": HEX_SEED.upper()}).get_json()
    other = post(client, "/deal", {"seed": "3e" + "3f" * 31}).get_json()
    assert first["seed"] == HEX_SEED and again["seed"] == HEX_SEED
    assert first["hands"] == again["hands"] != other["hands"]


def test_hex_seed_derivation_is_the_documented_sha256_stream(client):
    """docs/rules.md "Dealing": block k is SHA-256("gongzhu-deal:<seed>:<k>"), words are
    big-endian 64-bit, Fisher-Yates from the end with rejection; seat s gets positions s, s+4, … (the rules
    oracle's reading of it)."""
    hands = [[CARD_NAMES[card] for card in hand] for hand in oracle.seeded_deal(HEX_SEED, 1)]
    assert post(client, "/deal", {"seed": HEX_SEED}).get_json()["hands"] == hands


@pytest.mark.parametrize("seed", ["3f" * 31, "3f" * 33, "zz" * 32, "0x" + "3f" * 31])
def test_a_malformed_hex_seed_is_422_with_a_pointer(client, seed):
    body = assert_problem(post(client, "/deal", {"seed": seed}), 422, "schema_violation",
                          [("/seed", "schema_violation")])
    assert "64 hexadecimal digits" in body["errors"][0]["detail"]
