"""gunicorn settings from the environment: ``HOST`` (127.0.0.1), ``PORT`` (8080), ``WEB_CONCURRENCY``
(2 × cores + 1) and the ``GUNICORN_*`` below; logs to stdout (``logs.py``), metrics summed across
workers (``gunicorn_hooks.py``), gunicorn's gthread worker (``gthread.py``). ``gongzhu-service serve`` (``front.py``)
binds it to a unix socket (``GONGZHU_SOCKET``) behind nginx; alone, it binds ``HOST:PORT``. Sizing and
the measurements behind each default: docs/deployment.md.
"""
import multiprocessing
import os

from gongzhu.server import gunicorn_hooks


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


# Loopback unless HOST says otherwise: the answers include all four hands, so a server started
# on a laptop is not offered to the whole network (the image sets HOST=0.0.0.0).
_socket = os.environ.get("GONGZHU_SOCKET")
# Behind nginx, a second socket for /batch alone (gthread.py): its backlog is where batches wait for a worker.
_batch_socket = os.environ.get("GONGZHU_BATCH_SOCKET")
bind = ([f"unix:{_socket}", *([f"unix:{_batch_socket}"] if _batch_socket else [])] if _socket
        else f"{os.environ.get('HOST', '127.0.0.1')}:{_env_int('PORT', 8080)}")
workers = _env_int("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1)
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gongzhu.server.gthread.ThreadWorker")
# Request threads per worker. Requests are CPU-bound Python: one process runs one at a
# time (the GIL), so more threads add queueing, not throughput; 4 leave room for a bot
# call (service/gongzhu/api/slots.py) while others answer.
threads = _env_int("GUNICORN_THREADS", 4)
# Open connections per worker: nginx's, kept alive to the socket (``nginx.conf``'s upstream).
worker_connections = _env_int("GUNICORN_WORKER_CONNECTIONS", 1000)
# Seconds an idle connection (new or between requests) is kept before it is closed.
keepalive = _env_int("GUNICORN_KEEPALIVE", 10)
# GUNICORN_REQUEST_TIMEOUT (10 s) is read by nginx (a request must arrive whole, and its answer be read,
# within it) and by the application (a request that waited longer is not started): front.py, pipeline.py.
# Connections the kernel queues before any worker accepts them: a short queue sheds
# load (connection refused, retried elsewhere) instead of hiding it.
backlog = _env_int("GUNICORN_BACKLOG", 256)
# A worker whose event loop is silent this long is stuck (requests run in threads and
# do not count): the master replaces it.
timeout = _env_int("GUNICORN_TIMEOUT", 30)
# Seconds a stopping worker may finish its requests; under serve, gunicorn's share of the stop budget
# (GONGZHU_STOP_SECONDS, front.StopBudget), which serve sets here.
graceful_timeout = _env_int("GUNICORN_GRACEFUL_TIMEOUT", 20)
# Recycle a worker after this many requests (± jitter, so workers do not restart
# together): returns memory fragmented by large hostile bodies. 0 disables it.
max_requests = _env_int("GUNICORN_MAX_REQUESTS", 100_000)
max_requests_jitter = _env_int("GUNICORN_MAX_REQUESTS_JITTER", 10_000)
# Load the app before forking: workers share its memory and a broken app fails at start.
preload_app = True
accesslog = None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
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
