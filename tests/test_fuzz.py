"""Issue 16's fuzzing suite, the short run: every route of the URL map is sent generated requests
(other objects' links in every path argument, wrong types, huge and unicode numbers, repeated,
missing and unknown fields, long strings). No answer is a 5xx (the test app propagates exceptions,
so a crash fails with its traceback), and no request changes a game or an event whose links it
does not carry. `bench/fuzz_routes.py` is the long run (100,000 requests).

It runs on SQLite and, shorter, on a throwaway PostgreSQL server (issue 17): PostgreSQL refuses
what SQLite keeps (a value longer than its column, a NUL, an integer past 32 bits), so a request
that is a 200 on SQLite can be a 500 there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad import create_app
from scorepad.extensions import db
from scorepad.models import Game
from tests.conftest import DATABASES, config_for, migrate, release
from tests.fuzz import (
    Snapshots,
    World,
    build_world,
    changed,
    fingerprints,
    named_groups,
    request_for,
    routes,
    send,
    summary,
)
from tests.postgres import Cluster

EXAMPLES = {"sqlite": 400, "postgresql": 120}  # requests per run (PostgreSQL: a shorter run, same strategies)


@pytest.fixture(scope="module", params=DATABASES)
def fuzz_app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, World]]:
    cluster: Cluster | None = None
    if request.param == "sqlite":
        folder: Path = tmp_path_factory.mktemp("fuzz")
        url = f"sqlite:///{folder / 'fuzz.sqlite3'}"
    else:
        cluster = request.getfixturevalue("postgresql")
        name = cluster.create_database(template=request.getfixturevalue("postgresql_template"))
        url = cluster.url(name)
    app = create_app(config_for(url, SECRET_KEY="fuzz"))
    migrate(app)
    yield app, build_world(app)
    release(app)
    if cluster is not None:
        cluster.drop_database(name)


def test_the_fuzzer_reaches_every_route(fuzz_app: tuple[Flask, World]) -> None:
    app, world = fuzz_app
    found = {rule.endpoint for rule, _ in routes(app)}
    assert len(found) > 60 and {"military.advance", "bid_whist.sign", "games.entry", "club.setup"} <= found
    assert len(world.groups) >= 10  # the example games and the four events


def test_a_snapshot_is_taken_again_when_the_app_committed(fuzz_app: tuple[Flask, World]) -> None:
    """The check between requests is not blind: a commit by the app's own connections is seen (on
    SQLite, by its data version; elsewhere every snapshot is taken anew)."""
    app, _ = fuzz_app
    snapshot = Snapshots(app, fingerprints)
    first = snapshot()
    again = snapshot()
    assert again is first if _database(app) == "sqlite" else snapshot.taken == 2
    with app.app_context():
        game = db.session.scalars(db.select(Game).order_by(Game.id)).first()
        assert game is not None
        title = game.title
        game.title = f"{title}!"
        db.session.commit()
        after = snapshot()
        game.title = title
        db.session.commit()
        db.session.remove()
    snapshot.close()
    assert len(changed(first, after)) == 1


def test_no_request_is_a_5xx_or_changes_what_it_does_not_name(fuzz_app: tuple[Flask, World]) -> None:
    app, world = fuzz_app
    statuses: list[int] = []
    snapshot = Snapshots(app, fingerprints)

    # derandomize: the same requests on every run of this code (seeded by the test itself), so the
    # share answered below is a fact about the generator, not a draw that fails one CI run in
    # twenty; bench/fuzz_routes.py is the long run with fresh random requests
    @settings(
        max_examples=EXAMPLES[_database(app)],
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def one_request(data: st.DataObject) -> None:
        rule, method = data.draw(st.sampled_from(routes(app)), label="route")
        request = data.draw(request_for(world, rule, method), label="request")
        before = snapshot()
        response = send(app.test_client(), request)
        statuses.append(response.status_code)  # type: ignore[attr-defined]
        assert response.status_code < 500, (request, response.get_data(as_text=True)[:500])  # type: ignore[attr-defined]
        response.close()  # type: ignore[attr-defined]
        assert changed(before, snapshot()) <= named_groups(world, request), request

    one_request()
    snapshot.close()
    # The generated requests are not all turned away at the door: many reach a service and are
    # answered 200/303, 409 or 422 (printed with -s). With the 129 routes of 2026-11-27 about a sixth
    # do (65 to 73 of 400: the world's links are drawn afresh each run, so the share moves); at least
    # an eighth must. The generator is the same on both databases: this is judged on SQLite's long
    # run, as PostgreSQL's short one is hypothesis's first, simplest draws (mostly 404s).
    counts = summary(statuses)
    print(f"fuzz statuses on {_database(app)}:", counts)
    if _database(app) == "sqlite":
        assert sum(n for s, n in counts.items() if s in (200, 302, 303, 409, 422)) >= len(statuses) // 8, counts


def _database(app: Flask) -> str:
    return "sqlite" if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite") else "postgresql"
