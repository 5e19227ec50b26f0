#!/usr/bin/env bash
# `make docker-smoke`: build the real image and prove it works (docs/deployment.md).
#
#  1. Find a Docker daemon, or start one (dockerd --iptables=false --bridge=none,
#     overlay2 then vfs), installing Debian's docker.io when dockerd is missing.
#  2. Base image: $BASE_IMAGE if set, else a local Debian + Python base built by
#     deploy/base-image.sh (debootstrap + docker import): no registry is pulled from.
#  3. Download the server extra's wheels on the host into deploy/wheelhouse/ for the
#     base's Python, then `docker build --network=none` with PIP_OFFLINE=1 and the
#     VERSION, REVISION (git HEAD) and SOURCE build arguments; check the OCI labels.
#  4. Run the image as Kubernetes will (read-only root FS, tmpfs /tmp, all
#     capabilities dropped, no-new-privileges, --network host on a free port), call
#     /healthz, /readyz, a real /legal-moves, /version and /metrics (the commit and
#     gongzhu_build_info), run the image's HEALTHCHECK and
#     the chart's `helm test` pod program, and check that no process in the
#     container runs as root, that orphans exiting in it leave no zombie, and
#     that `docker stop` returns within 10 s, exit status 0, with a slow reader attached.
#  5. Print the image size and the UID the service runs as.
#
# Exit status: 0 on success; 0 with a line `SKIPPED: <reason>` when this machine
# cannot run a Docker daemon at all; 1 on any other failure.
# Environment: BASE_IMAGE (skip debootstrap), SMOKE_IMAGE (tag, default
# gongzhu-service:smoke), SMOKE_STATE_DIR (own dockerd's state, default
# /var/lib/gongzhu-smoke), SMOKE_LOAD_SECONDS (> 0: add the sizing load run).
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"

image=${SMOKE_IMAGE:-gongzhu-service:smoke}
load_seconds=${SMOKE_LOAD_SECONDS:-0}
# The chart's default pod: resources.requests.cpu, resources.limits.memory, server.workers.
pod_cpus=1
pod_memory=128m
pod_workers=2
state_dir=${SMOKE_STATE_DIR:-/var/lib/gongzhu-smoke}
own_sock=/run/gongzhu-smoke-docker.sock
started=$SECONDS

say() { echo "docker-smoke: $*"; }
fail() { echo "docker-smoke: FAILED: $*" >&2; exit 1; }
skip() { echo "SKIPPED: $*"; exit 0; }

dockerd_pid=""
container=""
cleanup() {
    if [[ -n $container ]]; then
        docker rm -f "$container" >/dev/null 2>&1 || true
    fi
    if [[ -n $dockerd_pid ]]; then
        kill "$dockerd_pid" 2>/dev/null || true
        for _ in $(seq 1 40); do
            kill -0 "$dockerd_pid" 2>/dev/null || break
            sleep 0.5
        done
    fi
}
trap cleanup EXIT
trap 'echo "docker-smoke: FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR

daemon_answers() { timeout 20 docker info >/dev/null 2>&1; }

install_docker() {
    command -v apt-get >/dev/null \
        || skip "no dockerd on this machine and no apt-get to install Debian's docker.io"
    say "installing Debian's docker.io (dockerd, containerd, runc)"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends docker.io >/dev/null
}

start_dockerd() {
    local driver log
    mkdir -p "$state_dir"
    for driver in overlay2 vfs; do
        log=$state_dir/dockerd-$driver.log
        say "starting dockerd (storage driver $driver, log $log)"
        dockerd --iptables=false --bridge=none --storage-driver="$driver" \
            --data-root "$state_dir/data-$driver" --exec-root /run/gongzhu-smoke-docker \
            --pidfile /run/gongzhu-smoke-docker.pid --host "unix://$own_sock" \
            >"$log" 2>&1 &
        dockerd_pid=$!
        export DOCKER_HOST=unix://$own_sock
        for _ in $(seq 1 60); do
            if daemon_answers; then return 0; fi
            kill -0 "$dockerd_pid" 2>/dev/null || break
            sleep 0.5
        done
        kill "$dockerd_pid" 2>/dev/null || true
        wait "$dockerd_pid" 2>/dev/null || true
        dockerd_pid=""
        echo "--- last lines of $log" >&2
        tail -5 "$log" >&2
    done
    skip "dockerd does not start on this machine (overlay2 and vfs tried; see $state_dir/dockerd-*.log): $(grep -m1 -iE 'level=(fatal|error)' "$log" | cut -c1-200)"
}

# Optional sizing run (SMOKE_LOAD_SECONDS > 0, `make docker-measure`): wrk on the
# other core drives the 1-CPU container on loopback for a bounded time, first
# /healthz, then /legal-moves for a mid-deal state; prints throughput, latency, CPU
# time per request and the container's peak memory. Figures for docs/deployment.md.
measure_load() {
    if ! command -v wrk >/dev/null; then
        say "installing Debian's wrk"
        apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends wrk >/dev/null
    fi
    local scripts body endpoint
    scripts=$(mktemp -d)
    # Mid-deal state: play the last legal move 24 times (six tricks) through the API itself.
    python3 - "$base_url" > "$scripts/body.json" <<'PY'
import json, sys, urllib.request
suits, ranks = "SHDC", ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
deck = [suit + rank for suit in suits for rank in ranks]
deal = {"hands": [deck[seat::4] for seat in range(4)], "exposed": [[], [], [], []], "plays": []}
for _ in range(24):
    request = urllib.request.Request(sys.argv[1] + "/legal-moves", data=json.dumps(deal).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        deal["plays"].append(json.load(response)["moves"][-1])
print(json.dumps(deal))
PY
    body=$(python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().strip()))' < "$scripts/body.json")
    printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = %s\n' \
        "$body" > "$scripts/legal-moves.lua"
    # CPU time the container spends per request: unlike requests per second, it
    # holds when other jobs share the machine.
    local cpuacct=/sys/fs/cgroup/cpuacct/docker/$container/cpuacct.usage
    local cpu_before cpu_after requests report
    for endpoint in healthz legal-moves; do
        local args=(--threads 1 --connections 4 --duration "${load_seconds}s" --latency)
        if [[ $endpoint == legal-moves ]]; then args+=(--script "$scripts/legal-moves.lua"); fi
        say "load: $endpoint for ${load_seconds}s, 4 connections, container limited to $pod_cpus CPU"
        cpu_before=$(cat "$cpuacct" 2>/dev/null || echo 0)
        report=$(wrk "${args[@]}" "$base_url/$endpoint")
        cpu_after=$(cat "$cpuacct" 2>/dev/null || echo 0)
        grep -E 'Requests/sec|Non-2xx|Socket errors|^ +(50|90|99)%' <<<"$report" \
            | while IFS= read -r line; do say "  $line"; done
        requests=$(awk '/requests in/ { print $1 }' <<<"$report")
        if ((cpu_after > cpu_before && requests > 0)); then
            say "  CPU per request: $(awk -v ns=$((cpu_after - cpu_before)) -v n="$requests" \
                'BEGIN { printf "%.2f ms, i.e. %.0f requests per CPU-second", ns / n / 1e6, n * 1e9 / ns }')"
        fi
    done
    local cgroup=/sys/fs/cgroup/memory/docker/$container/memory.max_usage_in_bytes
    if [[ -r $cgroup ]]; then
        say "container peak memory: $(awk '{ printf "%.1f MiB", $1 / 1048576 }' "$cgroup")"
    fi
    rm -rf "$scripts"
}

# --- 1. Docker daemon -------------------------------------------------------
if ! command -v docker >/dev/null || ! command -v dockerd >/dev/null; then
    install_docker
fi
if daemon_answers; then
    say "using the running Docker daemon"
elif DOCKER_HOST=unix://$own_sock daemon_answers; then
    export DOCKER_HOST=unix://$own_sock
    say "using the smoke dockerd left running at $own_sock"
elif ((EUID != 0)); then
    skip "no Docker daemon answers and only root can start dockerd here"
else
    start_dockerd
fi
say "daemon: $(docker version --format 'server {{.Server.Version}}, client {{.Client.Version}}')," \
    "storage $(docker info --format '{{.Driver}}')"
# The machine's docker CLI may lack buildx; the classic builder handles this Dockerfile.
export DOCKER_BUILDKIT=0
if [[ ${DOCKER_HOST:-} == "unix://$own_sock" ]]; then
    # Our own daemon: drop untagged images of earlier runs, keep the last day's as build cache.
    docker image prune --force --filter until=24h >/dev/null
fi

# --- 2. Base image ----------------------------------------------------------
if [[ -n ${BASE_IMAGE:-} ]]; then
    base=$BASE_IMAGE
else
    base=$(bash deploy/base-image.sh)
fi
in_base() { docker run --rm --network none --entrypoint python3 "$base" -c "$1"; }
py_version=$(in_base 'import sys; print("%d.%d" % sys.version_info[:2])')
glibc=$(in_base 'import platform; print(platform.libc_ver()[1])')
arch=$(in_base 'import platform; print(platform.machine())')
say "base image $base: Python $py_version, glibc $glibc, $arch"

# --- 3. Wheels for the base's Python, downloaded on the host ------------------
mapfile -t requirements < <(python3 - <<'PY'
import tomllib
with open("pyproject.toml", "rb") as f:
    project = tomllib.load(f)
# The base distribution's (none today), the server extra's and the build's requirements.
for requirement in (project["project"]["dependencies"] + project["project"]["optional-dependencies"]["server"]
                    + project["build-system"]["requires"]):
    print(requirement)
PY
)
wheelhouse=deploy/wheelhouse
find "$wheelhouse" -name '*.whl' -delete
say "downloading ${#requirements[@]} requirements (and their dependencies) as wheels into $wheelhouse/"
# pip does not widen a given --platform to older glibc versions: list them all.
platforms=()
for ((minor = ${glibc#*.}; minor >= 5; minor--)); do
    platforms+=(--platform "manylinux_2_${minor}_$arch")
done
platforms+=(--platform "manylinux2014_$arch" --platform "manylinux2010_$arch" --platform "manylinux1_$arch")
python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
    --python-version "$py_version" --implementation cp "${platforms[@]}" --dest "$wheelhouse" \
    "${requirements[@]}" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)

# --- 4. Build ----------------------------------------------------------------
version=$(python3 -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
revision=$(git rev-parse HEAD 2>/dev/null || true)
source_url=$(git remote get-url origin 2>/dev/null || true)
build_log=$(mktemp)
build_started=$SECONDS
say "building $image (--network=none, PIP_OFFLINE=1, VERSION=$version, REVISION=${revision:-none})"
if ! docker build --network=none --build-arg BASE_IMAGE="$base" --build-arg PIP_OFFLINE=1 \
        --build-arg VERSION="$version" --build-arg REVISION="$revision" --build-arg SOURCE="$source_url" \
        -t "$image" . >"$build_log" 2>&1; then
    tail -40 "$build_log" >&2
    fail "docker build failed (full log: $build_log)"
fi
rm -f "$build_log"
say "built in $((SECONDS - build_started)) s"

size_bytes=$(docker image inspect --format '{{.Size}}' "$image")
base_bytes=$(docker image inspect --format '{{.Size}}' "$base")
image_user=$(docker image inspect --format '{{.Config.User}}' "$image")
[[ ${image_user%%:*} =~ ^[1-9][0-9]*$ ]] || fail "image USER is '$image_user', not a fixed non-root UID"
label() { docker image inspect --format "{{index .Config.Labels \"org.opencontainers.image.$1\"}}" "$image"; }
[[ $(label version) == "$version" ]] || fail "OCI label version is '$(label version)', not $version"
[[ $(label revision) == "$revision" ]] || fail "OCI label revision is '$(label revision)', not $revision"
say "OCI labels: version $(label version), revision $(label revision), source ${source_url:-(none: no git remote)}"

# Nothing of the build may reach the runtime image.
docker run --rm --network none --entrypoint python3 "$image" -c '
import os, shutil, sys
leftovers = [tool for tool in ("gcc", "cc", "c++", "make", "pip", "pip3", "curl", "wget") if shutil.which(tool)]
leftovers += [path for path in ("/wheels", "/wheelhouse", "/src", "/opt/build-venv", "/root/.cache")
              if os.path.exists(path)]
if leftovers:
    sys.exit("build leftovers in the runtime image: %s" % leftovers)
' || fail "runtime image is not clean"

# --- 5. Run it the way Kubernetes will ----------------------------------------
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Same limits as the chart's defaults (values.yaml: resources, server.workers, tmpSizeLimit).
container=$(docker run -d --network host --read-only --tmpfs /tmp:rw,size=16m \
    --cap-drop ALL --security-opt no-new-privileges \
    --cpus "$pod_cpus" --memory "$pod_memory" --memory-swap "$pod_memory" \
    -e PORT="$port" -e WEB_CONCURRENCY="$pod_workers" "$image")
base_url=http://127.0.0.1:$port
say "container ${container:0:12} listening on $base_url"

python3 - "$base_url" "$container" "$version" "$revision" <<'PY' || { docker logs --tail 40 "$container" >&2; fail "HTTP checks failed"; }
import json, re, subprocess, sys, time, urllib.error, urllib.request

base_url, container, version, revision = sys.argv[1:5]

def call(path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base_url + path, data=data,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()

# Wait for the server: at most 30 s.
deadline = time.monotonic() + 30
while True:
    running = subprocess.run(["docker", "inspect", "-f", "{{.State.Running}}", container],
                             capture_output=True, text=True).stdout.strip()
    if running != "true":
        sys.exit("container stopped before serving")
    try:
        status, _ = call("/healthz")
        if status == 200:
            break
    except OSError:
        pass
    if time.monotonic() > deadline:
        sys.exit("no answer on /healthz within 30 s")
    time.sleep(0.2)

failures = []
for path in ("/healthz", "/readyz"):
    status, text = call(path)
    print(f"docker-smoke: GET {path} -> {status} {text.strip()[:120]}")
    if status != 200:
        failures.append(f"GET {path} -> {status}")
    else:
        json.loads(text)

# A fresh one-deck deal, dealt round-robin; the holder of C2 must lead it.
suits, ranks = "SHDC", ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
deck = [suit + rank for suit in suits for rank in ranks]
deal = {"hands": [deck[seat::4] for seat in range(4)], "exposed": [[], [], [], []], "plays": []}
status, text = call("/legal-moves", deal)
print(f"docker-smoke: POST /legal-moves -> {status} {text.strip()[:160]}")
if status != 200:
    failures.append(f"POST /legal-moves -> {status}")
elif '"C2"' not in text:
    failures.append("POST /legal-moves: the opening card C2 is not among the legal moves")
else:
    json.loads(text)

# What runs: /version and gongzhu_build_info name the version and the commit built in.
status, text = call("/version")
print(f"docker-smoke: GET /version -> {status} {text.strip()[:200]}")
answer = json.loads(text) if status == 200 else {}
wanted = {"service": version, "contract": version, "commit": revision or None, "engine": "pure"}
if {key: answer.get(key) for key in wanted} != wanted:
    failures.append(f"GET /version: {answer}, wanted {wanted}")
status, text = call("/metrics")
info = [line for line in text.splitlines() if line.startswith("gongzhu_build_info{")]
print(f"docker-smoke: GET /metrics -> {status} {info}")
expected = (f'gongzhu_build_info{{commit="{revision}",contract="{version}",engine="pure",'
            f'version="{version}"}} 1.0')
if info != [expected]:
    failures.append(f"GET /metrics: build info {info}, wanted [{expected}]")
if not re.search(r'^process_resident_memory_bytes\{pid="\d+",role="master"\}', text, re.M):
    failures.append("GET /metrics: no process metrics of gunicorn's master")
if failures:
    sys.exit("; ".join(failures))
PY

# The image's own HEALTHCHECK command, run now rather than after its 30 s interval.
mapfile -t healthcheck < <(docker image inspect --format '{{json .Config.Healthcheck.Test}}' "$image" \
    | python3 -c 'import json, sys; test = json.load(sys.stdin); assert test[0] == "CMD", test; print(*test[1:], sep="\n")')
docker exec "$container" "${healthcheck[@]}" || fail "the image's HEALTHCHECK command fails"
say "HEALTHCHECK command passes"

# The chart's `helm test` pod, rendered by the real chart and run in a new container
# of this image, locked down like the pod; the Service name is pointed at loopback.
bash deploy/tools.sh
# shellcheck source=/dev/null
source "${TOOLS_DIR:-$repo_root/.tools}/tools.env"
test_program=$("$HELM" template smoke helm/gongzhu-service \
        --set fullnameOverride=127.0.0.1 --set service.port="$port" \
        --show-only templates/tests/test-healthz.yaml \
    | "$TOOLS_PYTHON" -c '
import sys, yaml
command = yaml.safe_load(sys.stdin)["spec"]["containers"][0]["command"]
assert command[:2] == ["python3", "-c"] and len(command) == 3, command
print(command[2])')
if ! test_output=$(docker run --rm --network host --read-only --cap-drop ALL \
        --security-opt no-new-privileges --entrypoint python3 "$image" -c "$test_program" 2>&1); then
    echo "$test_output" >&2
    fail "the chart's helm test pod fails against the running service"
fi
say "helm test pod: $test_output"

# No process in the container may run as root.
processes=$(docker top "$container" -eo uid,pid,args)
while IFS= read -r line; do say "  $line"; done <<<"$processes"
uids=$(echo "$processes" | awk 'NR > 1 { print $1 }' | sort -u)
[[ -n $uids ]] || fail "no processes found in the container"
if grep -qx 0 <<<"$uids"; then fail "a process in the container runs as root"; fi
in_container_uid=$(docker exec "$container" python3 -c 'import os; print(os.getuid())')
[[ $in_container_uid != 0 ]] || fail "the service runs as root"

memory_of() { docker stats --no-stream --format '{{.MemUsage}}' "$container" | cut -d/ -f1 | tr -d ' '; }
say "container memory after the checks: $(memory_of) (limit $pod_memory, $pod_workers workers)"
if ((load_seconds > 0)); then measure_load; fi

# Orphans exit inside the running container (as a process `docker exec` started, or a search process whose
# worker was killed, leaves them): PID 1 (tini) reaps them, no zombie remains.
for _ in 1 2 3; do
    docker exec "$container" python3 -c 'import os, time
if os.fork() == 0:
    time.sleep(0.5)'
done
sleep 2
zombies=$(docker exec "$container" python3 -c '
import glob
print(sum(open(stat).read().rsplit(")", 1)[1].split()[0] == "Z" for stat in glob.glob("/proc/[0-9]*/stat")))')
[[ $zombies == 0 ]] || fail "$zombies zombie processes remain after 3 orphans exited"
say "3 orphans exited: $zombies zombies remain (PID 1: $(docker exec "$container" cat /proc/1/comm))"

# A stop with a slow reader attached (the contract read 1 KiB every half second): `docker stop` returns
# within its 10 s and the container exits 0, not killed, its stages within GONGZHU_STOP_SECONDS.
python3 - "$port" <<'PY' &
import socket, sys, time
sock = socket.socket()
sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
sock.connect(("127.0.0.1", int(sys.argv[1])))
sock.sendall(b"GET /openapi.yaml HTTP/1.1\r\nHost: x\r\n\r\n")
try:
    while sock.recv(1024):
        time.sleep(0.5)
except OSError:
    pass
PY
reader_pid=$!
sleep 1
stop_started=$(date +%s.%N)
docker stop "$container" >/dev/null
stop_took=$(awk -v a="$stop_started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
exit_code=$(docker inspect -f '{{.State.ExitCode}}' "$container")
kill "$reader_pid" 2>/dev/null || true
awk -v t="$stop_took" 'BEGIN { exit !(t < 10) }' || fail "docker stop took $stop_took s with a slow reader attached"
[[ $exit_code == 0 ]] || fail "the container exited $exit_code on docker stop with a slow reader attached"
say "docker stop with a slow reader attached: $stop_took s, exit status $exit_code"

say "image $image size: $(awk -v b="$size_bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }')" \
    "(base $(awk -v b="$base_bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }'))"
say "service runs as UID $in_container_uid (image USER $image_user; host-side UIDs: $(paste -sd' ' <<<"$uids"))"
say "PASSED in $((SECONDS - started)) s"
