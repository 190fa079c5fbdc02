"""The schema comes from migrations, matches the models, and SQLite runs in WAL with foreign keys."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from sqlalchemy import text

from scorepad.extensions import db


def test_migrations_match_the_models(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
    assert diff == []


def test_sqlite_runs_in_wal_mode_with_foreign_keys(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
