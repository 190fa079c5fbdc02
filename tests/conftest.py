"""Fixtures shared by the web and browser tests: a fresh app and database for every test.

The database is a fresh SQLite file; a test marked `postgresql` runs twice, once on SQLite and
once on a fresh database of a throwaway PostgreSQL server (`tests/postgres.py`), started once for
the session. Without PostgreSQL's binaries those runs are skipped, except under CI (the variable
`CI` set), where they fail: CI must not pass by skipping them. SCOREPAD_TEST_DATABASE=postgresql
runs every other test's app on PostgreSQL too (a longer run, to look for what differs).
"""

from __future__ import annotations

import atexit
import os
import shutil
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from sqlalchemy import event as sa_event
from werkzeug.routing import Rule

from scorepad import create_app
from scorepad.extensions import db
from tests.postgres import Cluster, binaries_or_skip

# Every app the tests make, and every `scorepad` they start, keeps its data folder (the secret key;
# the SQLite file unless the test names one) in a folder of this test process, never the user's.
if not os.environ.get("SCOREPAD_DATA"):
    os.environ["SCOREPAD_DATA"] = tempfile.mkdtemp(prefix="scorepad-test-data-")
    atexit.register(shutil.rmtree, os.environ["SCOREPAD_DATA"], True)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
DATABASES = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked `postgresql` that uses the app runs on each database (ids `[sqlite]`, `[postgresql]`)."""
    if metafunc.definition.get_closest_marker("postgresql") and "database" in metafunc.fixturenames:
        metafunc.parametrize("database", DATABASES, indirect=True)


# The tests that take a minute or more of a CI run, longest first (the last run's --durations). The
# suite's processes steal work from each other (`--dist=worksteal`), but a long test that starts
# when the rest is nearly done ends the run alone: these start first, one process each in turn.
LONG = (
    "test_event_bid_whist.py::test_an_eight_team_tournament_from_registration_to_medals",
    "test_operations.py::test_backup_and_restore_round_trip_a_database_with_games_and_an_event",
    "test_event_military.py::test_a_day_of_military_whist",
    "test_operations.py::test_a_missing_postgresql_database_is_one_line_and_init_postgres_makes_it",
    "test_game_australian.py::test_a_whole_australian_whist_game_for_four",
    "test_events.py::test_the_provincial_games_from_set_up_to_winner",
    "test_spectator.py::test_a_spectator_follows_a_nomination_game_live",
    "test_offload.py::test_off_the_loop_a_restore_is_derived_by_its_format_in_the_helper_alone",
    "test_whist_drive.py::test_a_forty_player_drive_of_24_deals_runs_to_the_prizes",
    "test_projector.py::test_the_projector_keeps_working_through_a_long_evening",
    "test_print.py::test_after_a_bracket_of_32_the_standings_of_64_teams_are_whole_on_one_page",
    "test_event_pages_fit.py::test_every_event_page_fits_a_phone_at_both_text_sizes",
)


def _long_rank(item: pytest.Item) -> int | None:
    try:
        return LONG.index(item.nodeid.split("/")[-1].split("[")[0])
    except ValueError:
        return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, put each LONG test at the head of one process's share of the collection.

    Work stealing first hands each of the N processes a contiguous Nth of the collected tests, which
    it runs from the front; the LONG tests go round the N shares, longest first."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    ranked = [(rank, item) for item in items if (rank := _long_rank(item)) is not None]
    long = [item for _, item in sorted(ranked, key=lambda pair: pair[0])]
    if workers < 2 or not long:
        return
    chosen = set(long)
    rest = [item for item in items if item not in chosen]
    share = len(items) // workers
    ordered: list[pytest.Item] = []
    for k in range(workers):
        heads = long[k::workers]
        take = max(share - len(heads), 0) if k < workers - 1 else len(rest)
        ordered += heads + rest[:take]
        rest = rest[take:]
    items[:] = ordered


def config_for(database_url: str, **more: object) -> dict[str, object]:
    return {
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": database_url,
        "WTF_CSRF_ENABLED": False,
        "SCOREPAD_DEMO": False,
        "SCOREPAD_CHECK_KEPT_VIEWS": True,
        **more,
    }


class _TemplatesCompiledOnce(BytecodeCache):
    """Jinja's compiled templates shared by every app of this test process: each test builds its own
    app, and compiling the templates afresh for each cost a third of a short test's time. A bucket
    is keyed by the template's source checksum (Jinja's rule), so an edited template compiles anew."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if (code := self.code.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


# Every app this test process builds (the fixtures', and the tests' own) compiles its templates once.
Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": _TemplatesCompiledOnce()}

_compile_builder = Rule._compile_builder
_BUILDERS: dict[tuple[object, ...], Callable[..., tuple[str, str]]] = {}


def _builder_compiled_once(self: Rule, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
    """Werkzeug's URL builder for a rule, compiled once per test process and shared by every app.

    Each rule's builder is Python code that Werkzeug writes and compiles when the app registers
    the rule: nine tenths of building an app, a tenth of a second, before every test. The builder is
    a function of the rule's parts, its defaults and its converters' kinds (it reads the converters
    from the rule it is bound to when called), so the same key gives the same code."""
    key = (
        self.rule,
        self.subdomain,
        self.host,
        append_unknown,
        tuple(self._trace),
        tuple(sorted((name, repr(value)) for name, value in (self.defaults or {}).items())),
        tuple(sorted((name, type(converter).__qualname__) for name, converter in self._converters.items())),
    )
    found = _BUILDERS.get(key)
    if found is None:
        found = _BUILDERS[key] = _compile_builder(self, append_unknown)
    return found


Rule._compile_builder = _builder_compiled_once  # type: ignore[method-assign]


def migrate(app: Flask) -> None:
    """Upgrade the app's database to the newest migration, exactly as `scorepad run` does it."""
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)


def release(app: Flask) -> None:
    """Close the app's database connections, its relay's included (a PostgreSQL database in use cannot
    be copied or dropped), once the board pushes it scheduled (timers, 0.1 s after an entry) have run: on PostgreSQL they
    would find their database dropped."""
    for thread in threading.enumerate():
        if isinstance(thread, threading.Timer) and thread.args[:1] == (app,):  # type: ignore[attr-defined]
            thread.join(timeout=10)
    from scorepad import live

    live.relay_of(app).stop()  # its listener and the connection its notices go out on
    with app.app_context():
        db.session.remove()
        for engine in db.engines.values():
            engine.dispose()


@pytest.fixture(scope="session")
def postgresql() -> Iterator[Cluster]:
    """A PostgreSQL server for the session: skipped when it is not installed, a failure under CI."""
    cluster = Cluster(binaries_or_skip())
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def postgresql_template(postgresql: Cluster) -> str:
    """A PostgreSQL database migrated once, which each test's database copies."""
    name = postgresql.create_database()
    app = create_app(config_for(postgresql.url(name)))
    migrate(app)
    release(app)
    return name


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated once per test process, which each test's database copies (as the
    PostgreSQL ones copy theirs): migrating afresh for every test cost a tenth of a second each."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    app = create_app(config_for(f"sqlite:///{path}"))
    migrate(app)
    release(app)
    with closing(sqlite3.connect(path)) as connection:  # all of it in the file a copy takes, none in its WAL
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.fixture
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a test's own database: a SQLite file, or (parametrized) a fresh PostgreSQL database;
    either starts as a copy of one migrated once (the app's migration then finds nothing to do)."""
    if getattr(request, "param", os.environ.get("SCOREPAD_TEST_DATABASE", "sqlite")) == "sqlite":
        path = tmp_path / "test.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    cluster: Cluster = request.getfixturevalue("postgresql")
    name = cluster.create_database(template=request.getfixturevalue("postgresql_template"))
    yield cluster.url(name)
    cluster.drop_database(name)


@pytest.fixture
def app_config() -> dict[str, object]:
    """Settings a test module adds to its apps' (a module overrides this fixture)."""
    return {}


@pytest.fixture
def app(database: str, app_config: dict[str, object]) -> Iterator[Flask]:
    """An app on its own database, a copy of one migrated exactly as `scorepad run` does it."""
    app = create_app(config_for(database, **app_config))
    yield app
    release(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def queries(app: Flask) -> Iterator[list[str]]:
    """The SQL statements the app runs while the test holds the list."""
    seen: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    with app.app_context():
        engine = db.engine
    sa_event.listen(engine, "before_cursor_execute", record)
    yield seen
    sa_event.remove(engine, "before_cursor_execute", record)
