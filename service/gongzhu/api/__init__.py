"""The HTTP layer of gongzhu-service: ``create_app()``. The request pipeline (``pipeline.py``) is the one router: it
serves the contract's operations with validators compiled from ``openapi.yaml`` and runs its pages (``PAGES``) in
Flask's request context; Flask holds the configuration, the request and response objects, and an empty URL map.
"""
from __future__ import annotations

import functools
import logging
import operator
import os
from collections.abc import Callable
from typing import Any, cast

from gongzhu.server.server_extra import require_server

require_server()  # before Flask: without the server extra, one line says what to install

from flask import Flask  # noqa: E402

from gongzhu import about  # noqa: E402

from . import cors, metrics  # noqa: E402
from .batch import Batch  # noqa: E402
from .contract import Contract, ContractError, read_contract  # noqa: E402
from .pages import CONTRACT_KEY, PAGES  # noqa: E402
from .pipeline import Pipeline  # noqa: E402
from .telemetry import Telemetry  # noqa: E402

DEFAULT_MAX_BODY = 256 * 1024
MAX_BODY_ENV = "GONGZHU_MAX_BODY"
# A batch's body: 1,000 mid-deal states of two decks fit (docs/operations.md, "Batch"), and eight of them
# parsed at once fit a worker's memory.
DEFAULT_MAX_BATCH_BODY = 2 * 1024 * 1024
MAX_BATCH_BODY_ENV = "GONGZHU_MAX_BATCH_BODY"
LOG = logging.getLogger("gongzhu.api")
PIPELINE_KEY = "gongzhu.pipeline"


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The application. ``config`` overrides settings, e.g. ``MAX_CONTENT_LENGTH``
    (the body limit in bytes: default 256 KiB, or env ``GONGZHU_MAX_BODY``), ``MAX_BATCH_BODY`` (a
    batch's: default 2 MiB, or env ``GONGZHU_MAX_BATCH_BODY``),
    ``CORS_ORIGINS`` (default: env ``GONGZHU_CORS_ORIGINS``) or
    ``TRACER_PROVIDER`` (an OpenTelemetry provider; default: from the environment)."""
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = int(os.environ.get(MAX_BODY_ENV, DEFAULT_MAX_BODY))
    app.config["MAX_BATCH_BODY"] = int(os.environ.get(MAX_BATCH_BODY_ENV, DEFAULT_MAX_BATCH_BODY))
    app.config.update(config or {})
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    app.json.compact = True
    contract: Contract | None = None
    try:
        contract = app.extensions[CONTRACT_KEY] = read_contract()
    except ContractError:
        LOG.exception("the API contract could not be loaded; /readyz reports not ready")
    # the body limit as configured when a request comes (read from the config, no function of ours)
    limit = cast(Callable[[], "int | None"], functools.partial(operator.getitem, app.config, "MAX_CONTENT_LENGTH"))
    batch_limit = cast(Callable[[], "int | None"], functools.partial(operator.getitem, app.config, "MAX_BATCH_BODY"))
    pipeline = Pipeline(app, contract, limit, PAGES, whole={"batch": functools.partial(Batch, limit=batch_limit)})
    app.extensions[PIPELINE_KEY] = pipeline
    # Outermost: every request gets an id, a count, an access line and the standard headers,
    # whatever answers it. The pipeline matches each request to the contract once; telemetry
    # and CORS ask it.
    app.wsgi_app = Telemetry(cors.wrap(pipeline, pipeline.methods, app.config.get("CORS_ORIGINS")),
                             app.config.get("TRACER_PROVIDER"), operation_of=pipeline.operation)
    # Asked once, before workers fork (preload): /version never waits for git.
    info = about.build_info()
    metrics.record_build_info(info["service"], info["contract"], info["commit"], info["engine"])
    LOG.setLevel(logging.INFO)
    return app
