"""The conformance case files as data: their format, their ids, and what they cover — every section of
docs/rules.md, every rule option, every problem code of the contract, one and two decks."""
from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from fnmatch import fnmatch
from pathlib import Path

import jsonschema_rs
import pytest

from gongzhu.conformance import cases
from tests.conftest import ROOT, load_contract

MIN_CASES = 400
MIN_TWO_DECKS = 100
# Problem codes of the contract that no request can be sure to get, each with the reason.
UNREACHABLE = {
    "invalid_rules": "the contract's enums for decks and opening_card reject such rules first (schema_violation)",
    "internal_error": "a fault of the server, never caused by a request's content",
    "not_ready": "the server's state (starting or draining), not the request's",
    "busy": "/suggest when every bot slot of the server is thinking: a matter of load",
    "too_many_requests": "nginx's own answer to a client with as many requests in progress as one may have: load",
}
REQUIRED_TAGS = {"one-deck", "two-decks", "exposure", "transformer", "all-hearts", "grand-slam", "partnership",
                 "ingots", "titles", "variants", "first-lead", "claims", "match", "problems", "pairs",
                 "first-trick-ban", "views", "trick", "scoring", "transport", "batch"}


@pytest.fixture(scope="module")
def all_cases() -> list[dict]:
    return cases.load()


def contract_problem_codes() -> set[str]:
    """Every problem code the contract names: its examples' codes and the codes its Errors text lists."""
    contract = load_contract()
    text = (ROOT / "service" / "gongzhu" / "openapi.yaml").read_text(encoding="utf-8")
    from_examples = set(re.findall(r"^\s+code: ([a-z_]+)\s*$", text, re.M))
    errors_text = contract["info"]["description"].split("**Errors**")[1].split("**Languages.**")[0]
    # a code is written `like_this`, or after its status: 503 `busy`
    from_text = set(re.findall(r"`([a-z]+(?:_[a-z]+)+)`", errors_text)) | set(re.findall(r"\d{3} `([a-z]+)`",
                                                                                          errors_text))
    return from_examples | from_text


def test_every_file_matches_the_case_schema():
    validator = jsonschema_rs.validator_for(cases.schema())
    for name in cases.case_files():
        document = json.loads((Path(cases.__file__).parent / "cases" / name).read_text(encoding="utf-8"))
        faults = [f"{'/'.join(map(str, e.instance_path))}: {e.message}" for e in validator.iter_errors(document)]
        assert not faults, (name, faults[:5])


def test_ids_are_unique(all_cases):
    repeated = [case_id for case_id, n in Counter(c["id"] for c in all_cases).items() if n > 1]
    assert not repeated


def test_counts(all_cases):
    assert len(all_cases) >= MIN_CASES
    assert sum("two-decks" in c["tags"] for c in all_cases) >= MIN_TWO_DECKS


def test_every_problem_code_of_the_contract_is_covered(all_cases):
    contract = contract_problem_codes()
    assert set(UNREACHABLE) <= contract, "an unreachable code the contract no longer names"
    covered = {c["expect"]["problem"]["code"] for c in all_cases if "problem" in c["expect"]}
    for case in all_cases:
        covered |= {e["code"] for e in case["expect"].get("problem", {}).get("errors", [])}
        # a batch's call answered with a problem: its code at /responses/<n>/body/code
        covered |= {value for pointer, value in case["expect"].get("equal", {}).items() if pointer.endswith("/code")}
    assert contract - set(UNREACHABLE) - covered == set()
    assert covered <= contract, "a case expects a code the contract does not name"


def test_every_section_of_the_rules_is_covered(all_cases):
    sections = re.findall(r"^## (\d+)\. ", (ROOT / "docs" / "rules.md").read_text(encoding="utf-8"), re.M)
    cited = {m.group(1) for c in all_cases if (m := re.match(r"rules\.md §(\d+)", c["source"]["section"]))}
    assert sections and set(sections) <= cited


def rules_sent(case: dict) -> dict:
    body = case["request"].get("body")
    return body.get("rules", {}) if isinstance(body, dict) and isinstance(body.get("rules", {}), dict) else {}


def test_every_rule_option_is_varied(all_cases):
    """Each option of the contract's Rules is sent with every value it can take but its default (which
    leaving it out sends: both booleans, every enum value), and every option of a match."""
    schemas = load_contract()["components"]["schemas"]
    sent: dict[str, set] = {}
    for case in all_cases:
        for option, value in rules_sent(case).items():
            sent.setdefault(option, set()).add(json.dumps(value))
    for option, schema in schemas["Rules"]["properties"].items():
        default = re.search(r"Default: `([^`]+)`", schema["description"]).group(1)
        if "$ref" in schema:
            schema = schemas[schema["$ref"].rsplit("/", 1)[1]]
        values = schema.get("enum") or [True, False]
        assert {json.dumps(v) for v in values} - sent.get(option, set()) <= {default, json.dumps(default)}, option
    match_bodies = [c["request"]["body"] for c in all_cases if c["request"]["path"] == "/match"]
    for option in ("target", "multiplier", "fee"):
        assert any(option in b for b in match_bodies), option
    assert {b.get("leader_rule") for b in match_bodies} >= {"pig_taker", "rotation"}


def test_the_hard_edge_cases_are_there(all_cases):
    ids = {c["id"] for c in all_cases}
    for case_id in ("score-1d-transformer-alone", "score-1d-all-hearts-ha-exposed", "score-2d-grand-slam",
                    "score-2d-grand-slam-exposures", "score-1d-all-hearts-pig-flips", "ban-1d-follower-c10",
                    "trick-2d-hand-tie-pair-earlier", "score-1d-partnership-halves", "exposed-1d-example-3-1",
                    "match-1d-rules-md"):
        assert case_id in ids


def test_every_required_tag_is_used(all_cases):
    used = {tag for c in all_cases for tag in c["tags"]}
    assert REQUIRED_TAGS <= used


def test_every_game_case_names_its_decks(all_cases):
    deckless = {"http", "titles", "ingots", "batch"}
    for case in all_cases:
        tags = set(case["tags"])
        assert tags & {"one-deck", "two-decks"} or tags & deckless, case["id"]
        if "two-decks" in tags:
            assert rules_sent(case).get("decks") == 2, case["id"]


def test_the_cases_ship_in_the_package():
    """The wheel's package data names the case files and their schema."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["gongzhu"]
    folder = Path(cases.__file__).parent
    files = [p.relative_to(folder.parent).as_posix() for p in folder.rglob("*.json")]
    assert files and all(any(fnmatch(f, pattern) for pattern in patterns) for f in files)
