"""The round timer (issue 30, item 1): the director sets the minutes per round (per hand in
Military Whist), starts, pauses, resumes, adds time and stops it; every table's page, the control
room and the projector are given the same end, computed from the server's time; each change is
pushed as `timer` alone; bad input is refused beside its field."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import timer
from tests.web.test_club_night import create as create_club
from tests.web.test_club_night import public_id, start_table
from tests.web.test_club_night import table_tokens as club_tables
from tests.web.test_columns import dump
from tests.web.test_events import HX, field_error, text
from tests.web.test_events import create as create_military
from tests.web.test_events import table_tokens as military_tables
from tests.web.test_table_pushes import listen, pushed  # noqa: F401 (a fixture)
from tests.web.test_tournament_director import round_matches, started
from tests.web.test_whist_drive import create as create_drive
from tests.web.test_whist_drive import tokens as drive_tables

T0 = datetime(2026, 11, 27, 19, 30, 0)  # the server's time (naive UTC, as stored)


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> list[datetime]:
    """The server's clock, moved by the test (now[0])."""
    moment = [T0]
    monkeypatch.setattr(timer, "clock", lambda: moment[0])
    return moment


def ms(moment: datetime) -> int:
    return int(moment.replace(tzinfo=UTC).timestamp() * 1000)


def act(client: FlaskClient, token: str, action: str, **form: str) -> Any:
    return client.post(f"/d/{token}/timer/{action}", data=form, headers=HX)


def clock_of(page: str) -> dict[str, str]:
    """The round timer's data as a page draws it (the first on the page)."""
    found = re.search(r'<div id="round-timer"[^>]*>', page)
    assert found, "no round timer on the page"
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', found.group(0)))


def test_set_start_pause_resume_add_and_stop_from_the_servers_time(
    client: FlaskClient, app: Flask, now: list[datetime]
) -> None:
    token = create_military(client)
    public = public_id(app, token)

    def shown() -> dict[str, str]:
        return clock_of(client.get(f"/b/{public}/timer").get_data(as_text=True))

    assert shown()["timer-state"] == "off"
    response = act(client, token, "minutes", minutes="12")
    assert response.status_code == 200
    assert "Minutes per hand" in text(response)  # a Military Whist round is a hand
    assert shown()["timer-state"] == "off"

    assert act(client, token, "start").status_code == 200
    assert shown() == {
        "timer-state": "running",
        "left-ms": str(12 * 60_000),
        "ends-ms": str(ms(T0 + timedelta(minutes=12))),
        "now-ms": str(ms(T0)),
        "warn-ms": "120000",
    }
    now[0] = T0 + timedelta(minutes=3, seconds=30)
    page = client.get(f"/b/{public}/timer").get_data(as_text=True)
    assert clock_of(page)["left-ms"] == str(8 * 60_000 + 30_000) and ">8:30<" in page
    assert clock_of(page)["now-ms"] == str(ms(now[0]))  # the page counts from the server's time, not its own

    assert act(client, token, "pause").status_code == 200
    now[0] = T0 + timedelta(minutes=20)  # paused: nothing runs out
    assert shown()["timer-state"] == "paused" and shown()["left-ms"] == str(8 * 60_000 + 30_000)
    assert "Timer paused" in text(client.get(f"/b/{public}/timer"))

    assert act(client, token, "resume").status_code == 200
    assert shown()["ends-ms"] == str(ms(now[0] + timedelta(minutes=8, seconds=30)))
    assert act(client, token, "add", add="5").status_code == 200
    assert shown()["ends-ms"] == str(ms(now[0] + timedelta(minutes=13, seconds=30)))

    now[0] += timedelta(minutes=12)  # 90 s left: the warning
    assert 'class="round-timer is-warning"' in client.get(f"/b/{public}/timer").get_data(as_text=True)
    now[0] += timedelta(minutes=5)  # past the end: time is up, and the tables can still enter results
    page = text(client.get(f"/b/{public}/timer"))
    assert "is-up" in page and re.search(r"data-timer-up>\s*Time is up", page)
    assert shown()["left-ms"] == "0"
    assert act(client, token, "add", add="1").status_code == 200  # from now, once time is up
    assert shown()["ends-ms"] == str(ms(now[0] + timedelta(minutes=1)))
    assert act(client, token, "start").status_code == 200  # the next round: its whole time again
    assert shown()["ends-ms"] == str(ms(now[0] + timedelta(minutes=12)))

    assert act(client, token, "stop").status_code == 200
    assert shown()["timer-state"] == "off"
    assert re.search(r'<div id="round-timer"[^>]* hidden>', client.get(f"/b/{public}/timer").get_data(as_text=True))


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("0", "Give at least 1 minute."),
        ("-3", "Enter a whole number of minutes, from 1 to 180."),
        ("ten", "Enter a whole number of minutes, from 1 to 180."),
        ("", "Enter a whole number of minutes, from 1 to 180."),
        ("181", "At most 180 minutes."),
        ("9" * 30, "Enter a whole number of minutes, from 1 to 180."),
        ("2147483648", "Enter a whole number of minutes, from 1 to 180."),
    ],
)
def test_bad_minutes_are_refused_beside_the_field(client: FlaskClient, app: Flask, raw: str, message: str) -> None:
    token = create_military(client)
    before = dump(app)
    response = act(client, token, "minutes", minutes=raw)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert field_error(page, "minutes") == message
    assert f'value="{raw}"' in page  # the refused value stays in the field, to be corrected
    assert dump(app) == before
    plain = client.post(f"/d/{token}/timer/minutes", data={"minutes": raw})  # a phone without scripts
    assert plain.status_code == 422 and field_error(plain.get_data(as_text=True), "minutes") == message


def test_bad_time_added_and_actions_out_of_turn_are_refused(
    client: FlaskClient, app: Flask, now: list[datetime]
) -> None:
    token = create_drive(client)
    response = act(client, token, "start")
    assert response.status_code == 409
    assert field_error(response.get_data(as_text=True), "timer") == "Set the minutes per round first."
    assert act(client, token, "minutes", minutes="20").status_code == 200
    assert field_error(act(client, token, "pause").get_data(as_text=True), "timer") == "The timer is not running."
    assert field_error(act(client, token, "add", add="5").get_data(as_text=True), "timer") == "Start the timer first."
    assert act(client, token, "start").status_code == 200
    assert field_error(act(client, token, "resume").get_data(as_text=True), "timer") == "The timer is not paused."
    for raw, message in (
        ("0", "Give at least 1 minute."),
        ("61", "At most 60 minutes."),
        ("x", "Enter a whole number of minutes, from 1 to 60."),
    ):
        response = act(client, token, "add", add=raw)
        assert response.status_code == 422 and field_error(response.get_data(as_text=True), "add") == message
    for _ in range(3):
        assert act(client, token, "add", add="60").status_code == 200
    response = act(client, token, "add", add="60")  # 20 + 180 + 60 minutes would be left
    assert response.status_code == 422
    assert field_error(response.get_data(as_text=True), "add") == "At most 240 minutes can be left."
    assert client.post(f"/d/{token}/timer/explode", headers=HX).status_code == 404  # no such action
    assert client.post("/d/not-a-director/timer/start", headers=HX).status_code == 404


def test_a_plain_form_goes_back_to_the_control_room(client: FlaskClient, app: Flask) -> None:
    token = create_military(client)
    response = client.post(f"/d/{token}/timer/minutes", data={"minutes": "15"})
    assert response.status_code == 303 and response.headers["Location"] == f"/d/{token}#timer-panel"
    assert 'id="timer-minutes" name="minutes"' in client.get(f"/d/{token}").get_data(as_text=True)


def test_each_change_is_pushed_as_the_timer_alone(client: FlaskClient, app: Flask, pushed: list[str]) -> None:
    token = create_military(client)
    subscription = listen(app, public_id(app, token))
    try:
        for action, form in (("minutes", {"minutes": "10"}), ("start", {}), ("pause", {}), ("resume", {})):
            pushed.clear()
            assert act(client, token, action, **form).status_code == 200
            assert pushed == ["timer"], action  # no leaderboard drawn, no table's panel fetched again
        pushed.clear()
        assert act(client, token, "minutes", minutes="0").status_code == 422
        assert pushed == []
    finally:
        subscription.close()
    stream = client.get(f"/b/{public_id(app, token)}/events?only=timer")
    assert stream.status_code == 200
    stream.close()


def _military(client: FlaskClient, app: Flask) -> tuple[str, list[str]]:
    token = create_military(client)
    return token, [f"/t/{t}" for t in military_tables(app, token)[:2]]


def _drive(client: FlaskClient, app: Flask) -> tuple[str, list[str]]:
    token = create_drive(client)
    return token, [f"/t/{t}" for t in list(drive_tables(app, token).values())[:2]]


def _bid_whist(client: FlaskClient, app: Flask) -> tuple[str, list[str]]:
    token = started(client, app, 4, rounds="1")
    return token, [f"/g/{m['scorer']}" for m in round_matches(app, token, 1)]


def _club(client: FlaskClient, app: Flask) -> tuple[str, list[str]]:
    token = create_club(client)
    scorer = start_table(app.test_client(), club_tables(app, token)[1], ("Ann", "Bob", "Cat", "Dan"))
    return token, [f"/g/{scorer}"]


@pytest.mark.parametrize(
    ("build", "unit"),
    [(_military, "hand"), (_drive, "round"), (_bid_whist, "round"), (_club, "round")],
    ids=["military", "drive", "bid-whist", "club"],
)
def test_every_format_shows_the_same_clock_on_its_tables_room_and_projector(
    client: FlaskClient, app: Flask, now: list[datetime], build: Callable[[FlaskClient, Flask], Any], unit: str
) -> None:
    token, tables = build(client, app)
    public = public_id(app, token)
    room = client.get(f"/d/{token}").get_data(as_text=True)
    assert f"Minutes per {unit}" in room
    for page in (room, client.get(f"/b/{public}").get_data(as_text=True)):
        assert clock_of(page)["timer-state"] == "off"
    assert act(client, token, "minutes", minutes="15").status_code == 200
    assert act(client, token, "start").status_code == 200
    now[0] = T0 + timedelta(seconds=42)
    pages = {
        "room": client.get(f"/d/{token}").get_data(as_text=True),
        "projector": client.get(f"/b/{public}").get_data(as_text=True),
        **{url: app.test_client().get(url).get_data(as_text=True) for url in tables},
    }
    for where, page in pages.items():
        shown = clock_of(page)
        assert (shown["timer-state"], shown["ends-ms"], shown["now-ms"]) == (
            "running",
            str(ms(T0 + timedelta(minutes=15))),
            str(ms(now[0])),
        ), where
        assert f"Time left in this {unit}" in text_of(page), where
    for url in tables:  # each table's page hears the timer's pushes on its stream
        assert re.search(r'sse-connect="[^"]*only=[^"]*timer', pages[url]), url
    assert re.search(r'sse-connect="[^"]*only=changed,timer', pages["room"])


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", page)
