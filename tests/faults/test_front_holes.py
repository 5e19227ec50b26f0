"""Drills on the serving shell's holes a hostile client or a plain user found, each against a live server
started as ``make run`` does (nginx in front of gunicorn, ``front``) or gunicorn served alone (``alone``):
a client header that moves the request's path, nesting past the validator's recursion limit, a malformed
``X-Request-Start``, the help's own example, a per-request gzip of the documentation's bundle, a machine
without nginx and a user who is not root, a script that kills processes by name; and small edges: a path nginx
cannot read (a %00), a body in a content coding, a path integer not in digits, an HTML answer without a
Content-Security-Policy."""
from __future__ import annotations

import gzip
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import requests

from gongzhu import cli
from gongzhu.api import messages, pages, pipeline
from gongzhu.settings import DEFAULT_MAX_BATCH_BODY, DEFAULT_MAX_BODY
from tests.conftest import load_contract
from tests.servers import SERVE, free_port, start, stop

pytestmark = pytest.mark.faults

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = [sys.executable, "-m", *cli.argv([])]
PROBLEM_JSON = "application/problem+json"
# what nobody may run as: setpriv drops root for the not-root drills
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


@pytest.fixture(scope="module")
def front(tmp_path_factory):
    """A server as make run starts it (1 worker), its run directory where the test can read it (in /tmp: nginx's
    workers, nobody under root, reach the socket through it)."""
    run_dir = Path(tempfile.mkdtemp(prefix="gongzhu-run-"))
    port = free_port()
    proc = start(SERVE, tmp_path_factory.mktemp("front") / "serve.log", f"http://127.0.0.1:{port}/readyz",
                 {"PORT": str(port), "WEB_CONCURRENCY": "1", "GONGZHU_RUN_DIR": str(run_dir)})
    yield f"http://127.0.0.1:{port}", run_dir
    stop(proc)
    shutil.rmtree(run_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def alone(tmp_path_factory):
    """gunicorn alone on loopback (1 worker), as its own command line starts it."""
    port = free_port()
    proc = start(GUNICORN, tmp_path_factory.mktemp("alone") / "gunicorn.log", f"http://127.0.0.1:{port}/readyz",
                 {"PORT": str(port), "WEB_CONCURRENCY": "1"})
    yield f"http://127.0.0.1:{port}"
    stop(proc)


@pytest.fixture(params=["front", "alone"])
def base(request) -> str:
    server = request.getfixturevalue(request.param)
    return server[0] if request.param == "front" else server


def _problem(response: requests.Response) -> tuple[int, str, str]:
    assert response.headers["Content-Type"] == PROBLEM_JSON, response.text
    return response.status_code, response.json()["code"], response.json()["detail"]


# ---- a client header never reaches the WSGI environ's routing keys ------------------------------------

@pytest.mark.parametrize("path, header, value", [
    ("/x/metrics", "SCRIPT_NAME", "/x"), ("/x/metrics", "SCRIPT-NAME", "/x"),
    ("/x", "PATH_INFO", "/metrics"), ("/x", "PATH-INFO", "/metrics")])
def test_a_client_header_does_not_move_the_path(base, path, header, value):
    plain = requests.get(base + path, timeout=10)
    moved = requests.get(base + path, headers={header: value}, timeout=10)
    assert _problem(moved) == _problem(plain) == (404, "not_found", plain.json()["detail"])


# ---- any nesting depth is one 400 problem, on every operation with a body --------------------------------

BODY_PATHS = sorted(path for path, item in load_contract()["paths"].items()
                    for operation in item.values() if isinstance(operation, dict) and "requestBody" in operation)


@pytest.mark.parametrize("depth", [256, 300, 1000, 100_000])
def test_any_nesting_depth_is_a_400_problem_on_every_body_operation(front, depth):
    base, _ = front
    arrays = '{"hands": ' + "[" * depth + '"SQ"' + "]" * depth + "}"
    objects = '{"hands": ' + '{"a":' * depth + "1" + "}" * depth + "}"
    for path in BODY_PATHS:
        for body in (arrays, objects):
            answer = requests.post(base + path, data=body, headers={"Content-Type": "application/json"},
                                   timeout=30)
            # 100,000 objects: past the body limit first (a batch's own limit is larger)
            if len(body) > (DEFAULT_MAX_BATCH_BODY if path == "/batch" else DEFAULT_MAX_BODY):
                assert _problem(answer)[:2] == (413, "payload_too_large"), path
                continue
            assert _problem(answer)[:2] == (400, "malformed_json"), (path, depth)
            assert answer.json()["detail"] == str(messages.TOO_DEEP(limit=pipeline.MAX_DEPTH))


# ---- a malformed X-Request-Start is ignored -----------------------------------------------------------

@pytest.mark.parametrize("value", ["t=abc", "t=", "t=nan", "t=-inf", "t=1e999", "t=-1e999", "abc", "t=0x10"])
def test_a_malformed_request_start_is_ignored_by_gunicorn_alone(alone, value):
    answer = requests.post(alone + "/deal", json={"seed": 1}, headers={"X-Request-Start": value}, timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.json()["hands"]
    # a batch reads it for its deadline too
    calls = {"requests": [{"id": "a", "method": "POST", "url": "/deal", "body": {"seed": 1}}]}
    answer = requests.post(alone + "/batch", json=calls, headers={"X-Request-Start": value}, timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.json()["responses"][0]["status"] == 200


# ---- the documentation's bundle is compressed once, not per request -----------------------------------

@pytest.mark.parametrize("name", ["swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-standalone-preset.js"])
def test_nginx_sends_the_bundle_precompressed(front, name):
    base, run_dir = front
    packed = run_dir / "docs" / f"{name}.gz"
    zipped = requests.get(f"{base}/docs/{name}?v=1", headers={"Accept-Encoding": "gzip"}, timeout=10, stream=True)
    zipped.raw.decode_content = False
    body = zipped.raw.read()
    # the bytes written at start, whole (a Content-Length, not chunks), with that file's own strong ETag
    assert zipped.headers["Content-Encoding"] == "gzip" and body == packed.read_bytes()
    assert zipped.headers["Content-Length"] == str(packed.stat().st_size)
    assert zipped.headers["ETag"] == f'"{int(packed.stat().st_mtime):x}-{packed.stat().st_size:x}"'
    plain = requests.get(f"{base}/docs/{name}", headers={"Accept-Encoding": "identity"}, timeout=10)
    assert "Content-Encoding" not in plain.headers and gzip.decompress(body) == plain.content
    assert plain.content == (run_dir / "docs" / name).read_bytes()
    for answer in (zipped, plain):
        assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Vary"] == "Accept-Encoding"


def test_a_name_the_bundle_lacks_and_its_gz_are_the_applications_404(front):
    base, _ = front
    for path in ("/docs/missing.js", "/docs/swagger-ui.css.gz"):
        assert _problem(requests.get(base + path, headers={"Accept-Encoding": "gzip"}, timeout=10))[:2] == \
            (404, "not_found"), path


# ---- the help's examples run as written --------------------------------------------------------------

def _help() -> str:
    done = [subprocess.run([sys.executable, "-m", "gongzhu", *args], capture_output=True, text=True, timeout=30)
            for args in (["--help"], ["serve", "--help"])]
    assert [d.returncode for d in done] == [0, 0]
    return done[0].stdout + done[1].stdout


def test_the_help_examples_run_as_written(tmp_path):
    text = _help()
    examples = re.findall(r"^ +(gongzhu-service serve .+)$", text, flags=re.M)
    assert examples == ["gongzhu-service serve --workers 4 --bind 127.0.0.1:9000"]
    quoted = sorted({" ".join(found.split()) for found in re.findall(r"`((?:gongzhu-service|python)\s[^`]+)`", text)})
    assert quoted == ["gongzhu-service serve --gunicorn-help", "gongzhu-service serve --help",
                      "python -m gongzhu", "python -m pydoc gongzhu.settings gongzhu.server.gunicorn_conf"]
    for command in quoted[:2] + quoted[3:]:
        argv = [sys.executable, "-m", "gongzhu", *shlex.split(command)[1:]] if command.startswith("gongzhu-service") \
            else [sys.executable, *shlex.split(command)[1:]]
        assert subprocess.run(argv, capture_output=True, timeout=60).returncode == 0, command
    # the server example as written but for its port, which must be free here
    port = free_port()
    argv = [sys.executable, "-m", "gongzhu", *shlex.split(examples[0].replace(":9000", f":{port}"))[1:]]
    proc = start(argv, tmp_path / "serve.log", f"http://127.0.0.1:{port}/readyz", {"PORT": str(free_port())})
    try:
        answer = requests.get(f"http://127.0.0.1:{port}/healthz", timeout=10)
        assert (answer.status_code, answer.headers["Server"]) == (200, "nginx")
    finally:
        stop(proc)


# ---- serve starts without nginx, for a user who is not root ------------------------------------------

def _as_nobody(argv: list[str]) -> list[str]:
    """``argv`` run by nobody when the test runs as root and nobody can run ``argv[0]`` (an interpreter
    under /root cannot be, and without util-linux's setpriv nothing can: then as root, the path through serve
    being the same)."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        return argv
    can = subprocess.run([*NOBODY, "test", "-x", shutil.which(argv[0]) or argv[0]], timeout=30).returncode == 0
    return [*NOBODY, *argv] if can else argv


def test_serve_starts_without_nginx_for_a_user_who_is_not_root(tmp_path):
    port = free_port()
    env = {"PORT": str(port), "WEB_CONCURRENCY": "1", "GONGZHU_NGINX": str(tmp_path / "no-nginx"),
           "HOME": str(tmp_path), "PATH": os.path.dirname(sys.executable) + ":/usr/bin:/bin"}
    os.chmod(tmp_path, 0o777)
    log = tmp_path / "serve.log"
    proc = start(_as_nobody(SERVE), log, f"http://127.0.0.1:{port}/readyz", env)
    try:
        assert requests.get(f"http://127.0.0.1:{port}/healthz", timeout=10).headers["Server"] == "gunicorn"
        # gunicorn's own limit on a request line, where nginx's would be: a problem, not an unlimited read
        long_line = requests.get(f"http://127.0.0.1:{port}/" + "x" * 9000, timeout=10)
        assert _problem(long_line)[:2] == (400, "bad_request")
    finally:
        stop(proc)
    warnings = [line for line in log.read_text().splitlines() if "nginx is not in front" in line]
    assert len(warnings) == 1 and warnings[0].startswith(
        f"gongzhu-service: WARNING nginx is not in front (GONGZHU_NGINX={tmp_path / 'no-nginx'} is no program): "
        f"gunicorn serves 127.0.0.1:{port} alone")
    assert "alone" in warnings[0] and "slow or idle client" in warnings[0]


def test_mk_nginx_sh_does_not_fail_make_run_for_a_user_without_nginx(tmp_path):
    # the script on stdin: a checkout in a folder only root may enter (mktemp -d) is no file nobody can open
    done = subprocess.run(_as_nobody(["sh", "-s"]), input=(ROOT / "mk" / "nginx.sh").read_text(),
                          capture_output=True, text=True, timeout=30,
                          env={"PATH": "/usr/bin:/bin", "GONGZHU_NGINX": str(tmp_path / "no-nginx")})
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        "gongzhu-service serve: no nginx here, gunicorn will serve alone; to put nginx in front: "
        "sudo apt-get install -y nginx-light (docs/deployment.md)"]


# ---- nothing is killed by name ----------------------------------------------------------------------

SCRIPTS = (".sh", ".py", ".mk", ".yml", ".yaml", ".tpl", ".toml", ".js", ".ts", ".cfg")
BY_NAME = re.compile(r"\b(pkill|killall)\b")


def test_no_script_of_the_repository_kills_processes_by_name():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    scripts = [ROOT / f for f in files if f.endswith(SCRIPTS) or Path(f).name in ("Makefile", "Dockerfile")]
    this = Path(__file__).resolve()
    found = [str(p.relative_to(ROOT)) for p in scripts
             if p.resolve() != this and p.is_file() and BY_NAME.search(p.read_text(errors="replace"))]
    assert len(scripts) > 100 and found == []


# ---- small edges: each answer names what is wrong with the request -------------------------------------------

def _exchange(base: str, head: bytes) -> tuple[int, bytes, bytes]:
    """The status, head and body of the answer to ``head`` (a whole request, Connection: close), sent as it is:
    no client library normalizes its target."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(head)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    answer_head, _, body = received.partition(b"\r\n\r\n")
    return int(answer_head.split(b" ", 2)[1]), answer_head, body


@pytest.mark.parametrize("target", [b"/ranks/1%00", b"/ranks/1%00?x=1", b"/docs/a%00.html", b"/%zz", b"/%",
                                    b"/../x", b"/ranks/%2e%2e/%2e%2e/x"])
def test_a_path_nginx_cannot_read_is_400_invalid_path_not_a_host_problem(front, target):
    base, _ = front
    status, _, body = _exchange(base, b"GET " + target + b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    problem = json.loads(body)
    assert (status, problem["code"], problem["detail"]) == (400, "invalid_path", messages.REFUSED["invalid_path"])


@pytest.mark.parametrize("head", [b"GET /ranks/1 HTTP/1.1\r\nConnection: close\r\n\r\n",
                                  b"GET /ranks/1 HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n"])
def test_a_host_problem_is_still_invalid_host(front, head):
    status, _, body = _exchange(front[0], head)
    assert (status, json.loads(body)["code"]) == (400, "invalid_host")


def test_a_query_with_a_nul_reaches_the_operation(front):
    head = b"GET /ranks/1?x=%00 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    status, _, body = _exchange(front[0], head)
    assert (status, json.loads(body)["points"]) == (200, 1)


INGOTS = b'{"scores": [100, 0, -200, -200]}'


@pytest.mark.parametrize("body", [gzip.compress(INGOTS), INGOTS], ids=["gzip'd", "plain"])
def test_a_body_in_a_content_coding_is_415(base, body):
    answer = requests.post(f"{base}/ingots", data=body, timeout=10,
                           headers={"Content-Type": "application/json", "Content-Encoding": "gzip"})
    assert _problem(answer)[:2] == (415, "unsupported_content_encoding")
    assert answer.headers["Accept-Encoding"] == "identity"
    plain = requests.post(f"{base}/ingots", data=INGOTS, headers={"Content-Type": "application/json"}, timeout=10)
    assert plain.json()["net"] == [700, -100, -300, -300]


@pytest.mark.parametrize("points", ["1e5", "1E5", "5.0", "100000.0", "1e400"])
def test_a_path_integer_is_digits_only(base, points):
    answer = requests.get(f"{base}/ranks/{points}", timeout=10)
    assert _problem(answer)[:2] == (422, "schema_violation")
    assert [(e["pointer"], e["keyword"], e["in"]) for e in answer.json()["errors"]] == [("/points", "type", "path")]
    assert requests.get(f"{base}/ranks/100000", timeout=10).json()["points"] == 100000


def test_every_html_answer_has_a_csp(base):
    # nginx sends the bundle's page itself (front), the application alone
    redirect = requests.get(f"{base}/docs/oauth2-redirect.html", timeout=10)
    assert redirect.status_code == 200 and redirect.headers["Content-Type"].startswith("text/html")
    assert redirect.headers["Content-Security-Policy"] == pages.ASSET_CSP
    for path in ("/", "/docs", "/table"):
        page = requests.get(base + path, headers={"Accept": "text/html"}, timeout=10)
        assert page.headers["Content-Type"].startswith("text/html"), path
        assert page.headers["Content-Security-Policy"].startswith("default-src 'none'"), path
    # the bundle's other files are no HTML: no policy to carry
    assert "Content-Security-Policy" not in requests.get(f"{base}/docs/swagger-ui.css", timeout=10).headers
