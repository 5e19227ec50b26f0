"""The chart's monitoring options: the metrics directory on the writable /tmp, scrape
annotations and a ServiceMonitor when asked, and Chart.yaml's project metadata."""
from __future__ import annotations

import pytest
import yaml

from .test_deploy import CHART, Tools, by_kind, manifests, run, tools  # noqa: F401 — the fixture

pytestmark = pytest.mark.deploy


def container(kinds: dict) -> dict:
    [only] = kinds["Deployment"]["spec"]["template"]["spec"]["containers"]
    return only


def test_metrics_directory_is_on_the_writable_tmp(tools: Tools) -> None:
    kinds = by_kind(manifests(tools))
    env = {e["name"]: e["value"] for e in container(kinds)["env"]}
    assert env["PROMETHEUS_MULTIPROC_DIR"] == "/tmp/metrics"
    assert {m["name"]: m["mountPath"] for m in container(kinds)["volumeMounts"]}["tmp"] == "/tmp"
    assert "ServiceMonitor" not in kinds
    assert "annotations" not in kinds["Deployment"]["spec"]["template"]["metadata"]


def test_scrape_annotations_join_the_pod_annotations(tools: Tools) -> None:
    kinds = by_kind(manifests(tools, "--set", "metrics.scrapeAnnotations=true",
                              "--set", "podAnnotations.team=games"))
    annotations = kinds["Deployment"]["spec"]["template"]["metadata"]["annotations"]
    assert annotations == {"prometheus.io/scrape": "true", "prometheus.io/port": "8080",
                           "prometheus.io/path": "/metrics", "team": "games"}


def test_service_monitor_selects_the_service_and_scrapes_metrics(tools: Tools) -> None:
    kinds = by_kind(manifests(tools, "--set", "metrics.serviceMonitor.enabled=true",
                              "--set", "metrics.serviceMonitor.labels.release=prometheus",
                              "--set", "metrics.serviceMonitor.interval=15s"))
    monitor, service = kinds["ServiceMonitor"], kinds["Service"]
    assert monitor["apiVersion"] == "monitoring.coreos.com/v1"
    assert monitor["metadata"]["labels"]["release"] == "prometheus"
    assert monitor["spec"]["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
    assert monitor["spec"]["namespaceSelector"] == {"matchNames": ["games"]}
    assert monitor["spec"]["endpoints"] == [{"port": "http", "path": "/metrics", "interval": "15s",
                                             "scrapeTimeout": "10s"}]
    assert service["spec"]["ports"][0]["name"] == "http"


@pytest.mark.parametrize("value", ["metrics.multiprocFolder=/var/metrics", "metrics.serviceMonitor.interval=often"])
def test_schema_rejects_monitoring_mistakes(tools: Tools, value: str) -> None:
    result = run(tools.helm, "template", "gongzhu", CHART, "--set", value)
    assert result.returncode != 0
    assert "metrics" in result.stderr


def test_chart_names_its_home_sources_and_maintainers() -> None:
    chart = yaml.safe_load((CHART / "Chart.yaml").read_text())
    assert chart["home"].startswith("https://")
    assert chart["sources"] and all(s.startswith("https://") for s in chart["sources"])
    assert chart["maintainers"] and all(m["name"] for m in chart["maintainers"])
    readme = (CHART / "README.md").read_text()
    assert "metrics.serviceMonitor.enabled" in readme and "GONGZHU_CORS_ORIGINS" in readme
