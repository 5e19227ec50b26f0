"""The ``gongzhu-service`` command (also ``python -m gongzhu``).

- ``gongzhu-service serve [gunicorn options]`` runs what ``make run`` runs,
  ``gunicorn -c python:gongzhu.gunicorn_conf gongzhu.wsgi:app``, in this process
  (``PORT``, ``WEB_CONCURRENCY`` and every other setting as for ``make run``);
  every option after ``serve`` goes to gunicorn, e.g. ``serve --workers 4``.
  It needs the ``server`` extra; without it, it says what to install.
- ``gongzhu-service --version``: the service and contract versions, the engine
  build and the commit (``gongzhu.about``); works with the engine alone.
- ``gongzhu-service conformance --base-url URL`` runs the conformance cases against a server
  (``--in-process``: against this package's app), docs/conformance.md.
- ``gongzhu-service --help``, ``gongzhu-service serve --help``: this command's help.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from gongzhu import about
from gongzhu.conformance import runner as conformance_runner
from gongzhu.server_extra import ServerExtraMissing, require_server

PROG = "gongzhu-service"
CONFIG = "python:gongzhu.gunicorn_conf"
APP = "gongzhu.wsgi:app"
SERVE_HELP = f"""Serve the API with gunicorn, as `make run` does:
  gunicorn -c {CONFIG} [options] {APP}
Settings come from the environment: PORT (8080), HOST (0.0.0.0), WEB_CONCURRENCY
(gunicorn workers, 2 x cores + 1), GONGZHU_MAX_BODY, GONGZHU_LOG_FORMAT, ...
(docs/operations.md). Every option after `serve` goes to gunicorn, e.g.
  {PROG} serve --workers 4 --bind 127.0.0.1:9000
and `{PROG} serve --gunicorn-help` prints gunicorn's own options."""


def argv(extra: Sequence[str]) -> list[str]:
    """gunicorn's command line for ``extra`` options."""
    return ["gunicorn", "-c", CONFIG, *extra, APP]


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog=PROG, description="gongzhu-service: the rules of Gong Zhu (拱猪) as a stateless REST API.",
        epilog=f"`python -m gongzhu` is the same command. `{PROG} serve --help` for serving.")
    top.add_argument("--version", action="store_true",
                     help="print the service and contract versions, the engine build and the commit")
    commands = top.add_subparsers(dest="command", metavar="{serve,conformance}")
    commands.add_parser("serve", help="serve the API with gunicorn (what `make run` does)",
                        usage=f"{PROG} serve [-h] [gunicorn options ...]", description=SERVE_HELP,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    conformance = commands.add_parser("conformance", help="check a server against the conformance cases",
                                      description=conformance_runner.__doc__,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
    conformance_runner.add_arguments(conformance)
    return top


def serve(options: Sequence[str]) -> int:
    """Run gunicorn with ``options``; 1 with one line on stderr when the server extra is missing."""
    try:
        require_server()
    except ServerExtraMissing as missing:
        print(f"{PROG}: {missing}", file=sys.stderr)
        return 1
    from gunicorn.app.wsgiapp import run

    if list(options) == ["--gunicorn-help"]:
        options = ["--help"]
    sys.argv = argv(options)
    run()
    return 0


def main(args: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status."""
    args = list(sys.argv[1:] if args is None else args)
    if args[:1] == ["serve"] and args[1:] not in (["-h"], ["--help"]):
        return serve(args[1:])
    chosen = parser().parse_args(args)
    if chosen.version:
        print(about.version_text())
        return 0
    if chosen.command == "conformance":
        return conformance_runner.run(chosen)
    if chosen.command == "serve":  # only with -h, which argparse has answered
        return 0
    parser().print_help(sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
