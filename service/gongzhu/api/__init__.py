"""The HTTP layer of gongzhu-service: ``create_app()``. The request pipeline (``pipeline.py``) is the one router: it
serves the contract's operations with validators compiled from ``openapi.yaml`` and runs its pages (``PAGES``) in
Flask's request context; Flask holds the configuration, the request and response objects, and an empty URL map.
"""
from __future__ import annotations

import functools
import logging
import operator
from collections.abc import Callable
from typing import Any, cast

from gongzhu import settings
from gongzhu.server_extra import require_server

require_server()  # before Flask: without the server extra, one line says what to install

from flask import Flask  # noqa: E402

from gongzhu import about  # noqa: E402

from . import cors, metrics  # noqa: E402
from .batch import Batch  # noqa: E402
from .contract import Contract, ContractError, read_contract  # noqa: E402
from .pages import CONTRACT_KEY, PAGES  # noqa: E402
from .pipeline import Pipeline  # noqa: E402
from .telemetry import Telemetry  # noqa: E402

LOG = logging.getLogger("gongzhu.api")
PIPELINE_KEY = "gongzhu.pipeline"


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The application. ``config`` overrides settings, e.g. ``MAX_CONTENT_LENGTH``
    (the body limit in bytes: default ``settings.max_body()``), ``MAX_BATCH_BODY`` (a
    batch's: default ``settings.max_batch_body()``),
    ``CORS_ORIGINS`` (default: env ``GONGZHU_CORS_ORIGINS``) or
    ``TRACER_PROVIDER`` (an OpenTelemetry provider; default: from the environment)."""
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body()
    app.config["MAX_BATCH_BODY"] = settings.max_batch_body()
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
