"""A batch's envelope walk (``api/envelope.py``) against the stdlib's decoder: the same envelope, each call's body
where it was sent and read as it is alone, and the same error for a text that is not JSON — over envelopes of
any JSON, written compact or spaced, and texts cut or spoiled anywhere."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu.api import envelope
from gongzhu.api.pipeline import DECODER
from gongzhu.api.problems import ApiProblem

LIMIT = 256 * 1024
SCALARS = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8) | \
    st.floats(allow_nan=False, allow_infinity=False, width=32)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(max_size=6), inner, max_size=4), max_leaves=12)
CALLS = st.fixed_dictionaries({"id": st.text(min_size=1, max_size=5), "method": st.just("POST"),
                               "url": st.just("/ingots")}, optional={"body": VALUES}) | VALUES
ENVELOPES = st.fixed_dictionaries({"requests": st.lists(CALLS, max_size=5)}) | VALUES
SPACINGS = st.sampled_from([(",", ":"), (", ", ": "), (" ,\n ", " :\t ")])


def _write(value, separators: tuple[str, str]) -> str:
    return json.dumps(value, separators=separators, ensure_ascii=False)


def _without_bodies(found):
    if isinstance(found, dict) and isinstance(found.get("requests"), list):
        return {**found, "requests": [{k: v for k, v in call.items() if k != "body"} if isinstance(call, dict)
                                      else call for call in found["requests"]]}
    return found


@settings(max_examples=250, deadline=None)
@given(sent=ENVELOPES, spacing=SPACINGS)
def test_the_walk_reads_what_the_decoder_reads_and_each_body_where_it_was_sent(sent, spacing):
    text = _write(sent, spacing)
    found, bodies = envelope.read(text, LIMIT)
    assert found == _without_bodies(DECODER.decode(text))
    calls = sent.get("requests") if isinstance(sent, dict) else None
    if not isinstance(calls, list):
        assert bodies == []
        return
    assert len(bodies) == len(calls)
    for call, body in zip(calls, bodies, strict=True):
        if not isinstance(call, dict) or "body" not in call:
            assert body is None
            continue
        assert body.whole and body.value == call["body"]
        assert json.loads(text[body.start:body.end]) == call["body"]


@settings(max_examples=250, deadline=None)
@given(sent=ENVELOPES, spacing=SPACINGS, cut=st.floats(0, 1), spoil=st.sampled_from(["", "}", "]", ",", ":", "x",
                                                                                     '"', "{", "[", "\\"]))
def test_a_text_that_is_not_json_gets_the_decoders_own_error(sent, spacing, cut, spoil):
    text = _write(sent, spacing)
    at = int(len(text) * cut)
    spoiled = text[:at] + spoil + text[at + 1:] if spoil else text[:at]
    try:
        expected = DECODER.decode(spoiled)
    except (ValueError, ApiProblem) as error:
        with pytest.raises(type(error)) as raised:
            envelope.read(spoiled, LIMIT)
        assert str(raised.value) == str(error)
        return
    found, _ = envelope.read(spoiled, LIMIT)
    assert found == _without_bodies(expected)


def test_a_body_the_strict_decoder_refuses_is_left_to_its_call_and_the_envelope_read():
    text = '{"requests": [{"id": "a", "method": "POST", "url": "/x", "body": {"k": 1, "k": 2}}, ' \
           '{"id": "b", "method": "POST", "url": "/x", "body": [NaN]}]}'
    found, bodies = envelope.read(text, LIMIT)
    assert [call["id"] for call in found["requests"]] == ["a", "b"]
    assert [(b.whole, text[b.start:b.end]) for b in bodies] == [(False, '{"k": 1, "k": 2}'), (False, "[NaN]")]


def test_a_body_of_more_objects_than_the_limit_holds_is_sized_not_kept():
    objects = 1000
    body = "[" + ",".join(["{}"] * objects) + "]"
    text = '{"requests": [{"id": "a", "method": "POST", "url": "/x", "body": ' + body + "}]}"
    [within] = envelope.read(text, 3 * objects)[1]
    [past] = envelope.read(text, 3 * objects - 6)[1]
    assert (within.whole, len(within.value)) == (True, objects)
    assert (past.whole, past.value, text[past.start:past.end]) == (False, None, body)
