"""Running Scorepad for a club (issue 29, items 2 and 4): the data outside the install, an old
database adopted, the whole database backed up and restored, PostgreSQL's user and database made
for people, and a database that cannot be used said in one line."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorepad import data_folder
from tests.postgres import Cluster
from tests.serving import CHECKOUT, SCOREPAD
from tests.slowness import scaled


def scorepad(*args: str, data: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """`scorepad ARGS` as a user runs it, on this checkout's code; `data` is SCOREPAD_DATA."""
    environ = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SCOREPAD_DATA")}
    environ.update({"PYTHONPATH": str(CHECKOUT), "SCOREPAD_DEMO": "0", **env})
    if data is not None:
        environ["SCOREPAD_DATA"] = str(data)
    return subprocess.run(
        [str(SCOREPAD), *args],
        env=environ,
        capture_output=True,
        text=True,
        timeout=scaled(120),
        cwd=data.parent if data else None,
    )


def rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of a SQLite database, sorted: two databases hold the same data."""
    with sqlite3.connect(path) as con:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        found = {t: sorted(con.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}
    con.close()
    return found


def test_the_data_folder_is_the_users_never_the_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from platformdirs import user_data_path

    monkeypatch.delenv("SCOREPAD_DATA")
    assert data_folder.folder() == user_data_path("Scorepad", appauthor=False).resolve()
    monkeypatch.setenv("SCOREPAD_DATA", str(tmp_path / "club"))
    assert data_folder.folder() == tmp_path / "club"

    # a fresh user (HOME of their own) on Linux: the database lands in ~/.local/share/Scorepad
    home = tmp_path / "home"
    done = scorepad("init-db", HOME=str(home), XDG_DATA_HOME="")
    assert done.returncode == 0, done.stderr
    database = home / ".local" / "share" / "Scorepad" / "scorepad.sqlite3"
    assert database.is_file() and (database.parent / "secret_key").is_file()
    assert not database.is_relative_to(sys.prefix) and not database.is_relative_to(CHECKOUT)


def make_club_database(data: Path) -> Path:
    """A data folder with the demo games (home games of every variant) and the demo Military event."""
    for command in ("init-db", "load-demo"):
        done = scorepad(command, data=data)
        assert done.returncode == 0, done.stderr
    return data / "scorepad.sqlite3"


def test_backup_and_restore_round_trip_a_database_with_games_and_an_event(tmp_path: Path) -> None:
    database = make_club_database(tmp_path / "hall")
    with sqlite3.connect(database) as con:
        games, events = (con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("game", "event"))
        director = con.execute("SELECT director_token FROM event").fetchone()[0]
    con.close()
    assert games >= 5 and events == 1

    done = scorepad("backup", str(tmp_path / "saturday.sqlite3"), data=tmp_path / "hall")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        f"Backed up {games} games and 1 event from {database} to {tmp_path / 'saturday.sqlite3'}"
    )
    again = scorepad("backup", str(tmp_path / "saturday.sqlite3"), data=tmp_path / "hall")
    assert again.returncode == 1
    assert again.stderr.strip() == (
        f"Error: {tmp_path / 'saturday.sqlite3'} already exists: give another name, or add --force to overwrite it."
    )

    # on another machine (another data folder): restored whole, the event's links as they were
    done = scorepad("restore", str(tmp_path / "saturday.sqlite3"), "--data", str(tmp_path / "laptop"))
    assert done.returncode == 0, done.stderr
    restored = tmp_path / "laptop" / "scorepad.sqlite3"
    assert (
        done.stdout.strip()
        == f"Restored {games} games and 1 event from {tmp_path / 'saturday.sqlite3'} into {restored}."
    )
    assert rows(restored) == rows(database)
    exported = scorepad("export-event", "--", director, data=tmp_path / "laptop")  # a token may start with "-"
    assert exported.returncode == 0 and '"format": "military"' in exported.stdout, exported.stderr

    # a restore over a database refuses without --force, and with it keeps the one it replaces
    refused = scorepad("restore", str(tmp_path / "saturday.sqlite3"), data=tmp_path / "laptop")
    assert refused.returncode == 1
    assert refused.stderr.strip() == (
        f"Error: {restored} already holds {games} games and 1 event: stop Scorepad "
        f"and add --force to replace them with the backup (the current database is "
        f"kept beside it)."
    )
    with sqlite3.connect(restored) as con:
        con.execute("DELETE FROM hand")
    con.close()
    forced = scorepad("restore", "--force", str(tmp_path / "saturday.sqlite3"), data=tmp_path / "laptop")
    assert forced.returncode == 0, forced.stderr
    assert rows(restored) == rows(database)
    kept = list((tmp_path / "laptop").glob("scorepad.sqlite3.before-restore-*"))
    assert len(kept) == 1 and rows(kept[0])["hand"] == []


def test_restore_refuses_what_is_not_a_backup_of_this_version(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a database")
    done = scorepad("restore", str(tmp_path / "notes.txt"), data=tmp_path / "data")
    assert done.returncode == 1
    assert done.stderr.strip() == f"Error: {tmp_path / 'notes.txt'} is not a Scorepad backup (not a SQLite database)."

    newer = make_club_database(tmp_path / "newer")
    with sqlite3.connect(newer) as con:
        con.execute("UPDATE alembic_version SET version_num = '9999'")
    con.close()
    done = scorepad("restore", str(newer), data=tmp_path / "data")
    assert done.returncode == 1
    assert "was made by a newer version of Scorepad (database version 9999): upgrade Scorepad first" in done.stderr
    assert not (tmp_path / "data" / "scorepad.sqlite3").exists()


def test_on_postgresql_backup_and_restore_say_what_to_run(tmp_path: Path) -> None:
    url = "postgresql://club:secret@db.example/scorepad"
    backup = scorepad("backup", "club.dump", data=tmp_path, DATABASE_URL=url)
    assert backup.returncode == 1
    assert "pg_dump --format=custom --file club.dump 'postgresql://club@db.example/scorepad'" in backup.stderr
    restore = scorepad("restore", "club.dump", data=tmp_path, DATABASE_URL=url)
    assert restore.returncode == 1
    assert (
        "pg_restore --clean --if-exists --no-owner --dbname 'postgresql://club@db.example/scorepad' club.dump"
        in restore.stderr
    )
    assert "secret" not in backup.stderr + restore.stderr


def old_database(folder: Path) -> None:
    """A database left in the old place, in WAL mode with its last commits still in the WAL."""
    folder.mkdir(parents=True)
    (folder / "secret_key").write_text("the old key")
    con = sqlite3.connect(folder / "scorepad.sqlite3")
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA wal_autocheckpoint=0")
    con.execute("CREATE TABLE game (name TEXT)")
    con.executemany("INSERT INTO game VALUES (?)", [("Friday",), ("Saturday",)])
    con.commit()
    assert (folder / "scorepad.sqlite3-wal").stat().st_size > 0
    con.close()


def test_an_old_database_in_the_install_is_moved_to_the_data_folder_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new = tmp_path / "venv" / "var" / "scorepad-instance", tmp_path / "data"
    old_database(old)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    said = data_folder.adopt_old_database(new, old)
    assert said == (
        f"Moved the database from {old / 'scorepad.sqlite3'} to {new / 'scorepad.sqlite3'}: Scorepad "
        f"keeps its data outside the install now (the old file is kept as scorepad.sqlite3.moved)."
    )
    assert rows(new / "scorepad.sqlite3") == {"game": [("Friday",), ("Saturday",)]}
    assert (new / "secret_key").read_text() == "the old key"  # the phones' sessions stay valid
    assert sorted(p.name for p in old.iterdir()) == ["scorepad.sqlite3.moved", "secret_key"]
    assert data_folder.adopt_old_database(new, old) is None  # once


def test_an_old_database_is_not_moved_over_a_new_one_nor_when_another_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new = tmp_path / "old", tmp_path / "data"
    old_database(old)
    monkeypatch.setenv("DATABASE_URL", "postgresql://club@db/scorepad")
    assert data_folder.adopt_old_database(new, old) is None
    monkeypatch.delenv("DATABASE_URL")
    new.mkdir()
    (new / "scorepad.sqlite3").write_bytes(b"")
    assert data_folder.adopt_old_database(new, old) is None
    assert (old / "scorepad.sqlite3").is_file()


def test_the_command_moves_an_old_database_before_it_starts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scorepad.cli import main

    old = tmp_path / "checkout" / "instance"
    old_database(old)
    monkeypatch.setattr(data_folder, "old_folder", lambda: old)
    monkeypatch.setenv("SCOREPAD_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    result = CliRunner().invoke(main, ["backup", str(tmp_path / "copy.sqlite3")])
    assert result.output.startswith(f"Moved the database from {old / 'scorepad.sqlite3'} to "), result.output
    assert (tmp_path / "data" / "scorepad.sqlite3").is_file()


@pytest.mark.parametrize(
    "url, said",
    [
        (
            "postgresql://scorepad:pw@127.0.0.1:9/scorepad",
            "Error: Cannot reach PostgreSQL at 127.0.0.1:9: start it (sudo systemctl start postgresql), or correct the "
            "host and port in DATABASE_URL (docs/operations.md).",
        ),
        (
            "sqlite:////nonexistent/folder/scorepad.sqlite3",
            "Error: Cannot open the SQLite database /nonexistent/folder/scorepad.sqlite3: check that its folder exists and "
            "can be written (--data or SCOREPAD_DATA names another folder).",
        ),
        (
            "mysql://club@db/scorepad",
            "Error: DATABASE_URL names a database Scorepad has no driver for: leave it unset for SQLite, or give a "
            "postgresql:// address (docs/operations.md).",
        ),
        (
            "not a url",
            "Error: DATABASE_URL is not a database address (postgresql://user:password@host/name) "
            "(docs/operations.md).",
        ),
    ],
    ids=["postgresql not running", "sqlite folder missing", "no driver", "not an address"],
)
def test_a_database_that_cannot_be_used_is_one_plain_line(tmp_path: Path, url: str, said: str) -> None:
    done = scorepad("run", "--port", "1", data=tmp_path, DATABASE_URL=url)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [said]


def test_a_data_folder_that_cannot_be_made_is_one_plain_line(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("a file, not a folder")
    done = scorepad("init-db", data=tmp_path / "taken")
    assert done.returncode == 1
    assert done.stderr.startswith(f"Error: Cannot use the data folder ({tmp_path / 'taken'}: ")
    assert len(done.stderr.splitlines()) == 1


def test_a_missing_postgresql_database_is_one_line_and_init_postgres_makes_it(
    tmp_path: Path, postgresql: Cluster
) -> None:
    admin = postgresql.url("postgres").replace("postgresql+psycopg://", "postgresql://")
    done = scorepad("run", "--port", "1", data=tmp_path, DATABASE_URL=admin.replace("@/postgres", "@/clubdb"))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        'Error: PostgreSQL has no database "clubdb": create it and its user with `scorepad init-postgres` '
        "(docs/operations.md), or correct DATABASE_URL."
    ]
    done = scorepad(
        "run", "--port", "1", data=tmp_path, DATABASE_URL=admin.replace("postgres@/postgres", "clubuser@/clubdb")
    )
    assert done.stderr.splitlines() == [
        'Error: PostgreSQL has no user "clubuser": create it and the database with `scorepad init-postgres` '
        "(docs/operations.md), or correct DATABASE_URL."
    ]

    printed = scorepad("init-postgres", "--database", "clubdb", "--user", "clubuser", data=tmp_path)
    assert printed.returncode == 0
    assert "sudo -u postgres createdb --owner=clubuser --encoding=UTF8 --template=template0 clubdb" in printed.stdout

    made = scorepad("init-postgres", "--admin", admin, "--database", "clubdb", "--user", "clubuser", data=tmp_path)
    assert made.returncode == 0, made.stderr
    url = next(line.split("'")[1] for line in made.stdout.splitlines() if "DATABASE_URL=" in line)
    assert url.startswith("postgresql://clubuser:") and "/clubdb?" in url
    ready = scorepad("init-db", data=tmp_path, DATABASE_URL=url)
    assert ready.returncode == 0 and "Database is up to date." in ready.stdout, ready.stderr

    twice = scorepad("init-postgres", "--admin", admin, "--database", "clubdb", "--user", "clubuser", data=tmp_path)
    assert twice.returncode == 1
    assert twice.stderr.strip().startswith('Error: PostgreSQL already has a user "clubuser"')
