"""A throwaway PostgreSQL cluster for the tests (issue 17, item 2): started once per session from the
server binaries (Debian's `postgresql` package; `.ci/run` installs it), reached through a socket
in a private folder (no TCP port to collide with), thrown away at the end.

Each test that asks for it gets a database of its own, copied from a template (a copy takes some
20 ms in memory; migrating a fresh database takes far longer). The server runs with fsync off:
nothing in it is worth keeping. As root (initdb refuses root) it runs as the `postgres` user.
Anyone who can reach its socket is its superuser (trust), so the folder and the socket are the
owner's alone (root passes anyway).
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from glob import glob
from pathlib import Path

# Settings for a server whose data nobody keeps: no waiting on the disk, few connections' memory.
SETTINGS = {
    "listen_addresses": "''",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "100",  # bench/ runs 4 workers: each pools up to 15 and listens on one more
    "shared_buffers": "32MB",
    "log_min_messages": "warning",
    "unix_socket_permissions": "0700",
}
PORT = 5432  # only names the socket file: the server listens on no TCP port


def find_binaries() -> Path | None:
    """The folder of `initdb` and `pg_ctl`: from PATH, else Debian's /usr/lib/postgresql/<version>/bin
    (the package does not put them on PATH), the newest version first."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl", path=str(Path(on_path).resolve().parent)):
        return Path(on_path).resolve().parent
    found = sorted(
        glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: [int(x) if x.isdigit() else 0 for x in Path(p).parts[-3].split(".")],
    )
    return Path(found[-1]).parent if found else None


def under_ci() -> bool:
    """CI sets the variable CI (GitHub, GitLab and others set CI=true)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def binaries_or_skip() -> Path:
    """The server's binaries, else skip the test asking for them; under CI, fail instead: CI must not
    pass by skipping the PostgreSQL tests."""
    import pytest

    found = find_binaries()
    if found is None:
        why = (
            "PostgreSQL is not installed: no initdb on PATH or in /usr/lib/postgresql/*/bin "
            "(apt-get install postgresql; .ci/run does)"
        )
        if under_ci():
            pytest.fail(f"{why}. CI is set, so the PostgreSQL tests must run, not be skipped.", pytrace=False)
        pytest.skip(why)
    return found


class Cluster:
    """One PostgreSQL server: `start`, `create_database`, `url`, `drop_database`, `stop`."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        # In memory where there is a tmpfs (creating a database on this machine's disk took 0.35 s, in
        # memory 0.015 s); a short path: a socket's path holds about 100 bytes.
        memory = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
        self.root = Path(tempfile.mkdtemp(prefix="scorepad-pg-", dir=memory))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._names = itertools.count(1)
        self._user: str | None = None
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root
            self._user = "postgres"
            owner = pwd.getpwnam(self._user)
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
        self.root.chmod(0o700)  # only its owner (the tests' user, or postgres for root's tests) gets in

    def _run(self, *args: str) -> None:
        result = subprocess.run(
            [str(self.binaries / args[0]), *args[1:]],
            user=self._user,
            cwd=self.root,
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{args[0]} failed ({result.returncode}):\n{result.stdout}{result.stderr}{log}")

    def start(self) -> None:
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        with (self.data / "postgresql.conf").open("a") as conf:
            for name, value in {**SETTINGS, "unix_socket_directories": f"'{self.root}'", "port": str(PORT)}.items():
                conf.write(f"{name} = {value}\n")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "30", "start")

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str) -> str:
        """A SQLAlchemy URL for `database`, through psycopg 3 and the cluster's socket."""
        return f"postgresql+psycopg://postgres@/{database}?host={self.root}&port={PORT}"

    def execute(self, *statements: str) -> None:
        """Run statements in the `postgres` database, outside a transaction (CREATE/DROP DATABASE)."""
        import psycopg

        with psycopg.connect(
            host=str(self.root), port=PORT, user="postgres", dbname="postgres", autocommit=True
        ) as conn:
            for statement in statements:
                conn.execute(statement.encode())

    def create_database(self, template: str = "template0") -> str:
        """A new, empty (or copied from `template`) database's name."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        self.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return name

    def drop_database(self, name: str) -> None:
        self.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
