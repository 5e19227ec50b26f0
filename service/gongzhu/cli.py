"""The ``gongzhu-service`` command: gunicorn as ``make run`` starts it.

``gongzhu-service [gunicorn options]`` runs
``gunicorn -c python:gongzhu.gunicorn_conf gongzhu.wsgi:app`` in this process
(``PORT``, ``WEB_CONCURRENCY`` and every other setting as for ``make run``); extra
options go to gunicorn, e.g. ``gongzhu-service --workers 4``.
"""
from __future__ import annotations

import sys

CONFIG = "python:gongzhu.gunicorn_conf"
APP = "gongzhu.wsgi:app"


def argv(extra: list[str]) -> list[str]:
    """gunicorn's command line for ``extra`` options."""
    return ["gunicorn", "-c", CONFIG, *extra, APP]


def main() -> None:
    from gunicorn.app.wsgiapp import run

    sys.argv = argv(sys.argv[1:])
    run()


if __name__ == "__main__":
    main()
