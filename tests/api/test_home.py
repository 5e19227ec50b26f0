"""``GET /``: a newcomer's start, not a 404. JSON for scripts, the same links as a page for a browser,
every link answered by this server."""
from __future__ import annotations

import re

import pytest

LINKS = {"docs": "/docs", "table": "/table", "contract": "/openapi.yaml", "version": "/version"}
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.mark.parametrize("accept", [None, "*/*", "application/json"])
def test_the_index_is_json_with_the_links(client, accept):
    answer = client.get("/", headers={"Accept": accept} if accept else {})
    assert (answer.status_code, answer.mimetype) == (200, "application/json")
    assert answer.get_json() == {"name": "gongzhu-service",
                                 "description": "The rules of the card game 拱猪 (Gong Zhu) as a stateless REST API.",
                                 "links": LINKS}
    assert answer.headers["Vary"] == "Accept"


def test_a_browser_gets_the_same_links_as_a_page(client):
    page = client.get("/", headers={"Accept": BROWSER_ACCEPT})
    assert (page.status_code, page.mimetype) == (200, "text/html")
    assert re.findall(r'<a href="([^"]+)">', page.get_data(as_text=True)) == list(LINKS.values())
    assert page.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert page.headers["Vary"] == "Accept"


@pytest.mark.parametrize("path", LINKS.values())
def test_every_link_is_served(client, path):
    assert client.get(path).status_code == 200
