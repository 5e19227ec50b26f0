"""The HTTP layer of gongzhu-service (SPEC.md §7): ``create_app()``."""
from __future__ import annotations

import logging
import os
from typing import Any

from flask import Flask

from . import problems
from .headers import StandardHeaders
from .hotpath import LegalMovesHotPath
from .meta import load_into
from .meta import meta as meta_routes
from .views import api

DEFAULT_MAX_BODY = 256 * 1024
MAX_BODY_ENV = "GONGZHU_MAX_BODY"


class ApiFlask(Flask):
    """Flask without automatic OPTIONS answers: OPTIONS is no operation of the
    contract, so it gets a documented 405 problem like any other method."""

    def add_url_rule(self, rule, endpoint=None, view_func=None,
                     provide_automatic_options=None, **options):
        super().add_url_rule(rule, endpoint, view_func, provide_automatic_options=False,
                             **options)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The application. ``config`` overrides settings, e.g. ``MAX_CONTENT_LENGTH``
    (the body limit in bytes: default 256 KiB, or env ``GONGZHU_MAX_BODY``)."""
    app = ApiFlask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = int(os.environ.get(MAX_BODY_ENV, DEFAULT_MAX_BODY))
    app.config.update(config or {})
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    app.json.compact = True
    problems.register(app)
    app.register_blueprint(api)
    app.register_blueprint(meta_routes)
    load_into(app)
    app.wsgi_app = StandardHeaders(LegalMovesHotPath(app))
    logging.getLogger(app.name).setLevel(logging.INFO)
    return app
