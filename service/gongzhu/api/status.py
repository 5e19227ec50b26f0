"""The service's status for a platform: ``GET /metrics`` (Prometheus) and ``GET /version``
(docs/operations.md; ``gongzhu.about`` says where each version comes from)."""
from __future__ import annotations

import platform

from flask import Response

from gongzhu import about

from . import metrics as metric_values


def version_info() -> dict:
    return {**about.build_info(), "python": platform.python_version()}


def metrics() -> Response:
    text, content_type = metric_values.render()
    return Response(text, content_type=content_type)
