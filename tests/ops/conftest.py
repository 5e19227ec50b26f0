"""A test client that reads each answer whole and closes it, as a WSGI server does:
a request is counted and logged when its answer is closed."""
from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from gongzhu.api import create_app


class ClosingClient(FlaskClient):
    def open(self, *args, **kwargs):
        kwargs.setdefault("buffered", True)
        return super().open(*args, **kwargs)


@pytest.fixture(scope="module")
def app():
    app = create_app()
    app.test_client_class = ClosingClient
    return app


@pytest.fixture()
def client(app):
    return app.test_client()
