"""Fixtures shared by the web and browser tests: a fresh app and database for every test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

from scorepad import create_app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """An app on its own SQLite file, migrated exactly as `scorepad run` does it."""
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
        "WTF_CSRF_ENABLED": False,
        "SCOREPAD_DEMO": False,
    })
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
