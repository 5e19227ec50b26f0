"""gunicorn settings from the environment: ``HOST``, ``PORT``, ``WEB_CONCURRENCY`` and the ``GUNICORN_*`` below
(those nginx or the application reads too, with their defaults, are ``gongzhu.settings``'s); logs to stdout
(``logs.py``), metrics summed across workers (``gunicorn_hooks.py``), gunicorn's gthread worker (``gthread.py``).
``gongzhu-service serve`` (``front.py``) binds it to a unix socket (``GONGZHU_SOCKET``) behind nginx; alone, it
binds ``HOST:PORT``. Sizing and the measurements behind each default: docs/deployment.md.
"""
import os

from gongzhu import settings as shared
from gongzhu.server import gunicorn_hooks


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


_socket = os.environ.get(shared.SOCKET_ENV)
# Behind nginx, a second socket for /batch alone (gthread.py): its backlog is where batches wait for a worker.
_batch_socket = os.environ.get(shared.BATCH_SOCKET_ENV)
bind = ([f"unix:{_socket}", *([f"unix:{_batch_socket}"] if _batch_socket else [])] if _socket
        else f"{shared.host()}:{shared.port()}")
workers = shared.workers()
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gongzhu.server.gthread.ThreadWorker")
threads = shared.threads()
# Open connections per worker: nginx's, kept alive to the socket (``nginx.conf``'s upstream).
worker_connections = _env_int("GUNICORN_WORKER_CONNECTIONS", 1000)
keepalive = shared.keepalive_s()
# GUNICORN_REQUEST_TIMEOUT is nginx's and the application's (``gongzhu.settings``), not gunicorn's.
backlog = shared.backlog()
# A worker whose event loop is silent this long is stuck (requests run in threads and
# do not count): the master replaces it.
timeout = _env_int("GUNICORN_TIMEOUT", 30)
# Seconds a stopping worker may finish its requests; under serve, gunicorn's share of the stop budget
# (GONGZHU_STOP_SECONDS, front.StopBudget), which serve sets here.
graceful_timeout = _env_int(shared.GRACEFUL_TIMEOUT_ENV, shared.DEFAULT_GRACEFUL_TIMEOUT_S)
# Recycle a worker after this many requests (± jitter, so workers do not restart
# together): returns memory fragmented by large hostile bodies. 0 disables it.
max_requests = _env_int("GUNICORN_MAX_REQUESTS", 100_000)
max_requests_jitter = _env_int("GUNICORN_MAX_REQUESTS_JITTER", 10_000)
# Load the app before forking: workers share its memory and a broken app fails at start.
preload_app = True
accesslog = None
errorlog = "-"
loglevel = shared.log_level()
logger_class = "gongzhu.server.logs.GunicornLogger"
# Before the app is loaded: prometheus_client reads it when first imported.
gunicorn_hooks.prepare_metrics_dir()
pre_fork = gunicorn_hooks.pre_fork
post_fork = gunicorn_hooks.post_fork
worker_exit = gunicorn_hooks.worker_exit
child_exit = gunicorn_hooks.child_exit
on_exit = gunicorn_hooks.on_exit
# Behind nginx, no limits of gunicorn's own on a request's head: nginx has applied its limits (nginx.conf)
# and answers past them with problems. Alone (no nginx: front.alone), gunicorn's limits, near nginx's: a
# line or header field up to 8 KiB, 100 fields (past them, the 400 ``bad_request`` problem: gthread.py).
limit_request_line = 0 if _socket else 8190
limit_request_fields = 32768 if _socket else 100
limit_request_field_size = 0 if _socket else 8190
# No client sets the WSGI environ's SCRIPT_NAME or PATH_INFO (gunicorn's default list names them): gunicorn
# trusts every peer on a unix socket and, alone, loopback, so a `SCRIPT_NAME` header would move a request
# to another path. A header with an underscore in its name is dropped (header_map), as nginx drops it.
forwarder_headers = ""
header_map = "drop"
# X-Forwarded-* are trusted from nginx on the socket; a gunicorn served alone trusts them only when told to.
forwarded_allow_ips = "*" if _socket else os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# No runtime control socket (gunicorn ≥ 24): one fixed path per user would be shared
# by every server on the host, and a read-only root filesystem has nowhere to put it.
control_socket_disable = True
