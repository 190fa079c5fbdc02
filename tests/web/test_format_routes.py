"""Each format's own routes belong to events of that format (views/<format>.py guards them with
`director_of(KEY)` or `table_for(token, KEY)`): another format's link answers 404 and changes
nothing, and the event core's routes (room, PIN, QR cards, boards, export) serve every format."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events.registry import all_formats
from scorepad.extensions import db
from scorepad.models import AuditEntry, Event
from tests.web.test_club_night import create as create_club
from tests.web.test_club_night import public_id, table_tokens

MILITARY_DIRECTOR = ["advance", "loan", "return", "playoff", "moves", "setup", "results/1/1"]
BID_WHIST_DIRECTOR = [
    "register",
    "pair",
    "withdraw/1",
    "start",
    "next-round",
    "cut",
    "publish",
    "walkover",
    "swap",
    "matches/1/close",
]
DRIVE_DIRECTOR = ["deals/correct", "deals/1/1", "players/rename"]


def create_military(client: FlaskClient) -> str:
    response = client.post("/events/new", data={"name": "Zone day", "preset": "area", "tables": "4"})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].removeprefix("/d/")


def audit_count(app: Flask) -> int:
    with app.app_context():
        return db.session.query(AuditEntry).count()


@pytest.mark.parametrize("path", MILITARY_DIRECTOR + BID_WHIST_DIRECTOR + DRIVE_DIRECTOR)
def test_another_formats_director_route_is_404_for_a_club_night(client: FlaskClient, app: Flask, path: str) -> None:
    token = create_club(client)
    before = audit_count(app)
    response = client.post(f"/d/{token}/{path}", data={"hand": "1", "table": "1", "flags": "1", "stage": "1"})
    assert response.status_code == 404
    assert "This is not a" in response.get_data(as_text=True)
    assert audit_count(app) == before


def test_club_routes_are_404_for_a_military_event(client: FlaskClient, app: Flask) -> None:
    token = create_military(client)
    assert client.post(f"/d/{token}/tables/1/clear").status_code == 404
    with app.app_context():
        table = db.session.query(Event).filter_by(director_token=token).one().tables[0].token
    assert client.get(f"/t/{table}/setup").status_code == 404
    assert client.post(f"/t/{table}/deal", data={"deal": "1", "tricks": "7"}).status_code == 404
    assert client.post(f"/t/{table}/deal/preview", data={"deal": "1", "tricks": "7"}).status_code == 404


def test_military_table_routes_are_404_for_a_club_table(client: FlaskClient, app: Flask) -> None:
    tokens = table_tokens(app, create_club(client))
    for action in ("preview", "result"):
        assert client.post(f"/t/{tokens[1]}/{action}", data={"hand": "1", "tricks": "7"}).status_code == 404


def test_the_core_routes_serve_every_format(client: FlaskClient, app: Flask) -> None:
    """Room, PIN, QR cards, boards and export for a club night (the PIN used to render Military's room)."""
    token = create_club(client)
    board = public_id(app, token)
    for path in (
        f"/d/{token}",
        f"/d/{token}/room",
        f"/d/{token}/qr",
        f"/b/{board}",
        f"/b/{board}/standings",
        f"/b/{board}/event.json",
    ):
        assert client.get(path, follow_redirects=True).status_code == 200, path
    response = client.post(f"/d/{token}/pin", data={"pin": "4321"})
    assert response.status_code == 200 and "PIN saved" in response.get_data(as_text=True)
    assert client.post(f"/d/{token}/pin", data={"pin": "12"}).status_code == 422


def test_every_format_has_a_set_up_page_and_a_title() -> None:
    assert sorted(f.key for f in all_formats()) == ["bid_whist", "club", "military", "whist_drive"]
    assert all(f.title and f.pages for f in all_formats())
