"""Where Scorepad keeps its data: the SQLite database and the secret key that signs sessions.

By default a per-user data folder (platformdirs: `~/.local/share/Scorepad` on Linux,
`~/Library/Application Support/Scorepad` on macOS, `%LOCALAPPDATA%\\Scorepad` on Windows), or the
folder named by `--data` / SCOREPAD_DATA; never inside the install, so recreating the virtual
environment or installing a new version keeps every game. `create_app` makes it the app's instance
folder.

Scorepad used to keep them in Flask's instance folder, which after a plain `pip install .` is inside
the virtual environment (`<venv>/var/scorepad-instance/`). `adopt_old_database` moves a database
found there to the data folder, once, and says so; the old file is kept beside, renamed.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path
from urllib.parse import unquote

from sqlalchemy.engine import make_url

ENV = "SCOREPAD_DATA"
DATABASE_FILE = "scorepad.sqlite3"
SECRET_FILE = "secret_key"
MOVED_SUFFIX = ".moved"


def folder() -> Path:
    """The data folder: SCOREPAD_DATA when set, else the per-user one."""
    named = os.environ.get(ENV, "").strip()
    if named:
        return Path(named).expanduser().resolve()
    from platformdirs import user_data_path

    return user_data_path("Scorepad", appauthor=False).resolve()


def old_folder() -> Path:
    """Where Scorepad kept its data before: Flask's instance folder for the package (in a checkout,
    `instance/` beside it; in an install, `<prefix>/var/scorepad-instance/`)."""
    from flask import Flask

    return Path(Flask("scorepad").instance_path).resolve()


def sqlite_path(database_url: str) -> Path | None:
    """The file of a SQLite URL (None for another database, or SQLite in memory)."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(unquote(url.database))


def describe(database_url: str) -> str:
    """Where the data is, in a line for `scorepad run`'s banner (never a password)."""
    path = sqlite_path(database_url)
    if path is not None:
        return f"Data: {path} (back it up with: scorepad backup FILE)"
    url = make_url(database_url)
    where = f" on {url.host}" if url.host else ""
    return (
        f"Data: {url.get_backend_name()} database {url.database}{where} (back it up with pg_dump: docs/operations.md)"
    )


def adopt_old_database(new: Path | None = None, old: Path | None = None) -> str | None:
    """Move the database (and secret key) from the old instance folder to the data folder when
    the data folder has none and DATABASE_URL names no other; say what was done, or None.

    The copy is made with SQLite's backup API (the WAL's last commits included) under a temporary
    name, then put in place; the old file is renamed `scorepad.sqlite3.moved` (kept, in case), so
    it is never used again in place of the new one."""
    if os.environ.get("DATABASE_URL"):
        return None
    new = new or folder()
    old = old or old_folder()
    source, target = old / DATABASE_FILE, new / DATABASE_FILE
    if old == new or not source.is_file() or target.exists():
        return None
    new.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    copy_database(source, part)
    part.replace(target)
    if (old / SECRET_FILE).is_file() and not (new / SECRET_FILE).exists():
        shutil.copy2(old / SECRET_FILE, new / SECRET_FILE)  # the phones' sessions stay signed by it
    for leftover in (source.with_name(source.name + "-wal"), source.with_name(source.name + "-shm")):
        leftover.unlink(missing_ok=True)  # their commits are in the copy (and were checkpointed)
    source.replace(source.with_name(source.name + MOVED_SUFFIX))
    return (
        f"Moved the database from {source} to {target}: Scorepad keeps its data outside the install now "
        f"(the old file is kept as {source.name}{MOVED_SUFFIX})."
    )


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy of a SQLite database, even while a server writes to it (SQLite's online
    backup API); the copy is a single file (no WAL beside it)."""
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    finally:
        dst.close()
        src.close()
