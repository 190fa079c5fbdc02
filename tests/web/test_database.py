"""The schema comes from migrations, matches the models, and SQLite runs in WAL with foreign keys."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from sqlalchemy import text

from scorepad.extensions import db


# Migration 0003 adds these two foreign keys as column constraints (SQLite cannot add a table
# constraint without copying the table, and copying `game` would cascade to its hands). SQLite
# enforces them, but SQLAlchemy reads their name and ON DELETE back as blank: checked below instead.
INLINE_FOREIGN_KEYS = {("game", "event_id", "event", "CASCADE"), ("event_table", "game_id", "game", "SET NULL")}


def _fk(op: object) -> tuple[str, str, str] | None:
    if isinstance(op, tuple) and op[0] in ("add_fk", "remove_fk"):
        fk = op[1]
        return (fk.table.name, fk.column_keys[0], fk.referred_table.name)
    return None


def test_migrations_match_the_models(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
        inline = {(t, c, r) for t, c, r, _ in INLINE_FOREIGN_KEYS}
        assert [op for op in diff if _fk(op) not in inline] == []
        for table, column, referred, on_delete in INLINE_FOREIGN_KEYS:
            rows = conn.execute(text(f"PRAGMA foreign_key_list({table})")).all()
            assert (referred, column, on_delete) in {(r[2], r[3], r[6]) for r in rows}


def test_sqlite_runs_in_wal_mode_with_foreign_keys(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
