"""One name, one player (issue 33, item 1): a match's sheet names its four players, and the rules
refuse a game in which two of them share a name. Two Bid Whist teams registered with a "John"
each used to be accepted, and the start then broke every page of the tournament for good.

Every format's registration now refuses a name already playing (422, beside the field, nothing
stored); a backup holding such teams is refused; and migration 0012 repairs a tournament left in
that state by an older version (the later team's player is told apart by their team's name)."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import downgrade
from sqlalchemy import select

from scorepad.events.bid_whist import registration, writes
from scorepad.extensions import db
from scorepad.models import AuditEntry, Event, Game
from tests.conftest import migrate
from tests.web.test_club_night import create as create_club
from tests.web.test_club_night import table_tokens
from tests.web.test_events import HX, field_error, text
from tests.web.test_events import create as create_military
from tests.web.test_games import nomination_form
from tests.web.test_tournament_registration import create as create_tournament
from tests.web.test_tournament_registration import entrants, register


def test_a_player_already_in_another_team_is_refused_beside_the_field(client: FlaskClient, app: Flask) -> None:
    token = create_tournament(client)
    assert register(client, token, "Aces", "John", "Mary")[0] == 200
    response = client.post(
        f"/d/{token}/register", data={"team": "Kings", "player1": "john", "player2": "Sue"}, headers=HX
    )
    assert response.status_code == 422
    assert field_error(response.get_data(as_text=True), "player1") == (
        "John already plays for Aces (number 1): give each player their own name, e.g. with an initial (john B.)"
    )
    response = client.post(f"/d/{token}/register", data={"kind": "single", "single": "  MARY "}, headers=HX)
    assert response.status_code == 422 and "MARY already plays for Aces (number 1)" in text(response)
    assert entrants(app, token) == [(1, "Aces", ["John", "Mary"])]
    assert register(client, token, "Kings", "John B.", "Sue")[0] == 200
    assert client.post(f"/d/{token}/register", data={"kind": "single", "single": "Zed"}, headers=HX).status_code == 200
    response = client.post(
        f"/d/{token}/register", data={"team": "Jokers", "player1": "Ann", "player2": "zed"}, headers=HX
    )
    assert response.status_code == 422
    assert "Zed is already registered, as a single player (number 3)" in text(response)


def _military_names(client: FlaskClient) -> int:
    token = create_military(client)
    form = {
        "name": "Zone 3",
        **{f"team.{n}": f"Team {n}" for n in range(1, 5)},
        **{f"player.{n}.{letter}": f"{letter}{n}" for n in range(1, 5) for letter in "ABXY"},
    }
    return client.post(f"/d/{token}/setup", data={**form, "player.3.X": "a1"}).status_code


def _drive(client: FlaskClient) -> int:
    return client.post(
        "/events/new/whist-drive",
        data={
            "name": "Drive",
            "players": "Ann\nBob\nCat\nDan\nEve\nFay\nGus\nann",
            "deals": "6",
            "per_change": "1",
            "scoring": "odd",
            "movement": "progressive",
            "top": "stay",
        },
    ).status_code


def _bid_whist(client: FlaskClient) -> int:
    token = create_tournament(client)
    register(client, token, "Aces", "John", "Mary")
    return register(client, token, "Kings", "Sue", "JOHN")[0]


def _club_table(client: FlaskClient, app: Flask) -> int:
    token = create_club(client)
    table = table_tokens(app, token)[1]
    client.get(f"/t/{table}")
    form = {**nomination_form(), "name.0": "Ann", "name.1": "Bob", "name.2": "ann", "name.3": "Dan"}
    return client.post(f"/t/{table}/setup", data=form).status_code


@pytest.mark.parametrize("fmt", ["military", "whist drive", "bid whist", "club night"])
def test_every_format_refuses_one_name_for_two_players(client: FlaskClient, app: Flask, fmt: str) -> None:
    with app.app_context():
        before = db.session.query(Game).count(), [(e.id, len(e.entrants)) for e in db.session.scalars(select(Event))]
    status = {
        "military": lambda: _military_names(client),
        "whist drive": lambda: _drive(client),
        "bid whist": lambda: _bid_whist(client),
        "club night": lambda: _club_table(client, app),
    }[fmt]()
    assert status == 422
    with app.app_context():
        assert db.session.query(Game).count() == before[0]
        if fmt == "bid whist":
            event = db.session.scalars(select(Event).where(Event.format == "bid_whist")).one()
            assert [e.players for e in event.entrants] == [["John", "Mary"]]
        if fmt == "military":
            assert all(t.players == [] for t in db.session.scalars(select(Event)).one().tables)


def test_a_player_named_like_the_ghosts_stand_ins_still_plays_the_bye(client: FlaskClient, app: Flask) -> None:
    token = create_tournament(client)
    for n, players in enumerate((("Ghost 1", "Ghost 2"), ("Ann", "Bob"), ("Cat", "Dan")), start=1):
        assert register(client, token, f"T{n}", *players)[0] == 200
    assert client.post(f"/d/{token}/start", headers=HX).status_code == 200
    assert client.get(f"/d/{token}").status_code == 200
    with app.app_context():
        for game in db.session.scalars(select(Game)):
            seats = [p.casefold() for t in game.teams for p in t["players"]]
            assert len(seats) == len(set(seats)) == 4


@pytest.mark.postgresql
def test_migration_0012_repairs_a_tournament_started_with_one_name_in_two_teams(
    client: FlaskClient, app: Flask
) -> None:
    with app.app_context():  # the state older versions left (made with today's rows, then the schema taken back)
        event = writes.create("Cup", rounds=1)
        for name, players in (
            ("Aces", ["John", "Mary"]),
            ("Kings", ["Sue", "Tom"]),
            ("Queens", ["Ann", "Bob"]),
            ("A long team name of many many words", ["Cat", "Dan"]),
        ):
            registration.register_team(event, name, players)
        event.entrants[1].players = ["Sue", "john"]  # registered before registration refused it
        event.entrants[3].players = ["JOHN", "mary"]
        db.session.commit()
        writes.start(event)  # saved, though every page of it failed from then on
        token, public_id = event.director_token, event.public_id
        db.session.remove()
    with pytest.raises(Exception, match="two players have the same name"):
        client.get(f"/d/{token}")
    with app.app_context():  # the schema as it was before the repair (columns added since go, their rows stay)
        db.session.remove()
        downgrade(directory=app.extensions["migrate"].directory, revision="0011")
    migrate(app)
    for url in (f"/d/{token}", f"/b/{public_id}", f"/d/{token}/backup"):
        assert client.get(url).status_code == 200, url
    assert entrants(app, token) == [
        (1, "Aces", ["John", "Mary"]),
        (2, "Kings", ["Sue", "john (Kings)"]),
        (3, "Queens", ["Ann", "Bob"]),
        (4, "A long team name of many many words", ["JOHN (4)", "mary (4)"]),
    ]
    with app.app_context():
        games = {tuple(t["players"]) for g in db.session.scalars(select(Game)) for t in g.teams}
        assert ("Sue", "john (Kings)") in games or ("JOHN (4)", "mary (4)") in games
        assert not {("Sue", "john"), ("JOHN", "mary")} & games
        notes = [a.note for a in db.session.scalars(select(AuditEntry).where(AuditEntry.action == "renamed"))]
    assert notes == [
        f"{old} of {team} is now {new}: another team has a player of that name, and a match's sheet "
        "needs four names of their own"
        for old, team, new in (
            ("john", "Kings", "john (Kings)"),
            ("JOHN", "A long team name of many many words", "JOHN (4)"),
            ("mary", "A long team name of many many words", "mary (4)"),
        )
    ]
    page = text(client.get(f"/d/{token}"))
    assert "john of Kings is now john (Kings)" in page
