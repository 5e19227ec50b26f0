"""Deployment checks (docs/deployment.md): the Dockerfile, the deploy scripts and the Helm chart.

The same checks as `make deploy-check` (deploy/check.sh), one per test, with the
pinned tools deploy/tools.sh installs into .tools/ (hadolint, shellcheck, Helm,
kubernetes-validate); plus what the chart promises platforms: probes, a locked-down
pod, an HPA and Ingress when asked, a PodDisruptionBudget only when it can be
satisfied, every value commented. The image itself is proven by
`make docker-smoke` (deploy/docker-smoke.sh), which .ci/run calls after the tests.
"""
from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from gongzhu.server import front
from gongzhu.server.front import StopBudget
from tests.servers import APT_LOCK

pytestmark = pytest.mark.deploy

ROOT = Path(__file__).resolve().parents[2]
CHART = ROOT / "helm" / "gongzhu-service"
ALL_FEATURES = CHART / "ci" / "all-features-values.yaml"
VALUE_SETS = {"default": [], "all-features": ["-f", str(ALL_FEATURES)]}
# Oldest Kubernetes the chart supports (Chart.yaml kubeVersion) and the newest schemas shipped.
KUBE_VERSIONS = ("1.30.0", "1.37.0")
# Image user (Dockerfile ARG APP_UID) that the chart's securityContext must match.
APP_UID = 10001


@dataclass(frozen=True, slots=True)
class Tools:
    hadolint: str
    shellcheck: str
    helm: str
    kubernetes_validate: str
    python: str


def run(*args: str | Path, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(arg) for arg in args], cwd=ROOT, input=input, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="session")
def tools() -> Tools:
    # one installer at a time: the suite's processes (pytest-xdist) share .tools/ and apt
    with open(APT_LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        installed = run("bash", ROOT / "deploy" / "tools.sh")
    assert installed.returncode == 0, installed.stderr
    tools_dir = Path(os.environ.get("TOOLS_DIR", ROOT / ".tools"))
    paths = dict(
        line.split("=", 1) for line in (tools_dir / "tools.env").read_text().splitlines() if "=" in line
    )
    return Tools(
        hadolint=paths["HADOLINT"],
        shellcheck=paths["SHELLCHECK"],
        helm=paths["HELM"],
        kubernetes_validate=paths["KUBERNETES_VALIDATE"],
        python=paths["TOOLS_PYTHON"],
    )


def template(tools: Tools, *values: str) -> str:
    rendered = run(tools.helm, "template", "gongzhu", CHART, "--namespace", "games", *values)
    assert rendered.returncode == 0, rendered.stderr
    return rendered.stdout


def manifests(tools: Tools, *values: str) -> list[dict]:
    """Rendered objects, parsed with the tools venv's PyYAML (the project needs no YAML parser)."""
    to_json = "import json, sys, yaml; print(json.dumps([d for d in yaml.safe_load_all(sys.stdin) if d]))"
    parsed = run(tools.python, "-c", to_json, input=template(tools, *values))
    assert parsed.returncode == 0, parsed.stderr
    return json.loads(parsed.stdout)


def by_kind(objects: list[dict]) -> dict[str, dict]:
    kinds: dict[str, dict] = {}
    for obj in objects:
        assert obj["kind"] not in kinds, f"two {obj['kind']} objects"
        kinds[obj["kind"]] = obj
    return kinds


# --- the tools' verdicts --------------------------------------------------------


def test_hadolint_clean(tools: Tools) -> None:
    result = run(tools.hadolint, "--failure-threshold", "info", ROOT / "Dockerfile")
    assert result.returncode == 0 and result.stdout == "", result.stdout + result.stderr


def test_hadolint_ignores_carry_a_reason() -> None:
    """No hadolint rule is switched off without a written reason on the line above."""
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    for number, line in enumerate(lines):
        if re.match(r"\s*#\s*hadolint\s+(global\s+)?ignore=", line):
            above = lines[number - 1].strip() if number else ""
            assert above.startswith("#") and "hadolint" not in above, f"line {number + 1}: no reason"
    for config in (".hadolint.yaml", ".hadolint.yml"):
        assert not (ROOT / config).exists(), f"{config} would switch rules off out of sight"


def test_shellcheck_clean(tools: Tools) -> None:
    scripts = sorted((ROOT / "deploy").glob("*.sh"))
    assert scripts
    result = run(tools.shellcheck, *scripts)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("values", VALUE_SETS)
def test_helm_lint_clean(tools: Tools, values: str) -> None:
    result = run(tools.helm, "lint", "--strict", CHART, *VALUE_SETS[values])
    assert result.returncode == 0, result.stdout + result.stderr
    findings = [line for line in result.stdout.splitlines() if re.match(r"\[(INFO|WARNING|ERROR)\]", line)]
    assert findings == []


@pytest.mark.parametrize("kube_version", KUBE_VERSIONS)
@pytest.mark.parametrize("values", VALUE_SETS)
def test_rendered_manifests_validate_strictly(tools: Tools, values: str, kube_version: str, tmp_path: Path) -> None:
    rendered = tmp_path / f"{values}.yaml"
    rendered.write_text(template(tools, *VALUE_SETS[values]))
    result = run(tools.kubernetes_validate, "--strict", "--kubernetes-version", kube_version, rendered)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "passed for resource deployment/" in result.stdout


# --- what the chart renders -------------------------------------------------------


def test_default_values_render_a_minimal_release(tools: Tools) -> None:
    kinds = by_kind(manifests(tools))
    assert sorted(kinds) == ["Deployment", "Pod", "PodDisruptionBudget", "Service", "ServiceAccount"]
    assert kinds["Deployment"]["spec"]["replicas"] == 2
    assert kinds["Service"]["spec"]["type"] == "ClusterIP"


def test_all_features_render_hpa_pdb_and_ingress(tools: Tools) -> None:
    kinds = by_kind(manifests(tools, *VALUE_SETS["all-features"]))
    hpa, pdb, ingress = kinds["HorizontalPodAutoscaler"], kinds["PodDisruptionBudget"], kinds["Ingress"]
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"]["name"] == kinds["Deployment"]["metadata"]["name"]
    assert hpa["spec"]["metrics"] == [
        {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 60}}}
    ]
    assert "replicas" not in kinds["Deployment"]["spec"], "the HPA, not the Deployment, owns the replica count"
    assert pdb["apiVersion"] == "policy/v1"
    assert pdb["spec"]["selector"]["matchLabels"] == kinds["Deployment"]["spec"]["selector"]["matchLabels"]
    assert ingress["apiVersion"] == "networking.k8s.io/v1"
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend == {"name": kinds["Service"]["metadata"]["name"], "port": {"name": "http"}}


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["--set", "replicaCount=1"], False),
        (["--set", "replicaCount=2"], True),
        (["--set", "autoscaling.enabled=true", "--set", "autoscaling.minReplicas=1"], False),
        (["--set", "autoscaling.enabled=true", "--set", "autoscaling.minReplicas=2", "--set", "replicaCount=1"], True),
        (["--set", "podDisruptionBudget.enabled=false"], False),
    ],
)
def test_pdb_only_when_it_can_be_satisfied(tools: Tools, values: list[str], expected: bool) -> None:
    kinds = by_kind(manifests(tools, *values))
    assert ("PodDisruptionBudget" in kinds) is expected


def test_autoscaling_refuses_to_render_without_a_cpu_request(tools: Tools) -> None:
    result = run(
        tools.helm, "template", "gongzhu", CHART,
        "--set", "autoscaling.enabled=true", "--set", "resources.requests.cpu=null",
    )
    assert result.returncode != 0
    assert "resources.requests.cpu" in result.stderr


@pytest.mark.parametrize(
    ("value", "complaint"),
    [
        ("replicaCount=two", "/replicaCount"),
        ("replicaCout=2", "replicaCout"),
        ("service.type=Headless", "/service/type"),
        ("autoscaling.targetCPUUtilizationPercentage=170", "/autoscaling/targetCPUUtilizationPercentage"),
        ("image.digest=latest", "/image/digest"),
        ("server.maxBudgetMs=5000", "/server/maxBudgetMs"),
    ],
)
def test_values_schema_rejects_mistakes(tools: Tools, value: str, complaint: str) -> None:
    result = run(tools.helm, "template", "gongzhu", CHART, "--set", value)
    assert result.returncode != 0
    assert complaint in result.stderr


@pytest.mark.parametrize("values", VALUE_SETS)
def test_pods_are_locked_down(tools: Tools, values: str) -> None:
    kinds = by_kind(manifests(tools, *VALUE_SETS[values]))
    for pod in (kinds["Deployment"]["spec"]["template"]["spec"], kinds["Pod"]["spec"]):
        assert pod["automountServiceAccountToken"] is False
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert pod["securityContext"]["runAsUser"] == APP_UID
        assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
        for container in pod["containers"]:
            security = container["securityContext"]
            assert security["readOnlyRootFilesystem"] is True
            assert security["allowPrivilegeEscalation"] is False
            assert security["capabilities"] == {"drop": ["ALL"]}
            assert security["seccompProfile"] == {"type": "RuntimeDefault"}
            assert container["resources"]["requests"].keys() == {"cpu", "memory"}
    assert kinds["ServiceAccount"]["automountServiceAccountToken"] is False


def test_deployment_probes_resources_and_writable_paths(tools: Tools) -> None:
    deployment = by_kind(manifests(tools))["Deployment"]
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    # liveness waits for the first answer: up to periodSeconds x failureThreshold = 60 s to start
    assert container["startupProbe"] == {"httpGet": {"path": "/healthz", "port": "http"}, "periodSeconds": 2,
                                         "timeoutSeconds": 2, "failureThreshold": 30}
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert container["ports"] == [{"name": "http", "containerPort": 8080, "protocol": "TCP"}]
    env = {item["name"]: item["value"] for item in container["env"]}
    assert env == {"PORT": "8080", "WEB_CONCURRENCY": "2", "PROMETHEUS_MULTIPROC_DIR": "/tmp/metrics",
                   "GONGZHU_RUN_DIR": "/run/gongzhu", "GUNICORN_THREADS": "4", "GONGZHU_BOT_SLOTS": "1",
                   "GONGZHU_MAX_BUDGET_MS": "1000", "GONGZHU_STOP_SECONDS": "23",
                   "GONGZHU_MAX_REVIEW_BUDGET_MS": "10000", "GONGZHU_CLIENT_REQUESTS": "64",
                   "GONGZHU_TRUSTED_PROXIES": ""}
    assert container["livenessProbe"]["timeoutSeconds"] == 2
    assert container["readinessProbe"]["timeoutSeconds"] == 1
    assert container["resources"]["limits"]["memory"] == container["resources"]["requests"]["memory"]
    assert container["volumeMounts"] == [{"name": "tmp", "mountPath": "/tmp"},
                                         {"name": "run", "mountPath": "/run/gongzhu"}]
    # the metric files in memory; the bodies nginx holds while they arrive on the node's disk, whose
    # size bounds them (256 KiB for each of nginx's 1,536 connections), not the memory limit
    assert pod["volumes"] == [{"name": "tmp", "emptyDir": {"medium": "Memory", "sizeLimit": "16Mi"}},
                              {"name": "run", "emptyDir": {"sizeLimit": "1Gi"}}]
    assert container["lifecycle"] == {"preStop": {"sleep": {"seconds": 5}}}
    assert pod["terminationGracePeriodSeconds"] > 5
    # the registry the release workflow pushes each release's image to, at the chart's appVersion
    assert container["image"] == "ghcr.io/gongzhu-service/gongzhu-service:0.1.0"


@pytest.mark.parametrize(("grace", "pre_stop"), [(30, 5), (60, 5), (12, 0), (7, 0)])
def test_the_grace_period_is_the_one_stop_budget(tools: Tools, grace: int, pre_stop: int) -> None:
    values = ["--set", f"terminationGracePeriodSeconds={grace}", "--set", f"preStopSleepSeconds={pre_stop}"]
    pod = by_kind(manifests(tools, *values))["Deployment"]["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    stop_s = int({item["name"]: item["value"] for item in container["env"]}["GONGZHU_STOP_SECONDS"])
    assert pod["terminationGracePeriodSeconds"] == grace and stop_s == grace - pre_stop - 2
    # nginx's wait, gunicorn's and the last lines' fit in what the preStop sleep leaves, SIGKILL's margin kept
    budget = StopBudget(stop_s)
    assert budget.front_wait_s + budget.app_wait_s + budget.MARGIN_S <= grace - pre_stop - 2
    assert budget.front_s >= 1 and budget.app_s >= 1


def test_a_grace_period_that_leaves_no_stop_budget_refuses_to_render(tools: Tools) -> None:
    result = run(tools.helm, "template", "gongzhu", CHART, "--set", "terminationGracePeriodSeconds=10")
    assert result.returncode != 0
    assert "terminationGracePeriodSeconds must exceed preStopSleepSeconds by at least 7" in result.stderr


def test_a_digest_pins_the_image_for_the_pods_and_the_test(tools: Tools) -> None:
    kinds = by_kind(manifests(tools, *VALUE_SETS["all-features"]))
    digest = "sha256:" + "0123456789abcdef" * 4
    pods = (kinds["Deployment"]["spec"]["template"]["spec"], kinds["Pod"]["spec"])
    assert [p["containers"][0]["image"] for p in pods] == [
        f"registry.example.com/games/gongzhu-service@{digest}"] * 2


def test_network_policy_admits_only_the_named_callers_to_the_http_port(tools: Tools) -> None:
    kinds = by_kind(manifests(tools, *VALUE_SETS["all-features"]))
    policy = kinds["NetworkPolicy"]
    assert policy["apiVersion"] == "networking.k8s.io/v1"
    assert policy["spec"]["podSelector"]["matchLabels"] == kinds["Deployment"]["spec"]["selector"]["matchLabels"]
    assert policy["spec"]["policyTypes"] == ["Ingress"]
    (rule,) = policy["spec"]["ingress"]
    assert rule["ports"] == [{"port": "http", "protocol": "TCP"}]
    assert rule["from"] == [
        {"podSelector": {}},
        {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "ingress-nginx"}}},
    ]
    assert "NetworkPolicy" not in by_kind(manifests(tools)), "off by default"
    closed = by_kind(manifests(tools, "--set", "networkPolicy.enabled=true",
                               "--set", "networkPolicy.allowSameNamespace=false"))["NetworkPolicy"]
    assert "ingress" not in closed["spec"] or closed["spec"]["ingress"] in (None, []), "no peer: deny all"


def test_helm_test_hook_calls_healthz_through_the_service(tools: Tools) -> None:
    kinds = by_kind(manifests(tools))
    test_pod = kinds["Pod"]
    assert test_pod["metadata"]["annotations"]["helm.sh/hook"] == "test"
    assert test_pod["spec"]["restartPolicy"] == "Never"
    (container,) = test_pod["spec"]["containers"]
    assert container["image"] == kinds["Deployment"]["spec"]["template"]["spec"]["containers"][0]["image"]
    script = " ".join(container["command"])
    service = kinds["Service"]
    assert f"http://{service['metadata']['name']}:{service['spec']['ports'][0]['port']}/healthz" in script


def test_notes_explain_how_to_reach_and_scale(tools: Tools) -> None:
    for values, words in (([], "replicaCount=N"), (VALUE_SETS["all-features"], "HorizontalPodAutoscaler")):
        result = run(tools.helm, "install", "gongzhu", CHART, "--dry-run=client", "--namespace", "games", *values)
        assert result.returncode == 0, result.stderr
        notes = result.stdout.split("NOTES:", 1)[1]
        assert "gongzhu-gongzhu-service.games.svc:80" in notes
        assert "helm test gongzhu" in notes
        assert words in notes


def test_every_value_is_commented() -> None:
    """Each leaf value, and each top-level key, has a comment on the line above (lists are examples)."""
    uncommented = []
    previous = ""
    list_indent: int | None = None
    for number, line in enumerate((CHART / "values.yaml").read_text().splitlines(), start=1):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if stripped and not stripped.startswith("#"):
            if stripped.startswith("- "):
                list_indent = indent if list_indent is None else min(list_indent, indent)
            elif list_indent is not None and indent > list_indent:
                pass
            else:
                list_indent = None
                match = re.match(r"([\w.-]+):\s*(.*)$", stripped)
                assert match, f"values.yaml:{number}: unexpected line {line!r}"
                is_leaf = match.group(2).split(" #")[0] != ""
                if (is_leaf or indent == 0) and not previous.startswith("#"):
                    uncommented.append(f"values.yaml:{number}: {stripped}")
        if stripped:
            previous = stripped
    assert uncommented == []


# --- the image recipe -------------------------------------------------------------


def test_dockerfile_is_multistage_non_root_and_exec_form() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    instructions = [line for line in dockerfile.splitlines() if line and not line.startswith(("#", " "))]
    # the default base pinned by digest (docs/deployment.md says how to move it)
    assert re.search(r"^ARG BASE_IMAGE=python:3\.\d+-slim-\w+@sha256:[0-9a-f]{64}$", dockerfile, re.M)
    stages = [line for line in instructions if line.startswith("FROM ")]
    assert stages == ["FROM ${BASE_IMAGE} AS build", "FROM ${BASE_IMAGE} AS runtime"]
    runtime = dockerfile.split("AS runtime", 1)[1]
    assert f"ARG APP_UID={APP_UID}" in runtime
    assert re.search(r"^USER \$\{APP_UID\}:\$\{APP_UID\}$", runtime, re.M)
    assert re.search(r"^COPY --from=build /opt/venv /opt/venv$", runtime, re.M)
    cmd = [line for line in instructions if line.startswith("CMD ")][-1]
    assert json.loads(cmd.removeprefix("CMD ")) == ["gongzhu-service", "serve"]
    # an init as PID 1 in front of serve: it reaps orphans and passes signals on
    entrypoint = [line for line in instructions if line.startswith("ENTRYPOINT ")][-1]
    assert json.loads(entrypoint.removeprefix("ENTRYPOINT ")) == ["/usr/bin/tini", "--"]
    healthcheck = runtime.split("HEALTHCHECK", 1)[1].split("\nCMD [", 1)[0]
    assert "/healthz" in healthcheck
    assert "curl" not in healthcheck and "wget" not in healthcheck


def test_dockerignore_sends_only_what_the_image_needs() -> None:
    patterns = [
        line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert patterns[0] == "*", "allow-list: everything is excluded first"
    assert {"!pyproject.toml", "!setup.py", "!LICENSE", "!README.md", "!service/",
            "!deploy/wheelhouse/"} <= set(patterns)
    assert "**/__pycache__" in patterns


# --- docker-smoke's SKIPPED rule ----------------------------------------------------

FAKE_DOCKER = """#!/bin/sh
# docker CLI stand-in: `info` answers as told, everything else fails.
if [ "$1" = info ]; then exit "${FAKE_DOCKER_INFO_STATUS:-1}"; fi
echo "fake docker: $*" >&2
exit 1
"""
FAKE_DOCKERD = """#!/bin/sh
echo 'level=fatal msg="cannot create the daemon here"' >&2
exit 1
"""


def smoke_with_fakes(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("docker", FAKE_DOCKER), ("dockerd", FAKE_DOCKERD)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    environment = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "SMOKE_STATE_DIR": str(tmp_path / "state"),
        "DOCKER_HOST": f"unix://{tmp_path}/none.sock",
        **env,
    }
    return subprocess.run(
        ["bash", str(ROOT / "deploy" / "docker-smoke.sh")],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120,
    )


def test_smoke_skips_only_when_no_docker_daemon_can_run(tmp_path: Path) -> None:
    result = smoke_with_fakes(tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].startswith("SKIPPED: ")


def test_smoke_fails_when_the_daemon_runs_but_the_image_does_not(tmp_path: Path) -> None:
    result = smoke_with_fakes(tmp_path, FAKE_DOCKER_INFO_STATUS="0", BASE_IMAGE="fake/base")
    assert result.returncode != 0
    assert "SKIPPED" not in result.stdout


def test_trusted_proxies_reach_nginx_as_real_ip_sources_and_a_bad_one_does_not_render(tools: Tools) -> None:
    kinds = by_kind(manifests(tools, "--set-json", 'server.trustedProxies=["10.0.0.0/8","fd00::/8"]',
                              "--set", "server.clientRequests=16"))
    (container,) = kinds["Deployment"]["spec"]["template"]["spec"]["containers"]
    env = {item["name"]: item["value"] for item in container["env"]}
    assert (env["GONGZHU_TRUSTED_PROXIES"], env["GONGZHU_CLIENT_REQUESTS"]) == ("10.0.0.0/8 fd00::/8", "16")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GONGZHU_TRUSTED_PROXIES", env["GONGZHU_TRUSTED_PROXIES"])
        patch.setenv("GONGZHU_CLIENT_REQUESTS", env["GONGZHU_CLIENT_REQUESTS"])
        limits = front.client_limits()
    assert limits["trusted_proxies"].split("\n") == [
        "    set_real_ip_from 10.0.0.0/8;", "    set_real_ip_from fd00::/8;",
        "    real_ip_header X-Forwarded-For;", "    real_ip_recursive on;"]
    assert limits["client_limit"] == "    limit_conn per_client 16;"
    refused = run(tools.helm, "template", "gongzhu", CHART, "--set-json", 'server.trustedProxies=["ingress"]')
    assert refused.returncode != 0 and "trustedProxies" in refused.stderr
