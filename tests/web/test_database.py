"""The schema comes from migrations, matches the models, and SQLite runs in WAL with foreign keys.

The migrations also apply on PostgreSQL (issue 17): from an empty database up, down to nothing and
up again, on a throwaway server (`tests/postgres.py`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import downgrade
from sqlalchemy import inspect, text

from scorepad import create_app
from scorepad.config import database_url_of
from scorepad.extensions import db
from tests import postgres
from tests.conftest import DATABASES, config_for, migrate, release

# Migration 0003 adds these two foreign keys as column constraints (SQLite cannot add a table
# constraint without copying the table, and copying `game` would cascade to its hands). SQLite
# enforces them, but SQLAlchemy reads their name and ON DELETE back as blank: checked below instead.
INLINE_FOREIGN_KEYS = {("game", "event_id", "event", "CASCADE"), ("event_table", "game_id", "game", "SET NULL")}


def _fk(op: object) -> tuple[str, str, str] | None:
    if isinstance(op, tuple) and op[0] in ("add_fk", "remove_fk"):
        fk = op[1]
        return (fk.table.name, fk.column_keys[0], fk.referred_table.name)
    return None


def differences(app: Flask) -> list[object]:
    """What the database's schema lacks or has beyond the models (foreign keys SQLite reads back
    blank are checked by their own look-up)."""
    with app.app_context(), db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
        if conn.dialect.name != "sqlite":
            return list(diff)
        inline = {(t, c, r) for t, c, r, _ in INLINE_FOREIGN_KEYS}
        for table, column, referred, on_delete in INLINE_FOREIGN_KEYS:
            rows = conn.execute(text(f"PRAGMA foreign_key_list({table})")).all()
            assert (referred, column, on_delete) in {(r[2], r[3], r[6]) for r in rows}
        return [op for op in diff if _fk(op) not in inline]


@pytest.mark.postgresql
def test_migrations_match_the_models(app: Flask) -> None:
    assert differences(app) == []


@pytest.fixture(params=DATABASES)
def empty_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """An app on an empty database (no migration applied), SQLite or PostgreSQL."""
    if request.param == "sqlite":
        app = create_app(config_for(f"sqlite:///{tmp_path / 'empty.sqlite3'}"))
        yield app
        release(app)
        return
    cluster: postgres.Cluster = request.getfixturevalue("postgresql")
    name = cluster.create_database()
    app = create_app(config_for(cluster.url(name)))
    yield app
    release(app)
    cluster.drop_database(name)


def test_migrations_apply_from_nothing_and_go_down_and_up_again(empty_app: Flask) -> None:
    migrate(empty_app)
    assert differences(empty_app) == []
    with empty_app.app_context():
        downgrade(directory=empty_app.extensions["migrate"].directory, revision="base")
        assert set(inspect(db.engine).get_table_names()) == {"alembic_version"}
    release(empty_app)
    migrate(empty_app)
    assert differences(empty_app) == []


def test_sqlite_runs_in_wal_mode_with_foreign_keys(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1


@pytest.mark.parametrize(
    ("given", "read"),
    [
        ("postgresql://u:pw@db/scorepad", "postgresql+psycopg://u:pw@db/scorepad"),
        ("postgres://u:pw@db/scorepad", "postgresql+psycopg://u:pw@db/scorepad"),
        ("postgresql+psycopg2://u@db/s", "postgresql+psycopg2://u@db/s"),
        ("sqlite:///x.sqlite3", "sqlite:///x.sqlite3"),
    ],
)
def test_a_postgresql_url_is_served_by_psycopg_3_the_driver_installed_with_the_app(given: str, read: str) -> None:
    assert database_url_of(given) == read


def test_without_postgresql_its_tests_are_skipped_but_under_ci_they_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(postgres, "find_binaries", lambda: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="PostgreSQL is not installed"):
        postgres.binaries_or_skip()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set, so the PostgreSQL tests must run"):
        postgres.binaries_or_skip()
