"""The service's status for a platform: ``GET /metrics`` (Prometheus) and ``GET /version``.

``/version`` reports the service version (the installed package's, which
pyproject.toml sets), the contract version (openapi.yaml ``info.version``), the
git commit the code was built from when known, how the engine was built
(``compiled`` or ``pure``: ``gongzhu.rules.engine_build``) and the Python version;
``gongzhu.about`` says where each comes from.
"""
from __future__ import annotations

import platform

from flask import Response, current_app, has_app_context

from gongzhu import about

from . import metrics as metric_values
from .meta import CONTRACT_KEY


def contract_version() -> str:
    """``info.version`` of the contract the app loaded (the packaged file's if it has none)."""
    contract = current_app.extensions.get(CONTRACT_KEY) if has_app_context() else None
    if contract is not None:
        return contract.version
    return about.contract_version()


def version_info() -> dict:
    info = about.build_info()
    return {"service": info["service"], "contract": contract_version(), "commit": info["commit"],
            "engine": info["engine"], "python": platform.python_version()}


def version() -> dict:
    return version_info()


def metrics() -> Response:
    text, content_type = metric_values.render()
    return Response(text, content_type=content_type)
