"""A database that cannot be used at start, said in one plain line with what to do: a missing
PostgreSQL database or user, a refused password, a server not running, a SQLite file that cannot be
opened, a database upgraded by a newer Scorepad. `scorepad`'s commands print it instead of a
traceback (cli.py)."""

from __future__ import annotations

import re

from sqlalchemy.engine import make_url

from scorepad.data_folder import sqlite_path

SEE = "(docs/operations.md)"


def plain(error: BaseException, database_url: str | None) -> str | None:
    """One line for `error`, or None when it is no database problem this knows."""
    from alembic.util.exc import CommandError
    from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

    if isinstance(error, NoSuchModuleError) or (isinstance(error, ModuleNotFoundError) and _in_sqlalchemy(error)):
        return (
            f"DATABASE_URL names a database Scorepad has no driver for: leave it unset for SQLite, "
            f"or give a postgresql:// address {SEE}."
        )
    if isinstance(error, ArgumentError) and "URL" in str(error):
        return f"DATABASE_URL is not a database address (postgresql://user:password@host/name) {SEE}."
    if isinstance(error, CommandError) and "Can't locate revision" in str(error):
        return (
            "This database was upgraded by a newer version of Scorepad: install that version again, "
            f"or restore a backup made with this one {SEE}."
        )
    if not isinstance(error, DBAPIError) or database_url is None:
        return None
    said = str(error.orig).strip()
    path = sqlite_path(database_url)
    if path is not None:
        if "unable to open" in said:
            return (
                f"Cannot open the SQLite database {path}: check that its folder exists and can be written "
                f"(--data or SCOREPAD_DATA names another folder)."
            )
        if "not a database" in said:
            return f"{path} is not a SQLite database: move it away, or name another folder with --data."
        return f"The SQLite database {path} cannot be used: {said.splitlines()[0]}."
    url = make_url(database_url)
    name, user = url.database or "", url.username or ""
    where = f"{url.host or 'localhost'}{f':{url.port}' if url.port else ''}"
    if re.search(r'database ".*" does not exist', said):
        return (
            f'PostgreSQL has no database "{name}": create it and its user with `scorepad init-postgres` '
            f"{SEE}, or correct DATABASE_URL."
        )
    if re.search(r'role ".*" does not exist', said):
        return (
            f'PostgreSQL has no user "{user}": create it and the database with `scorepad init-postgres` '
            f"{SEE}, or correct DATABASE_URL."
        )
    if "password authentication failed" in said or "no password supplied" in said:
        return f'PostgreSQL refused the password of user "{user}": correct it in DATABASE_URL {SEE}.'
    if "permission denied" in said:
        return (
            f'PostgreSQL user "{user}" may not use database "{name}": make it the database\'s owner '
            f"(`scorepad init-postgres` does) {SEE}."
        )
    if "could not translate host name" in said or "Name or service not known" in said:
        return f"No computer is called {url.host!r} (the host in DATABASE_URL): correct it {SEE}."
    if (
        "Connection refused" in said
        or "No such file or directory" in said
        or "could not connect" in said
        or "connection failed" in said
    ):
        return (
            f"Cannot reach PostgreSQL at {where}: start it (sudo systemctl start postgresql), or correct "
            f"the host and port in DATABASE_URL {SEE}."
        )
    return f"The database cannot be used: {said.splitlines()[0] if said else type(error.orig).__name__} {SEE}."


def _in_sqlalchemy(error: BaseException) -> bool:
    """A driver SQLAlchemy's dialect tried to import (mysql:// without MySQLdb, say)."""
    frame = error.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    return frame is not None and "/sqlalchemy/dialects/" in frame.tb_frame.f_code.co_filename.replace("\\", "/")
