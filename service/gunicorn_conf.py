"""gunicorn settings, read from the environment (12-factor).

``PORT`` (default 8080) and ``WEB_CONCURRENCY`` (workers; default 2 × cores + 1)
are the platform conventions; every log line (access lines included, written by
the app) goes to stdout as JSON, or text with ``GONGZHU_LOG_FORMAT=text``
(service/logs.py). Metrics are summed across workers (service/gunicorn_hooks.py).
Use: ``gunicorn -c python:service.gunicorn_conf service.wsgi:app``.
"""
import multiprocessing
import os

from service import gunicorn_hooks

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{int(os.environ.get('PORT', '8080'))}"
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
worker_class = "sync"
# A request is CPU-bound and short: a worker silent this long is stuck.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
# Load the app before forking: workers share its memory and a broken app fails at start.
preload_app = True
accesslog = None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
logger_class = "service.logs.GunicornLogger"
# Before the app is loaded: prometheus_client reads it when first imported.
gunicorn_hooks.prepare_metrics_dir()
child_exit = gunicorn_hooks.child_exit
on_exit = gunicorn_hooks.on_exit
# gunicorn answers an over-long request line itself, in plain text and outside the
# contract: allow its maximum, far beyond any URL of this API (/ranks/{points}).
limit_request_line = 8190
# Behind a proxy or ingress: trust X-Forwarded-* from it only when told to.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# No runtime control socket (gunicorn ≥ 24): one fixed path per user would be shared
# by every server on the host, and a read-only root filesystem has nowhere to put it.
control_socket_disable = True
