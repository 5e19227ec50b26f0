"""WSGI entry point for gunicorn: ``gunicorn -c python:gongzhu.gunicorn_conf gongzhu.wsgi:app``."""
from gongzhu.api import create_app

app = create_app()
