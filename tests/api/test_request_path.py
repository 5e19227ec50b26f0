"""The request path's shortcuts answer as the general code they stand for: the JSON scanner called
as ``JSONDecoder.decode`` calls it, the byte order mark stripped as ``utf-8-sig`` does, the rules
kept by the options as sent, the standard headers."""
from __future__ import annotations

import pytest

from gongzhu.api import pipeline, schemas, telemetry
from gongzhu.api.problems import ApiProblem
from gongzhu.api.telemetry import NO_STORE, NOSNIFF
from gongzhu.rules import DEFAULT_RULES, Rules
from gongzhu.rules.cards import CARD_BY_NAME

C2 = CARD_BY_NAME["C2"]


@pytest.mark.parametrize("text", [
    '{"a": 1}', ' \n\t{"a": [1, 2.5, "x"]}\r\n ', "[]", "3", '"s"', "", "   ", "[1,]", '{"a":1}x',
    '{"a":1} {"b":2}', "{", "nul", '{"a": NaN}', '{"a": 1, "a": 2}', "[1e999]", "\ufeff{}",
])
def test_decode_answers_as_the_decoder(text):
    try:
        expected = ("value", pipeline.DECODER.decode(text))
    except ValueError as error:
        expected = ("error", type(error), str(error))
    try:
        got = ("value", pipeline.decode(text))
    except ValueError as error:
        got = ("error", type(error), str(error))
    assert got == expected


@pytest.mark.parametrize("data", [
    b'{"a": 1}', b'\xef\xbb\xbf{"a": 1}', b'\xef\xbb\xbf\xef\xbb\xbf{}', b'{"a": "\xff"}',
    b'\xef\xbb\xbf{"a": "\xc3"}', b"\xef\xbb", b'{"\xc3\xa9": "\xe2\x82\xac"}',
])
def test_parse_json_decodes_as_utf_8_sig(data):
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        with pytest.raises(ApiProblem) as raised:
            pipeline.parse_json(data)
        assert raised.value.status == 400 and f"byte {error.start}" in str(raised.value)
        return
    try:
        expected = pipeline.DECODER.decode(text)
    except ValueError:
        with pytest.raises(ApiProblem):
            pipeline.parse_json(data)
        return
    assert pipeline.parse_json(data) == expected


def test_rules_as_sent_are_the_rules_converted():
    for sent in ({"decks": 2}, {"decks": 2.0}, {"decks": 1, "partnership": True},
                 {"opening_card": "S7", "first_trick_ban": True}, {}):
        got = schemas.rules_in(sent)
        assert got == schemas.RULES.convert(dict(sent)) and type(got.decks) is int
        assert schemas.rules_in(dict(sent)) is got
    assert schemas.rules_in({}) is DEFAULT_RULES
    assert schemas.rules_in({"decks": 2.0}) == Rules(decks=2)


def test_every_field_of_a_schema_converts_by_a_function():
    assert schemas.DEAL_STATE._converters["hands"] is schemas.card_rows_in
    assert schemas.DEAL_STATE._converters["first_deal"] is None
    assert schemas.PLAY.convert({"leader": 1.0, "hands": [["C2"]] * 4, "move": ["C2"], "seat": 1.0}) == {
        "leader": 1, "hands": ((C2,),) * 4, "move": (C2,), "seat": 1, "rules": DEFAULT_RULES,
        "first_deal": True, "exposed": schemas.NO_EXPOSURE, "plays": ()}


@pytest.mark.parametrize("headers, added", [
    ([("Content-Type", "application/json")], [NOSNIFF, NO_STORE]),
    ([("cache-control", "max-age=60")], [NOSNIFF]),
    ([], [NOSNIFF, NO_STORE]),
])
def test_standard_headers(headers, added):
    before = list(headers)
    telemetry.add_standard_headers(headers)
    assert headers == before + added

