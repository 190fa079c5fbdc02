"""Issue 14, "Trust at the table": a director who closes the tab can get back. The browser that
created an event (or opened its director's link, or unlocked it) lists it on its home page under
"Your events"; another browser does not; a PIN still guards the control room; removing one from the
list deletes nothing.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import military
from scorepad.extensions import db
from scorepad.models import Event
from scorepad.views.director import MY_EVENTS, MY_EVENTS_KEPT
from tests.web.test_events import create, text
from tests.web.test_tournament_registration import create as create_tournament


def your_events(page: str) -> str:
    """The "Your events" section of the home page (its text, white space collapsed)."""
    found = re.search(r'<section aria-labelledby="my-events-h">(.*?)</section>', page, re.S)
    assert found, "no Your events section"
    return found.group(1)


def home(client: FlaskClient) -> str:
    response = client.get("/")
    assert response.status_code == 200
    return text(response)


def event_row(app: Flask, token: str) -> Event:
    with app.app_context():
        event = db.session.scalars(db.select(Event).where(Event.director_token == token)).one()
        db.session.expunge_all()
        return event


# --------------------------------------------------------------------------- your events


def test_a_new_browser_shows_the_empty_state(client: FlaskClient) -> None:
    section = your_events(home(client))
    assert "Your events" in section and "No events on this browser yet." in section
    assert "<form" not in section


def test_the_browser_that_created_an_event_lists_it_and_another_does_not(app: Flask, client: FlaskClient) -> None:
    token = create(client, name="Zone 3 finals")
    section = your_events(home(client))
    assert f'href="/d/{token}"><strong>Zone 3 finals</strong></a>' in section
    assert "Military Whist · 4 tables" in section and "Hand 1 of 30" in section
    assert "Remove from this list" in section and "No events on this browser yet" not in section
    assert client.get("/").headers["Cache-Control"] == "no-store"  # the page holds a secret link now

    other = app.test_client()  # another browser: not listed at all (issue 32, item 12), never its director's link
    page = home(other)
    assert "No events on this browser yet." in your_events(page) and "Zone 3 finals" not in page
    assert token not in page


def test_every_format_is_listed_with_its_name_tables_and_status(app: Flask, client: FlaskClient) -> None:
    create(client, name="Club day", tables="2", teams="Aces\nKings")
    create_tournament(client, name="Senior Olympics")
    assert (
        client.post(
            "/events/new/whist-drive",
            data={
                "name": "Village hall drive",
                "players": "\n".join("ABCDEFGH"),
                "deals": "6",
                "per_change": "1",
                "scoring": "odd",
                "movement": "progressive",
                "top": "stay",
            },
        ).status_code
        == 302
    )
    assert (
        client.post("/events/new/club", data={"name": "Tuesday", "variant": "whist", "tables": "3"}).status_code == 302
    )
    items = re.findall(r'<li class="card">(.*?)</li>', your_events(home(client)), re.S)
    shown = [re.sub(r"<[^>]+>", "", re.sub(r"<form.*?</form>", "", i, flags=re.S)).split() for i in items]
    assert [" ".join(words) for words in shown] == [
        "Tuesday Club night · 3 tables No table has started a game yet Control room",  # newest first
        "Village hall drive Whist drive · 2 tables Deal 1 of 6 Control room",
        "Senior Olympics Bid Whist tournament Registration Control room",
        "Club day Military Whist · 2 tables Hand 1 of 30 Control room",
    ]


def test_opening_the_directors_link_lists_the_event_on_that_browser(app: Flask, client: FlaskClient) -> None:
    token = create(client, name="Zone 3 finals")
    laptop = app.test_client()
    assert "No events on this browser yet." in your_events(home(laptop))
    assert laptop.get(f"/d/{token}").status_code == 200
    assert f'href="/d/{token}"' in your_events(home(laptop))


def test_the_pin_still_guards_a_listed_event(app: Flask, client: FlaskClient) -> None:
    token = create(client, name="Zone 3 finals", pin="2468")
    assert "Zone 3 finals" in your_events(home(client))  # its creator knows the PIN
    assert "its PIN is asked" not in your_events(home(client))

    laptop = app.test_client()
    assert laptop.get(f"/d/{token}").status_code == 403  # the unlock page: not listed, nothing learnt
    assert "No events on this browser yet." in your_events(home(laptop))
    assert laptop.post(f"/d/{token}/unlock", data={"pin": "2468"}).status_code == 302
    assert f'href="/d/{token}"' in your_events(home(laptop))

    # the creator changes the PIN: the laptop keeps the event on its list, and the list opens nothing
    assert client.post(f"/d/{token}/pin", data={"pin": "1357"}).status_code == 200
    section = your_events(home(laptop))
    assert "Zone 3 finals" in section and "Control room: its PIN is asked on this browser" in section
    response = laptop.get(f"/d/{token}")
    assert response.status_code == 403 and "PIN" in text(response)
    assert laptop.post(f"/d/{token}/unlock", data={"pin": "1357"}).status_code == 302
    assert "its PIN is asked" not in your_events(home(laptop))


def test_removing_an_event_from_the_list_deletes_nothing(app: Flask, client: FlaskClient) -> None:
    keep = create(client, name="Keep me")
    token = create(client, name="Zone 3 finals", pin="2468")
    response = client.post("/your-events/forget", data={"event": token})
    assert response.status_code == 303 and response.headers["Location"] == "/#my-events-h"
    page = home(client)
    assert "“Zone 3 finals” is no longer listed on this browser. The event is not deleted" in page
    section = your_events(page)
    assert token not in section and f'href="/d/{keep}"' in section
    assert event_row(app, token).name == "Zone 3 finals"  # the event is still there
    # this browser is signed out of it too: its link asks the PIN again, and lists it again once unlocked
    assert client.get(f"/d/{token}").status_code == 403
    assert client.post(f"/d/{token}/unlock", data={"pin": "2468"}).status_code == 302
    assert f'href="/d/{token}"' in your_events(home(client))


def test_removing_twice_or_something_never_listed_changes_nothing(app: Flask, client: FlaskClient) -> None:
    token = create(client)
    other = create(app.test_client(), name="Not mine")
    for sent in (other, "x" * 32):
        response = client.post("/your-events/forget", data={"event": sent})
        assert response.status_code == 303
        assert "That event was not on this browser's list" in home(client)
    assert f'href="/d/{token}"' in your_events(home(client))


@pytest.mark.parametrize("form", [{}, {"event": ""}, {"event": "x" * 65}, {"event": "x" * 5000}])
def test_a_bad_removal_is_a_400(client: FlaskClient, form: dict[str, str]) -> None:
    token = create(client)
    response = client.post("/your-events/forget", data=form)
    assert response.status_code == 400 and "Which event should be taken off the list?" in text(response)
    assert f'href="/d/{token}"' in your_events(home(client))


def test_a_deleted_event_leaves_the_list(app: Flask, client: FlaskClient) -> None:
    token = create(client, name="Gone")
    keep = create(client, name="Kept")
    with app.app_context():
        db.session.delete(db.session.scalars(db.select(Event).where(Event.director_token == token)).one())
        db.session.commit()
    section = your_events(home(client))
    assert "Gone" not in section and "Kept" in section
    with client.session_transaction() as session:
        assert session[MY_EVENTS] == [keep]


def test_the_list_is_capped_so_the_session_cookie_stays_small(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        tokens = [
            military.create_event(f"Day {n}", ["Aces", "Kings"], [2]).director_token for n in range(MY_EVENTS_KEPT + 5)
        ]
    for token in tokens:
        assert client.get(f"/d/{token}").status_code == 200
    with client.session_transaction() as session:
        assert session[MY_EVENTS] == tokens[::-1][:MY_EVENTS_KEPT]  # the newest kept
    cookie = client.get_cookie("session")
    assert cookie is not None and len(cookie.value) < 3000, len(cookie.value)


def test_the_browser_that_restored_an_event_lists_it(app: Flask, client: FlaskClient) -> None:
    from tests.web.test_backup import download, upload

    data = download(client, create(client, name="Zone 3 finals"))
    laptop = app.test_client()  # the new server's browser restores the backup
    response = upload(laptop, data)
    assert response.status_code == 303
    restored = response.headers["Location"].removeprefix("/d/")
    section = your_events(home(laptop))
    # the same server holds the original: the restored event is a copy and its name says so
    assert f'href="/d/{restored}"><strong>Zone 3 finals (copy)</strong></a>' in section
