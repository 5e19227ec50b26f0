"""The README's shell blocks run as written, from a checkout whose .venv is active (the README says so),
against a server started as ``make run`` starts it: every command exits 0, and every answer shown after
``# →`` (or after the command, ``# {...}``) is what the server answers, ``...`` and ``…`` standing for
what the README leaves out.

Left out, each for its reason: ``make run`` and ``make test`` (the suite itself, and the fresh-clone check),
``pip install`` (a package index), ``gongzhu-service serve`` (the server below is that command),
``make bench-…`` and the like (benchmarks, minutes each), ``helm`` (a cluster).
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.servers import SERVE, free_port, start, stop

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
BLOCK = re.compile(r"```sh\n(.*?)```", re.S)
# Commands the test cannot run here (the module's docstring says why).
NOT_HERE = re.compile(r"^(make |pip install|helm |gongzhu-service serve)")
# A server's answers that differ from machine to machine (its commit, Python, build), or are not JSON.
UNSHOWN = ("/version", "/metrics", "/openapi.yaml")


class Command:
    def __init__(self, text: str, shown: str | None) -> None:
        self.text = text
        self.shown = shown

    def __repr__(self) -> str:
        return self.text.splitlines()[0][:80]


def _complete(text: str) -> bool:
    try:
        shlex.split(text, comments=True)
    except ValueError:  # an open quote: the command goes on on the next line
        return False
    return not text.rstrip().endswith("\\")


def commands(block: str) -> list[Command]:
    """The block's commands in order, each with the answer the README shows for it (or None)."""
    found: list[Command] = []
    pending = ""
    for line in block.splitlines():
        stripped = line.strip()
        if pending:
            pending += "\n" + line
        elif stripped.startswith("# →") and found:
            found[-1].shown = stripped.removeprefix("# →").strip()
            continue
        elif stripped.startswith("#") and found and found[-1].shown is not None and line.startswith("#    "):
            found[-1].shown += "\n" + stripped.removeprefix("#").strip()
            continue
        elif not stripped or stripped.startswith("#"):
            continue
        else:
            pending = line
        if _complete(pending):
            note = pending.partition("  # ")[2]
            shown = re.match(r"\{.*\}", note.strip())  # the answer, without the prose after it
            found.append(Command(pending, shown.group(0) if shown else None))
            pending = ""
    assert not pending, f"an unfinished command in the README: {pending!r}"
    return found


def pattern(shown: str) -> re.Pattern[str]:
    """What the README shows as a pattern of the answer: its elisions match anything, a line break of the
    README matches a space or nothing, and a note after the answer (three spaces, then prose) is not shown."""
    lines = [re.split(r" {3,}(?=[(a-z])", line)[0] for line in shown.splitlines()]
    parts = []
    for line in lines:
        pieces = re.split(r"\.\.\.|…", line)
        parts.append(".*?".join(re.escape(piece) for piece in pieces))
    return re.compile(r"\s?".join(parts), re.S)


def _blocks() -> list[list[Command]]:
    return [commands(block) for block in BLOCK.findall(README.read_text(encoding="utf-8"))]


def test_the_readme_is_read_into_commands_with_their_answers():
    every = [c for block in _blocks() for c in block]
    curls = [c for c in every if c.text.startswith("curl ")]
    assert len(curls) >= 30
    assert sum(c.shown is not None for c in curls) >= 20
    assert pattern('{"a":1,...,"b":[2,\n"c"]}   (a note)').fullmatch('{"a":1,"x":0,"b":[2, "c"]}')
    assert not pattern('{"a":1,"b":2}').fullmatch('{"a":1,"b":3}')


@pytest.fixture(scope="module")
def readme_server(tmp_path_factory):
    """A server as make run starts it, with its defaults (the README's review runs at the default budget) but
    a request timeout of a minute: beside the suite's other processes, the seeded review's fixed work took longer
    than the default 10 s, and the README shows answers, not a loaded server's 503."""
    port = free_port()
    log = tmp_path_factory.mktemp("readme") / "server.log"
    base = f"http://127.0.0.1:{port}"
    # Ahead of the suite's own processes, as a pod owns its cores (tests/conftest.py's live server says why).
    proc = start(["nice", "-n", "-10", *SERVE], log, f"{base}/readyz",
                 {"PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "2", "GUNICORN_REQUEST_TIMEOUT": "60"})
    try:
        yield base
    finally:
        stop(proc)


# A search the server answered 503 busy (the answer that tells a client to come back) is asked again: beside the
# suite's processes, and where the server may not run ahead of them (not root), its search processes wait behind them.
ATTEMPTS = 3
ASSIGNMENT = re.compile(r"^[A-Z]+=")


def _wrong(command: Command, done: subprocess.CompletedProcess[str]) -> str | None:
    """What is wrong with a command's run: its exit status, or an answer other than the one the README shows."""
    answer = done.stdout.strip()
    if done.returncode != 0:
        return f"{command!r} exited {done.returncode}: {answer[-1500:]} {done.stderr[-500:]}"
    if command.shown is not None and not any(path in command.text for path in UNSHOWN):
        if not pattern(command.shown).fullmatch(answer):
            return f"{command!r}\n  shown:   {command.shown}\n  answers: {answer[:3000]}"
    return None


def test_every_readme_command_runs_as_written_and_answers_what_it_shows(readme_server, tmp_path):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    assigned: list[str] = []  # the variables the README sets (H, API, HANDS, PLAYS), set again before each command
    ran, wrong = 0, []
    for block in _blocks():
        for command in block:
            if NOT_HERE.match(command.text):
                continue
            text = command.text.replace("http://localhost:8080", readme_server)
            if ASSIGNMENT.match(text):
                assigned.append(text)
                continue
            for _ in range(ATTEMPTS):
                done = subprocess.run(["bash", "-c", "\n".join([*assigned, text])], cwd=tmp_path, env=env,
                                      capture_output=True, text=True, timeout=300)
                found = _wrong(command, done)
                if found is None or "busy" not in done.stdout:
                    break
            ran += 1
            if found is not None:
                wrong.append(found)
    assert ran >= 35
    assert not wrong, "\n".join(wrong)
