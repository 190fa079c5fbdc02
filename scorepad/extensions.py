"""Extensions created unbound, then attached to each app in `create_app` (one set per app)."""

from __future__ import annotations

import os
import sqlite3
from typing import Any

from flask_compress import Compress
from flask_htmx import HTMX
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

# Named constraints, so migrations can alter them on SQLite and PostgreSQL alike.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
htmx = HTMX()
csrf = CSRFProtect()
compress = Compress()


JOURNAL_MODES = ("WAL", "DELETE", "TRUNCATE", "PERSIST")
SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA", "OFF")


def _sqlite_setting(name: str, default: str, allowed: tuple[str, ...]) -> str:
    value = os.environ.get(name, default).strip().upper() or default
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets the projector read while phones write; foreign keys keep hands tied to games.

    WAL with synchronous=NORMAL is the choice (docs/operations.md, "SQLite's settings"): no fsync on each commit, a
    commit survives the server being killed at any moment (bench/durability.py: 0 lost under kill -9),
    and only a power cut may lose the last commits. SCOREPAD_SQLITE_JOURNAL and
    SCOREPAD_SQLITE_SYNCHRONOUS change them, for the benchmarks that compare (bench/two_phones.py)."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA journal_mode={_sqlite_setting('SCOREPAD_SQLITE_JOURNAL', 'WAL', JOURNAL_MODES)}")
        cursor.execute(f"PRAGMA synchronous={_sqlite_setting('SCOREPAD_SQLITE_SYNCHRONOUS', 'NORMAL', SYNCHRONOUS)}")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()
