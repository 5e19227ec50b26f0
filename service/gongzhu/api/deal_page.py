"""``GET /table``: the deal page, a deal state shown at a card table, for QA and support (docs/table.md).
Named the deal page in the code (the engine's play loops are its ``table``); its URL is the contract's.

One page of the package's own files (``deal_page_files/``: ``index.html``, ``table.css``,
``table.js``): no CDN, no build step. The page only calls the public API from its
own origin; its Content-Security-Policy allows scripts, styles and requests to
this server only, with no inline script or style at all. The deal state travels
in the URL fragment, which a browser never sends to a server.

The assets are addressed with a digest of their content in their URL
(``?v=…``), so they are cached for a year (``immutable``), with ETags and gzip as
``/docs``'s assets are; the page itself is not cached.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Response, abort

from .meta import ASSET_CACHE, Static

PAGE_DIR = Path(__file__).parent / "deal_page_files"
ASSET_TYPES = {"table.css": "text/css", "table.js": "text/javascript"}
VERSION_LENGTH = 12
PAGE_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def asset_version() -> str:
    """A digest of every asset: it changes whenever one of them does."""
    digest = hashlib.sha256()
    for name in sorted(ASSET_TYPES):
        digest.update((PAGE_DIR / name).read_bytes())
    return digest.hexdigest()[:VERSION_LENGTH]


ASSET_VERSION = asset_version()
PAGE_HTML = (PAGE_DIR / "index.html").read_text(encoding="utf-8").replace("{{v}}", ASSET_VERSION)
_assets: dict[str, Static] = {}


def page() -> Response:
    return Response(PAGE_HTML, mimetype="text/html", headers={"Content-Security-Policy": PAGE_CSP})


def page_asset(asset: str) -> Response:
    if asset not in ASSET_TYPES:
        abort(404)
    if asset not in _assets:
        _assets[asset] = Static((PAGE_DIR / asset).read_bytes(), ASSET_TYPES[asset], ASSET_CACHE)
    return _assets[asset].response()
