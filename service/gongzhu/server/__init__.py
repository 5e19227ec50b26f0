"""The HTTP server around the app: nginx in front (``front``, ``nginx.conf``), the gunicorn worker and
settings (``gthread``, ``gunicorn_conf``, ``gunicorn_hooks``), the WSGI entry point (``wsgi``) and the log
lines (``logs``). Importing this package imports none of them. The settings it shares with the HTTP layer are
``gongzhu.settings``'s."""
