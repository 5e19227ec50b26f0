"""The HTTP server around the app: nginx in front (``front``, ``nginx.conf``), the gunicorn worker and
settings (``gthread``, ``gunicorn_conf``, ``gunicorn_hooks``), the WSGI entry point (``wsgi``), the log
lines (``logs``) and the check that the ``server`` extra is installed (``server_extra``). Importing this
package imports none of them."""
