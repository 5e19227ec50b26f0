"""``GET /``: where a newcomer lands, a small index of what this server offers.

JSON by default (``curl`` and scripts); an HTML page of the same links to a client
that prefers ``text/html`` (a browser), so ``http://localhost:8080`` opened in one
is a start and not a 404. The links are the server's own pages and documents:
the API documentation, the deal table, the contract and the versions.
"""
from __future__ import annotations

import html

from flask import Response, current_app, request

JSON = "application/json"
HTML = "text/html"
LINKS = {"docs": "/docs", "table": "/table", "contract": "/openapi.yaml", "version": "/version"}
TITLES = {"docs": "API documentation (Swagger UI)", "table": "The deal table (牌桌)",
          "contract": "The contract, OpenAPI 3.1", "version": "Versions and engine build"}
NAME = "gongzhu-service"
DESCRIPTION = "The rules of the card game 拱猪 (Gong Zhu) as a stateless REST API."
INDEX = {"name": NAME, "description": DESCRIPTION, "links": LINKS}
HOME_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
PAGE = "".join([
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n  <meta charset="UTF-8">\n',
    f"  <title>{NAME}</title>\n</head>\n<body>\n  <h1>{NAME}</h1>\n  <p>{html.escape(DESCRIPTION)}</p>\n  <ul>\n",
    *(f'    <li><a href="{href}">{href}</a>: {html.escape(TITLES[key])}</li>\n' for key, href in LINKS.items()),
    "  </ul>\n</body>\n</html>\n",
])


def index():
    headers = {"Vary": "Accept"}
    if request.accept_mimetypes.best_match([JSON, HTML]) == HTML:
        return Response(PAGE, mimetype=HTML, headers={**headers, "Content-Security-Policy": HOME_CSP})
    response = current_app.json.response(INDEX)
    response.headers.update(headers)
    return response
