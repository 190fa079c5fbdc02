"""A Bid Whist tournament's set-up and registration through the Flask test client.

The document (/work/shared/rules/bid-whist.txt, "Registration" and "Preliminary Rounds"): teams
and players are given a number at registration, kept for the whole tournament; nobody is entered
after the start. Every refusal is checked for its status, its message and that nothing changed.
"""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorepad.extensions import db
from scorepad.models import Event
from tests.web.test_events import HX, field_error, text


def create(client: FlaskClient, **form: str) -> str:
    data = {"name": "Senior Olympics Bid Whist", "rounds": "3", "bracket": "auto", "made_scores": "books", **form}
    response = client.post("/events/new/bid-whist", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].removeprefix("/d/")


def event_of(app: Flask, token: str) -> Event:
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        db.session.expunge_all()
        return event


def entrants(app: Flask, token: str) -> list[tuple[int, str, list[str]]]:
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        return [(e.number, e.name, list(e.players)) for e in event.entrants]


def register(client: FlaskClient, token: str, team: str, one: str, two: str) -> tuple[int, str]:
    response = client.post(f"/d/{token}/register", data={"team": team, "player1": one, "player2": two}, headers=HX)
    return response.status_code, text(response)


def test_a_tournament_is_created_with_the_documents_defaults(client: FlaskClient, app: Flask) -> None:
    page = text(client.get("/events/new/bid-whist"))
    assert "New Bid Whist tournament" in page and 'value="3"' in page
    token = create(client)
    event = event_of(app, token)
    assert event.format == "bid_whist" and event.started_at is None
    assert event.options["rounds"] == 3 and event.options["made_scores"] == "books"
    room = text(client.get(f"/d/{token}"))
    assert "Registration · 0 teams" in room and "Nobody is registered yet" in room


def test_bad_set_up_is_refused_beside_each_field(client: FlaskClient, app: Flask) -> None:
    response = client.post("/events/new/bid-whist", data={"name": " ", "rounds": "12", "bracket": "5", "pin": "12"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert field_error(page, "name").startswith("Give the event a name")
    assert field_error(page, "rounds") == "Play 1 to 8 preliminary rounds (the document plays 3)"
    assert field_error(page, "pin") == "The PIN is 4 to 8 digits (or leave it empty)"
    assert "Choose one of the bracket sizes offered" in page
    with app.app_context():
        assert db.session.query(Event).count() == 0


def test_teams_are_numbered_in_order_of_registration(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    assert register(client, token, "Aces", "Ann", "Bob")[0] == 200
    assert register(client, token, "", "Cat", "Dan")[0] == 200
    status, page = register(client, token, "Kings", "Eve", "Fay")
    assert status == 200 and "Registration · 3 teams" in page
    assert entrants(app, token) == [
        (1, "Aces", ["Ann", "Bob"]),
        (2, "Team 2", ["Cat", "Dan"]),
        (3, "Kings", ["Eve", "Fay"]),
    ]


def test_a_registration_with_a_missing_player_or_a_name_taken_is_refused(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    register(client, token, "Aces", "Ann", "Bob")
    status, page = register(client, token, "aces", "Cat", "")
    assert status == 422
    assert "'aces' is already registered: give another name" in page
    assert "Give the name of player 2" in page
    status, page = register(client, token, "Kings", "Eve", "eve")
    assert status == 422 and "The two players have the same name" in page
    assert entrants(app, token) == [(1, "Aces", ["Ann", "Bob"])]


def test_single_players_are_paired_by_the_director(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    register(client, token, "Aces", "Ann", "Bob")
    for name in ("Gus", "Hal", "Ida"):
        assert (
            client.post(f"/d/{token}/register", data={"kind": "single", "single": name}, headers=HX).status_code == 200
        )
    page = text(client.get(f"/d/{token}"))
    assert "3 single players to pair" in page and "Pair two single players" in page
    response = client.post(f"/d/{token}/pair", data={"first": "2", "second": "2"}, headers=HX)
    assert response.status_code == 422 and "Choose two different players to pair" in text(response)
    response = client.post(f"/d/{token}/pair", data={"first": "2", "second": "1"}, headers=HX)
    assert response.status_code == 422 and "Number 1 is not a single player waiting for a partner" in text(response)
    response = client.post(f"/d/{token}/pair", data={"first": "2", "second": "4", "name": "Late Birds"}, headers=HX)
    assert response.status_code == 200
    assert entrants(app, token) == [(1, "Aces", ["Ann", "Bob"]), (2, "Late Birds", ["Gus", "Ida"]), (3, "Hal", ["Hal"])]


def test_a_team_can_withdraw_before_the_start(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    register(client, token, "Aces", "Ann", "Bob")
    register(client, token, "Kings", "Cat", "Dan")
    assert client.post(f"/d/{token}/withdraw/1", headers=HX).status_code == 200
    assert entrants(app, token) == [(2, "Kings", ["Cat", "Dan"])]
    response = client.post(f"/d/{token}/withdraw/7", headers=HX)
    assert response.status_code == 422 and "There is no entrant number 7" in text(response)


def test_registration_and_the_start_are_for_the_director_only(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    assert client.post("/d/nope/register", data={"team": "X", "player1": "a", "player2": "b"}).status_code == 404
    other = app.test_client()
    other_token = create(other, pin="4321")
    stranger = app.test_client()
    response = stranger.post(f"/d/{other_token}/register", data={"team": "X", "player1": "a", "player2": "b"})
    assert response.status_code == 403
    assert entrants(app, other_token) == []
    assert re.search(r"Registration", text(client.get(f"/d/{token}")))
