"""/metrics in one process: every request counted once by operation and status, the
lean /legal-moves path included; problems by code; replay time; the bot's figures.
(The multiprocess sum under gunicorn, scraped by a real Prometheus, is in
test_prometheus_live.py.)"""
from __future__ import annotations

import json

from tests.servers import expected_engine

from .conftest import ClosingClient
from .deals import SEED1
from .metrics_text import value

REQUESTS = "gongzhu_http_requests_total"


def scrape(client) -> str:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
    return response.get_data(as_text=True)


def test_each_request_is_counted_once_whichever_path_answers(client):
    before = scrape(client)
    body = json.dumps({"hands": SEED1}).encode()
    for _ in range(3):  # the lean path
        assert client.post("/legal-moves", data=body, content_type="application/json").status_code == 200
    for _ in range(2):  # Flask's view (a Content-Type with parameters)
        assert client.post("/legal-moves", data=body,
                           content_type="application/json; charset=utf-8").status_code == 200
    assert client.post("/legal-moves", data=b"{", content_type="application/json").status_code == 400
    assert client.get("/legal-moves").status_code == 405
    after = scrape(client)

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta(REQUESTS, operation="legal_moves", status="200") == 5
    assert delta(REQUESTS, operation="legal_moves", status="400") == 1
    assert delta(REQUESTS, operation="none", status="405") == 1
    assert delta("gongzhu_http_request_duration_seconds_count", operation="legal_moves", status="200") == 5
    assert delta("gongzhu_problems_total", code="malformed_json") == 1
    assert delta("gongzhu_problems_total", code="method_not_allowed") == 1
    assert delta("gongzhu_engine_replay_seconds_count") == 5
    # the scrape before this one was counted too
    assert delta(REQUESTS, operation="metrics", status="200") == 1


def test_bot_decisions_and_samples(client):
    before = scrape(client)
    plays = [["C2"], ["C8"]]
    response = client.post("/suggest", json={"hands": SEED1, "plays": plays, "budget_ms": 20, "seed": 1})
    assert response.status_code == 200
    answer = response.get_json()
    after = scrape(client)
    reason = answer["reason"]
    assert value(after, "gongzhu_bot_decisions_total", reason=reason) \
        - value(before, "gongzhu_bot_decisions_total", reason=reason) == 1
    assert value(after, "gongzhu_bot_samples_sum") - value(before, "gongzhu_bot_samples_sum") \
        == answer["samples"]
    assert value(after, "gongzhu_bot_budget_used_ratio_count") \
        - value(before, "gongzhu_bot_budget_used_ratio_count") == 1


def test_shed_bot_requests_are_counted(client):
    from gongzhu.api import metrics

    before = value(scrape(client), "gongzhu_bot_shed_total")
    metrics.count_bot_shed()
    assert value(scrape(client), "gongzhu_bot_shed_total") - before == 1


def test_metrics_can_be_switched_off_for_measurement(monkeypatch):
    from gongzhu.api import create_app

    monkeypatch.setenv("GONGZHU_METRICS", "off")
    app = create_app()
    app.test_client_class = ClosingClient
    client = app.test_client()
    before = scrape(client)
    assert client.get("/healthz").status_code == 200
    after = scrape(client)
    assert value(after, REQUESTS, operation="healthz", status="200") \
        == value(before, REQUESTS, operation="healthz", status="200")


def test_build_info_is_one_series_naming_what_runs(client):
    from gongzhu import about

    text = scrape(client)
    series = [line for line in text.splitlines() if line.startswith("gongzhu_build_info{")]
    info = about.build_info()
    assert len(series) == 1
    assert value(text, "gongzhu_build_info", version=info["service"], contract=info["contract"],
                 commit=info["commit"], engine=expected_engine()) == 1.0
    assert info["commit"] and info["service"] == info["contract"]


def test_a_new_app_replaces_the_build_info_labels(monkeypatch):
    from gongzhu import about
    from gongzhu.api import create_app

    about.commit.cache_clear()
    monkeypatch.setenv("GIT_COMMIT", "0123abc")
    try:
        app = create_app()
    finally:
        about.commit.cache_clear()
    app.test_client_class = ClosingClient
    text = scrape(app.test_client())
    series = [line for line in text.splitlines() if line.startswith("gongzhu_build_info{")]
    assert len(series) == 1 and 'commit="0123abc"' in series[0]


def test_one_process_reports_its_own_process_metrics(client):
    import os
    import resource

    text = scrape(client)
    resident = value(text, "process_resident_memory_bytes")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    assert 0 < resident <= peak
    assert value(text, "process_max_fds") > 0
    assert value(text, "process_start_time_seconds") > 0
    assert os.environ.get("PROMETHEUS_MULTIPROC_DIR") is None
