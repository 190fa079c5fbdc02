"""A whist drive through the Flask test client: set-up, the tables' phones, movement, corrections.

The same twelve players and deal 1 as tests/formats/test_drive.py (worked by hand there): N-S
take 8, 5 and 7 tricks at tables 1-3; then A, C stay at table 1 and F, H move up to join them.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import core, drive
from scorepad.extensions import db
from scorepad.models import Event, ReportedResult
from tests.web.test_events import HX, field_error, text

TWELVE = "\n".join("ABCDEFGHIJKL")


def create(client: FlaskClient, **form: str) -> str:
    data = {
        "name": "Village hall drive",
        "players": TWELVE,
        "deals": "6",
        "per_change": "1",
        "scoring": "odd",
        "movement": "progressive",
        "top": "stay",
        **form,
    }
    response = client.post("/events/new/whist-drive", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].removeprefix("/d/")


def tokens(app: Flask, token: str) -> dict[int, str]:
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        return {t.number: t.token for t in event.tables}


def words(response: Any) -> str:
    """The page's text without its tags (the seats are marked up for the projector's columns)."""
    return re.sub(r"<[^>]*>", "", text(response))


def enter(client: FlaskClient, table_token: str, deal: int, ns: int) -> tuple[int, str]:
    response = client.post(f"/t/{table_token}/deal", data={"deal": str(deal), "tricks": str(ns)}, headers=HX)
    return response.status_code, text(response)


def test_bad_set_up_is_refused_beside_each_field(client: FlaskClient, app: Flask) -> None:
    response = client.post(
        "/events/new/whist-drive",
        data={
            "name": "",
            "players": "A\nB\nC\nD\nE",
            "deals": "0",
            "per_change": "1",
            "scoring": "odd",
            "movement": "progressive",
            "top": "stay",
        },
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert field_error(page, "players").startswith("A whist drive seats four players to a table")
    assert field_error(page, "deals") == "Play 1 to 60 deals (24 is usual)"
    assert field_error(page, "name").startswith("Give the drive a name")
    with app.app_context():
        assert db.session.query(Event).count() == 0


@pytest.mark.postgresql
def test_tables_enter_deals_and_the_players_move(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    t = tokens(app, token)
    page = text(client.get(f"/t/{t[1]}"))
    assert "Deal 1 of 6 · hearts" in page and "North A" in page.replace("</dt><dd>", " ")
    assert enter(client, t[1], 1, 8)[0] == 200
    status, page = enter(client, t[1], 1, 9)  # the other phone at the table: refused, value kept
    assert status == 409 and "Deal 1 at table 1 is already recorded: North-South took 8." in page
    status, page = enter(client, t[2], 2, 5)
    assert status == 422 and "deal 2 is not in play: deal 1 is" in page.lower()
    status, page = enter(client, t[2], 1, 14)
    assert status == 422 and "0 to 13" in page
    assert enter(client, t[2], 1, 5)[0] == 200
    status, page = enter(client, t[3], 1, 7)
    assert status == 200 and "Deal 2 of 6 · diamonds" in page
    page = text(client.get(f"/t/{t[1]}"))  # each phone tells the players who sat at its table
    assert "Change places for deal 2" in page and "F: move up" not in page
    assert "A: stay at table 1, sit North" in page and "B: go to table 3, sit South" in page
    assert "F: move up to table 1, sit South" in text(client.get(f"/t/{t[2]}"))
    board = client.get(f"/b/{public(app, token)}").get_data(as_text=True)
    assert '<th scope="row" class="team">A</th><td class="num total">2</td>' in board
    assert "Table 1: N A, E C, S F, W H" in words(client.get(f"/b/{public(app, token)}"))
    # a correction re-scores deal 1 but moves nobody again (they have moved and sat down)
    response = client.post(f"/d/{token}/deals/correct", data={"deal": "1", "table": "1", "tricks": "4"}, headers=HX)
    assert response.status_code == 200 and "Deal 1 at table 1: North-South took 4." in text(response)
    assert "Table 1: N A, E C, S F, W H" in words(client.get(f"/b/{public(app, token)}"))
    board = client.get(f"/b/{public(app, token)}").get_data(as_text=True)
    assert '<th scope="row" class="team">B</th><td class="num total">3</td>' in board
    response = client.post(f"/d/{token}/deals/correct", data={"deal": "5", "table": "1", "tricks": "4"}, headers=HX)
    assert response.status_code == 422 and "There is no result to correct for deal 5 at table 1" in text(response)
    with app.app_context():
        assert db.session.query(ReportedResult).count() == 3


@pytest.mark.postgresql
def test_two_tables_finishing_a_deal_at_once_move_the_players_on(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Table 3's request read the deal's results, then table 2's phone saved the deal's other missing
    result: the deal is complete all the same, so table 3's save seats deal 2 (it did not: each
    request judged the deal from the results it read before its own, and the phones waited)."""
    token = create(client)
    t = tokens(app, token)
    assert enter(client, t[1], 1, 8)[0] == 200
    stale = app.app_context()
    stale.push()
    try:
        event = db.session.query(Event).filter_by(director_token=token).one()
        assert [r.table for r in event.results] == [1]
        with app.app_context():  # the other request, in its own session, saves first
            assert enter(client, t[2], 1, 5)[0] == 200
        told: list[bool] = []  # what table 3's save tells the phones: whether the deal in play moved on
        monkeypatch.setattr(core, "announce", lambda event, signals: told.append(signals.orders))
        drive.enter(event, 3, 1, 7, "table 3")
        assert told == [True]  # every table's phone fetches its panel: the new places
    finally:
        stale.pop()
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        assert event.current_hand == 2
        assert [(d.kind, d.key) for d in event.decisions] == [("seating", "2")]  # kept, come what may
    assert "F: move up to table 1, sit South" in text(client.get(f"/t/{t[2]}"))


def test_a_drive_played_to_the_end_gives_the_prizes(client: FlaskClient, app: Flask) -> None:
    token = create(client, deals="2")
    t = tokens(app, token)
    for deal in (1, 2):
        for table, ns in ((1, 8), (2, 5), (3, 7)):
            assert enter(client, t[table], deal, ns)[0] == 200
    page = text(client.get(f"/b/{public(app, token)}"))
    assert "Final scores" in page and "Highest score" in page and "Booby prize (lowest score)" in page
    assert "The drive is over" in text(client.get(f"/t/{t[1]}"))
    assert enter(client, t[1], 3, 7)[0] == 422


def public(app: Flask, token: str) -> str:
    with app.app_context():
        return str(db.session.query(Event).filter_by(director_token=token).one().public_id)


def test_a_forty_player_drive_of_24_deals_runs_to_the_prizes(client: FlaskClient, app: Flask) -> None:
    """The issue's "40-player whist drive": ten tables, 24 deals, every result from a table's phone."""
    players = "\n".join(f"Player {i}" for i in range(1, 41))
    token = create(client, players=players, deals="24", nt_fifth="on")
    t = tokens(app, token)
    assert len(t) == 10
    for deal in range(1, 25):
        for table in range(1, 11):
            status, _ = enter(client, t[table], deal, (deal * 3 + table * 5) % 14)
            assert status == 200, (deal, table)
    page = text(client.get(f"/b/{public(app, token)}"))
    assert "Final scores" in page and "Highest score" in page and "Booby prize (lowest score)" in page
    assert page.count('class="num total"') == 40
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        seatings = [d for d in event.decisions if d.kind == "seating"]
        assert len(seatings) == 23  # announced before each deal after the first
        for d in seatings:
            seated = sorted(p for four in d.data["tables"] for p in four)
            assert seated == list(range(1, 41))


def test_the_drive_exports_its_players_results_seatings_and_scores(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    t = tokens(app, token)
    for table, ns in ((1, 8), (2, 5), (3, 7)):
        assert enter(client, t[table], 1, ns)[0] == 200
    client.post(f"/d/{token}/deals/correct", data={"deal": "1", "table": "1", "tricks": "4"}, headers=HX)
    response = client.get(f"/b/{public(app, token)}/event.json")
    assert response.status_code == 200
    data = response.get_json()
    assert data["format"] == "whist_drive" and data["options"]["deals"] == 6
    assert [p["name"] for p in data["players"]] == list("ABCDEFGHIJKL")
    assert [(r["deal"], r["table"], r["ns_tricks"]) for r in data["results"]] == [(1, 1, 4), (1, 2, 5), (1, 3, 7)]
    assert data["seatings"][0]["tables"] == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert data["seatings"][1]["tables"][0] == [1, 3, 6, 8]  # A, C stay at table 1; F, H move up to join them
    assert [d["key"] for d in data["decisions"] if d["kind"] == "seating"] == ["2"]
    assert [(c["old"], c["new"]) for c in data["corrections"]] == [({"tricks": 8}, {"tricks": 4})]
    assert data["deal_in_play"] == 2
    # at table 1 N-S (A, C) took 4 after the correction: no odd trick; E-W (B, D) took 9: 3 odd tricks
    scores = {p["name"]: p["score"] for p in data["leaderboard"]}
    assert scores["A"] == 0 and scores["B"] == 3


def test_a_tables_tap_is_previewed_before_it_is_recorded_and_the_director_corrects_by_taps(
    client: FlaskClient, app: Flask
) -> None:
    """The drive's keypad as a Military table's: a tap shows what it means and records nothing until
    Confirm; the control room's grid opens a result to correct by tapping (it had three typed boxes)."""
    token = create(client)
    t = tokens(app, token)
    page = text(client.get(f"/t/{t[1]}"))
    assert page.count('class="pad-key"') == 14 and 'type="radio"' not in page
    response = client.post(f"/t/{t[1]}/deal/preview", data={"deal": "1", "tricks": "8"}, headers=HX)
    shown = text(response)
    assert response.status_code == 200 and "data-preview" in shown and "Check before you confirm" in shown
    assert "North-South took <strong>8</strong>, East-West <strong>5</strong>." in shown
    assert "Confirm deal 1" in shown and "hx-trigger" not in shown  # the preview waits for the players
    with app.app_context():
        assert db.session.query(ReportedResult).count() == 0
    status, page = (lambda r: (r.status_code, text(r)))(
        client.post(f"/t/{t[1]}/deal/preview", data={"deal": "1", "tricks": "14"}, headers=HX)
    )
    assert status == 422 and "0 to 13" in page
    assert enter(client, t[1], 1, 8)[0] == 200  # Confirm posts the same tricks to the recording route
    response = client.post(f"/t/{t[1]}/deal/preview", data={"deal": "1", "tricks": "9"}, headers=HX)
    assert response.status_code == 409 and "already recorded: North-South took 8" in text(response)
    # the director: no typed boxes; a cell opens the same keypad, as radio taps, the recorded value checked
    room = text(client.get(f"/d/{token}"))
    assert 'id="cr-deal"' not in room and 'aria-label="Correct deal 1 at table 1: 8 tricks"' in room
    assert 'aria-label="Enter deal 1 at table 2"' in room
    page = text(client.get(f"/d/{token}/deals/1/1"))
    assert page.count("pad-key") == 14 and 'value="8" checked' in page
    response = client.post(f"/d/{token}/deals/1/1", data={"tricks": "4"})
    assert response.status_code == 302 and response.headers["Location"] == f"/d/{token}"
    assert "Deal 1 at table 1: North-South took 4." in text(client.get(f"/d/{token}"))
    response = client.post(f"/d/{token}/deals/1/1", data={})
    assert response.status_code == 422 and "0 to 13" in text(response)
    assert client.get(f"/d/{token}/deals/5/1").status_code == 404


def test_the_director_renames_a_player_audited_and_every_page_follows(client: FlaskClient, app: Flask) -> None:
    """Issue 32, item 12: a drive's player renamed as Bid Whist teams and Military players are: a name
    another player has or too long is refused beside the field; the scores stay, kept by number."""
    token = create(client)
    t = tokens(app, token)
    for table, ns in ((1, 8), (2, 5), (3, 7)):
        assert enter(client, t[table], 1, ns)[0] == 200

    def rename(number: str, name: str) -> tuple[int, str]:
        response = client.post(f"/d/{token}/players/rename", data={"number": number, "name": name}, headers=HX)
        return response.status_code, text(response)

    status, page = rename("1", "b")
    assert status == 422 and field_error(page, "rename") == (
        "B is already player 2's name: give each their own, e.g. with an initial (B B.)"
    )
    assert 'value="b"' in page  # the typed name kept in its field
    assert rename("1", "x" * 41)[0] == 422 and "at most 40 characters" in rename("1", "x" * 41)[1]
    assert field_error(rename("1", "  ")[1], "rename") == "Give the player's new name"
    assert field_error(rename("1", "A")[1], "rename") == "That is already their name: type the new one"
    assert rename("99", "Zed")[0] == 422
    status, page = rename("1", " Ann  Smith ")
    assert status == 200 and "Player 1 is now called Ann Smith." in page
    assert re.search(r"\d\d:\d\d</time> director: renamed: “A” → “Ann Smith” · player 1", page), page
    board = client.get(f"/b/{public(app, token)}").get_data(as_text=True)
    assert '<th scope="row" class="team">Ann Smith</th><td class="num total">2</td>' in board
    assert "Table 1: N Ann Smith, E C, S F, W H" in words(client.get(f"/b/{public(app, token)}"))
    assert "Ann Smith: stay at table 1, sit North" in text(client.get(f"/t/{t[1]}"))
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        assert [e.players for e in event.entrants][:2] == [["Ann Smith"], ["B"]]
    client.set_cookie("lang", "fr")
    french = text(client.get(f"/d/{token}"))
    assert "directeur : renommé: “A” → “Ann Smith” · le joueur 1" in french and "Renommer un joueur" in french
