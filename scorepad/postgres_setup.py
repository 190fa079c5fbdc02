"""`scorepad init-postgres`: the PostgreSQL user and database Scorepad needs, made for people.

Without an administrator's address it prints the commands to paste (Debian, Ubuntu and Raspberry
Pi OS let the `postgres` system user administer the server); with one (`--admin URL`) it creates
the user, with a generated password, and a database that user owns, then gives the DATABASE_URL
to start Scorepad with. Scorepad's own tables are made by its migrations at the first start.
"""

from __future__ import annotations

from sqlalchemy.engine import make_url

from scorepad.config import database_url_of


class Refused(Exception):
    """What could not be done, in a line."""


def _libpq(url: str) -> str:
    """A postgresql:// address as libpq (and psycopg) read it: SQLAlchemy's driver name left out."""
    return make_url(database_url_of(url)).set(drivername="postgresql").render_as_string(hide_password=False)


def commands(name: str, user: str, password: str) -> str:
    return "\n".join(
        [
            "Run these on the PostgreSQL server's machine, as its administrator (Debian, Ubuntu, Raspberry Pi OS):",
            f"  sudo -u postgres psql -c \"CREATE ROLE {user} LOGIN PASSWORD '{password}'\"",
            f"  sudo -u postgres createdb --owner={user} --encoding=UTF8 --template=template0 {name}",
            "Then start Scorepad with (on another machine, the server's name in place of localhost):",
            f"  DATABASE_URL='postgresql://{user}:{password}@localhost/{name}' scorepad run",
            "Or let this command do it: scorepad init-postgres --admin postgresql://postgres:PASSWORD@localhost/postgres",
        ]
    )


def create(admin_url: str, name: str, user: str, password: str) -> str:
    """Create `user` (with `password`) and the database `name` it owns; the DATABASE_URL to use."""
    import psycopg
    from psycopg import sql
    from sqlalchemy.exc import ArgumentError

    try:
        conninfo = _libpq(admin_url)
    except ArgumentError as e:
        raise Refused(
            f"--admin is not a PostgreSQL address (postgresql://postgres:PASSWORD@host/postgres): {e}"
        ) from None
    try:
        with psycopg.connect(conninfo, autocommit=True, connect_timeout=10) as conn:
            if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (user,)).fetchone():
                raise Refused(
                    f'PostgreSQL already has a user "{user}": name another with --user, '
                    f"or put that one's password in DATABASE_URL."
                )
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                raise Refused(f'PostgreSQL already has a database "{name}": name another with --database.')
            conn.execute(
                sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(user), sql.Literal(password))
            )
            conn.execute(
                sql.SQL("CREATE DATABASE {} OWNER {} ENCODING 'UTF8' TEMPLATE template0").format(
                    sql.Identifier(name), sql.Identifier(user)
                )
            )
    except psycopg.Error as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise Refused(f"PostgreSQL refused: {first} (is --admin a superuser's address?)") from None
    return make_url(conninfo).set(username=user, password=password, database=name).render_as_string(hide_password=False)
