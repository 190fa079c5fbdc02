"""The director changes a Military Whist event after creating it: names (event, teams, players A, B, X, Y)
and the PIN. Renaming is the director's alone, audited, checked like the set-up; the QR cards, phones and
boards follow. The PIN can be guessed only slowly, and a new PIN shuts out browsers opened with the old.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import core
from scorepad.extensions import db
from tests.web.test_events import (
    HX,
    create,
    enter,
    errors_in,
    field_error,
    play,
    snapshot,
    table_tokens,
    text,
)


def names_form(
    name: str = "Zone 3 finals",
    teams: tuple[str, ...] = ("Aces", "Kings", "Queens", "Jacks"),
    players: dict[int, tuple[str, str, str, str]] | None = None,
) -> dict[str, str]:
    data = {"name": name}
    for number, team in enumerate(teams, start=1):
        data[f"team.{number}"] = team
        for letter, player in zip("ABXY", (players or {}).get(number, ("", "", "", ""))):
            data[f"player.{number}.{letter}"] = player
    return data


# --------------------------------------------------------------------------- names


def test_the_director_renames_the_event_teams_and_players(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    play(client, app, token, 1, (7, 10, 3, 5))  # results stay as they are through a rename
    before = snapshot(app, token)
    page = text(client.get(f"/d/{token}/setup"))
    assert 'value="Zone 3 Military Whist"' in page and 'value="Queens"' in page
    assert "Player A" in page and "Player Y" in page
    response = client.post(
        f"/d/{token}/setup",
        data=names_form(
            teams=("Aces", "Kings", "Red Deer Rovers", "Jacks"), players={1: ("Ann", "Bob", "Xena", "Yuri")}
        ),
    )
    assert response.status_code == 302 and response.headers["Location"] == f"/d/{token}"
    stored = snapshot(app, token)
    assert stored["teams"] == ["Aces", "Kings", "Red Deer Rovers", "Jacks"]
    assert stored["results"] == before["results"] and stored["tokens"] == before["tokens"]
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None and event.name == "Zone 3 finals"
        assert event.tables[0].players == ["Ann", "Bob", "Xena", "Yuri"] and event.tables[1].players == []
    audit = [a for a in stored["audit"] if a[1] == "set-up"]
    assert len(audit) == 1 and audit[0][0] == "director"
    assert audit[0][4]["teams"][2] == "Queens" and audit[0][5]["teams"][2] == "Red Deer Rovers"
    room = text(client.get(f"/d/{token}"))
    assert "Names saved: the QR cards, the phones and the boards show them now." in room
    assert "Zone 3 finals" in room and "set-up" in room and "Red Deer Rovers" in room
    # the QR cards, the boards and the phones follow
    assert "Red Deer Rovers" in text(client.get(f"/d/{token}/qr", follow_redirects=True))
    public = stored["public_id"]
    for url in (f"/b/{public}", f"/b/{public}/standings"):
        page = text(client.get(url))
        assert "Red Deer Rovers" in page and "Queens" not in page and "Zone 3 finals" in page
    phone = text(client.get(f"/t/{table_tokens(app, token)[0]}"))
    # the hall's orders, and beside them the same in plain words with the names (issue 14)
    assert (
        "<dt>X&Y go out</dt><dd><strong>Xena and Yuri</strong> go to table <strong>3</strong>" in phone
    )  # hand 2: 1 -> 3
    assert "<dt>A&B stay home</dt><dd><strong>Ann and Bob</strong> stay here" in phone
    assert "X&Y of <strong>Red Deer Rovers</strong> (table 3)" in phone  # its players have no names: the letters


def test_the_table_phone_says_its_orders_in_plain_words(client: FlaskClient, app: Flask) -> None:
    """Issue 14: "Ann and Bob go to table 2" beside the hall's "A&B go out", with the names of the
    players stored for the tables; a team without names keeps the labels."""
    token = create(client)
    assert (
        client.post(
            f"/d/{token}/setup",
            data=names_form(players={1: ("Ann", "Bob", "Xena", "Yuri"), 4: ("Jo", "Kim", "Lou", "Max")}),
        ).status_code
        == 302
    )
    aces, kings = table_tokens(app, token)[:2]
    phone = text(client.get(f"/t/{aces}"))  # hand 1: table 1 -> 2; Jacks' visitors arrive from table 4
    assert "<dt>A&B go out</dt><dd><strong>Ann and Bob</strong> go to table <strong>2</strong></dd>" in phone
    assert "<dt>X&Y stay home</dt><dd><strong>Xena and Yuri</strong> stay here</dd>" in phone
    assert "<dt>Arriving</dt><dd>Jo and Kim of <strong>Jacks</strong> (table 4)</dd>" in phone
    assert "<dt>Dealer</dt><dd><strong>Kim deals</strong>: B of Jacks (a visitor)</dd>" in phone

    phone = text(client.get(f"/t/{kings}"))  # Kings have no names: the labels; the visitors are Aces'
    assert "<dt>A&B go out</dt><dd><strong>A&B</strong> go to table <strong>3</strong></dd>" in phone
    assert "<dt>X&Y stay home</dt><dd><strong>X&Y</strong> stay here</dd>" in phone
    assert "<dt>Arriving</dt><dd>Ann and Bob of <strong>Aces</strong> (table 1)</dd>" in phone
    assert "<dt>Dealer</dt><dd><strong>Bob deals</strong>: B of Aces (a visitor)</dd>" in phone

    status, page = enter(client, aces, 1, 7)  # reported: the next hand's orders, named too
    assert status == 200, page
    assert "Next (hand 2): Xena and Yuri go to table 3 (X&Y); trump Spades." in page
    status, page = enter(client, kings, 1, 7)
    assert "Next (hand 2): X&Y go to table 4; trump Spades." in page


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        (names_form(name="  "), "name", "Give the event a name, e.g. 'Zone 3 Military Whist'"),
        (names_form(name="x" * 121), "name", "The event's name is too long: at most 120 characters"),
        (names_form(teams=("Aces", "", "Queens", "Jacks")), "teams-1", "Table 2's team needs a name"),
        (
            names_form(teams=("Aces", "K" * 41, "Queens", "Jacks")),
            "teams-1",
            "Team 2's name is too long: at most 40 characters",
        ),
        (
            names_form(teams=("Aces", "Kings", "aces", "Jacks")),
            "teams-2",
            "Two teams are called 'aces'; give each their own name",
        ),
        (
            names_form(players={2: ("Ann", "", "Xena", "Yuri")}),
            "teams-1-players-1",
            "Player B of team 2 needs a name (or leave all four empty)",
        ),
        (
            names_form(players={1: ("Ann", "Bob", "Xena", "Y" * 41)}),
            "teams-0-players-3",
            "Player Y of team 1: the name is too long: at most 40 characters",
        ),
        (names_form(name="Zone 3 Military Whist"), "name", "Nothing changed: every name is as it was"),
    ],
)
def test_bad_names_are_refused_beside_the_field(
    client: FlaskClient, app: Flask, form: dict[str, str], field: str, message: str
) -> None:
    token = create(client)
    before = snapshot(app, token)
    response = client.post(f"/d/{token}/setup", data=form)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert field_error(page, field) == message
    assert "Please check the names marked below." in page
    assert snapshot(app, token) == before


def test_the_same_player_in_two_teams_is_refused(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    before = snapshot(app, token)
    response = client.post(
        f"/d/{token}/setup",
        data=names_form(players={1: ("Ann", "Bob", "Xena", "Yuri"), 2: ("Ann", "Ben", "Xavi", "Yves")}),
    )
    assert response.status_code == 422
    assert any("Ann is listed in both" in m for m in errors_in(text(response))), errors_in(text(response))
    assert snapshot(app, token) == before


def test_only_the_director_renames(client: FlaskClient, app: Flask) -> None:
    token = create(client, pin="2468")
    before = snapshot(app, token)
    stranger = app.test_client()
    for method in ("get", "post"):
        response = getattr(stranger, method)(f"/d/{token}/setup", data=names_form(name="Hijacked"))
        assert response.status_code == 403
    table, public = before["tokens"][0], before["public_id"]
    for url in (f"/d/{table}/setup", f"/d/{public}/setup"):
        assert stranger.post(url, data=names_form(name="Hijacked")).status_code == 404
    assert snapshot(app, token) == before


# --------------------------------------------------------------------------- the PIN


def test_a_pin_can_be_guessed_only_ten_times_in_ten_minutes(client: FlaskClient, app: Flask) -> None:
    token = create(client, pin="2468")
    guessers = [app.test_client() for _ in range(3)]  # the count holds across browsers (it is stored)
    for attempt in range(10):
        response = guessers[attempt % 3].post(f"/d/{token}/unlock", data={"pin": f"{1000 + attempt}"})
        assert response.status_code == 403
        assert field_error(response.get_data(as_text=True), "pin") == "That is not the PIN. Try again."
    stranger = app.test_client()
    for pin in ("1234", "2468"):  # locked: even the right PIN waits
        response = stranger.post(f"/d/{token}/unlock", data={"pin": pin})
        assert response.status_code == 429
        assert (
            field_error(response.get_data(as_text=True), "pin")
            == "Too many wrong PINs: try again in 10 minutes, or open it with the recovery code."
        )
    assert stranger.get(f"/d/{token}").status_code == 403
    audit = [a for a in snapshot(app, token)["audit"] if a[1] == "wrong PIN"]
    assert len(audit) == 10 and audit[-1][6] == "wrong PIN: 10 of 10 tries allowed in 10 minutes"
    assert "wrong PIN" in text(client.get(f"/d/{token}"))  # the director sees the attempts
    with app.app_context():  # eleven minutes later
        event = core.by_director_token(token)
        assert event is not None and event.pin_tries == 10 and event.pin_tries_since is not None
        event.pin_tries_since = event.pin_tries_since - timedelta(minutes=11)
        db.session.commit()
    response = stranger.post(f"/d/{token}/unlock", data={"pin": "2468"})
    assert response.status_code == 302
    assert stranger.get(f"/d/{token}").status_code == 200


def test_a_new_pin_locks_out_browsers_opened_with_the_old_one(client: FlaskClient, app: Flask) -> None:
    token = create(client, pin="2468")
    helper = app.test_client()
    assert helper.post(f"/d/{token}/unlock", data={"pin": "2468"}).status_code == 302
    assert helper.get(f"/d/{token}").status_code == 200
    # the director changes the PIN (say the helper's phone went missing)
    response = client.post(f"/d/{token}/pin", data={"pin": "97531"}, headers=HX)
    assert response.status_code == 200 and "PIN saved. Other browsers must enter it again." in text(response)
    assert client.get(f"/d/{token}").status_code == 200  # the browser that changed it knows it
    assert helper.get(f"/d/{token}").status_code == 403
    assert helper.post(f"/d/{token}/advance", data={"hand": "1"}).status_code == 403
    assert helper.post(f"/d/{token}/unlock", data={"pin": "2468"}).status_code == 403
    assert helper.post(f"/d/{token}/unlock", data={"pin": "97531"}).status_code == 302
    assert helper.get(f"/d/{token}").status_code == 200
    # saving the same PIN again also shuts out everyone else (each save is a new secret)
    assert client.post(f"/d/{token}/pin", data={"pin": "97531"}).status_code == 200
    assert helper.get(f"/d/{token}").status_code == 403
    # no PIN: every browser with the link is in
    assert client.post(f"/d/{token}/pin", data={"pin": ""}).status_code == 200
    assert helper.get(f"/d/{token}").status_code == 200
