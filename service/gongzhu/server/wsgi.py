"""WSGI entry point for gunicorn: ``gunicorn -c python:gongzhu.server.gunicorn_conf gongzhu.server.wsgi:app``."""
from gongzhu.api import create_app

app = create_app()
