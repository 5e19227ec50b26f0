"""``GET /table``: the deal page, a deal state shown at a card table, for QA and support (named the deal
page in the code: the engine's play loops are its ``table``). Its own files (``deal_page_files/``), its
asset digest in their URLs and its Content-Security-Policy: docs/table.md, "How it is served".
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Response, abort

from .meta import ASSET_CACHE, Static, built

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


def page() -> Response:
    return Response(PAGE_HTML, mimetype="text/html", headers={"Content-Security-Policy": PAGE_CSP})


def page_asset(asset: str) -> Response:
    if asset not in ASSET_TYPES:
        abort(404)
    return built(f"table/{asset}", lambda: Static((PAGE_DIR / asset).read_bytes(), ASSET_TYPES[asset],
                                                 ASSET_CACHE)).response()
