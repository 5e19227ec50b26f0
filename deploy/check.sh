#!/usr/bin/env bash
# `make deploy-check`: static checks of the Dockerfile and the Helm chart, with
# the pinned tools deploy/tools.sh installs into .tools/:
#   hadolint Dockerfile                                  (no findings allowed)
#   deploy/*.sh through shellcheck                       (no findings allowed)
#   helm lint --strict   default and all-features values (no findings allowed)
#   helm template        default and all-features values, then
#   kubernetes-validate --strict against the newest schemas it ships and the
#   chart's oldest supported Kubernetes (Chart.yaml kubeVersion).
# Rendered manifests are left in .tools/rendered/ for inspection.
# tests/deploy/ runs the same checks one by one under pytest (`make test`).
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
tools_dir=${TOOLS_DIR:-$repo_root/.tools}
bash deploy/tools.sh

# shellcheck source=/dev/null
source "$tools_dir/tools.env"
chart=helm/gongzhu-service
rendered=$tools_dir/rendered
# Oldest Kubernetes the chart supports (kubeVersion >=1.30) and the newest schemas shipped.
kube_versions=(1.30.0 1.37.0)
mkdir -p "$rendered"

failed=0
run() {
    local name=$1 started=$SECONDS output
    shift
    if output=$("$@" 2>&1); then
        printf 'ok    %-52s %3d s\n' "$name" $((SECONDS - started))
    else
        printf 'FAIL  %-52s %3d s\n%s\n' "$name" $((SECONDS - started)) "$output"
        failed=1
    fi
}
# The two functions below are invoked through run.
# shellcheck disable=SC2329
# helm lint exits 0 on INFO and WARNING findings; here any finding is a failure.
helm_lint_clean() {
    local output
    output=$("$HELM" lint --strict "$@" 2>&1) || { echo "$output"; return 1; }
    if grep -E '^\[(INFO|WARNING|ERROR)\]' <<<"$output"; then return 1; fi
}
# shellcheck disable=SC2329
render_and_validate() {
    local name=$1 version
    shift
    "$HELM" template gongzhu "$chart" --namespace games "$@" > "$rendered/$name.yaml"
    for version in "${kube_versions[@]}"; do
        "$KUBERNETES_VALIDATE" --strict --quiet --kubernetes-version "$version" "$rendered/$name.yaml"
    done
}

run "hadolint Dockerfile" "$HADOLINT" --failure-threshold info Dockerfile
run "shellcheck deploy/*.sh" "$SHELLCHECK" deploy/*.sh
run "helm lint (default values)" helm_lint_clean "$chart"
run "helm lint (all features)" helm_lint_clean "$chart" -f "$chart/ci/all-features-values.yaml"
run "helm template + kubernetes-validate (default)" render_and_validate default
run "helm template + kubernetes-validate (all features)" \
    render_and_validate all-features -f "$chart/ci/all-features-values.yaml"
exit "$failed"
