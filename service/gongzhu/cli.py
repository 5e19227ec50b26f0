"""The ``gongzhu-service`` command (also ``python -m gongzhu``).

- ``gongzhu-service serve [gunicorn options]`` runs nginx on ``HOST:PORT`` in front of
  ``gunicorn -c python:gongzhu.server.gunicorn_conf gongzhu.server.wsgi:app`` on a unix socket
  (``gongzhu.server.front``; started again first with glibc's allocator settings, ``MALLOC_ENV``,
  when the environment lacks them) (``HOST``, ``PORT``, ``WEB_CONCURRENCY``, ...:
  ``gongzhu.server.gunicorn_conf``; ``make run`` runs it too); every option after ``serve`` goes to
  gunicorn, e.g. ``serve --workers 4``.
  ``--bind HOST:PORT`` moves nginx's listener (the same as ``HOST`` and ``PORT``). It needs the ``server``
  extra; without it, it says what to install. Without nginx, gunicorn serves alone on loopback after a
  warning line. An address already in use is one line that says to set ``PORT``.
- ``gongzhu-service --version``: the service and contract versions, the engine
  build and the commit (``gongzhu.about``); works with the engine alone.
- ``gongzhu-service conformance --base-url URL`` runs the conformance cases against a server
  (``--in-process``: against this package's app; ``--batch``: as calls of ``POST /batch``),
  docs/conformance.md.
- ``gongzhu-service review FILE`` (``-`` for stdin) reviews the deal state in FILE (``/review``'s request body) with
  this package's app in process, no server: a table of every play (its value, the best moves, the loss, each
  estimate's standard error, the lens, the verdict, and the hindsight loss and verdict where there is one), each
  seat's total loss, accuracy, verdicts and largest mistakes; ``--json`` prints ``/review``'s answer instead
  (docs/review.md). Needs the server extra.
- ``gongzhu-service solve FILE`` (``-`` for stdin) values every legal move of the seat to act in the deal state in
  FILE (``/solve``'s request body) with this package's app in process: a line a move, its exact value with every
  card open or its bounds when the budget runs out, the best starred; ``--json`` prints ``/solve``'s answer
  (docs/review.md, "The solver as an operation"). Needs the server extra.
- ``gongzhu-service --help``, ``gongzhu-service serve --help``: this command's help.
"""
from __future__ import annotations

import argparse
import errno
import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from gongzhu import about, settings
from gongzhu.conformance import runner as conformance_runner
from gongzhu.conformance.transport import in_process
from gongzhu.server_extra import ServerExtraMissing, require_server

PROG = "gongzhu-service"
CONFIG = "python:gongzhu.server.gunicorn_conf"
APP = "gongzhu.server.wsgi:app"
# glibc's allocator, read from the environment when a process starts (so before gunicorn's master, whose
# workers inherit it): buffers of a request body (up to 256 KiB, a few copies) are mmapped and unmapped when
# freed, and threads share 2 heaps, so memory a burst of large bodies took goes back to the system instead of
# staying in per-thread heaps. Values already set win; the image sets the same (Dockerfile).
MALLOC_ENV = {"MALLOC_ARENA_MAX": "2", "MALLOC_MMAP_THRESHOLD_": "65536"}
SERVE_HELP = f"""Serve the API: nginx on HOST:PORT in front of
  gunicorn -c {CONFIG} [options] {APP}
on a unix socket in GONGZHU_RUN_DIR (a private temporary directory by default).
Settings come from the environment:
  HOST              {settings.DEFAULT_HOST} (loopback); 0.0.0.0 offers the server to the network
  PORT              {settings.DEFAULT_PORT}
  WEB_CONCURRENCY   gunicorn workers (2 x cores + 1)
  GONGZHU_MAX_BODY  the request body limit in bytes ({settings.DEFAULT_MAX_BODY})
  GONGZHU_LOG_FORMAT  json, or text for a terminal
  OTEL_EXPORTER_OTLP_ENDPOINT  traces over OTLP/HTTP (the otel extra)
and the rest are in gongzhu.settings and the docstring of gongzhu.server.gunicorn_conf
(`python -m pydoc gongzhu.settings gongzhu.server.gunicorn_conf`). Once serving: /docs (the API), /table (a deal drawn),
/openapi.yaml (the contract). Every option after `serve` goes to gunicorn but --bind,
which moves nginx's listener (the same as HOST and PORT), e.g.
  {PROG} serve --workers 4 --bind 127.0.0.1:9000
and `{PROG} serve --gunicorn-help` prints gunicorn's own options. Without nginx
(or with GONGZHU_NGINX=off), gunicorn serves alone on loopback, with a warning."""


def argv(extra: Sequence[str]) -> list[str]:
    """gunicorn's command line for ``extra`` options."""
    return ["gunicorn", "-c", CONFIG, *extra, APP]


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog=PROG, description="gongzhu-service: the rules of Gong Zhu (拱猪) as a stateless REST API.",
        epilog=f"`python -m gongzhu` is the same command. `{PROG} serve --help` for serving.")
    top.add_argument("--version", action="store_true",
                     help="print the service and contract versions, the engine build and the commit")
    commands = top.add_subparsers(dest="command", metavar="{serve,conformance,review,solve}")
    commands.add_parser("serve", help="serve the API with gunicorn (HOST, PORT, ...: serve --help)",
                        usage=f"{PROG} serve [-h] [gunicorn options ...]", description=SERVE_HELP,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    conformance = commands.add_parser("conformance", help="check a server against the conformance cases",
                                      description=conformance_runner.__doc__,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
    conformance_runner.add_arguments(conformance)
    review = commands.add_parser("review", help="review every play of a deal (/review, in process)",
                                 description="Review every play of the deal state in FILE (a /review request "
                                 "body: a deal state, optionally seed and budget_ms) with this package's app, "
                                 "no server: each play's value in raw points at the end of the deal, the best "
                                 "moves, the loss, whether exact; then each seat's total loss and largest mistakes.")
    review.add_argument("file", metavar="FILE", help="the request body as JSON; - reads stdin")
    review.add_argument("--json", action="store_true", help="print /review's JSON answer instead of the table")
    solve = commands.add_parser("solve", help="every legal move's exact value, cards open (/solve, in process)",
                                description="Value every legal move of the seat to act in the deal state in FILE "
                                "(a /solve request body: a deal state, optionally budget_ms) with this package's "
                                "app, no server: each move's exact value in raw points at the end of the deal "
                                "with every card open and best play by all, or its bounds when the budget runs "
                                "out; the best moves starred.")
    solve.add_argument("file", metavar="FILE", help="the request body as JSON; - reads stdin")
    solve.add_argument("--json", action="store_true", help="print /solve's JSON answer instead of the table")
    return top


def review(path: str, as_json: bool) -> int:
    """Print the review of the deal in ``path`` (``-``: stdin); 1 with the problem on stderr when the body
    is not a deal /review takes, 2 when it is not JSON."""
    return _operation("/review", path, review_table, as_json)


def solve(path: str, as_json: bool) -> int:
    """Print every legal move's value at the deal state in ``path`` (``-``: stdin); 1 with the problem on
    stderr when the body is not a deal state /solve takes, 2 when it is not JSON."""
    return _operation("/solve", path, solve_table, as_json)


def _operation(operation: str, path: str, table: Callable[[dict], str], as_json: bool) -> int:
    """Answer the request body in ``path`` by ``operation`` with this package's app in process and print it,
    as JSON or by ``table``; 1 with the problem on stderr when it is refused, 2 when the body is not JSON."""
    try:
        require_server()
    except ServerExtraMissing as missing:
        print(f"{PROG}: {missing}", file=sys.stderr)
        return 1
    from gongzhu.api import create_app

    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        print(f"{PROG}: cannot read {path}: {why}", file=sys.stderr)
        return 2
    try:
        body = json.loads(text)
    except ValueError as error:
        print(f"{PROG}: {path} is not JSON: {error}", file=sys.stderr)
        return 2
    answer = in_process(create_app())({"method": "POST", "path": operation, "body": body})
    found = json.loads(answer.body)
    if answer.status != 200:
        print(f"{PROG}: {found['code']}: {found['detail']}", file=sys.stderr)
        for fault in found.get("errors", []):
            print(f"  {fault['pointer']}: {fault['detail']}", file=sys.stderr)
        return 1
    print(json.dumps(found, ensure_ascii=False, indent=1) if as_json else table(found))
    return 0


def solve_table(found: dict) -> str:
    """``/solve``'s answer as a line a move (its value, or its bounds where the budget ran out; ``*`` on the
    best), then the scale."""
    best = {tuple(move) for move in found["best"]}
    lines = [f"{'move':<8} {'value':>13}"]
    for v in found["values"]:
        value = str(v["value"]) if v["exact"] else f"{v['lower']}..{v['upper']}"
        lines.append(f"{_cards([v['move']]):<8} {value:>13}" + ("  *" if tuple(v["move"]) in best else ""))
    scale = "side difference (partnership)" if found["rules"]["partnership"] else "own raw score"
    lines.append(f"seat {found['seat']} to act, {found['tricks_left']} tricks left; values: raw points at the end "
                 f"of the deal, every card open, {scale}; * best" +
                 ("" if found["exact"] else f"; the budget ({found['budget_ms']} ms) ran out: lower..upper bounds"))
    return "\n".join(lines)


def _cards(plays: list[list[str]]) -> str:
    return " ".join("+".join(play) for play in plays)


def review_table(found: dict) -> str:
    """``/review``'s answer as a table of plays (an estimate with its standard error, ``±``), then each seat's
    total loss, accuracy, verdicts and largest mistakes."""
    lines = [f"{'play':>4} {'trick':>5} {'seat':>4}  {'played':<8} {'value':>14}  {'best':<20} {'loss':>14}  "
             f"{'lens':<9}  {'verdict':<10}  hindsight"]
    for d in found["decisions"]:
        other = d.get("hindsight")
        lines.append((f"{d['play']:>4} {d['trick']:>5} {d['seat']:>4}  {_cards([d['played']]):<8} "
                      f"{_noisy(d['value'], d.get('se')):>14}  {_cards(d['best']):<20} "
                      f"{_noisy(d['loss'], d.get('loss_se')):>14}  {d['lens']:<9}  {d['verdict']:<10}  "
                      + ("" if other is None else f"{other['loss']} {other['verdict']}")).rstrip())
    lines.append("")
    for seat in found["seats"]:
        mistakes = ", ".join(f"play {m['play']} ({m['loss']})" for m in seat["mistakes"]) or "none"
        verdicts = ", ".join(f"{n} {name}" for name, n in seat["verdicts"].items() if n)
        accuracy = "-" if seat["accuracy"] is None else seat["accuracy"]
        loss = _noisy(seat["loss"], seat.get("loss_se"))
        lines.append(f"seat {seat['seat']}: {len(seat['decisions'])} plays, loss {loss}, accuracy {accuracy}; "
                     f"{verdicts or 'no choice'}; largest mistakes: {mistakes}")
    scale = "side difference (partnership)" if found["rules"]["partnership"] else "own raw score"
    lines.append(f"values: raw points at the end of the deal, {scale}; tricks from 0; lens hindsight = every card "
                 f"open (exact), fair = what the seat knew (estimated, ± one standard error; a play with a choice is "
                 f"judged fair, its hindsight loss and verdict beside it where the exact search reached it); budget "
                 f"{found['budget_ms']} ms" + ("; the budget ran out (budget_cut)" if found["budget_cut"] else ""))
    return "\n".join(lines)


def _noisy(value: float, error: float | None) -> str:
    return str(value) if error is None else f"{value} ±{error}"


def serve(options: Sequence[str]) -> int:
    """Run gunicorn with ``options``; 1 with one line on stderr when the server extra is missing."""
    try:
        require_server()
    except ServerExtraMissing as missing:
        print(f"{PROG}: {missing}", file=sys.stderr)
        return 1
    if not MALLOC_ENV.keys() <= os.environ.keys():
        # started without them: this process's allocator is set up already, so start again with them
        os.execve(sys.executable, [sys.executable, "-m", "gongzhu", "serve", *options],
                  {**MALLOC_ENV, **os.environ})
    from gongzhu.server import front

    if list(options) == ["--gunicorn-help"]:
        return subprocess.call([sys.executable, "-m", *argv(["--help"])])
    try:
        options = listen_on(options)
    except ValueError as refused:
        print(f"{PROG}: {refused}", file=sys.stderr)
        return 2
    gunicorn = [sys.executable, "-m", *argv(options)]
    host, port = settings.host(), settings.port()
    if in_use(host, port):
        print(f"{PROG}: {host}:{port} is in use (another server listens there); set PORT to a free port, "
              f"e.g. PORT={port + 1} {PROG} serve (from a checkout: PORT={port + 1} make run)", file=sys.stderr)
        return 1
    return front.run(gunicorn)


# gunicorn's port for a --bind without one
GUNICORN_PORT = "8000"


def listen_on(options: Sequence[str]) -> list[str]:
    """``options`` without gunicorn's ``--bind`` (``-b``, ``--bind=``, a prefix of ``--bind``), whose address
    becomes ``HOST`` and ``PORT``: nginx's listener, gunicorn being on its socket. ``ValueError`` saying why
    for a bind serve cannot listen on (a unix socket, a file descriptor, more than one)."""
    rest: list[str] = []
    binds: list[str] = []
    given = iter(options)
    for option in given:
        name, equals, value = option.partition("=")
        if option == "-b" or (len(name) >= 4 and "--bind".startswith(name)):
            binds.append(value if equals else next(given, ""))
        elif option.startswith("-b"):
            binds.append(option[2:])
        else:
            rest.append(option)
    if not binds:
        return rest
    if len(binds) > 1:
        raise ValueError(f"--bind {' --bind '.join(binds)}: serve listens on one address, HOST:PORT")
    bind = binds[0]
    bracketed = bind.startswith("[")
    host, colon, port = bind[1:].partition("]:") if bracketed else bind.rpartition(":")
    if not colon:
        host, port = bind.strip("[]"), GUNICORN_PORT
    if not host or (":" in host) != bracketed or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--bind {bind}: serve listens on HOST:PORT (nginx's listener, as HOST and PORT set "
                         f"it), e.g. --bind 127.0.0.1:9000; not on a unix socket or a file descriptor")
    os.environ.update({settings.HOST_ENV: host, settings.PORT_ENV: port})
    return rest


def in_use(host: str, port: int) -> bool:
    """Whether the TCP address nginx is to listen on is taken: asked before anything starts, for one
    line on what to do."""
    try:
        socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET).close()
    except OSError as error:
        return error.errno == errno.EADDRINUSE
    return False


def main(args: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status. A reader that closes the output early (``| head``) ends the
    command quietly, with status 1 as Python's documentation has it, not with a traceback."""
    try:
        return _main(args)
    except BrokenPipeError:
        # nothing more can be written; point stdout at /dev/null so the interpreter's last flush is quiet too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _main(args: Sequence[str] | None) -> int:
    args = list(sys.argv[1:] if args is None else args)
    if args[:1] == ["serve"] and args[1:] not in (["-h"], ["--help"]):
        return serve(args[1:])
    chosen = parser().parse_args(args)
    if chosen.version:
        print(about.version_text())
        return 0
    if chosen.command == "conformance":
        return conformance_runner.run(chosen)
    if chosen.command == "review":
        return review(chosen.file, chosen.json)
    if chosen.command == "solve":
        return solve(chosen.file, chosen.json)
    if chosen.command == "serve":  # only with -h, which argparse has answered
        return 0
    parser().print_help(sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
