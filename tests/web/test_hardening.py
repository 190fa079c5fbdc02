"""Issue 16's findings, each as a regression test: a request, however odd, never leaves an event
that cannot be shown."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorepad.extensions import db
from scorepad.models import Event, Game
from tests.web.test_tournament_registration import create, register

LONG_NAME = "The Quick Brown Foxes of Little Hampton"  # 39 characters: an ordinary team name


def pages_of(client: FlaskClient, app: Flask, token: str) -> list[str]:
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        board, tables = event.public_id, [t.token for t in event.tables]
    return [f"/d/{token}", f"/d/{token}/room", f"/d/{token}/qr", f"/b/{board}", f"/b/{board}/standings",
            f"/b/{board}/event.json", *(f"/t/{t}" for t in tables)]


def test_a_long_team_name_does_not_break_a_tournament(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    assert register(client, token, LONG_NAME, "Ann Long", "Bob Long")[0] == 200
    assert register(client, token, "Aces", "Cat", "Dan")[0] == 200
    assert client.post(f"/d/{token}/start", data={"rounds": "1"}).status_code == 200
    for path in pages_of(client, app, token):
        response = client.get(path)
        assert response.status_code in (200, 303), (path, response.status_code)
    with app.app_context():
        game = db.session.query(Game).filter(Game.event_id.isnot(None)).first()
        assert game is not None
        names = [t["name"] for t in game.teams]
        assert all(len(n) <= 40 for n in names), names
        assert any(n.startswith("(1) The Quick Brown Foxes") for n in names), names
        scorer = game.scorer_token
    page = client.get(f"/g/{scorer}")
    assert page.status_code == 200
    assert LONG_NAME[:20] in page.get_data(as_text=True)
    # the match is played to its end with the long name in it
    response = client.get(f"/w/{re.search(r'/w/([A-Za-z0-9_-]+)', page.get_data(as_text=True)).group(1)}/game.json")
    assert response.status_code == 200
