"""What the application does with the headers nginx sets (service/gongzhu/server/nginx.conf), in process:
a refusal's status and code become the contract's problem, counted; a request handed over past the request
timeout is not started; and serve without nginx says what to install."""
from __future__ import annotations

import gzip
import json
import os
import time

import pytest

from gongzhu.server import docs_bundle, front

BODY = {"captured": [[], [], [], []]}


@pytest.mark.parametrize("refused, status, code", [
    ("400 ", 400, "bad_request"), ("400 invalid_host", 400, "invalid_host"),
    ("501 upgrade_not_supported", 501, "upgrade_not_supported"), ("501 ", 501, "unsupported_transfer_coding"),
    ("413 ", 413, "payload_too_large"), ("414 ", 414, "uri_too_long"), ("431 ", 431, "header_fields_too_large"),
])
def test_a_refusal_of_nginx_is_the_contracts_problem(client, refused, status, code):
    answer = client.get("/_refused", headers={"X-Gongzhu-Refused": refused})
    assert answer.status_code == status
    assert answer.headers["Content-Type"] == "application/problem+json"
    problem = answer.get_json()
    assert (problem["status"], problem["code"]) == (status, code)
    assert "request_id" not in problem


def test_a_request_handed_over_past_the_timeout_is_not_started(client):
    late = {"X-Request-Start": f"t={time.time() - 60:.3f}"}
    answer = client.post("/score", data=json.dumps(BODY), content_type="application/json", headers=late)
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == "1"
    assert answer.get_json()["code"] == "busy"
    prompt = {"X-Request-Start": f"t={time.time():.3f}"}
    assert client.post("/score", data=json.dumps(BODY), content_type="application/json",
                       headers=prompt).status_code == 200


def test_serve_without_nginx_runs_gunicorn_alone_after_one_warning_line(monkeypatch, capsys):
    monkeypatch.setattr(front.shutil, "which", lambda *_args, **_kwargs: None)
    monkeypatch.setenv("HOST", "127.0.0.1")
    monkeypatch.setenv("PORT", "8123")
    monkeypatch.setenv(front.SOCKET_ENV, "/left/over.sock")
    monkeypatch.delenv(front.NGINX_ENV, raising=False)
    ran = []

    def execv(path, argv):  # this process becomes gunicorn: nothing after it runs
        ran.append((path, argv))
        raise SystemExit(0)
    monkeypatch.setattr(front.os, "execv", execv)
    with pytest.raises(SystemExit):
        front.run(["/venv/python", "-m", "gunicorn"])
    assert ran == [("/venv/python", ["/venv/python", "-m", "gunicorn"])]
    assert front.SOCKET_ENV not in front.os.environ  # gunicorn_conf binds HOST:PORT
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("gongzhu-service: WARNING nginx is not in front (not found; apt-get install "
                           "nginx-light): gunicorn serves 127.0.0.1:8123 alone")


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.1", "example.com"])
def test_serve_without_nginx_refuses_any_host_but_loopback(monkeypatch, capsys, host):
    monkeypatch.setenv(front.NGINX_ENV, "off")
    monkeypatch.setenv("HOST", host)
    monkeypatch.setattr(front.os, "execv", lambda *_args: pytest.fail("gunicorn started"))
    assert front.run(["/venv/python", "-m", "gunicorn"]) == 1
    assert capsys.readouterr().err == (f"gongzhu-service: nginx is not in front (GONGZHU_NGINX=off), and gunicorn "
                                       f"serves alone on loopback only, not on HOST={host}\n")


def test_the_docs_bundle_is_copied_and_compressed_once(tmp_path):
    folder = docs_bundle.lay_out(tmp_path)
    source = docs_bundle.dist() / "swagger-ui.css"
    packed = folder / "swagger-ui.css.gz"
    assert (folder / "swagger-ui.css").read_bytes() == source.read_bytes()
    assert gzip.decompress(packed.read_bytes()) == source.read_bytes()
    assert not (folder / "favicon-32x32.png.gz").exists() and not (folder / "LICENSE").exists()
    packed.write_bytes(b"kept")  # not written again: the copy is the file as it is
    docs_bundle.lay_out(tmp_path)
    assert packed.read_bytes() == b"kept"
    os.utime(folder / "swagger-ui.css", ns=(0, 0))  # the copy no longer matches the package's file
    docs_bundle.lay_out(tmp_path)
    assert gzip.decompress(packed.read_bytes()) == source.read_bytes()
