"""A lean WSGI path for the hottest operation, POST /legal-moves (issue 5).

Platforms call /legal-moves on every move. Flask's per-request machinery
(request context, URL binding, response object) costs about as much as the
rules themselves, so a well-formed request is answered here with the same
steps as the view — read, JSON, the schema's direct load, replay, legal moves,
the same encoder — and the same bytes. Anything else, including every request
that would get a problem answer, falls through to the Flask app with its body
intact: errors stay handled in one place (``problems.py``).
"""
from __future__ import annotations

import io
import json

from flask import Flask

from service import rules as engine

from .body import JSON, _constant, _object
from .results import legal_moves_out, replay
from .schemas import DEAL_STATE

PATH = "/legal-moves"
COMPACT = (",", ":")


class LegalMovesHotPath:
    """WSGI middleware: answers valid POST /legal-moves itself, passes on the rest."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.next = app.wsgi_app

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO") != PATH or environ.get("REQUEST_METHOD") != "POST" \
                or environ.get("CONTENT_TYPE") != JSON:
            return self.next(environ, start_response)
        length = environ.get("CONTENT_LENGTH")
        limit = self.app.config["MAX_CONTENT_LENGTH"]
        if not length or not length.isdigit() or (limit is not None and int(length) > limit):
            return self.next(environ, start_response)
        body = environ["wsgi.input"].read(int(length))
        answer = self._answer(body)
        if answer is None:
            environ["wsgi.input"] = io.BytesIO(body)
            return self.next(environ, start_response)
        start_response("200 OK", [("Content-Type", JSON), ("Content-Length", str(len(answer)))])
        return [answer]

    def _answer(self, body: bytes) -> bytes | None:
        """The 200 answer's bytes, or None when the request needs Flask (any fault)."""
        try:
            if json.detect_encoding(body) != "utf-8":  # UTF-16/32 and BOMs: body.py answers
                return None
            data = json.loads(body, object_pairs_hook=_object, parse_constant=_constant)
            loaded = DEAL_STATE.direct_load(data) if type(data) is dict else None
            if loaded is None:
                return None
            state = replay(loaded)
            out = legal_moves_out(state, engine.legal_moves(state))
        except Exception:  # noqa: BLE001 — Flask redoes the request and answers (or logs) the fault
            return None
        # as Flask's JSON response with app.json.compact (create_app): compact separators, newline
        return (self.app.json.dumps(out, separators=COMPACT) + "\n").encode()
