"""Issue 16's findings, each as a regression test: a request, however odd, never leaves an event
that cannot be shown."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import core
from scorepad.extensions import db
from scorepad.models import Event, Game
from tests.web.test_events import text
from tests.web.test_tournament_registration import create, register

pytestmark = pytest.mark.postgresql  # each test also runs on PostgreSQL (tests/conftest.py)

LONG_NAME = "The Quick Brown Foxes of Little Hampton"  # 39 characters: an ordinary team name


def pages_of(client: FlaskClient, app: Flask, token: str) -> list[str]:
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        board, tables = event.public_id, [t.token for t in event.tables]
    return [
        f"/d/{token}",
        f"/d/{token}/room",
        f"/d/{token}/qr",
        f"/b/{board}",
        f"/b/{board}/standings",
        f"/b/{board}/event.json",
        *(f"/t/{t}" for t in tables),
    ]


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


def test_a_whist_drive_players_link_has_no_team_page(client: FlaskClient, app: Flask) -> None:
    """Found by the fuzzer: a drive's players are entrants with tokens too, and /team/ took them for
    a tournament's teams (500)."""
    response = client.post(
        "/events/new/whist-drive",
        data={
            "name": "Drive",
            "players": "\n".join(f"P{n}" for n in range(8)),
            "deals": "4",
            "per_change": "1",
            "scoring": "odd",
            "movement": "progressive",
            "top": "stay",
        },
    )
    assert response.status_code == 302
    with app.app_context():
        token = db.session.query(Event).filter_by(format="whist_drive").one().entrants[0].token
    assert client.get(f"/team/{token}").status_code == 404
    assert client.post(f"/team/{token}/sign").status_code == 404


def test_a_record_of_a_variant_not_played_at_home_is_read_not_entered(client: FlaskClient, app: Flask) -> None:
    """Found by the fuzzer: the example Military Whist games are home games with no entry adapter;
    tapping at them (entry, undo, correction, rematch) was a 500, and undo took a hand away first."""
    from scorepad.games import records

    with app.app_context():
        records.load_demo_games()
        game = db.session.query(Game).filter_by(variant="military").first()
        assert game is not None
        token, hands = game.scorer_token, len(game.hands)
    assert client.get(f"/g/{token}").status_code == 200
    for path, form in (
        (f"/g/{token}/entry", {"action": "result", "number": "1"}),
        (f"/g/{token}/undo", {}),
        (f"/g/{token}/hands/1", {}),
        (f"/g/{token}/rematch", {}),
    ):
        response = client.post(path, data=form)
        assert response.status_code == 409, path
        assert "is a record to read" in response.get_data(as_text=True)
    assert client.get(f"/g/{token}/hands/1").status_code == 409
    with app.app_context():
        assert len(db.session.query(Game).filter_by(scorer_token=token).one().hands) == hands


def test_a_new_qr_code_also_retires_the_match_page_the_old_card_opened(client: FlaskClient, app: Flask) -> None:
    """Item 3: the old card's phone kept the match's scoring page; after a new QR code it must not write."""
    token = create(client)
    for n in range(2):
        assert register(client, token, f"Team {n}", f"A{n}", f"B{n}")[0] == 200
    assert client.post(f"/d/{token}/start", data={"rounds": "1"}).status_code == 200
    with app.app_context():
        old_card = db.session.query(Event).filter_by(director_token=token).one().tables[0].token
    old_game = client.get(f"/t/{old_card}").headers["Location"]
    assert client.get(old_game).status_code == 200
    assert client.post(f"/d/{token}/tables/1/token").status_code == 302
    assert client.get(f"/t/{old_card}").status_code == 404
    assert client.post(f"{old_game}/entry", data={"action": "call", "number": "1"}).status_code == 404
    assert client.post(f"{old_game}/undo").status_code == 404
    with app.app_context():
        new_card = db.session.query(Event).filter_by(director_token=token).one().tables[0].token
    new_game = client.get(f"/t/{new_card}").headers["Location"]
    assert new_game != old_game and client.get(new_game).status_code == 200


def test_a_cleared_club_table_s_old_game_link_no_longer_writes(client: FlaskClient, app: Flask) -> None:
    """Item 3: the director set the game aside; its scorer's link must not go on writing to it."""
    from tests.web.test_club_night import create as create_club
    from tests.web.test_club_night import table_tokens
    from tests.web.test_games import nomination_form

    token = create_club(client)
    card = table_tokens(app, token)[1]
    started = client.post(f"/t/{card}/setup", data=nomination_form())
    assert started.status_code == 303
    scorer = started.headers["Location"]
    assert client.post(f"/d/{token}/tables/1/clear").status_code == 200
    assert client.post(f"{scorer}/undo").status_code == 404
    assert client.get(scorer).status_code == 404
    with app.app_context():  # the game itself is kept (the export lists it as set aside)
        assert db.session.query(Game).filter(Game.event_id.isnot(None)).count() == 1


def test_the_qr_sheet_is_printed_from_an_address_that_is_not_the_directors(client: FlaskClient, app: Flask) -> None:
    """Item 6: browsers print the page's address in the footer, and the sheets lie on the tables."""
    from tests.web.test_format_routes import create_military

    token = create_military(client)
    response = client.get(f"/d/{token}/qr")
    assert response.status_code == 303
    sheet = response.headers["Location"]
    assert sheet.startswith("/qr/") and token not in sheet
    page = client.get(sheet)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    html = page.get_data(as_text=True)
    assert token not in html and html.count('class="qr-card"') == 4
    assert "untick Headers and footers" in re.sub(r"<[^>]+>", "", " ".join(html.split()))  # how to print
    assert client.get(sheet[:-3] + "abc").status_code == 403  # a forged address
    other = create_military(client)
    assert client.get(f"/d/{other}/qr").headers["Location"] != sheet


@pytest.mark.parametrize("pin", ["", "4321"])
def test_the_qr_sheets_address_opens_nothing_in_a_strangers_browser(client: FlaskClient, app: Flask, pin: str) -> None:
    """Issue 33, item 2: the address a browser prints in the sheet's footer was a master key (every
    table's and team's link and every team code); it opens the sheet in the director's browser only."""
    from tests.web.test_tournament_director import started

    token = started(client, app, 4, pin=pin)
    sheet = client.get(f"/d/{token}/qr").headers["Location"]
    page = client.get(sheet)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    links = set(re.findall(r"/(?:t|team)/[\w-]{10,}", page.get_data(as_text=True)))
    assert len(links) >= 4 + 2  # 4 teams' cards and the 2 tables'
    stranger = app.test_client()
    refused = stranger.get(sheet)
    assert refused.status_code == 403 and refused.headers["Cache-Control"] == "no-store"
    words = text(refused)
    assert "This QR sheet opens only on the director's own device" in words
    assert not any(link in refused.get_data(as_text=True) for link in links) and "Team code" not in words
    if pin:  # the director's browser itself, once the PIN changes elsewhere, must enter it again
        with app.app_context():
            event = db.session.query(Event).filter_by(director_token=token).one()
            core.set_pin(event, "9876")
        assert client.get(sheet).status_code == 403


def test_live_streams_are_capped_per_client_and_in_all(app: Flask) -> None:
    """Item 2: a thousand streams from one client left the worker no connection for the phones.
    Past the cap a stream is a 429 that says why; a closed stream frees its place, even one that
    never started streaming."""
    app.config["SCOREPAD_MAX_STREAMS_PER_CLIENT"] = 3
    from scorepad import live

    app.extensions["scorepad.live"] = live.Broker(most=5, most_per_client=3)
    client = app.test_client()
    with app.app_context():
        event_id = (
            __import__("scorepad.events.military", fromlist=["x"]).create_event("Streams", ["A", "B"], [2]).public_id
        )
    url = f"/b/{event_id}/events"
    opened = [client.get(url) for _ in range(3)]
    assert all(r.status_code == 200 for r in opened)
    refused = client.get(url)
    assert refused.status_code == 429 and "already has 3 live pages open" in refused.get_data(as_text=True)
    other = app.test_client()
    two = [other.get(url, environ_base={"REMOTE_ADDR": "10.0.0.9"}) for _ in range(2)]
    assert [r.status_code for r in two] == [200, 200]
    third = other.get(url, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert third.status_code == 429 and "as many live pages as it can" in third.get_data(as_text=True)
    for response in reversed(opened + two):  # last opened, first closed: each holds its request context
        response.close()
    with app.app_context():
        assert live.broker().open_streams() == 0
    assert client.get(url).status_code == 200


def test_a_nul_character_anywhere_is_refused_and_stores_nothing(client: FlaskClient, app: Flask) -> None:
    """Found by the fuzzer on PostgreSQL: its text cannot hold a NUL (\\0), so a link or a name
    carrying one was a 500 there, even in a look-up (SQLite kept it). No field takes one."""
    from tests.web.test_games import PARTNERS

    token = create(client)
    with app.app_context():
        public = db.session.query(Event).filter_by(director_token=token).one().public_id
    before = pages_of(client, app, token)
    for response in (
        client.get("/d/\x00"),
        client.get(f"/b/{public}\x00/standings"),
        client.get("/s/a\x00b"),
        client.get(f"/d/{token}", query_string={"only": "board\x00"}),
        client.post("/new/whist", data={**PARTNERS, "name.0": "Ann\x00"}),
        client.post("/new/whist", data={**PARTNERS, "title\x00": "x"}),
        client.post(f"/d/{token}/register", data={"team": "Aces\x00", "player1": "A", "player2": "B"}),
    ):
        assert response.status_code == 400
        assert "holds a NUL character" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Game).count() == 0
        assert db.session.query(Event).filter_by(director_token=token).one().entrants == []
    assert pages_of(client, app, token) == before
