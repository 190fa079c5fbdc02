"""Two devices writing the same row at the same moment: the database's unique keys keep the first,
and the second is answered as a sequential second tap would be (409 with what is recorded), or,
where the second can simply go on (a registration's next number), goes on. Never a 500.

Each race is played in one thread: the other device's write runs in its own app context (its own
database session and connection), between this request's check and its write. Every test runs on
SQLite and on PostgreSQL, whose errors differ (a unique violation aborts the whole transaction there).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import core, drive
from scorepad.events import military as events
from scorepad.events.bid_whist import registration
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import Game
from tests.web import test_whist_drive as drives
from tests.web.test_events import create, enter, snapshot, table_tokens, text
from tests.web.test_events_loans import kings_on_nothing
from tests.web.test_events_loans import post as loan
from tests.web.test_games import PARTNERS
from tests.web.test_tournament_registration import create as create_tournament
from tests.web.test_tournament_registration import entrants, register

pytestmark = pytest.mark.postgresql


def once(real: Any, first: Any) -> Any:
    """`real`, after running `first` (the other device's write) on the first call only."""
    calls: list[int] = []

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        if not calls:
            calls.append(1)
            first()
        return found

    return wrapped


def test_two_phones_saving_a_tables_result_at_the_same_moment(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = create(client)
    table = table_tokens(app, token)[0]

    def other_phone() -> None:
        with app.app_context():
            events.enter_result(core.by_director_token(token), 1, 1, 9, None, "table 1")

    # between this phone's checks and its write (the table's result is not read before it is written)
    monkeypatch.setattr(events, "setup_of", once(events.setup_of, other_phone))
    status, page = enter(client, table, 1, 7)
    assert status == 409, page
    assert "Hand 1 at table 1 is already recorded: the visitors took 9 tricks" in page
    assert snapshot(app, token)["results"] == [(1, 1, 9, None)]


def test_two_phones_saving_a_drive_deal_at_the_same_moment(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = drives.create(client)
    table = drives.tokens(app, token)[1]

    def other_phone() -> None:
        with app.app_context():
            drive.enter(core.by_director_token(token), 1, 1, 8, "table 1")

    monkeypatch.setattr(drive.fmt, "check_result", once(drive.fmt.check_result, other_phone))
    status, page = drives.enter(client, table, 1, 5)
    assert status == 409 and "Deal 1 at table 1 was just recorded from the other phone." in page
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None and [(r.hand, r.table, r.tricks) for r in event.results] == [(1, 1, 8)]


def test_a_short_code_already_taken_is_drawn_again(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(2):
        assert client.post("/new/whist", data=PARTNERS).status_code == 303
    with app.app_context():
        first, second = db.session.scalars(db.select(Game).order_by(Game.id)).all()
        taken, second.short_code = first.short_code, None  # a game made before short links
        db.session.commit()
        draws = iter([taken, "2345abcd"])
        monkeypatch.setattr(games, "new_short_code", lambda: next(draws))
        assert games.short_code(second) == "2345abcd"
    with app.app_context():
        assert {g.short_code for g in db.session.scalars(db.select(Game))} == {taken, "2345abcd"}


def test_two_desks_registering_at_the_same_moment_get_the_next_numbers(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both read the same next number; the second registers again with the number after it (it was a 500)."""
    token = create_tournament(client)

    def other_desk() -> None:
        with app.app_context():
            registration.register_team(core.by_director_token(token), "Kings", ["Cat", "Dan"])

    monkeypatch.setattr(registration, "_next_number", once(registration._next_number, other_desk))
    status, page = register(client, token, "Aces", "Ann", "Bob")
    assert status == 200, page
    assert entrants(app, token) == [(1, "Kings", ["Cat", "Dan"]), (2, "Aces", ["Ann", "Bob"])]
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None and event.options[registration.ISSUED] == 2


def test_a_race_no_service_answers_itself_is_a_409_that_saves_nothing(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two director devices lending the Kings flags at once: the database's unique (event, hand,
    table) keeps the first loan; the second is a 409 that says so (it was a 500)."""
    token = kings_on_nothing(client, app, loans="manual")

    def other_device() -> None:
        with app.app_context():
            events.lend(core.by_director_token(token), 2, 1)

    monkeypatch.setattr(events, "_position", once(events._position, other_device))
    status, page = loan(client, token, "loan", 2, 1)
    assert status == 409, page
    assert "Another device saved a change to the same thing at the same moment" in page
    assert snapshot(app, token)["loans"] == [(7, 2, 1)]
    monkeypatch.undo()
    assert "table 2 lent 1 flag" in text(client.get(f"/d/{token}"))  # the room draws the first loan
