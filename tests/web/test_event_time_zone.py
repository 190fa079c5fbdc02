"""Issue 32, item 7: an event's times are shown in its own time zone, chosen at its creation (the
director's browser's, filled in by the form's script), checked against the server's zone database
(an unknown one is refused beside the field); an event made before keeps the server's
(SCOREPAD_TZ), and a backup carries the zone.
"""

from __future__ import annotations

import re
from datetime import UTC
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.extensions import db
from scorepad.models import AuditEntry, Event
from tests.web.test_backup import download, token_of, upload
from tests.web.test_columns import _bid_whist_form, _club, _drive, _military_form
from tests.web.test_events import field_error, text
from tests.web.test_tournament_registration import HX

FORMS = {
    "military": ("/events/new", _military_form),
    "bid_whist": ("/events/new/bid-whist", _bid_whist_form),
    "whist_drive": ("/events/new/whist-drive", lambda **f: {**_drive(), **f}),
    "club": ("/events/new/club", lambda **f: {**_club(), **f}),
}
UNKNOWN = (
    "That is not a time zone this server knows (the field shows what was sent): give a name such as "
    "America/Edmonton or Europe/Paris, or leave it empty for the server's"
)


def newest(app: Flask) -> Event:
    with app.app_context():
        event = db.session.scalars(db.select(Event).order_by(Event.id.desc())).first()
        assert event is not None
        db.session.expunge_all()
        return event


@pytest.mark.parametrize("kind", list(FORMS))
def test_each_format_keeps_the_zone_chosen_and_refuses_an_unknown_one_beside_the_field(
    client: FlaskClient, app: Flask, kind: str
) -> None:
    url, form = FORMS[kind]
    page = client.get(url).get_data(as_text=True)
    assert re.search(
        r'<input id="ev-zone" name="time_zone" value=""[^>]*data-browser-zone', page
    )  # the script fills it
    refused = client.post(url, data=form(time_zone="Mars/Olympus_Mons"))
    assert refused.status_code == 422
    assert field_error(text(refused), "time_zone") == UNKNOWN
    assert 'value="Mars/Olympus_Mons"' in text(refused)  # what was sent, to be corrected
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Event.id))) == 0
    assert client.post(url, data=form(time_zone=" America/Edmonton ")).status_code == 302
    assert newest(app).time_zone == "America/Edmonton"
    assert client.post(url, data=form()).status_code == 302  # none given: the server's
    assert newest(app).time_zone is None


def test_the_control_room_and_the_whole_trail_show_times_in_the_events_zone(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SCOREPAD_TZ", raising=False)
    app.config["SCOREPAD_TZ"] = "Asia/Tokyo"  # the server's: the event's own wins
    response = client.post("/events/new/bid-whist", data=_bid_whist_form(time_zone="America/Edmonton"))
    token = response.headers["Location"].removeprefix("/d/")
    client.post(f"/d/{token}/register", data={"team": "Aces", "player1": "Ann", "player2": "Bob"}, headers=HX)
    with app.app_context():
        at = db.session.scalars(db.select(AuditEntry.at).order_by(AuditEntry.id.desc())).first()
    assert at is not None
    local = at.replace(tzinfo=UTC).astimezone(ZoneInfo("America/Edmonton"))
    stamp = f'<time datetime="{at:%Y-%m-%dT%H:%M:%S}Z">{local:%H:%M}</time>'
    for page in (text(client.get(f"/d/{token}")), text(client.get(f"/d/{token}/audit"))):
        assert stamp in page, re.findall(r"<time[^>]*>[^<]*</time>", page)
        assert "Times in America/Edmonton." in page
    client.set_cookie("lang", "fr")
    assert "Heures du fuseau America/Edmonton." in text(client.get(f"/d/{token}"))


def test_an_event_made_before_keeps_the_servers_zone_and_a_backup_carries_its_own(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SCOREPAD_TZ", raising=False)
    app.config["SCOREPAD_TZ"] = "Asia/Tokyo"
    assert client.post("/events/new", data=_military_form()).status_code == 302
    old = newest(app)
    assert old.time_zone is None  # as every event made before migration 0016
    assert client.post(f"/d/{old.director_token}/tables/2/token").status_code == 302
    with app.app_context():
        at = db.session.scalars(db.select(AuditEntry.at).order_by(AuditEntry.id.desc())).first()
    assert at is not None
    tokyo = at.replace(tzinfo=UTC).astimezone(ZoneInfo("Asia/Tokyo"))
    page = text(client.get(f"/d/{old.director_token}"))
    assert f"{tokyo:%H:%M:%S} JST" in page

    assert (
        client.post("/events/new", data=_military_form(name="Edmonton", time_zone="America/Edmonton")).status_code
        == 302
    )
    data = download(client, newest(app).director_token)
    assert b'"time_zone": "America/Edmonton"' in data
    copy = token_of(upload(client, data))
    with app.app_context():
        assert db.session.scalars(db.select(Event.time_zone).where(Event.director_token == copy)).one() == (
            "America/Edmonton"
        )
