"""/docs, its assets and /openapi.yaml: CSP, versioned long-cached assets with werkzeug's ETags and
conditional answers in process; gzip through the live server, where nginx compresses."""
from __future__ import annotations

import gzip
import re

import pytest
import requests

from gongzhu.api.contract import load_contract
from gongzhu.api.pages import ASSET_CSP, CONTRACT_KEY, SWAGGER_ASSETS, SWAGGER_DIST, SWAGGER_VERSION
from gongzhu.server import front

# werkzeug's ETag for a file: its mtime, size and a checksum of its path
FILE_ETAG = r'"[0-9.]+-[0-9]+-[0-9]+"'
FOREVER = "public, max-age=31536000, immutable"


def test_docs_has_a_csp_that_allows_its_own_inline_script_only(client):
    page = client.get("/docs")
    csp = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
    assert re.search(r"script-src 'self' 'sha256-[A-Za-z0-9+/=]{44}';", csp)
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert page.headers["Cache-Control"] == "no-store"


def test_the_bundles_html_file_has_a_csp_that_allows_its_own_scripts_only(client):
    [name] = [name for name, kind in SWAGGER_ASSETS.items() if kind == "text/html"]
    page = client.get(f"/docs/{name}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert page.headers["Content-Security-Policy"] == ASSET_CSP == (
        "default-src 'none'; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    # nginx, which sends the bundle itself, sends the same policy
    assert f'"~\\.html$" "{ASSET_CSP}";' in front.TEMPLATE.read_text()
    assert "Content-Security-Policy" not in client.get("/docs/swagger-ui.css").headers


def test_docs_assets_are_versioned_and_cached_for_a_year(client):
    html = client.get("/docs").get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="(/docs/[^"]+)"', html)
    assert assets and all(a.endswith(f"?v={SWAGGER_VERSION}") for a in assets)
    response = client.get("/docs/swagger-ui.css")
    assert response.status_code == 200 and response.mimetype == "text/css"
    assert response.headers["Cache-Control"] == FOREVER
    assert response.data == (SWAGGER_DIST / "swagger-ui.css").read_bytes()
    assert re.fullmatch(FILE_ETAG, response.headers["ETag"])
    assert "Last-Modified" in response.headers and "Date" not in response.headers


@pytest.mark.parametrize("path", ["/docs/index.css", "/openapi.yaml"])
def test_a_matching_etag_gets_304_without_a_body(client, path):
    first = client.get(path)
    again = client.get(path, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Cache-Control"] == first.headers["Cache-Control"]
    # the weak form nginx sends after compressing matches too (weak comparison, RFC 9110 §13.1.2)
    weak = client.get(path, headers={"If-None-Match": "W/" + first.headers["ETag"]})
    assert weak.status_code == 304 and weak.data == b""
    since = client.get(path, headers={"If-Modified-Since": first.headers["Last-Modified"]})
    assert since.status_code == 304 and since.data == b""
    stale = client.get(path, headers={"If-None-Match": '"stale"'})
    assert stale.status_code == 200 and stale.data == first.data


def test_a_range_and_if_match_are_ignored(client):
    whole = client.get("/docs/index.css")
    for name, value in [("Range", "bytes=0-9"), ("Range", "bytes=999999999-"), ("If-Match", '"stale"')]:
        response = client.get("/docs/index.css", headers={name: value})
        assert response.status_code == 200 and response.data == whole.data
        assert "Content-Range" not in response.headers


def test_the_contract_is_revalidated_not_cached_blindly(app, client):
    response = client.get("/openapi.yaml")
    assert (response.status_code, response.mimetype) == (200, "application/yaml")
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.data == load_contract() == app.extensions[CONTRACT_KEY].raw
    assert re.fullmatch(FILE_ETAG, response.headers["ETag"])


def test_nothing_is_compressed_in_process(client):
    response = client.get("/docs/swagger-ui-bundle.js", headers={"Accept-Encoding": "gzip"})
    assert response.data == (SWAGGER_DIST / "swagger-ui-bundle.js").read_bytes()
    assert "Content-Encoding" not in response.headers


def _raw(url: str, **headers: str) -> requests.Response:
    """The answer's bytes as sent (requests would decompress them)."""
    response = requests.get(url, headers=headers, timeout=10, stream=True)
    response.raw.decode_content = False
    response.body = response.raw.read()
    return response


@pytest.mark.live
# (the documentation's files are nginx's own, precompressed: tests/faults/test_front_holes.py)
@pytest.mark.parametrize("path, media, at_most", [("/table/table.js", "text/javascript", 0.5),
                                                  ("/openapi.yaml", "application/yaml", 0.5),
                                                  ("/docs", "text/html", 0.6)])
def test_nginx_gzips_when_accepted_and_a_weak_etag_still_gets_304(live_server, path, media, at_most):
    plain = _raw(live_server + path, **{"Accept-Encoding": "identity"})
    zipped = _raw(live_server + path, **{"Accept-Encoding": "gzip, br"})
    assert plain.status_code == zipped.status_code == 200
    assert zipped.headers["Content-Type"].split(";")[0] == media
    assert zipped.headers["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain.headers
    assert zipped.headers["Vary"] == plain.headers["Vary"] == "Accept-Encoding"
    assert gzip.decompress(zipped.body) == plain.body
    assert len(zipped.body) < len(plain.body) * at_most
    if path == "/docs":
        return  # a page, not a file: no ETag
    assert zipped.headers["ETag"] == "W/" + plain.headers["ETag"]
    for tag in (plain.headers["ETag"], zipped.headers["ETag"]):
        again = _raw(live_server + path, **{"Accept-Encoding": "gzip", "If-None-Match": tag})
        assert again.status_code == 304 and again.body == b""


@pytest.mark.live
def test_nginx_does_not_gzip_a_png_or_json(live_server):
    for path in ["/docs/favicon-32x32.png", "/version"]:
        response = _raw(live_server + path, **{"Accept-Encoding": "gzip"})
        assert response.status_code == 200 and "Content-Encoding" not in response.headers, path
