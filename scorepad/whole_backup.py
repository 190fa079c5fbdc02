"""`scorepad backup FILE` and `scorepad restore FILE`: the whole database as one file and back.

On SQLite a backup is made with SQLite's online backup API, so it is consistent even while the
server writes (the WAL's last commits included), into a single self-contained file; a restore
writes a backup back the same way, after checking it is a Scorepad database this version can
upgrade, and keeps the database it replaces beside it. Neither overwrites anything without
`force`. On PostgreSQL both say which `pg_dump` / `pg_restore` command to run
(docs/operations.md). The per-event backups of events/backup.py are another thing: one event,
restored as a new event with new links, on any server.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy.engine import make_url

from scorepad.data_folder import copy_database, sqlite_path

SQLITE_HEADER = b"SQLite format 3\x00"


class Refused(Exception):
    """What was not done, and what to do instead: one line (or a few) for the terminal."""


def _postgres_url(database_url: str) -> str:
    """The URL as pg_dump reads it: no SQLAlchemy driver, the password left out (libpq asks)."""
    url = make_url(database_url).set(drivername="postgresql")._replace(password=None)
    return url.render_as_string(hide_password=False)


def counts(path: Path) -> tuple[int, int]:
    """Games and events in a Scorepad SQLite database."""
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as con:
        games = con.execute("SELECT count(*) FROM game").fetchone()[0]
        events = con.execute("SELECT count(*) FROM event").fetchone()[0]
    con.close()
    return int(games), int(events)


def _said(games: int, events: int) -> str:
    return f"{games} game{'s' * (games != 1)} and {events} event{'s' * (events != 1)}"


def backup(database_url: str, file: Path, force: bool = False) -> str:
    """Copy the whole database to `file`; what was done, in a line."""
    path = sqlite_path(database_url)
    if path is None:
        raise Refused(
            f"The database is on PostgreSQL: back it up with pg_dump, e.g.\n"
            f"  pg_dump --format=custom --file {file} '{_postgres_url(database_url)}'\n"
            f"(docs/operations.md says how to restore it)."
        )
    if not path.is_file():
        raise Refused(f"There is no database at {path} yet: nothing to back up.")
    if file.exists() and not force:
        raise Refused(f"{file} already exists: give another name, or add --force to overwrite it.")
    part = file.with_name(file.name + ".part")
    try:
        copy_database(path, part)
        part.replace(file)
    except (OSError, sqlite3.Error) as e:
        part.unlink(missing_ok=True)
        raise Refused(f"Could not write {file}: {e}.") from e
    return f"Backed up {_said(*counts(file))} from {path} to {file} ({file.stat().st_size // 1024 + 1} KB)."


def check_backup(file: Path, known_revision: Callable[[str], bool]) -> str:
    """The database version (Alembic revision) of a backup file, once it is known to be a Scorepad
    database this version of Scorepad can read; else Refused, saying why."""
    try:
        with file.open("rb") as f:
            header = f.read(len(SQLITE_HEADER))
    except OSError as e:
        raise Refused(f"{file}: cannot read the file ({e.strerror or e}).") from e
    if header != SQLITE_HEADER:
        raise Refused(f"{file} is not a Scorepad backup (not a SQLite database).")
    try:
        with sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True) as con:
            tables = {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            revision = (
                con.execute("SELECT version_num FROM alembic_version").fetchone()
                if "alembic_version" in tables
                else None
            )
        con.close()
    except sqlite3.Error as e:
        raise Refused(f"{file} is not a usable Scorepad backup ({e}).") from e
    if revision is None or not {"game", "event"} <= tables:
        raise Refused(f"{file} is not a Scorepad backup (it has no Scorepad tables).")
    if not known_revision(revision[0]):
        raise Refused(
            f"{file} was made by a newer version of Scorepad (database version {revision[0]}): "
            f"upgrade Scorepad first (docs/operations.md), then restore it."
        )
    return str(revision[0])


def restore(database_url: str, file: Path, known_revision: Callable[[str], bool], force: bool = False) -> str:
    """Replace the whole database with the backup `file`; what was done, in a line. The database
    replaced is kept beside it (`scorepad.sqlite3.before-restore-<time>`)."""
    path = sqlite_path(database_url)
    if path is None:
        raise Refused(
            f"The database is on PostgreSQL: restore a pg_dump backup with pg_restore, e.g.\n"
            f"  pg_restore --clean --if-exists --no-owner --dbname '{_postgres_url(database_url)}' {file}\n"
            f"(stop Scorepad first; docs/operations.md)."
        )
    check_backup(file, known_revision)
    kept = None
    if path.is_file():
        if not force:
            games, events = counts(path) if _is_scorepad(path) else (0, 0)
            raise Refused(
                f"{path} already holds {_said(games, events)}: stop Scorepad and add --force to "
                f"replace them with the backup (the current database is kept beside it)."
            )
        kept = path.with_name(f"{path.name}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}")
        copy_database(path, kept)
    path.parent.mkdir(parents=True, exist_ok=True)
    src, dst = sqlite3.connect(file), sqlite3.connect(path)
    try:
        src.backup(dst)  # written through SQLite's own locking: a connection still open sees the backup
    finally:
        dst.close()
        src.close()
    said = f"Restored {_said(*counts(path))} from {file} into {path}."
    return said + (f" The database it replaced is kept as {kept}." if kept else "")


def _is_scorepad(path: Path) -> bool:
    try:
        with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as con:
            found = con.execute("SELECT count(*) FROM sqlite_master WHERE name IN ('game', 'event')").fetchone()[0]
        con.close()
        return bool(found == 2)
    except sqlite3.Error:
        return False
