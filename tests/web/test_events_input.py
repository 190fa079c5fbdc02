"""What people type (or forge) into a Military Whist event's forms: numbers in ASCII digits only, one
name limit with one message, the right message for a hand that is not open, and CSRF on every post.

str.isdigit() takes "²" and int() takes "٧" or "1_0"; int() refuses a 5000-digit string outright.
Every number a form sends must be plain digits 0-9, or it is refused beside its field: never a 500,
never a value nobody typed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import core
from scorepad.events import military as events
from tests.web.test_events import (
    TEAMS,
    advance,
    create,
    enter,
    errors_in,
    event_count,
    field_error,
    other_app,
    play,
    snapshot,
    table_tokens,
    text,
)

HUGE = "9" * 5000
TRICKY = ["²", "٧", "1_0", " 7", "+7", "7.0", HUGE]


@pytest.mark.parametrize("raw", ["² 3 4 1", "٢ ٣ ٤ ١", "2 3 4 1_0", HUGE, f"2 3 4 {HUGE}"])
def test_moves_take_plain_digits_only(client: FlaskClient, app: Flask, raw: str) -> None:
    token = create(client)
    before = snapshot(app, token)
    response = client.post(f"/d/{token}/moves", data={"moves": raw})
    assert response.status_code == 422
    assert "Give one table number per table, table 1's first, e.g. 3 4 1 2." in errors_in(text(response))
    assert snapshot(app, token) == before


@pytest.mark.parametrize("field", ["team1", "team2", "winner", "bye"])
@pytest.mark.parametrize("raw", ["²", "٢", HUGE])
def test_playoff_numbers_take_plain_digits_only(client: FlaskClient, app: Flask, field: str, raw: str) -> None:
    token = create(client, preset="custom", days="1", tables="2", teams="Aces\nKings")
    play(client, app, token, 1, (7, 7))  # a tie: the playoff form is open
    before = snapshot(app, token)
    data = {"team1": "1", "team2": "2", "winner": "1", field: raw}
    response = client.post(f"/d/{token}/playoff", data=data)
    assert response.status_code == 422, text(response)
    assert any(m.startswith("Choose") for m in errors_in(text(response))), errors_in(text(response))
    assert snapshot(app, token) == before


@pytest.mark.parametrize("url", ["loan", "return"])
@pytest.mark.parametrize(
    ("field", "raw"),
    [
        ("table", "٢"),
        ("table", "²"),
        ("flags", "٢"),
        ("flags", "²"),
        ("flags", HUGE),
        ("table", HUGE),
        ("flags", "1_0"),
    ],
)
def test_loan_numbers_take_plain_digits_only(client: FlaskClient, app: Flask, url: str, field: str, raw: str) -> None:
    token = create(client, preset="custom", days="10", tables="2", teams="Aces\nKings")
    for hand, tricks in enumerate([(0, 10)] * 4 + [(13, 0), (0, 10)], start=1):
        play(client, app, token, hand, tricks)  # the Kings hold nothing: a loan of 1 or 2 would be right
    before = snapshot(app, token)
    response = client.post(f"/d/{token}/{url}", data={"table": "2", "flags": "1", field: raw})
    assert response.status_code == 422
    assert any(m.startswith("Choose a table and the number of flags") for m in errors_in(text(response)))
    assert snapshot(app, token) == before


@pytest.mark.parametrize("raw", ["٢", "²", HUGE, "1_0"])
def test_advance_takes_plain_digits_only(client: FlaskClient, app: Flask, raw: str) -> None:
    token = create(client)
    play(client, app, token, 1, (7, 10, 3, 5), then_advance=False)
    before = snapshot(app, token)
    response = client.post(f"/d/{token}/advance", data={"hand": raw})
    assert response.status_code == 422
    assert "The form lost its hand number: reload the page." in errors_in(text(response))
    assert snapshot(app, token) == before


@pytest.mark.parametrize("kind", ["preview", "result"])
@pytest.mark.parametrize("raw", TRICKY)
def test_a_phone_sends_tricks_and_hand_in_plain_digits_only(
    client: FlaskClient, app: Flask, kind: str, raw: str
) -> None:
    token = create(client)
    table = table_tokens(app, token)[0]
    status, page = enter(client, table, 1, raw, kind=kind)
    assert status == 422
    assert "Tap the number of tricks the visitors took: 0 to 13" in errors_in(page)
    response = client.post(f"/t/{table}/{kind}", data={"hand": "١", "tricks": "7"})
    assert response.status_code == 422
    assert "The form lost its hand number: reload the page" in errors_in(text(response))
    assert snapshot(app, token)["results"] == []


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"tables": "٤"}, "tables", "An event has 2 to 64 tables"),
        ({"tables": HUGE}, "tables", "An event has 2 to 64 tables"),
        ({"preset": "custom", "days": "٣٠"}, "days", "Give the hands of each day as numbers, e.g. 30 or 30, 20"),
        ({"preset": "custom", "days": "30, ²"}, "days", "Give the hands of each day as numbers, e.g. 30 or 30, 20"),
        ({"preset": "custom", "days": HUGE}, "days", "Give the hands of each day as numbers, e.g. 30 or 30, 20"),
        ({"late_minutes": "١٢"}, "late_minutes", "A table counts as late after 1 to 120 minutes"),
        ({"late_minutes": HUGE}, "late_minutes", "A table counts as late after 1 to 120 minutes"),
        ({"pin": "²²²²"}, "pin", "The PIN is 4 to 8 digits (or leave it empty)"),
        ({"pin": "١٢٣٤"}, "pin", "The PIN is 4 to 8 digits (or leave it empty)"),
    ],
)
def test_set_up_numbers_take_plain_digits_only(
    client: FlaskClient, app: Flask, form: dict[str, str], field: str, message: str
) -> None:
    data = {"name": "Zone 3", "preset": "area", "tables": "4", "teams": "\n".join(TEAMS), **form}
    if form.get("tables") is not None:
        data["teams"] = ""
    response = client.post("/events/new", data=data)
    assert response.status_code == 422
    assert field_error(response.get_data(as_text=True), field) == message
    assert event_count(app) == 0


def test_a_new_pin_in_other_digits_is_refused(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    response = client.post(f"/d/{token}/pin", data={"pin": "١٢٣٤"})
    assert response.status_code == 422
    assert (
        field_error(response.get_data(as_text=True), "pin")
        == "The PIN is 4 to 8 digits (or leave it empty to remove it)"
    )
    assert snapshot(app, token)["pin"] is None


# --------------------------------------------------------------------------- one name limit


@pytest.mark.postgresql
def test_one_name_limit_with_one_message(client: FlaskClient, app: Flask) -> None:
    """The game record (and so the export) holds names of at most 40 characters: the form says so, and
    a longer name gets that one message, not a second one about the record."""
    page = text(client.get("/events/new"))
    assert f"at most {events.MAX_NAME} characters each" in page and events.MAX_NAME == 40
    response = client.post(
        "/events/new", data={"name": "Zone 3", "preset": "area", "tables": "4", "teams": "Aces\n" + "K" * 45}
    )
    assert response.status_code == 422
    messages = [m for m in errors_in(text(response)) if "Team 2" in m or "team 2" in m]
    assert messages == ["Team 2's name is too long: at most 40 characters"]
    assert event_count(app) == 0
    token = create(client, teams="Aces\n" + "K" * 40)  # exactly at the limit: accepted, and exported
    assert snapshot(app, token)["teams"][1] == "K" * 40


# --------------------------------------------------------------------------- the right message


def test_preview_of_a_hand_not_open_yet_says_so(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    status, page = enter(client, table_tokens(app, token)[0], 2, 7, kind="preview")
    assert status == 409
    assert "Hand 2 is not open yet: hand 1 is in play." in page
    assert "is over" not in page


@pytest.mark.parametrize("data", [{"hand": "x"}, {}, {"hand": ""}, {"hand": "-1"}])
def test_advance_without_a_readable_hand_is_bad_input_not_already_advanced(
    client: FlaskClient, app: Flask, data: dict[str, str]
) -> None:
    token = create(client)
    play(client, app, token, 1, (7, 10, 3, 5), then_advance=False)
    before = snapshot(app, token)
    response = client.post(f"/d/{token}/advance", data=data)
    page = text(response)
    assert response.status_code == 422
    assert "The form lost its hand number: reload the page." in errors_in(page)
    assert "already advanced" not in page
    assert snapshot(app, token) == before


def test_advance_of_a_hand_ahead_is_not_called_already_advanced(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    play(client, app, token, 1, (7, 10, 3, 5), then_advance=False)
    status, page = advance(client, token, 3)
    assert status == 409 and "Hand 3 is not open: hand 1 is in play." in errors_in(page)


# --------------------------------------------------------------------------- CSRF


def test_every_event_post_needs_the_csrf_token(tmp_path: Path) -> None:
    app = other_app(tmp_path, "csrf-events")
    browser = app.test_client()
    with app.app_context():
        event = events.create_event("Zone 3", list(TEAMS), [1], pin="2468")
        token, table = event.director_token, event.tables[0].token
    posts = [
        (f"/t/{table}/preview", {"hand": "1", "tricks": "7"}),
        (f"/t/{table}/result", {"hand": "1", "tricks": "7"}),
        (f"/d/{token}/results/1/1", {"tricks": "7"}),
        (f"/d/{token}/moves", {"moves": "3 4 1 2"}),
        (f"/d/{token}/playoff", {"team1": "1", "team2": "2", "winner": "1"}),
        (f"/d/{token}/unlock", {"pin": "2468"}),
        (f"/d/{token}/setup", {"name": "Renamed"}),
        (f"/d/{token}/loan", {"table": "1", "flags": "1"}),
        (f"/d/{token}/return", {"table": "1", "flags": "1"}),
        (f"/d/{token}/advance", {"hand": "1"}),
    ]
    for url, data in posts:
        response = browser.post(url, data=data)
        assert response.status_code == 400, url
        assert "This form has expired. Reload the page and try again; nothing was saved." in text(response), url
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None
        assert event.name == "Zone 3" and event.results == [] and event.audit == [] and event.current_hand == 1
    assert browser.get(f"/d/{token}").status_code == 403  # /unlock without its token unlocked nothing
