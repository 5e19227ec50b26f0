"""WSGI entry point for gunicorn: ``gunicorn -c python:service.gunicorn_conf service.wsgi:app``."""
from service.api import create_app

app = create_app()
