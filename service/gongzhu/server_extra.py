"""The HTTP server needs the ``server`` extra; the engine (``gongzhu.rules``,
``gongzhu.bot``) needs nothing beyond the standard library.

``require_server()`` is called before anything of the server is imported (by
``gongzhu.api``, so by ``create_app()`` and ``gongzhu.server.wsgi``, and by
``gongzhu-service serve``): without the extra it fails with one line that says
what to install, instead of a ``ModuleNotFoundError`` from deep inside an import.
"""
from __future__ import annotations

from importlib.util import find_spec

INSTALL = "pip install 'gongzhu-service[server]'"
# The import names of the server extra's packages (pyproject.toml, [server]).
SERVER_MODULES = ("flask", "flask_swagger_ui", "marshmallow", "gunicorn", "jsonschema_rs", "orjson",
                  "prometheus_client", "yaml")


class ServerExtraMissing(ImportError):
    """The ``server`` extra is not installed."""


def missing_modules() -> list[str]:
    """The server's modules that cannot be imported here."""
    return [name for name in SERVER_MODULES if find_spec(name) is None]


def require_server() -> None:
    """Raise ``ServerExtraMissing`` naming the install command when the extra is missing."""
    missing = missing_modules()
    if missing:
        raise ServerExtraMissing(f"the gongzhu-service HTTP server needs the server extra "
                                 f"({', '.join(missing)} not installed): {INSTALL}")
