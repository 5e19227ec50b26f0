"""The HTTP server around the app: the gunicorn worker and settings (``worker``,
``gunicorn_conf``, ``gunicorn_hooks``), the WSGI entry point (``wsgi``), the logs
(``logs``, ``log_lines``) and the check that the ``server`` extra is installed
(``server_extra``). Importing this package imports none of them."""
