"""Every answer of a fixed corpus of requests (``wire_corpus.py``: valid and invalid, every operation
the request path serves, every error of the wire), byte for byte: status line, headers and body
are those the code answered when ``wire_answers.json`` was written. A change to the request path that
must not change what clients get (speed, structure) keeps this test passing unchanged."""
from __future__ import annotations

import collections
import hashlib
import json

from tests.api import wire_corpus


def test_every_answer_is_the_recorded_bytes(app):
    recorded = json.loads(wire_corpus.ANSWERS.read_text(encoding="utf-8"))
    requests = wire_corpus.requests()
    assert [r[0] for r in requests] == list(recorded), "the corpus is the recorded one"
    changed = [r[0] for r in requests
               if hashlib.sha256(wire_corpus.answer(app, r)).hexdigest() != recorded[r[0]]]
    assert not changed, f"{len(changed)} answers changed: {changed[:20]}"


def test_the_corpus_reaches_every_answer_kind(app):
    """The corpus covers the valid answers of each operation and the problem codes the request path gives."""
    codes: collections.Counter[str] = collections.Counter()
    for request in wire_corpus.requests():
        body = wire_corpus.answer(app, request).split(b"\n\n", 1)[1]
        problem = json.loads(body).get("code") if body.startswith(b'{"type"') else None
        codes[problem or f"200 {request[2].split('/')[1]}"] += 1
    wanted = {"200 legal-moves", "200 play", "200 score", "200 view", "200 trick", "200 match", "200 claim",
              "malformed_json", "unsupported_media_type", "unsupported_charset", "unsupported_content_encoding",
              "payload_too_large", "too_many_fields", "schema_violation", "method_not_allowed", "not_found",
              "invalid_deal", "wrong_card_count", "duplicate_card", "wrong_leader", "missing_leader",
              "illegal_exposure", "card_not_in_hand", "must_follow_suit", "must_follow_pair", "must_lead_opening_card",
              "first_trick_ban", "exposed_card_first_round", "not_your_turn", "deal_finished", "invalid_move"}
    assert wanted <= set(codes), sorted(wanted - set(codes))
