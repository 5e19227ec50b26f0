"""GET /table and its two files: a strict CSP with no inline code, versioned
long-cached assets, nothing from another host, the public API only, and the
weight budget (docs/table.md). The page in a real browser: tests/browser/."""
from __future__ import annotations

import re

import pytest

from gongzhu.api import PIPELINE_KEY
from gongzhu.api.pages import PAGE_DIR, TABLE_VERSION
from tests.conftest import load_contract

WEIGHT_BUDGET = 150 * 1024
ASSETS = ["table.js", "table.css"]


def test_the_page_has_a_strict_csp_and_no_inline_code(client):
    page = client.get("/table")
    assert page.status_code == 200 and page.mimetype == "text/html"
    csp = dict(part.strip().split(" ", 1) for part in page.headers["Content-Security-Policy"].split(";"))
    assert csp == {"default-src": "'none'", "script-src": "'self'", "style-src": "'self'",
                   "img-src": "'self' data:", "connect-src": "'self'", "base-uri": "'none'",
                   "form-action": "'none'", "frame-ancestors": "'none'"}
    assert page.headers["Cache-Control"] == "no-store"
    html = page.get_data(as_text=True)
    assert re.findall(r"<script\b[^>]*>", html) == [f'<script src="/table/table.js?v={TABLE_VERSION}" defer>']
    assert "<style" not in html and not re.search(r"\s(style|on[a-z]+)=", html)


def test_the_assets_are_versioned_by_content_and_cached_for_a_year(client):
    html = client.get("/table").get_data(as_text=True)
    assert sorted(re.findall(r'(?:src|href)="(/table/[^"]+)"', html)) == [
        f"/table/table.css?v={TABLE_VERSION}", f"/table/table.js?v={TABLE_VERSION}"]
    assert re.fullmatch(r"[0-9a-f]{12}", TABLE_VERSION)
    for name, media in [("table.js", "text/javascript"), ("table.css", "text/css")]:
        response = client.get(f"/table/{name}?v={TABLE_VERSION}")
        assert (response.status_code, response.mimetype) == (200, media)
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert response.data == (PAGE_DIR / name).read_bytes()
        again = client.get(f"/table/{name}", headers={"If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""
        assert again.headers["ETag"] == response.headers["ETag"]


@pytest.mark.parametrize("path", ["/table/index.html", "/table/missing.js", "/table/", "/table/../openapi.yaml"])
def test_anything_else_under_table_is_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.get_json()["code"] == "not_found"


@pytest.mark.parametrize("path", ["/table", "/table/table.js"])
def test_only_get_and_head(client, path):
    response = client.post(path, json={})
    assert response.status_code == 405 and response.headers["Allow"] == "GET, HEAD"


def test_the_page_names_no_other_host():
    for name in ["index.html", *ASSETS]:
        text = (PAGE_DIR / name).read_text(encoding="utf-8")
        assert "://" not in text, name
        assert not re.search(r"@import|url\(", text), name


def test_the_page_calls_public_operations_of_the_contract_only():
    script = (PAGE_DIR / "table.js").read_text(encoding="utf-8")
    called = set(re.findall(r"\bapi\('(/[a-z-]+)'", script))
    contract = load_contract()
    public = {path for path, item in contract["paths"].items()
              if "post" in item and "meta" not in item["post"]["tags"]}
    assert called == {"/deal", "/legal-moves", "/view", "/play", "/exposures", "/score", "/ingots",
                      "/suggest", "/claim", "/review", "/solve"}
    assert called <= public
    # fetch is called in one place, api(), with a path the script names
    assert len(re.findall(r"\bfetch\(", script)) == 1


def test_the_page_weighs_at_most_150_kb():
    weight = sum((PAGE_DIR / name).stat().st_size for name in ["index.html", *ASSETS])
    assert weight <= WEIGHT_BUDGET, weight


def test_the_assets_are_package_data():
    import tomllib

    from tests.conftest import ROOT
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "table_page/*" in data["gongzhu"]
    assert sorted(p.name for p in PAGE_DIR.iterdir()) == sorted(["index.html", *ASSETS])


@pytest.mark.parametrize("method, path, operation", [
    ("GET", "/table", "table"), ("HEAD", "/table", "table"), ("GET", "/table/table.js", "table_asset"),
    ("POST", "/table", "none")])
def test_requests_are_counted_under_the_contracts_operation(app, method, path, operation):
    assert app.extensions[PIPELINE_KEY].operation({"REQUEST_METHOD": method, "PATH_INFO": path}) == operation

