"""/docs, its assets and /openapi.yaml: CSP, versioned long-cached assets with ETags,
conditional answers and gzip."""
from __future__ import annotations

import gzip
import re

import pytest

from gongzhu.api.contract import load_contract
from gongzhu.api.pages import SWAGGER_DIST, SWAGGER_VERSION


def test_docs_has_a_csp_that_allows_its_own_inline_script_only(client):
    page = client.get("/docs")
    csp = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
    assert re.search(r"script-src 'self' 'sha256-[A-Za-z0-9+/=]{44}';", csp)
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert page.headers["Cache-Control"] == "no-store"


def test_docs_assets_are_versioned_and_cached_for_a_year(client):
    html = client.get("/docs").get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="(/docs/[^"]+)"', html)
    assert assets and all(a.endswith(f"?v={SWAGGER_VERSION}") for a in assets)
    response = client.get("/docs/swagger-ui.css")
    assert response.status_code == 200 and response.mimetype == "text/css"
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response.data == (SWAGGER_DIST / "swagger-ui.css").read_bytes()
    assert re.fullmatch(r'"[0-9a-f]{20}"', response.headers["ETag"])


@pytest.mark.parametrize("path", ["/docs/swagger-ui-bundle.js", "/openapi.yaml"])
def test_gzip_when_accepted_with_its_own_etag(client, path):
    plain = client.get(path)
    zipped = client.get(path, headers={"Accept-Encoding": "gzip, br"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert zipped.headers["Vary"] == plain.headers["Vary"] == "Accept-Encoding"
    assert gzip.decompress(zipped.data) == plain.data
    assert len(zipped.data) < len(plain.data) / 2
    assert zipped.headers["ETag"] == plain.headers["ETag"][:-1] + '-gzip"'
    assert "Content-Encoding" not in plain.headers


@pytest.mark.parametrize("path", ["/docs/index.css", "/openapi.yaml"])
@pytest.mark.parametrize("encoding", ["", "gzip"])
def test_a_matching_etag_gets_304_without_a_body(client, path, encoding):
    first = client.get(path, headers={"Accept-Encoding": encoding})
    again = client.get(path, headers={"Accept-Encoding": encoding,
                                      "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == first.headers["ETag"]
    stale = client.get(path, headers={"Accept-Encoding": encoding, "If-None-Match": '"stale"'})
    assert stale.status_code == 200 and stale.data == first.data


def test_the_contract_is_revalidated_not_cached_blindly(client):
    response = client.get("/openapi.yaml")
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.data == load_contract()


def test_a_png_is_not_gzipped(client):
    response = client.get("/docs/favicon-32x32.png", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert "Content-Encoding" not in response.headers
