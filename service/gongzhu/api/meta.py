"""The contract and its browsable UI: Swagger UI as the flask-swagger-ui package ships it, from local
files, with a Content-Security-Policy (scripts and styles from this server, plus the page's one inline
script by hash). The UI's assets carry the package version in their URL and are cached for a year;
``/openapi.yaml`` is revalidated; both with ETags and gzip (docs/deployment.md, "Limits and the server's own answers").
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import json
import threading
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import flask_swagger_ui
from flask import Response, abort, current_app, request

from . import messages as text
from .problems import ApiProblem

YAML = "application/yaml"
CONTRACT_KEY = "gongzhu.contract"
DOCUMENT_KEY = "gongzhu.contract.document"
SWAGGER_DIST = Path(flask_swagger_ui.__file__).parent / "dist"
ASSET_VERSION = version("flask-swagger-ui")
ASSET_TYPES = {".css": "text/css", ".js": "text/javascript", ".png": "image/png",
               ".html": "text/html"}
ASSETS = {p.name: ASSET_TYPES[p.suffix] for p in SWAGGER_DIST.iterdir() if p.suffix in ASSET_TYPES}
COMPRESSIBLE = ("text/css", "text/javascript", "text/html", YAML)
ASSET_CACHE = "public, max-age=31536000, immutable"
CONTRACT_CACHE = "no-cache"
DOCS_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>gongzhu-service API</title>
  <link rel="stylesheet" type="text/css" href="/docs/swagger-ui.css?v=%(v)s">
  <link rel="stylesheet" type="text/css" href="/docs/index.css?v=%(v)s">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png?v=%(v)s" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js?v=%(v)s"></script>
  <script src="/docs/swagger-ui-standalone-preset.js?v=%(v)s"></script>
  <script>%(script)s</script>
</body>
</html>
"""
UI_CONFIG = {"url": "/openapi.yaml", "dom_id": "#swagger-ui", "deepLinking": True,
             "validatorUrl": None}
UI_SCRIPT = """
    window.onload = function () {
      window.ui = SwaggerUIBundle(Object.assign(%s, {
        presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
        layout: "StandaloneLayout"
      }));
    };
  """ % json.dumps(UI_CONFIG)
DOCS_HTML = DOCS_PAGE % {"v": ASSET_VERSION, "script": UI_SCRIPT}
_SCRIPT_HASH = base64.b64encode(hashlib.sha256(UI_SCRIPT.encode()).digest()).decode()
# Swagger UI sets style attributes itself, hence 'unsafe-inline' for styles only.
DOCS_CSP = ("default-src 'none'; "
            f"script-src 'self' 'sha256-{_SCRIPT_HASH}'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; "
            "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


class Static:
    """A fixed body with its gzip form and ETags, answered conditionally."""

    def __init__(self, data: bytes, mimetype: str, cache_control: str) -> None:
        self.data = data
        self.mimetype = mimetype
        self.cache_control = cache_control
        self.etag = hashlib.sha256(data).hexdigest()[:20]
        self.gzipped = gzip.compress(data, mtime=0) if mimetype in COMPRESSIBLE else None

    def response(self) -> Response:
        zipped = self.gzipped is not None and request.accept_encodings["gzip"] > 0
        tag = f"{self.etag}-gzip" if zipped else self.etag
        headers = {"ETag": f'"{tag}"', "Cache-Control": self.cache_control,
                   "Vary": "Accept-Encoding"}
        if request.if_none_match.contains_weak(tag):
            return Response(status=304, headers=headers)
        if zipped:
            headers["Content-Encoding"] = "gzip"
        return Response(self.gzipped if zipped else self.data, mimetype=self.mimetype,
                        headers=headers)


_assets: dict[str, Static] = {}
_building = threading.Lock()


def built(key: str, build: Callable[[], Static]) -> Static:
    """The asset ``key``, built once: readers arriving together wait for the first one's copy."""
    static = _assets.get(key)
    if static is None:
        with _building:
            static = _assets.get(key)
            if static is None:
                static = _assets[key] = build()
    return static


def openapi() -> Response:
    contract = current_app.extensions.get(CONTRACT_KEY)
    if contract is None:
        raise ApiProblem(500, "internal_error", text.NOT_LOADED())
    static = current_app.extensions.get(DOCUMENT_KEY)
    if static is None:
        static = current_app.extensions[DOCUMENT_KEY] = Static(contract.raw, YAML, CONTRACT_CACHE)
    return static.response()


def docs() -> Response:
    return Response(DOCS_HTML, mimetype="text/html", headers={"Content-Security-Policy": DOCS_CSP})


def docs_asset(asset: str) -> Response:
    if asset not in ASSETS:
        abort(404)
    return built(asset, lambda: Static((SWAGGER_DIST / asset).read_bytes(), ASSETS[asset], ASSET_CACHE)).response()
