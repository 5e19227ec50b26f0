"""The validator a valid body pays (``Compiled.is_valid``) runs the contract's schemas in their fast form
(``validation.fast_form``: a finite pattern as the enum of its strings, a plain ``$ref`` inlined) and
accepts exactly what the schemas as written accept: every string up to three characters against the
card schema, every body of the wire corpus against every request schema."""
from __future__ import annotations

import itertools

import jsonschema_rs
import pytest

from gongzhu.api import pipeline
from gongzhu.api.problems import ApiProblem
from gongzhu.api.validation import Compiled, fast_form, pattern_strings
from gongzhu.rules import CARD_NAMES
from tests.api import wire_corpus
from tests.conftest import load_contract

CONTRACT = load_contract()
CARD_PATTERN = CONTRACT["components"]["schemas"]["Card"]["pattern"]
# request schemas no corpus body matches as a whole
UNSENT = {"SuggestRequest"}
REQUEST_SCHEMAS = sorted(name for name in CONTRACT["components"]["schemas"] if name.endswith("Request")) + [
    "DealState", "Card", "Play", "Hands", "Rules"]


def test_the_card_pattern_is_the_52_names():
    assert pattern_strings(CARD_PATTERN) == sorted(CARD_NAMES)


@pytest.mark.parametrize("pattern, strings", [
    ("^(a|b)c$", ["ac", "bc"]), ("^\\+$", ["+"]), ("^(a|)$", ["", "a"]), ("^[0-2]x$", ["0x", "1x", "2x"]),
    ("^(a|b)(c|d)$", ["ac", "ad", "bc", "bd"]),
    # not a finite set the reading knows, or more than a few hundred strings
    ("^a+$", None), ("^a*$", None), ("^a?$", None), ("^a{2}$", None), ("^a.$", None), ("^\\d$", None),
    ("a", None), ("^a", None), ("a$", None), ("^ab|cd$", None), ("^a$|^b$", None), ("^[^a]$", None),
    ("^(?:a)$", None), ("^(?i)a$", None), ("^a\\$", None), ("^é$", None), ("^[a$", None), ("^(a$", None),
    ("^a)$", None), ("^[z-a]$", None), ("^[]$", None), ("^[a-z][a-z]$", None), ("^ $", None),
    ("^(none|(a|b)(\\+(a|b))*)$", None), ("^[0-9a-fA-F]{64}$", None),
])
def test_pattern_strings(pattern, strings):
    assert pattern_strings(pattern) == strings


def test_every_short_string_is_a_card_exactly_when_the_pattern_says_so():
    card = {"components": CONTRACT["components"], "$ref": "#/components/schemas/Card"}
    written = jsonschema_rs.Draft202012Validator(card)
    fast = jsonschema_rs.Draft202012Validator(fast_form(card, card))
    alphabet = "SHDCshdc0123456789JQKAjqka\n .+é"
    count = 0
    for size in range(4):
        for chars in itertools.product(alphabet, repeat=size):
            text = "".join(chars)
            assert fast.is_valid(text) == written.is_valid(text), text
            count += 1
    for other in (None, 1, 1.0, True, [], {}, ["SQ"], "SQ\n", " SQ", "S10 "):
        assert fast.is_valid(other) == written.is_valid(other), other
    assert count > 30000


def corpus_bodies() -> list:
    """The corpus's bodies that reach validation (parsed as the pipeline parses them), and each top-level
    member of them."""
    bodies = []
    for _, method, _, _, raw in wire_corpus.requests():
        if method != "POST" or not raw:
            continue
        try:
            bodies.append(pipeline.parse_json(raw))
        except ApiProblem:
            continue
    return bodies + [body[key] for body in bodies if isinstance(body, dict) for key in body]


BODIES = corpus_bodies()


@pytest.mark.parametrize("schema", REQUEST_SCHEMAS)
def test_every_corpus_body_is_valid_exactly_when_the_contract_says_so(schema):
    compiled = Compiled(CONTRACT, ref=f"#/components/schemas/{schema}")
    assert len(BODIES) > 3000
    agreed = [compiled.is_valid(body) == compiled.validator.is_valid(body) for body in BODIES]
    assert all(agreed), [body for body, same in zip(BODIES, agreed) if not same][:3]
    assert any(compiled.validator.is_valid(body) for body in BODIES) or schema in UNSENT
