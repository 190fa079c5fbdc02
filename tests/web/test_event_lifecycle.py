"""Issue 32, item 12: a director can archive an event (off the home page's lists, every page kept,
and back) and delete a test event (after typing its name; its links then answer 410 Gone with
words saying its director deleted it, unknown links 404 as before); the home page lists only this browser's events; a backup restored where its event
already is comes in as a copy that says so; and a Bid Whist team can be renamed, audited "old →
new" with who and when, every page showing the new name.
"""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import core
from scorepad.events.results import link_code
from scorepad.extensions import db
from scorepad.models import AuditEntry, Event, Game
from tests.web.test_backup import download, token_of, upload
from tests.web.test_events import create, field_error, text
from tests.web.test_tournament_registration import HX
from tests.web.test_tournament_registration import create as create_tournament
from tests.web.test_your_events import your_events


def home(client: FlaskClient) -> str:
    response = client.get("/")
    assert response.status_code == 200
    return text(response)


def archived_part(page: str) -> str:
    found = re.search(r'<details class="archived-events">(.*?)</details>', page, re.S)
    return found.group(1) if found else ""


def listed(page: str) -> str:
    """ "Your events" without its folded archive."""
    return your_events(page).split('<details class="archived-events">')[0]


def test_an_archived_event_leaves_the_list_keeps_its_pages_and_comes_back(app: Flask, client: FlaskClient) -> None:
    token = create(client, name="Test day", tables="2", teams="Aces\nKings")
    with app.app_context():
        public_id = db.session.scalars(db.select(Event.public_id).where(Event.director_token == token)).one()
    response = client.post(f"/d/{token}/archive", data={"archived": "1"})
    assert response.status_code == 303
    room = text(client.get(f"/d/{token}"))
    assert "“Test day” is archived" in room and "Archived: this event is not on the home page's lists." in room
    page = home(client)
    assert "Test day" not in listed(page) and "No events on this browser yet" not in page
    assert "1 archived event" in archived_part(page) and f'href="/d/{token}"' in archived_part(page)
    assert (
        client.get(f"/b/{public_id}").status_code == 200 and client.get(f"/b/{public_id}/standings").status_code == 200
    )
    again = client.post(f"/d/{token}/archive", data={"archived": "1"})  # a resent form: said, nothing changes
    assert again.status_code == 422 and "The event is already archived" in text(again)

    assert client.post(f"/d/{token}/archive", data={"archived": "0"}).status_code == 303
    page = home(client)
    assert "Test day" in listed(page) and not archived_part(page)
    with app.app_context():
        trail = [(a.actor, a.action) for a in db.session.scalars(db.select(AuditEntry).order_by(AuditEntry.id))]
    assert trail[-2:] == [("director", "archived"), ("director", "unarchived")]


def test_the_home_page_lists_no_other_browsers_events(app: Flask, client: FlaskClient) -> None:
    create(client, name="Someone else's test")
    other = app.test_client()
    page = home(other)
    assert "Someone else's test" not in page and "No events on this browser yet." in page


def test_a_delete_asks_for_the_name_then_every_link_answers_410_gone(app: Flask, client: FlaskClient) -> None:
    token = create_tournament(client, name="Practice run", rounds="1")
    for n in (1, 2):
        client.post(
            f"/d/{token}/register", data={"team": f"T{n}", "player1": f"P{n}a", "player2": f"P{n}b"}, headers=HX
        )
    assert client.post(f"/d/{token}/start", headers=HX).status_code == 200
    with app.app_context():
        event = db.session.scalars(db.select(Event).where(Event.director_token == token)).one()
        public_id, table, table_code = event.public_id, event.tables[0].token, event.tables[0].short_code
        team, team_code, director_code = event.entrants[0].token, event.entrants[0].short_code, event.director_code
        results_code = link_code(event)
        match = db.session.scalars(db.select(Game).where(Game.event_id == event.id)).one()
        scorer, watched, sheet = match.scorer_token, match.public_id, core.print_token(event)
    asked = client.get(f"/d/{token}/delete")
    assert asked.status_code == 200
    assert "Delete “Practice run”?" in text(asked) and "Type the event's name to confirm: Practice run" in text(asked)
    wrong = client.post(f"/d/{token}/delete", data={"confirm": "Practice"})
    assert wrong.status_code == 422
    assert (
        field_error(text(wrong), "confirm")
        == "Type the event's name, “Practice run”, to delete it (nothing was deleted)"
    )
    assert client.get(f"/d/{token}").status_code == 200

    done = client.post(f"/d/{token}/delete", data={"confirm": "  practice RUN "})
    assert done.status_code == 303 and done.headers["Location"] == "/"
    page = home(client)
    assert "“Practice run” is deleted" in page and "Practice run</strong>" not in page
    links = [
        f"/d/{token}",  # the director's
        f"/d/{token}/room",
        f"/d/{str(director_code).upper()}",  # its short link, as typed
        f"/b/{public_id}",  # the board's
        f"/b/{public_id}/standings",
        f"/b/{public_id}/events",  # the stream's
        f"/b/{public_id}/events?only=changed,timer",
        f"/t/{table}",  # a table's
        f"/t/{table_code}",
        f"/team/{team}",
        f"/team/{team_code}",
        f"/r/{results_code}",
        f"/g/{scorer}",  # its match's score page, and the page its watchers follow
        f"/w/{watched}",
        f"/qr/{sheet}",  # the printed QR sheet's address
    ]
    for link in links:
        gone = client.get(link)
        assert gone.status_code == 410, link
        assert "<h1>This event was deleted</h1>" in text(gone), link
        assert "Its director deleted this event, with everything entered in it" in text(gone), link
    assert client.post(f"/d/{token}/start", headers=HX).status_code == 410  # a form left open on a phone
    assert client.post(f"/t/{table}/result", data={"hand": "1", "tricks": "7"}).status_code == 410

    def other(link: str) -> str:  # a link no event ever had: its last letter changed (any case)
        return link[:-1] + ("y" if link[-1].lower() == "x" else "x")

    never = (f"/d/{other(token)}", f"/b/{other(public_id)}", f"/b/{other(public_id)}/events", f"/t/{other(table)}")
    for unknown in (*never, f"/g/{other(scorer)}", f"/w/{other(watched)}"):
        assert client.get(unknown).status_code == 404, unknown  # a link no event ever had
    client.set_cookie("lang", "fr")
    french = client.get(f"/b/{public_id}/standings")
    assert french.status_code == 410 and "<h1>Cet événement a été supprimé</h1>" in text(french)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 0  # its games went with it
        assert db.session.scalar(db.select(db.func.count(AuditEntry.id))) == 0


def test_a_backup_restored_beside_its_event_is_a_copy_that_says_so(app: Flask, client: FlaskClient) -> None:
    token = create(client, name="Zone 3", tables="2", teams="Aces\nKings")
    data = download(client, token)
    first = upload(client, data)
    copy = token_of(first)
    room = text(client.get(f"/d/{copy}"))
    assert "This server already has “Zone 3”: the backup was restored as a separate copy, “Zone 3 (copy)”" in room
    second = token_of(upload(client, data))
    names = re.findall(r"<strong>([^<]+)</strong>", listed(home(client)))
    assert names == ["Zone 3 (copy 2)", "Zone 3 (copy)", "Zone 3"]  # never the same name twice
    assert second != copy
    client.set_cookie("lang", "fr")
    assert "Zone 3 (copie 3)" in text(client.get(f"/d/{token_of(upload(client, data))}"))


def test_a_bid_whist_team_is_renamed_with_an_audit_line_and_every_page_follows(app: Flask, client: FlaskClient) -> None:
    token = create_tournament(client, name="Senior Olympics", rounds="1")
    for n in (1, 2):
        client.post(
            f"/d/{token}/register", data={"team": f"T{n}", "player1": f"P{n}a", "player2": f"P{n}b"}, headers=HX
        )
    assert client.post(f"/d/{token}/start", headers=HX).status_code == 200
    taken = client.post(f"/d/{token}/rename", data={"number": "1", "name": "t2"}, headers=HX)
    assert (
        taken.status_code == 422
        and field_error(text(taken), "rename") == "'t2' is already registered: give another name"
    )
    response = client.post(f"/d/{token}/rename", data={"number": "1", "name": " Royal  Flush "}, headers=HX)
    assert response.status_code == 200, text(response)
    room = text(response)
    assert "Number 1 is now called Royal Flush." in room
    assert re.search(r"\d\d:\d\d</time> director: renamed: “T1” → “Royal Flush” · number 1", room), room
    with app.app_context():
        event = db.session.scalars(db.select(Event).where(Event.director_token == token)).one()
        game = event.matches[0].game
        assert game is not None and sorted(t["name"] for t in game.teams) == ["(1) Royal Flush", "(2) T2"]
        public_id, team, scorer = event.public_id, event.entrants[0].token, game.scorer_token
    assert "Royal Flush" in text(client.get(f"/b/{public_id}")) and "T1" not in text(client.get(f"/b/{public_id}"))
    assert "Royal Flush" in text(client.get(f"/team/{team}"))
    assert "(1) Royal Flush" in text(client.get(f"/g/{scorer}"))
    client.set_cookie("lang", "fr")
    french = text(client.get(f"/d/{token}"))
    assert "directeur : renommé: “T1” → “Royal Flush” · numéro 1" in french
