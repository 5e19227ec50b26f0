"""The contract's pages (``PAGES``, by operationId), run in Flask's request context: ``GET /`` (JSON for
scripts, the same links as HTML for a browser), the contract and its Swagger UI (as flask-swagger-ui ships it),
the deal table (the deal page in the code: the engine's play loops are its ``table``; docs/table.md, "How it is
served"), ``/version`` (docs/operations.md) and ``/metrics``. Each page has a Content-Security-Policy; assets
carry a version in their URL and are cached for a year, ``/openapi.yaml`` is revalidated. Both are files sent by
Flask's ``send_file``, read per request, with werkzeug's ETag, Last-Modified and 304s; nginx compresses them
(docs/deployment.md, "Limits and the server's own answers").
"""
from __future__ import annotations

import base64
import hashlib
import html
import json
import platform
from importlib import resources
from importlib.metadata import version
from pathlib import Path

import flask_swagger_ui
from flask import Response, current_app, request, send_file

from gongzhu import about

from . import messages as text
from . import metrics as metric_values
from .contract import CONTRACT_FILE
from .pipeline import Page
from .problems import ApiProblem

JSON = "application/json"
HTML = "text/html"
YAML = "application/yaml"
ASSET_CACHE = "public, max-age=31536000, immutable"
CONTRACT_CACHE = "no-cache"
CONTRACT_KEY = "gongzhu.contract"
# the package's own file, as load_contract reads it
CONTRACT_PATH = Path(str(resources.files("gongzhu").joinpath(CONTRACT_FILE)))

LINKS = {"docs": "/docs", "table": "/table", "contract": "/openapi.yaml", "version": "/version"}
TITLES = {"docs": "API documentation (Swagger UI)", "table": "The deal table (牌桌)",
          "contract": "The contract, OpenAPI 3.1", "version": "Versions and engine build"}
NAME = "gongzhu-service"
DESCRIPTION = "The rules of the card game 拱猪 (Gong Zhu) as a stateless REST API."
INDEX = {"name": NAME, "description": DESCRIPTION, "links": LINKS}
# Every page: nothing but what its policy names, and it cannot be framed, re-based or post a form.
LOCKED = "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
HOME_CSP = f"default-src 'none'; {LOCKED}"
# An HTML file of the documentation's bundle (oauth2-redirect.html): its own scripts only. nginx, which sends the
# bundle itself, sends the same (server/nginx.conf).
ASSET_CSP = f"default-src 'none'; script-src 'self'; {LOCKED}"
HOME_HTML = "".join([
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n  <meta charset="UTF-8">\n',
    f"  <title>{NAME}</title>\n</head>\n<body>\n  <h1>{NAME}</h1>\n  <p>{html.escape(DESCRIPTION)}</p>\n  <ul>\n",
    *(f'    <li><a href="{href}">{href}</a>: {html.escape(TITLES[key])}</li>\n' for key, href in LINKS.items()),
    "  </ul>\n</body>\n</html>\n",
])

SWAGGER_DIST = Path(flask_swagger_ui.__file__).parent / "dist"
SWAGGER_VERSION = version("flask-swagger-ui")
SWAGGER_TYPES = {".css": "text/css", ".js": "text/javascript", ".png": "image/png", ".html": HTML}
SWAGGER_ASSETS = {p.name: SWAGGER_TYPES[p.suffix] for p in SWAGGER_DIST.iterdir() if p.suffix in SWAGGER_TYPES}
UI_CONFIG = {"url": "/openapi.yaml", "dom_id": "#swagger-ui", "deepLinking": True, "validatorUrl": None}
UI_SCRIPT = """
    window.onload = function () {
      window.ui = SwaggerUIBundle(Object.assign(UI_CONFIG, {
        presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
        layout: "StandaloneLayout"
      }));
    };
  """.replace("UI_CONFIG", json.dumps(UI_CONFIG))
DOCS_HTML = f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>gongzhu-service API</title>
  <link rel="stylesheet" type="text/css" href="/docs/swagger-ui.css?v={SWAGGER_VERSION}">
  <link rel="stylesheet" type="text/css" href="/docs/index.css?v={SWAGGER_VERSION}">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png?v={SWAGGER_VERSION}" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js?v={SWAGGER_VERSION}"></script>
  <script src="/docs/swagger-ui-standalone-preset.js?v={SWAGGER_VERSION}"></script>
  <script>{UI_SCRIPT}</script>
</body>
</html>
"""
_SCRIPT_HASH = base64.b64encode(hashlib.sha256(UI_SCRIPT.encode()).digest()).decode()
# Swagger UI sets style attributes itself, hence 'unsafe-inline' for styles only.
DOCS_CSP = ("default-src 'none'; "
            f"script-src 'self' 'sha256-{_SCRIPT_HASH}'; style-src 'self' 'unsafe-inline'; "
            f"img-src 'self' data:; font-src 'self' data:; connect-src 'self'; {LOCKED}")

# the page is a client of the API, kept outside the HTTP layer: files of the package, as CONTRACT_PATH
PAGE_DIR = Path(str(resources.files("gongzhu").joinpath("table_page")))
TABLE_ASSETS = {"table.css": "text/css", "table.js": "text/javascript"}
# a digest of every asset: it changes whenever one of them does
_TABLE_BYTES = b"".join([(PAGE_DIR / name).read_bytes() for name in sorted(TABLE_ASSETS)])
TABLE_VERSION = hashlib.sha256(_TABLE_BYTES).hexdigest()[:12]
TABLE_HTML = (PAGE_DIR / "index.html").read_text(encoding="utf-8").replace("{{v}}", TABLE_VERSION)
TABLE_CSP = (f"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
             f"connect-src 'self'; {LOCKED}")


def _file(path: Path, mimetype: str, cache_control: str) -> Response:
    """``path`` read for this request, with werkzeug's ETag and Last-Modified, 304 when they match."""
    # conditional=False then make_conditional() without ranges: a Range header is ignored (a full 200),
    # so no werkzeug 416 can escape the page
    response = send_file(path, mimetype=mimetype, conditional=False, etag=True, max_age=None)
    # If-Match guards changes, which these files never see: werkzeug would send a 412 with the file as its
    # body (not a problem), so it is ignored as before
    response.make_conditional({**request.environ, "HTTP_IF_MATCH": ""})
    response.headers["Cache-Control"] = cache_control
    # gunicorn and nginx write their own Date; werkzeug's would be a second one
    del response.headers["Date"]
    return response


def _asset(folder: Path, types: dict[str, str], name: str) -> Response:
    """The file ``name`` of ``folder`` when ``types`` names it, else a 404 problem (no other file is reachable);
    an HTML file with ``ASSET_CSP``."""
    if name not in types:
        raise ApiProblem(404, "not_found", text.NOT_FOUND())
    response = _file(folder / name, types[name], ASSET_CACHE)
    if types[name] == HTML:
        response.headers["Content-Security-Policy"] = ASSET_CSP
    return response


def _html(page: str, csp: str, **headers: str) -> Response:
    return Response(page, mimetype=HTML, headers={**headers, "Content-Security-Policy": csp})


def index():
    if request.accept_mimetypes.best_match([JSON, HTML]) == HTML:
        return _html(HOME_HTML, HOME_CSP, Vary="Accept")
    response = current_app.json.response(INDEX)
    response.headers["Vary"] = "Accept"
    return response


def openapi() -> Response:
    if CONTRACT_KEY not in current_app.extensions:
        raise ApiProblem(500, "internal_error", text.NOT_LOADED())
    return _file(CONTRACT_PATH, YAML, CONTRACT_CACHE)


def version_info() -> dict:
    return {**about.build_info(), "python": platform.python_version()}


def metrics() -> Response:
    body, content_type = metric_values.render()
    return Response(body, content_type=content_type)


# by operationId
PAGES: dict[str, Page] = {
    "index": index, "contract": openapi, "version": version_info, "metrics": metrics,
    "docs": lambda: _html(DOCS_HTML, DOCS_CSP), "docs_asset": lambda asset: _asset(SWAGGER_DIST, SWAGGER_ASSETS, asset),
    "table": lambda: _html(TABLE_HTML, TABLE_CSP), "table_asset": lambda asset: _asset(PAGE_DIR, TABLE_ASSETS, asset),
}
