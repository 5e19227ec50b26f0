"""The ``gongzhu-service`` command: ``serve`` runs nginx in front of gunicorn as ``make run`` does
(gunicorn's options after it), ``--version`` names the service, the contract, the engine build and the
commit, ``--help`` is ours; ``python -m gongzhu`` is the same command. (Without the
server extra, ``serve`` says what to install: test_packaging.py.)"""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from gongzhu import __version__, about, cli
from tests.servers import ROOT, expected_engine, free_port, start, stop, workers_of


def test_make_run_is_gongzhu_service_serve_which_is_gunicorn_with_our_config():
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^run:.*\n((?:\t.*\n)+)", makefile, flags=re.M).group(1).splitlines()
    assert recipe == ["\tsh mk/nginx.sh", "\tPORT=$(PORT) exec $(BIN)/gongzhu-service serve"]
    assert cli.argv([]) == ["gunicorn", "-c", "python:gongzhu.server.gunicorn_conf", "gongzhu.server.wsgi:app"]
    assert cli.argv(["--workers", "3"])[-3:] == ["--workers", "3", "gongzhu.server.wsgi:app"]


def test_every_option_after_serve_goes_to_gunicorn(monkeypatch):
    ran = []
    for name, value in cli.MALLOC_ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PORT", str(free_port()))
    monkeypatch.setattr("gongzhu.server.front.run", lambda argv: ran.append(argv) or 0)
    monkeypatch.setattr(subprocess, "call", lambda argv: ran.append(argv) or 0)
    assert cli.main(["serve", "--workers", "4", "--version"]) == 0
    assert cli.main(["serve", "--gunicorn-help"]) == 0
    gunicorn = [sys.executable, "-m", "gunicorn", "-c", "python:gongzhu.server.gunicorn_conf"]
    assert ran == [[*gunicorn, "--workers", "4", "--version", "gongzhu.server.wsgi:app"],
                   [*gunicorn, "--help", "gongzhu.server.wsgi:app"]]


def test_serve_starts_again_with_the_allocator_settings_when_the_environment_lacks_them(monkeypatch):
    started = []
    monkeypatch.setattr(os, "execve", lambda path, args, env: started.append((path, args, env)))
    monkeypatch.setattr("gongzhu.server.front.run", lambda argv: 0)
    monkeypatch.setenv("PORT", str(free_port()))
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "131072")
    cli.main(["serve", "--workers", "4"])
    [(path, args, env)] = started
    assert (path, args) == (sys.executable, [sys.executable, "-m", "gongzhu", "serve", "--workers", "4"])
    # what the environment already says wins
    assert (env["MALLOC_ARENA_MAX"], env["MALLOC_MMAP_THRESHOLD_"]) == ("2", "131072")


def test_version_names_service_contract_engine_and_commit(capsys):
    assert cli.main(["--version"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"gongzhu-service {__version__}", f"contract {__version__}", f"engine {expected_engine()}",
                     f"commit {about.commit()}"]
    assert re.fullmatch(r"[0-9a-f]{40}", about.commit())


def test_help_is_ours_and_lists_serve(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: gongzhu-service [-h] [--version] {serve,conformance,review,solve} ...")
    assert "gunicorn" not in text.split("\n")[0]
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    serve_help = capsys.readouterr().out
    assert serve_help.startswith("usage: gongzhu-service serve [-h] [gunicorn options ...]")
    assert "gunicorn -c python:gongzhu.server.gunicorn_conf [options] gongzhu.server.wsgi:app" in serve_help
    # it names what ships in the wheel: no file of the repository, no make target
    assert "HOST              127.0.0.1" in serve_help and "pydoc" in serve_help
    assert "docs/" not in serve_help.replace("/docs (", "") and "make " not in serve_help + text


def test_without_a_command_it_shows_the_usage_and_fails(capsys):
    assert cli.main([]) == 2
    assert capsys.readouterr().err.startswith("usage: gongzhu-service")


def test_python_dash_m_gongzhu_is_the_same_command():
    module = subprocess.run([sys.executable, "-m", "gongzhu", "--version"], capture_output=True, text=True,
                            check=True)
    script = subprocess.run([str(Path(sys.executable).parent / "gongzhu-service"), "--version"],
                            capture_output=True, text=True, check=True)
    assert module.stdout == script.stdout == about.version_text() + "\n"


@pytest.mark.live
def test_the_console_script_serves(tmp_path):
    script = Path(sys.executable).parent / "gongzhu-service"
    assert script.exists(), "pip install -e . installs the console script"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start([str(script), "serve", "--workers", "1"], tmp_path / "server.log", f"{base}/readyz",
                 {"PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "3"})
    try:
        version = requests.get(f"{base}/version", timeout=5)
        assert version.status_code == 200
        assert version.json()["service"] == __version__
        assert requests.get(f"{base}/healthz", timeout=5).json() == {"status": "ok"}
        # glibc reads its allocator settings at process start: the master and its worker have them
        for pid in (proc.pid, *workers_of(proc.pid)):
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            assert {b"MALLOC_ARENA_MAX=2", b"MALLOC_MMAP_THRESHOLD_=65536"} <= set(environ), pid
        deadline = time.monotonic() + 10  # serve says where it serves once it has seen it answer
        while '"logger":"gongzhu.serve"' not in (tmp_path / "server.log").read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        stop(proc)
    log = (tmp_path / "server.log").read_text()
    assert '"logger":"gunicorn.error"' in log
    # --workers 1 reached gunicorn over WEB_CONCURRENCY=3: one "Booting worker" line
    assert log.count("Booting worker") == 1
    # once it answers, one line says where (behind nginx; gunicorn alone names its own address)
    if shutil.which("nginx", path="/usr/sbin:" + os.environ.get("PATH", "")):
        said = [json.loads(line) for line in log.splitlines() if '"logger":"gongzhu.serve"' in line]
        assert [(s["level"], s["message"]) for s in said] == [
            ("info", f"serving {base} (the API's pages: {base}/docs, {base}/table)")]


def test_the_server_listens_on_loopback_unless_host_says_otherwise():
    def bind(**env: str) -> str:
        environ = {k: v for k, v in os.environ.items() if k != "HOST"} | {"PORT": "8123", **env}
        return subprocess.run([sys.executable, "-c", "import gongzhu.server.gunicorn_conf as c; print(c.bind)"],
                              capture_output=True, text=True, check=True, env=environ).stdout.strip()

    assert bind() == "127.0.0.1:8123"
    assert bind(HOST="0.0.0.0") == "0.0.0.0:8123"
    # the image serves its network (docker run -p, a pod's IP)
    runtime = (ROOT / "Dockerfile").read_text().split("FROM ${BASE_IMAGE} AS runtime")[1]
    assert "    HOST=0.0.0.0 \\\n" in runtime


def test_a_port_in_use_says_to_set_port(tmp_path):
    """One line naming the address and PORT, at once: not gunicorn's five retries a second apart."""
    script = Path(sys.executable).parent / "gongzhu-service"
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run([str(script), "serve"], capture_output=True, text=True, timeout=20,
                              env={**os.environ, "PORT": str(port), "HOST": "127.0.0.1"})
    assert done.returncode == 1
    assert done.stderr == (f"gongzhu-service: 127.0.0.1:{port} is in use (another server listens there); "
                           f"set PORT to a free port, e.g. PORT={port + 1} gongzhu-service serve "
                           f"(from a checkout: PORT={port + 1} make run)\n")
    assert "Connection in use" not in done.stdout + done.stderr


@pytest.mark.parametrize("options, rest, host, port", [
    (["--workers", "4", "--bind", "127.0.0.1:9000"], ["--workers", "4"], "127.0.0.1", "9000"),
    (["-b", "0.0.0.0:80"], [], "0.0.0.0", "80"), (["-b[::1]:9001"], [], "::1", "9001"),
    (["--bind=localhost"], [], "localhost", "8000"),
    (["--bin", "[::]:8081", "--backlog", "64"], ["--backlog", "64"], "::", "8081"),
])
def test_bind_moves_nginx_listener_as_host_and_port_do(monkeypatch, options, rest, host, port):
    monkeypatch.setenv("HOST", "127.0.0.1")
    monkeypatch.setenv("PORT", "8080")
    assert cli.listen_on(options) == rest
    assert (os.environ["HOST"], os.environ["PORT"]) == (host, port)


@pytest.mark.parametrize("options, why", [
    (["--bind", "unix:/tmp/g.sock"], "not on a unix socket or a file descriptor"),
    (["--bind", "fd://3"], "not on a unix socket or a file descriptor"),
    (["--bind", "::1:9000"], "not on a unix socket or a file descriptor"),
    (["-b", "a:1", "-b", "b:2"], "serve listens on one address, HOST:PORT"),
])
def test_a_bind_serve_cannot_listen_on_is_refused_with_one_line(monkeypatch, capsys, options, why):
    for name, value in cli.MALLOC_ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("gongzhu.server.front.run", lambda argv: pytest.fail("serve started"))
    assert cli.main(["serve", *options]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("gongzhu-service: --bind ") and line.endswith(why)


def test_review_prints_the_operations_answer_as_a_table_or_as_json(tmp_path, capsys, monkeypatch):
    from gongzhu.api import create_app
    from tests.faults.test_serving_drills import _mid_deal

    body = {**_mid_deal(plays=52), "seed": 2, "budget_ms": 200}
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(body))
    assert cli.main(["review", str(path), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found == create_app().test_client().post("/review", json=body).get_json()
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(body)))
    assert cli.main(["review", "-"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["play", "trick", "seat", "played", "value", "best", "loss", "lens", "verdict",
                                "hindsight"]
    judged = [d for d in found["decisions"] if "hindsight" in d]
    assert judged and all(not d["exact"] for d in judged)
    assert lines[judged[-1]["play"] + 1].split()[-2:] == [str(judged[-1]["hindsight"]["loss"]),
                                                          judged[-1]["hindsight"]["verdict"]]
    last = found["decisions"][-1]
    assert lines[52].split() == [str(last["play"]), "12", str(last["seat"]), *last["played"], str(last["value"]),
                                 *last["played"], "0", "hindsight", "best"]
    first = found["decisions"][1]
    assert not first["exact"] and lines[2].split()[4:6] == [str(first["value"]), f"±{first['se']}"]
    seat = found["seats"][0]
    assert lines[54].startswith(f"seat 0: 13 plays, loss {seat['loss']} ±{seat['loss_se']}, accuracy "
                                f"{seat['accuracy']}; ")


def test_review_of_a_deal_the_rules_reject_prints_the_problem(tmp_path, capsys):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps({"hands": [["SA"]] * 4}))
    assert cli.main(["review", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("gongzhu-service: invalid_deal: ") and "/hands/1/0: " in err
    path.write_text("{")
    assert cli.main(["review", str(path)]) == 2
    capsys.readouterr()
    assert cli.main(["review", str(tmp_path / "nope.json")]) == 2
    missing = tmp_path / "nope.json"
    assert capsys.readouterr().err == f"gongzhu-service: cannot read {missing}: No such file or directory\n"


def test_review_into_a_pipe_closed_early_is_quiet(tmp_path):
    from tests.faults.test_serving_drills import _mid_deal

    path = tmp_path / "deal.json"
    path.write_text(json.dumps({**_mid_deal(plays=52), "seed": 2, "budget_ms": 50}))
    # the reader has gone before the review is written (as `| head` once it has its lines)
    done = subprocess.run(f"{sys.executable} -m gongzhu review --json {path} | true", shell=True,
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.stderr == ""


def test_solve_prints_the_operations_answer_as_a_table_or_as_json(tmp_path, capsys, monkeypatch):
    from gongzhu.api import create_app
    from tests.faults.test_serving_drills import _mid_deal

    body = _mid_deal(plays=44)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(body))
    assert cli.main(["solve", str(path), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found == create_app().test_client().post("/solve", json=body).get_json()
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(body)))
    assert cli.main(["solve", "-"]) == 0
    lines = capsys.readouterr().out.splitlines()
    best = {tuple(m) for m in found["best"]}
    assert [line.split() for line in lines[1:-1]] == [[*v["move"], str(v["value"]), *(["*"] if tuple(v["move"]) in best
                                                                                    else [])]
                                                      for v in found["values"]]
    assert lines[-1].startswith(f"seat {found['seat']} to act, {found['tricks_left']} tricks left; ")


def test_solve_of_a_finished_deal_prints_the_problem_and_a_cut_prints_bounds(tmp_path, capsys):
    from tests.faults.test_serving_drills import _mid_deal

    path = tmp_path / "deal.json"
    path.write_text(json.dumps(_mid_deal(plays=52)))
    assert cli.main(["solve", str(path)]) == 1
    assert capsys.readouterr().err == ("gongzhu-service: deal_finished: the deal is finished: no seat is to act\n"
                                       "  /plays: the deal is finished: no seat is to act\n")
    path.write_text("[")
    assert cli.main(["solve", str(path)]) == 2
    path.write_text(json.dumps({**_mid_deal(plays=12), "budget_ms": 1}))
    capsys.readouterr()
    assert cli.main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert ".." in out and "ran out: lower..upper bounds" in out


def test_solve_into_a_pipe_closed_early_is_quiet(tmp_path):
    from tests.faults.test_serving_drills import _mid_deal

    path = tmp_path / "deal.json"
    path.write_text(json.dumps(_mid_deal(plays=44)))
    done = subprocess.run(f"{sys.executable} -m gongzhu solve --json {path} | true", shell=True,
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.stderr == ""
