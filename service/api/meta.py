"""Operational endpoints: liveness, readiness, the contract and its browsable UI.

The UI is Swagger UI as shipped inside the flask-swagger-ui package, served
from local files: the page loads nothing from a CDN and validates nothing
against an outside validator.
"""
from __future__ import annotations

import json
from pathlib import Path

import flask_swagger_ui
from flask import Blueprint, Response, current_app, send_from_directory

from .problems import problem

meta = Blueprint("meta", __name__)

YAML = "application/yaml"
CONTRACT_KEY = "gongzhu.contract"
SWAGGER_DIST = Path(flask_swagger_ui.__file__).parent / "dist"
DOCS_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>gongzhu-service API</title>
  <link rel="stylesheet" type="text/css" href="/docs/swagger-ui.css">
  <link rel="stylesheet" type="text/css" href="/docs/index.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script>
    window.onload = function () {
      window.ui = SwaggerUIBundle(Object.assign(%s, {
        presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
        layout: "StandaloneLayout"
      }));
    };
  </script>
</body>
</html>
"""
UI_CONFIG = {"url": "/openapi.yaml", "dom_id": "#swagger-ui", "deepLinking": True,
             "validatorUrl": None}


@meta.get("/healthz")
def healthz():
    return {"status": "ok"}


@meta.get("/readyz")
def readyz():
    if not current_app.extensions.get(CONTRACT_KEY):
        return problem(503, "not_ready", "the API contract (openapi.yaml) is not loaded")
    return {"status": "ready"}


@meta.get("/openapi.yaml")
def openapi():
    contract = current_app.extensions.get(CONTRACT_KEY)
    if contract is None:
        return problem(500, "internal_error", "the API contract (openapi.yaml) is not loaded")
    return Response(contract.raw, mimetype=YAML)


@meta.get("/docs")
def docs():
    return Response(DOCS_PAGE % json.dumps(UI_CONFIG), mimetype="text/html")


@meta.get("/docs/<asset>")
def docs_asset(asset: str):
    return send_from_directory(SWAGGER_DIST, asset, conditional=False, etag=False)
