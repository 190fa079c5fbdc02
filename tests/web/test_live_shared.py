"""The shared broker (issue 17, item 1): which relay an app gets, and PostgreSQL LISTEN/NOTIFY between
two apps on one database, as two worker processes would have them. A change announced in one is
rendered by the other for its own streams, once; the announcer's own streams hear it once too; a
listener whose connection is cut connects again, says so, and shows every open page afresh."""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad import create_app, live, serve
from scorepad.live import Message, Relay
from scorepad.live_pg import CHANNEL, PostgresRelay, connect_kwargs
from tests.conftest import config_for, release
from tests.postgres import Cluster
from tests.slowness import scaled
from tests.web.test_games import nomination_form, post, start

HX = {"HX-Request": "true"}


@pytest.mark.parametrize(
    ("url", "broker", "relay"),
    [
        ("sqlite:///x.db", "auto", Relay),
        ("postgresql+psycopg://u@/db?host=/tmp", "auto", PostgresRelay),
        ("postgresql+psycopg://u@/db?host=/tmp", "memory", Relay),
        ("postgresql+psycopg://u@/db?host=/tmp", "postgresql", PostgresRelay),
    ],
)
def test_the_broker_is_postgresql_s_on_postgresql_and_in_process_otherwise(url: str, broker: str, relay: type) -> None:
    app = create_app(config_for(url, SCOREPAD_BROKER=broker))
    assert type(live.relay_of(app)) is relay


@pytest.mark.parametrize(
    ("url", "broker", "says"),
    [
        ("sqlite:///x.db", "postgresql", "set DATABASE_URL to a PostgreSQL database"),
        ("sqlite:///x.db", "redis", "choose memory or postgresql"),
    ],
)
def test_a_broker_that_cannot_serve_is_refused_plainly(url: str, broker: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        create_app(config_for(url, SCOREPAD_BROKER=broker))


def test_several_workers_are_refused_with_the_in_process_broker() -> None:
    assert serve.refusal(1, "in-process", shared=False) is None
    assert serve.refusal(4, "postgresql", shared=True) is None
    said = serve.refusal(3, "in-process", shared=False)
    assert said is not None and "--workers 3 needs a shared broker" in said and "PostgreSQL" in said


def test_the_listener_connects_as_the_app_does() -> None:
    assert connect_kwargs("postgresql+psycopg://postgres@/test_1?host=/dev/shm/pg&port=5432") == {
        "user": "postgres",
        "dbname": "test_1",
        "host": "/dev/shm/pg",
        "port": "5432",
    }
    assert connect_kwargs("postgresql+psycopg2://u:p@db:5433/name?sslmode=require") == {
        "user": "u",
        "password": "p",
        "host": "db",
        "port": 5433,
        "dbname": "name",
        "sslmode": "require",
    }


def test_a_notice_carries_what_changed_never_a_page() -> None:
    relay = PostgresRelay(create_app(config_for("postgresql+psycopg://u@/db?host=/tmp")))
    with pytest.raises(ValueError, match="not the page"):
        relay.send("game", "x", {"html": "<p>" * 3000})


# --------------------------------------------------------------------------- two workers, one database


@pytest.fixture
def workers(postgresql: Cluster, postgresql_template: str) -> Iterator[tuple[Flask, Flask]]:
    """Two apps on one fresh PostgreSQL database, as two gunicorn workers have them; the second
    listens (the first only announces, as a worker does before its listener runs)."""
    name = postgresql.create_database(template=postgresql_template)
    apps = (create_app(config_for(postgresql.url(name))), create_app(config_for(postgresql.url(name))))
    apps[1].config["SCOREPAD_HEARTBEAT"] = 0.05
    live.relay_of(apps[1]).start(wait=10)
    assert live.relay_of(apps[1]).listening.is_set()
    yield apps
    for app in apps:
        live.relay_of(app).stop()
        release(app)
    postgresql.drop_database(name)


def watched_game(first: Flask, second: Flask) -> tuple[FlaskClient, str, live.Subscription]:
    """A home game scored through the first worker, its spectators' channel followed on the second:
    (the first worker's client, the scorer's token, the second worker's subscription)."""
    client = first.test_client()
    token = start(client, form=nomination_form())
    with first.app_context():
        from scorepad.games import service as games

        public_id = games.by_scorer_token(token).public_id  # type: ignore[union-attr]
    with second.app_context():
        there = live.broker().subscribe(f"game:{public_id}")
    return client, token, there


def messages(subscription: live.Subscription, count: int, timeout: float = scaled(5.0)) -> list[Message]:
    got: list[Message] = []
    deadline = time.monotonic() + timeout
    while len(got) < count:
        try:
            got.append(subscription.queue.get(timeout=max(0.01, deadline - time.monotonic())))
        except queue.Empty:
            break
    return got


def test_a_home_game_s_change_reaches_the_spectators_of_another_worker_once(workers: tuple[Flask, Flask]) -> None:
    first, second = workers
    client, token, there = watched_game(first, second)
    with first.app_context():
        here = live.broker().subscribe(there.channel)

    # a change spectators see: a hand saved, then taken back (the taps of the hand in hand are not)
    assert post(client, token, action="trump", trump="H")[0] == 200
    for bid in (1, 1, 0, 1):
        assert post(client, token, action="bid", bid=str(bid))[0] == 200
    assert (
        post(
            client,
            token,
            action="result",
            number="1",
            **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
        )[0]
        == 200
    )
    assert client.post(f"/g/{token}/undo", headers={"HX-Request": "true"}).status_code == 200

    heard = messages(there, 2)
    assert [m.event for m in heard] == ["update", "update"]
    assert all("Running totals" in m.data for m in heard)  # the fragment, rendered by the second worker
    assert [m.event for m in messages(here, 3, timeout=0.5)] == ["update", "update"]  # not doubled
    assert messages(there, 1, timeout=0.5) == []


def test_an_event_s_entry_reaches_another_worker_s_board_coalesced_there(workers: tuple[Flask, Flask]) -> None:
    first, second = workers
    with first.app_context():
        from scorepad.events import military

        event = military.create_event("Two workers", ["Aces", "Kings"], [4])
        public_id, tokens = event.public_id, [t.token for t in event.tables]
    with second.app_context():
        board = live.broker().subscribe(f"event:{public_id}")
    client = first.test_client()
    for number, token in enumerate(tokens, 1):
        response = client.post(
            f"/t/{token}/result", data={"hand": "1", "tricks": str(6 + number), "revoke": "none"}, headers=HX
        )
        assert response.status_code == 200, response.get_data(as_text=True)
    heard = messages(board, 10, timeout=scaled(2.0))
    assert [m.data for m in heard if m.event == "changed"] == ["1", "1"]  # one per entry, none doubled
    boards = [m.data for m in heard if m.event == "board"]
    assert 1 <= len(boards) <= 2 and 'data-waiting=""' in boards[-1]  # the last shows every table in


def test_a_listener_whose_connection_is_cut_connects_again_and_shows_pages_afresh(
    workers: tuple[Flask, Flask], postgresql: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = workers
    client, token, there = watched_game(first, second)
    relay = live.relay_of(second)
    assert isinstance(relay, PostgresRelay)
    caplog.set_level(logging.WARNING, logger="scorepad.live")
    postgresql.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN {CHANNEL}'")
    deadline = time.monotonic() + scaled(10)
    while "listening to the other workers again" not in caplog.text and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "lost the database connection" in caplog.text
    assert "listening to the other workers again" in caplog.text
    assert [m.event for m in messages(there, 1)] == ["update"]  # shown afresh after the reconnection
    assert post(client, token, action="trump", trump="S")[0] == 200
    for bid in (1, 1, 0, 1):
        assert post(client, token, action="bid", bid=str(bid))[0] == 200
    assert (
        post(
            client,
            token,
            action="result",
            number="1",  # a hand saved: a change spectators see
            **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
        )[0]
        == 200
    )
    assert [m.event for m in messages(there, 1)] == ["update"]  # and heard again


def test_a_notice_whose_connection_was_cut_goes_out_on_a_new_one(
    workers: tuple[Flask, Flask], postgresql: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = workers
    client, token, there = watched_game(first, second)
    caplog.set_level(logging.WARNING, logger="scorepad.live")
    assert post(client, token, action="trump", trump="H")[0] == 200
    for bid in (1, 1, 0, 1):
        assert post(client, token, action="bid", bid=str(bid))[0] == 200
    assert (
        post(
            client,
            token,
            action="result",
            number="1",
            **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
        )[0]
        == 200
    )
    assert [m.event for m in messages(there, 1)] == ["update"]
    sender = live.relay_of(first)._sender  # type: ignore[attr-defined]
    assert sender is not None and not sender.closed  # the first notice opened it; a restart cuts it:
    postgresql.execute(f"SELECT pg_terminate_backend({sender.info.backend_pid})")
    assert client.post(f"/g/{token}/undo", headers=HX).status_code == 200  # the hand taken back
    assert [m.event for m in messages(there, 1)] == ["update"]  # heard all the same
    assert "not sent to the other workers" not in caplog.text
