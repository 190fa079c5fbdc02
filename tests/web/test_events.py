"""Military Whist events through the Flask test client: the director's set-up and control room, the
tables' phones, the public board and its live stream. Every refusal is checked for its status code,
the message shown, and that nothing stored changed.

The numbers are worked out by hand from /work/shared/rules/military-whist.txt and the notes (4 tables:
the visitors of table t go to t + s, s = 1, 2, 3, 1, ...; hand 1 sends 1->2, 2->3, 3->4, 4->1, so
table 1 hosts the visitors of table 4; hand 2 sends 1->3, 2->4, 3->1, 4->2; hand 5 is NT Low).
Teams: Aces, Kings, Queens, Jacks at tables 1-4.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad import live
from scorepad.events import core
from scorepad.events import military as events
from scorepad.extensions import db
from scorepad.formats.military import Board
from scorepad.models import Event
from tests.slowness import scaled

ROOT = Path(__file__).resolve().parent.parent.parent
SCOREPAD = str(Path(sys.executable).with_name("scorepad"))
TEAMS = ("Aces", "Kings", "Queens", "Jacks")
HX = {"HX-Request": "true"}


# --------------------------------------------------------------------------- helpers


def create(client: FlaskClient, **form: str) -> str:
    """Set up an event through the form; returns the director's token."""
    data = {
        "name": "Zone 3 Military Whist",
        "preset": "area",
        "tables": "4",
        "teams": "\n".join(TEAMS),
        "loans": "auto",
        "late_minutes": "12",
        "pin": "",
        **form,
    }
    response = client.post("/events/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    location = response.headers["Location"]
    assert re.fullmatch(r"/d/[\w-]+", location), location
    return location.removeprefix("/d/")


def text(response: Any) -> str:
    """The page unescaped, runs of white space as one space (templates wrap lines anywhere)."""
    return re.sub(r"\s+", " ", html.unescape(response.get_data(as_text=True)))


def field_error(page: str, key: str) -> str:
    """The message shown beside field `key` (the macro gives it the id err-<key>)."""
    found = re.search(rf'id="err-{re.escape(key)}" role="alert">([^<]*)<', page)
    assert found, f"no error beside {key}"
    return html.unescape(found.group(1))


def errors_in(page: str) -> list[str]:
    return [html.unescape(e) for e in re.findall(r'class="field-error[^"]*"[^>]*>([^<]+)<', page)]


def event_count(app: Flask) -> int:
    with app.app_context():
        return db.session.query(Event).count()


def snapshot(app: Flask, token: str) -> dict[str, Any]:
    """Everything stored for an event, as plain values (to check that a refusal changed nothing)."""
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None
        return {
            "current_hand": event.current_hand,
            "results": sorted((r.hand, r.table, r.tricks, r.revoke) for r in event.results),
            "loans": sorted((loan.hand, loan.table, loan.flags) for loan in event.loans),
            "playoffs": [(p.teams, p.winner, p.bye) for p in event.playoffs],
            "days": [(d.day, d.held, d.owed) for d in event.days_closed],
            "tokens": [t.token for t in event.tables],
            "teams": [t.team for t in event.tables],
            "options": dict(event.options),
            "public_id": event.public_id,
            "audit": [(a.actor, a.action, a.hand, a.table, a.old, a.new, a.note) for a in event.audit],
            "pin": event.director_pin,
            "late_minutes": event.late_minutes,
        }


def board(app: Flask, token: str) -> Board:
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None
        return events.view(event).board


def totals(b: Board) -> dict[str, int]:
    return {row.name: row.total for row in b.rows}


def conserved(app: Flask, token: str, tables: int) -> None:
    b = board(app, token)
    assert sum(r.held for r in b.rows) - sum(r.owed for r in b.rows) == 12 * tables


def table_tokens(app: Flask, token: str) -> list[str]:
    return list(snapshot(app, token)["tokens"])


def enter(
    client: FlaskClient, table_token: str, hand: int, tricks: object, revoke: str = "none", kind: str = "result"
) -> tuple[int, str]:
    data = {"hand": str(hand), "revoke": revoke}
    if tricks is not None:
        data["tricks"] = str(tricks)
    response = client.post(f"/t/{table_token}/{kind}", data=data, headers=HX)
    return response.status_code, text(response)


def advance(client: FlaskClient, token: str, hand: int) -> tuple[int, str]:
    response = client.post(f"/d/{token}/advance", data={"hand": str(hand)})
    return response.status_code, text(response)


def play(
    client: FlaskClient, app: Flask, token: str, hand: int, tricks: Sequence[int], then_advance: bool = True
) -> None:
    """Every table reports `tricks` (table 1 first) for `hand`; then the director opens the next hand."""
    for table_token, count in zip(table_tokens(app, token), tricks):
        status, page = enter(client, table_token, hand, count)
        assert status == 200, page
    if then_advance:
        status, page = advance(client, token, hand)
        assert status == 200, page


def flags_at_table(page: str) -> int:
    found = re.search(r"<strong>(-?\d+)</strong> flags held", page)
    assert found, page
    return int(found.group(1))


def board_rows(page: str) -> dict[str, list[str]]:
    """The standings table of a board page: team name -> the text of its number cells."""
    rows: dict[str, list[str]] = {}
    for row in re.findall(r'<tr [^>]*data-team="\d+".*?</tr>', page, re.S):
        name = re.search(r'<span class="table-no">Table \d+</span> ([^<]*)', row)
        assert name
        rows[html.unescape(name.group(1)).strip()] = re.findall(r'<td class="num[^"]*">([^<]*)</td>', row)
    return rows


def other_app(tmp_path: Path, name: str, **config: Any) -> Flask:
    from flask_migrate import upgrade

    from scorepad import create_app

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "SCOREPAD_DEMO": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/{name}.sqlite3",
            **config,
        }
    )
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
    return app


# --------------------------------------------------------------------------- creating an event


def test_new_event_page_offers_the_presets(client: FlaskClient) -> None:
    response = client.get("/events/new")
    page = text(response)
    assert response.status_code == 200
    assert "Area or zone level: 30 hands in one day (15 morning + 15 afternoon)" in page
    assert "Provincial games: 50 hands over two days (15 + 15, then 20)" in page


@pytest.mark.parametrize(
    ("preset", "days", "expected"),
    [
        ("area", "", [30]),
        ("provincial", "", [30, 20]),
        ("custom", "10, 5", [10, 5]),
        ("custom", "12 8 4", [12, 8, 4]),
    ],
)
def test_presets_and_custom_days(client: FlaskClient, app: Flask, preset: str, days: str, expected: list[int]) -> None:
    token = create(client, preset=preset, days=days)
    stored = snapshot(app, token)
    assert stored["options"]["days"] == expected
    page = text(client.get(f"/d/{token}"))
    assert f"Hand 1 of {sum(expected)}" in page


def test_success_redirects_to_the_control_room_and_names_blank_tables(client: FlaskClient, app: Flask) -> None:
    response = client.post(
        "/events/new",
        data={"name": "  Club night  ", "preset": "area", "tables": "4", "teams": "Aces\nKings\n"},
        follow_redirects=True,
    )
    page = text(response)
    assert response.status_code == 200
    assert "Event created. This page is your private director's link" in page
    assert "Club night" in page and "control room" in page
    token = response.request.path.removeprefix("/d/")
    stored = snapshot(app, token)
    assert stored["teams"] == ["Aces", "Kings", "Table 3", "Table 4"]
    assert stored["current_hand"] == 1 and stored["late_minutes"] == 12 and stored["pin"] is None
    assert len(set(stored["tokens"])) == 4  # one secret per table
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None and event.name == "Club night"
        assert [t.number for t in event.tables] == [1, 2, 3, 4]


def test_a_blank_line_keeps_its_table_unnamed(client: FlaskClient, app: Flask) -> None:
    # "one per line in table order; blank ones are called Table N": the blank second line is table 2
    token = create(client, tables="3", teams="Aces\n\nQueens")
    assert snapshot(app, token)["teams"] == ["Aces", "Table 2", "Queens"]


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"name": ""}, "name", "Give the event a name, e.g. 'Zone 3 Military Whist'"),
        ({"name": "   "}, "name", "Give the event a name, e.g. 'Zone 3 Military Whist'"),
        ({"name": "x" * 121}, "name", "The event's name is too long: at most 120 characters"),
        ({"tables": "1", "teams": ""}, "tables", "An event has 2 to 64 tables"),
        ({"tables": "65", "teams": ""}, "tables", "An event has 2 to 64 tables"),
        ({"tables": "x", "teams": ""}, "tables", "An event has 2 to 64 tables"),
        ({"tables": "", "teams": ""}, "tables", "An event has 2 to 64 tables"),
        (
            {"tables": "2", "teams": "A\nB\nC"},
            "teams",
            "3 team names for 2 tables: one name per line, at most one per table",
        ),
        ({"teams": "Aces\n" + "K" * 41}, "teams-1", "Team 2's name is too long: at most 40 characters"),
        ({"pin": "123"}, "pin", "The PIN is 4 to 8 digits (or leave it empty)"),
        ({"pin": "12a4"}, "pin", "The PIN is 4 to 8 digits (or leave it empty)"),
        ({"pin": "123456789"}, "pin", "The PIN is 4 to 8 digits (or leave it empty)"),
        ({"late_minutes": "0"}, "late_minutes", "A table counts as late after 1 to 120 minutes"),
        ({"late_minutes": "121"}, "late_minutes", "A table counts as late after 1 to 120 minutes"),
        ({"late_minutes": "soon"}, "late_minutes", "A table counts as late after 1 to 120 minutes"),
        ({"preset": "custom", "days": ""}, "days", "Give the hands of each day as numbers, e.g. 30 or 30, 20"),
        ({"preset": "custom", "days": "thirty"}, "days", "Give the hands of each day as numbers, e.g. 30 or 30, 20"),
        ({"preset": "custom", "days": "0"}, "days", "Each value of Hands per day must be at least 1"),
        ({"preset": "custom", "days": "30, 101"}, "days", "Each value of Hands per day must be at most 100"),
        ({"preset": "custom", "days": "1 1 1 1 1 1"}, "days", "Hands per day: at most 5 days, not 6"),
    ],
)
def test_bad_set_up_is_refused_beside_the_field(
    client: FlaskClient, app: Flask, form: dict[str, str], field: str, message: str
) -> None:
    data = {"name": "Zone 3", "preset": "area", "tables": "4", "teams": "\n".join(TEAMS), **form}
    response = client.post("/events/new", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Please check the fields marked below." in page
    if field == "teams-1":  # a team's own name is listed under the team names
        assert message in errors_in(page)
    else:
        assert field_error(page, field) == message
        assert f'aria-describedby="err-{field}"' in page
    assert event_count(app) == 0
    # what was typed is kept in the form
    if form.get("name", "x").strip():
        assert 'value="' + html.escape(data["name"], quote=True) in page


# --------------------------------------------------------------------------- who may do what


def test_unknown_director_token_is_404(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    before = snapshot(app, token)
    for method, url in [
        ("get", "/d/nope"),
        ("post", "/d/nope/advance"),
        ("post", "/d/nope/loan"),
        ("get", "/d/nope/qr"),
        ("post", "/d/nope/results/1/1"),
        ("post", "/d/nope/unlock"),
        ("post", "/d/nope/tables/1/token"),
        ("post", f"/d/{token[:-1]}/advance"),
    ]:
        response = getattr(client, method)(url, data={"hand": "1", "table": "1", "flags": "1", "tricks": "7"})
        assert response.status_code == 404, url
        assert "There is no event at this link. Its director may have deleted it" in text(response)
    assert snapshot(app, token) == before


def test_wrong_table_token_is_404_and_stores_nothing(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    before = snapshot(app, token)
    for url in ("/t/not-a-table", "/t/not-a-table/panel"):
        response = client.get(url)
        assert response.status_code == 404
        assert "This table link is not valid any more" in text(response)
    for kind in ("preview", "result"):
        status, page = enter(client, "not-a-table", 1, 7, kind=kind)
        assert status == 404 and "Scan the card on your table again" in page
    assert snapshot(app, token) == before


def test_new_qr_code_retires_the_old_token_at_once(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    old = table_tokens(app, token)
    response = client.post(f"/d/{token}/tables/2/token")
    assert response.status_code == 302 and response.headers["Location"] == f"/d/{token}#tables"
    new = table_tokens(app, token)
    assert new[1] != old[1] and new[0] == old[0] and new[2:] == old[2:]
    assert client.get(f"/t/{old[1]}").status_code == 404
    status, page = enter(client, old[1], 1, 7)
    assert status == 404 and "the director may have printed a new QR code" in page
    assert snapshot(app, token)["results"] == []
    response = client.get(f"/t/{new[1]}")
    assert response.status_code == 200 and "Table 2" in text(response)
    status, page = enter(client, new[1], 1, 7)
    assert status == 200 and "Hand 1 recorded." in page
    stored = snapshot(app, token)
    assert stored["results"] == [(1, 2, 7, None)]
    assert ("director", "new QR code", None, 2, None, None, "table 2's QR code replaced") in stored["audit"]
    room = text(client.get(f"/d/{token}"))
    assert "Table 2 has a new QR code: print its card again; the old one no longer works." in room
    assert "new QR code · table 2 · table 2's QR code replaced" in room
    # a table that does not exist
    response = client.post(f"/d/{token}/tables/9/token")
    assert response.status_code == 404 and "there is no table 9: tables are 1 to 4" in text(response)


@pytest.mark.parametrize("url", ["/t//result", "/t//preview", "/t/", "/d//advance", "/d/", "/b//events"])
def test_no_token_is_refused(client: FlaskClient, app: Flask, url: str) -> None:
    token = create(client)
    before = snapshot(app, token)
    response = client.post(url, data={"hand": "1", "tricks": "7"})
    assert response.status_code in (404, 405)
    assert snapshot(app, token) == before


def test_a_spectator_cannot_post_anything(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    before = snapshot(app, token)
    public = before["public_id"]
    spectator = app.test_client()
    for url in (f"/b/{public}", f"/b/{public}/standings", f"/b/{public}/events", f"/b/{public}/event.json"):
        response = spectator.post(url, data={"hand": "1", "tricks": "7"})
        assert response.status_code == 405, url
        assert "That action is not available here" in text(response)
    # the public id opens no director page and no table
    for url in (
        f"/d/{public}/advance",
        f"/d/{public}/loan",
        f"/d/{public}/results/1/1",
        f"/d/{public}/tables/1/token",
        f"/t/{public}/result",
        f"/t/{public}/preview",
    ):
        response = spectator.post(url, data={"hand": "1", "tricks": "7", "table": "1", "flags": "2"})
        assert response.status_code == 404, url
    assert spectator.get(f"/d/{public}").status_code == 404
    assert snapshot(app, token) == before


def test_director_actions_refuse_a_table_token(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    tokens = table_tokens(app, token)
    play(client, app, token, 1, (7, 10, 3, 5), then_advance=False)
    before = snapshot(app, token)
    table_phone = app.test_client()
    for url, data in [
        (f"/d/{tokens[0]}/advance", {"hand": "1"}),
        (f"/d/{tokens[0]}/loan", {"table": "1", "flags": "2"}),
        (f"/d/{tokens[0]}/results/1/2", {"tricks": "0"}),
        (f"/d/{tokens[0]}/pin", {"pin": "1234"}),
        (f"/d/{tokens[0]}/tables/1/token", {}),
        (f"/d/{tokens[0]}/playoff", {"team1": "1"}),
    ]:
        response = table_phone.post(url, data=data)
        assert response.status_code == 404, url
        assert "There is no event at this link. Its director may have deleted it" in text(response)
    assert table_phone.get(f"/d/{tokens[0]}").status_code == 404
    # the director's token is no table link either
    status, _ = enter(table_phone, token, 1, 7)
    assert status == 404
    assert snapshot(app, token) == before


def test_pin_locks_the_control_room_for_a_fresh_browser(client: FlaskClient, app: Flask) -> None:
    token = create(client, pin="2468")
    assert client.get(f"/d/{token}").status_code == 200  # the browser that created it is unlocked
    before = snapshot(app, token)
    assert before["pin"] and "2468" not in before["pin"]  # stored hashed
    stranger = app.test_client()
    response = stranger.get(f"/d/{token}")
    page = text(response)
    assert response.status_code == 403
    assert "Director's PIN" in page and "Open the control room" in page and "Results (tricks" not in page
    for url, data in [
        ("advance", {"hand": "1"}),
        ("loan", {"table": "1", "flags": "1"}),
        ("pin", {"pin": ""}),
        ("results/1/1", {"tricks": "7"}),
        ("tables/1/token", {}),
        ("playoff", {"team1": "1"}),
    ]:
        response = stranger.post(f"/d/{token}/{url}", data=data)
        assert response.status_code == 403, url
        assert "Enter the director's PIN first." in text(response)
    assert stranger.get(f"/d/{token}/qr").status_code == 403
    response = stranger.post(f"/d/{token}/unlock", data={"pin": "1357"})
    assert response.status_code == 403
    assert field_error(response.get_data(as_text=True), "pin") == "That is not the PIN. Try again."
    assert stranger.get(f"/d/{token}").status_code == 403  # still locked
    after = snapshot(app, token)
    wrong = after["audit"].pop()  # the wrong PIN is counted in the audit trail (see the lockout test)
    assert wrong[:2] == ("a browser", "wrong PIN")
    assert after == before
    response = stranger.post(f"/d/{token}/unlock", data={"pin": "2468"})
    assert response.status_code == 302 and response.headers["Location"] == f"/d/{token}"
    response = stranger.get(f"/d/{token}")
    assert response.status_code == 200 and "Results (tricks taken by the visitors" in text(response)


def test_pin_can_be_changed_and_a_bad_pin_is_refused(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    response = client.post(f"/d/{token}/pin", data={"pin": "12"})
    assert response.status_code == 422
    assert (
        field_error(response.get_data(as_text=True), "pin")
        == "The PIN is 4 to 8 digits (or leave it empty to remove it)"
    )
    assert snapshot(app, token)["pin"] is None
    response = client.post(f"/d/{token}/pin", data={"pin": "9999"})
    assert response.status_code == 200 and "PIN saved." in text(response)
    assert app.test_client().get(f"/d/{token}").status_code == 403
    assert client.get(f"/d/{token}").status_code == 200


def test_posts_without_the_csrf_token_are_refused(tmp_path: Path) -> None:
    app = other_app(tmp_path, "csrf")
    browser = app.test_client()
    response = browser.post("/events/new", data={"name": "Zone 3", "preset": "area", "tables": "4"})
    assert response.status_code == 400
    assert "This form has expired. Reload the page and try again; nothing was saved." in text(response)
    assert event_count(app) == 0
    with app.app_context():
        event = events.create_event("Zone 3", list(TEAMS), [30])
        token, table = event.director_token, event.tables[0].token
    assert "csrf_token" in browser.get(f"/t/{table}").get_data(as_text=True)
    status, page = enter(browser, table, 1, 7)
    assert status == 400 and "nothing was saved" in page
    for url in ("advance", "loan", "pin", "tables/1/token"):
        assert browser.post(f"/d/{token}/{url}", data={"hand": "1", "table": "1", "flags": "1"}).status_code == 400
    stored = snapshot(app, token)
    assert stored["results"] == [] and stored["loans"] == [] and stored["current_hand"] == 1
    assert stored["audit"] == []


# --------------------------------------------------------------------------- a table's phone


def test_table_page_shows_the_hands_orders(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    response = client.get(f"/t/{table_tokens(app, token)[0]}")
    page = text(response)
    assert response.status_code == 200
    assert "Hand 1 of 30" in page
    assert "<strong>A&B</strong> go to table <strong>2</strong>" in page
    assert "<strong>X&Y</strong> stay here" in page
    assert "A&B of <strong>Jacks</strong> (table 4)" in page  # table 1 hosts the visitors of table 4
    assert '<dd class="trump">Hearts</dd>' in page
    assert "B of Jacks (a visitor)" in page
    assert flags_at_table(page) == 12


@pytest.mark.parametrize(
    ("tricks", "revoke", "words", "after"),
    [
        (7, "none", "visitors take 1 flag", 11),
        (9, "none", "visitors take 1 flag", 11),
        (3, "none", "home pair keeps its flags", 12),
        (6, "none", "home pair keeps its flags", 12),
        (10, "none", "visitors take 2 flags", 10),
        (13, "none", "visitors take 2 flags", 10),
        (8, "visitors", "home pair keeps its flags", 12),  # 8 - 2 = 6
        (5, "home", "visitors take 1 flag", 11),  # 5 + 2 = 7
        (11, "visitors", "visitors take 1 flag", 11),  # 11 - 2 = 9
    ],
)
def test_preview_shows_the_flag_words_and_stores_nothing(
    client: FlaskClient, app: Flask, tricks: int, revoke: str, words: str, after: int
) -> None:
    token = create(client)
    status, page = enter(client, table_tokens(app, token)[0], 1, tricks, revoke, kind="preview")
    assert status == 200
    assert "Check before you confirm" in page
    assert f"Visitors took {tricks} tricks" in page
    assert f"<strong>{words}</strong>" in page
    assert f"Flags held: 12 → <strong>{after}</strong>" in page
    assert "Confirm hand 1" in page
    assert snapshot(app, token)["results"] == []


def test_confirmed_result_moves_the_flags(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    tokens = table_tokens(app, token)
    status, page = enter(client, tokens[0], 1, 7)
    assert status == 200
    assert "Hand 1 recorded." in page
    assert "The visitors from Jacks took <strong>7</strong> tricks: visitors take 1 flag." in page
    assert flags_at_table(page) == 11
    assert "Waiting for 3 more tables" in page
    assert "Next (hand 2): X&Y go to table 3; trump Spades." in page
    # table 4's phone sees the flag its visitors brought home
    assert flags_at_table(text(client.get(f"/t/{tokens[3]}"))) == 13
    assert snapshot(app, token)["results"] == [(1, 1, 7, None)]


@pytest.mark.parametrize(
    ("tricks", "kind"),
    [
        (-1, "result"),
        (14, "result"),
        ("x", "result"),
        (None, "result"),
        ("7.5", "result"),
        (-1, "preview"),
        (14, "preview"),
        ("x", "preview"),
        (None, "preview"),
    ],
)
def test_tricks_out_of_range_are_refused(client: FlaskClient, app: Flask, tricks: object, kind: str) -> None:
    token = create(client)
    status, page = enter(client, table_tokens(app, token)[0], 1, tricks, kind=kind)
    assert status == 422
    assert "Tap the number of tricks the visitors took: 0 to 13" in errors_in(page)
    assert snapshot(app, token)["results"] == []


@pytest.mark.parametrize("kind", ["result", "preview"])
def test_a_bad_revoke_is_refused(client: FlaskClient, app: Flask, kind: str) -> None:
    token = create(client)
    status, page = enter(client, table_tokens(app, token)[0], 1, 7, revoke="both", kind=kind)
    assert status == 422
    assert "A revoke is by the visitors or the home pair (or none)" in errors_in(page)
    assert snapshot(app, token)["results"] == []


def test_a_missing_hand_number_is_refused(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    response = client.post(f"/t/{table_tokens(app, token)[0]}/result", data={"tricks": "7"})
    assert response.status_code == 422
    assert "The form lost its hand number: reload the page" in errors_in(text(response))
    assert snapshot(app, token)["results"] == []


@pytest.mark.postgresql
def test_a_stale_hand_number_is_a_conflict(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    tokens = table_tokens(app, token)
    status, page = enter(client, tokens[0], 2, 7)
    assert status == 409
    assert "Hand 2 is not the hand in play (hand 1 is): ask the director to correct an earlier hand." in page
    play(client, app, token, 1, (6, 6, 6, 6))
    before = snapshot(app, token)
    status, page = enter(client, tokens[0], 1, 9)  # an old page still on hand 1
    assert status == 409
    assert "Hand 1 is not the hand in play (hand 2 is)" in page
    status, page = enter(client, tokens[0], 1, 9, kind="preview")
    assert status == 409 and "Hand 1 is over: the director has opened hand 2." in page
    assert snapshot(app, token) == before


@pytest.mark.postgresql
def test_a_second_result_for_the_same_hand_is_a_conflict(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    table = table_tokens(app, token)[0]
    assert enter(client, table, 1, 7)[0] == 200
    before = snapshot(app, token)
    status, page = enter(client, table, 1, 7)  # the same phone taps confirm again
    assert status == 409
    assert "Hand 1 at table 1 is already recorded: the visitors took 7 tricks. Ask the director if it is wrong." in page
    other_phone = app.test_client()
    status, page = enter(other_phone, table, 1, 10)  # the other phone at the table
    assert status == 409 and "already recorded: the visitors took 7 tricks" in page
    status, page = enter(other_phone, table, 1, 10, kind="preview")
    assert status == 409 and "Hand 1 is already recorded: the visitors took 7 tricks." in page
    assert snapshot(app, token) == before
    assert totals(board(app, token))["Aces"] == 11


def test_nt_low_counts_the_home_pairs_tricks(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    tokens = table_tokens(app, token)
    for hand in range(1, 5):  # 6 tricks everywhere: nobody moves a flag
        play(client, app, token, hand, (6, 6, 6, 6))
    page = text(client.get(f"/t/{tokens[0]}"))
    assert "Hand 5 of 30" in page
    assert "NT Low: giveaway: count the opponents' tricks" in page
    assert "(as taken: the app counts the giveaway)" in page
    assert "A&Y of <strong>Queens</strong> (table 3)" in page  # hand 5: 1->3, 3->1
    # The Queens' visitors take 3 tricks, so the home pair took 10: the visitors take 2 flags.
    status, page = enter(client, tokens[0], 5, 3, kind="preview")
    assert status == 200 and "<strong>visitors take 2 flags</strong>" in page
    assert "Flags held: 12 → <strong>10</strong>" in page
    status, page = enter(client, tokens[0], 5, 5, kind="preview")  # home 8: 1 flag
    assert "<strong>visitors take 1 flag</strong>" in page
    status, page = enter(client, tokens[0], 5, 7, kind="preview")  # home 6: none
    assert "<strong>home pair keeps its flags</strong>" in page
    status, page = enter(client, tokens[0], 5, 3)
    assert status == 200 and "visitors take 2 flags." in page
    # Table 2 hosts the Jacks' visitors, who took 5 but revoked: home 8 counted as 6, nothing.
    status, page = enter(client, tokens[1], 5, 5, revoke="visitors")
    assert status == 200 and "home pair keeps its flags." in page
    assert "(revoke by the visitors)" in page
    assert totals(board(app, token)) == {"Aces": 10, "Kings": 12, "Queens": 14, "Jacks": 12}


def test_a_revoke_moves_two_tricks(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    tokens = table_tokens(app, token)
    # Hand 1: table 2 hosts the Aces' visitors, 8 tricks but they revoked: 6, nothing.
    # Table 3 hosts the Kings' visitors: 5 tricks, the home pair revoked: 7, 1 flag to Kings.
    # Table 4 hosts the Queens' visitors: 11 tricks, they revoked: 9, 1 flag (not 2) to Queens.
    # Table 1 hosts the Jacks' visitors: 12 tricks, home revoked: 13 (at most), 2 flags to Jacks.
    assert enter(client, tokens[1], 1, 8, "visitors")[0] == 200
    assert enter(client, tokens[2], 1, 5, "home")[0] == 200
    assert enter(client, tokens[3], 1, 11, "visitors")[0] == 200
    assert enter(client, tokens[0], 1, 12, "home")[0] == 200
    assert snapshot(app, token)["results"] == [
        (1, 1, 12, "home"),
        (1, 2, 8, "visitors"),
        (1, 3, 5, "home"),
        (1, 4, 11, "visitors"),
    ]
    assert totals(board(app, token)) == {"Aces": 10, "Kings": 13, "Queens": 12, "Jacks": 13}
    conserved(app, token, 4)


# --------------------------------------------------------------------------- the director


@pytest.mark.postgresql
def test_advance_waits_for_every_table(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    tokens = table_tokens(app, token)
    room = text(client.get(f"/d/{token}"))
    assert "Open hand 2" in room and "Waiting for tables 1, 2, 3, 4" in room
    assert enter(client, tokens[0], 1, 7)[0] == 200
    assert enter(client, tokens[2], 1, 3)[0] == 200
    before = snapshot(app, token)
    status, page = advance(client, token, 1)
    assert status == 422
    assert "Hand 1 is not complete: waiting for tables 2, 4" in errors_in(page)
    assert snapshot(app, token) == before
    assert enter(client, tokens[1], 1, 10)[0] == 200
    status, page = advance(client, token, 1)
    assert status == 422 and "Hand 1 is not complete: waiting for table 4" in errors_in(page)
    assert enter(client, tokens[3], 1, 5)[0] == 200
    status, page = advance(client, token, 1)
    assert status == 200 and "Hand 2 is open." in page and "Hand 2 of 30" in page
    after = snapshot(app, token)
    assert after["current_hand"] == 2
    assert ("director", "advance", 2, None, None, None, "hand 2 opened") in after["audit"]
    # the second tap (or a stale page) does not skip a hand
    status, page = advance(client, token, 1)
    assert status == 409
    assert "Hand 1 was already advanced: hand 2 is in play now." in errors_in(page)
    status, page = advance(client, token, 0)
    assert status == 409
    assert snapshot(app, token) == after
    assert totals(board(app, token)) == {"Aces": 13, "Kings": 10, "Queens": 12, "Jacks": 13}


def test_auto_advance_opens_the_next_hand_when_all_are_in(client: FlaskClient, app: Flask) -> None:
    token = create(client, auto_advance="on")
    play(client, app, token, 1, (7, 10, 3, 5), then_advance=False)
    stored = snapshot(app, token)
    assert stored["current_hand"] == 2
    assert ("automatic", "advance", 2, None, None, None, "hand 2 opened") in stored["audit"]


# Two days of two hands. Hand 1 (1->2, 2->3, 3->4, 4->1), tricks 7, 10, 3, 5:
#   table 1: Jacks take 1 from Aces; table 2: Aces take 2 from Kings -> 13, 10, 12, 13.
# Hand 2 (1->3, 2->4, 3->1, 4->2), tricks 6, 8, 6, 6: table 2 hosts the Jacks, who take 1 from the
#   Kings -> 13, 9, 12, 14 at the close of day 1.
# Day 2 starts at 12 each. Hand 3 (1->4, 2->1, 3->2, 4->3), tricks 10, 6, 6, 6: table 1 hosts the
#   Kings, who take 2 from the Aces -> 10, 14, 12, 12.
# Totals: Aces 13 + 10 = 23, Kings 9 + 14 = 23, Queens 24, Jacks 26.


def test_closing_a_day_records_it_and_every_table_restarts_at_twelve(client: FlaskClient, app: Flask) -> None:
    token = create(client, preset="custom", days="2, 2")
    tokens = table_tokens(app, token)
    play(client, app, token, 1, (7, 10, 3, 5))
    play(client, app, token, 2, (6, 8, 6, 6), then_advance=False)
    room = text(client.get(f"/d/{token}"))
    assert "Hand 2 of 4 · day 1" in room
    assert "Close day 1 (every table restarts at 12) and open hand 3" in room
    assert snapshot(app, token)["days"] == []
    status, page = advance(client, token, 2)
    assert status == 200 and "Day 1 closed; hand 3 is open." in page
    stored = snapshot(app, token)
    assert stored["days"] == [(1, [13, 9, 12, 14], [0, 0, 0, 0])]
    assert (
        "director",
        "day closed",
        2,
        None,
        None,
        {"held": [13, 9, 12, 14], "owed": [0, 0, 0, 0]},
        "day 1 closed",
    ) in stored["audit"]
    b = board(app, token)
    assert b.days == 2
    assert {r.name: (r.held, r.owed, r.days, r.total) for r in b.rows} == {
        "Aces": (12, 0, (13, 12), 25),
        "Kings": (12, 0, (9, 12), 21),
        "Queens": (12, 0, (12, 12), 24),
        "Jacks": (12, 0, (14, 12), 26),
    }
    conserved(app, token, 4)
    public = stored["public_id"]
    page = text(client.get(f"/b/{public}/standings"))
    assert '<th scope="col" class="num">Day 1</th>' in page and '<th scope="col" class="num">Day 2</th>' in page
    assert "Hand 3 of 4 · day 2" in page
    # rank, flags held at each day's close, loans, day 1, day 2, score
    assert board_rows(page)["Kings"] == ["4", "21", "–", "9", "12", "21"]
    assert "loans owed" not in page  # no table owes: no word on loans
    table = text(client.get(f"/t/{tokens[1]}"))
    assert flags_at_table(table) == 12 and "21 in all" in table and "day 2" in table
    play(client, app, token, 3, (10, 6, 6, 6))
    assert totals(board(app, token)) == {"Aces": 23, "Kings": 23, "Queens": 24, "Jacks": 26}
    conserved(app, token, 4)


def test_export_scores_to_the_same_totals_as_the_board(client: FlaskClient, app: Flask, tmp_path: Path) -> None:
    token = create(client, preset="custom", days="2, 2")
    play(client, app, token, 1, (7, 10, 3, 5))
    play(client, app, token, 2, (6, 8, 6, 6))
    play(client, app, token, 3, (10, 6, 6, 6))
    public = snapshot(app, token)["public_id"]
    response = client.get(f"/b/{public}/event.json")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith('attachment; filename="event-')
    record = response.get_json()
    assert record["variant"] == "military" and len(record["hands"]) == 3
    assert record["options"]["days"] == [2, 2]
    path = tmp_path / "event.json"
    path.write_text(json.dumps(record))
    result = subprocess.run(
        [SCOREPAD, "score", "--json", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=scaled(60)
    )
    assert result.returncode == 0, result.stderr
    sheet = json.loads(result.stdout)
    expected = {"Aces": 23, "Kings": 23, "Queens": 24, "Jacks": 26}
    assert {s["name"]: s["total"] for s in sheet["standings"]} == expected
    assert totals(board(app, token)) == expected
    assert not sheet["finished"]


def test_a_correction_rescores_later_hands_and_is_audited(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    play(client, app, token, 1, (7, 10, 3, 5))
    play(client, app, token, 2, (6, 8, 6, 6), then_advance=False)
    assert totals(board(app, token)) == {"Aces": 13, "Kings": 9, "Queens": 12, "Jacks": 14}
    page = text(client.get(f"/d/{token}/results/1/1"))
    assert "Correct hand 1 at table 1" in page and "Recorded now: 7 tricks (by table 1)" in page
    before = snapshot(app, token)
    # refused corrections change nothing
    for data, message in [
        ({"tricks": "7", "revoke": "none"}, "That is already the result of hand 1 at table 1"),
        ({"tricks": "15"}, "Tap the number of tricks the visitors took: 0 to 13"),
        ({"tricks": "3", "revoke": "nobody"}, "A revoke is by the visitors or the home pair (or none)"),
    ]:
        response = client.post(f"/d/{token}/results/1/1", data=data)
        assert response.status_code == 422
        assert message in errors_in(text(response))
    assert client.post(f"/d/{token}/results/3/1", data={"tricks": "3"}).status_code == 404
    assert client.post(f"/d/{token}/results/1/5", data={"tricks": "3"}).status_code == 404
    assert snapshot(app, token) == before
    # Table 1 in hand 1 was really 3 (the Jacks' visitors take nothing): Aces 14, Jacks 12 after
    # hand 1; hand 2 is scored again on top: Kings 9, Jacks 13.
    response = client.post(f"/d/{token}/results/1/1", data={"tricks": "3", "revoke": "none"})
    assert response.status_code == 302 and response.headers["Location"] == f"/d/{token}"
    assert totals(board(app, token)) == {"Aces": 14, "Kings": 9, "Queens": 12, "Jacks": 13}
    stored = snapshot(app, token)
    assert (1, 1, 3, None) in stored["results"] and stored["current_hand"] == 2
    assert ("director", "correction", 1, 1, {"tricks": 7, "revoke": None}, {"tricks": 3, "revoke": None}, "") in stored[
        "audit"
    ]
    room = text(client.get(f"/d/{token}"))
    assert "Hand 1 at table 1 corrected; everything after it is scored again." in room
    assert re.search(r"director · correction · hand 1 · table 1 ?: 7 tricks → 3 tricks", room)
    # a result the director enters for a table is a correction from "none"
    assert advance(client, token, 2)[0] == 200
    response = client.post(f"/d/{token}/results/2/4", data={"tricks": "10", "revoke": "home"})
    assert response.status_code == 302
    room = text(client.get(f"/d/{token}"))
    assert "6 tricks → 10 tricks, revoke by the home" in room


def test_loans_auto_and_manual_are_shown_and_conserve_the_flags(client: FlaskClient, app: Flask) -> None:
    token = create(client, preset="custom", days="10", tables="2", teams="Aces\nKings")
    # Two tables: table 1 hosts the Kings' visitors, table 2 the Aces'.
    # Hands 1-4: the Aces' visitors take 10 at table 2 (2 flags each): Aces 20, Kings 4.
    # Hand 5 (NT Low): the Aces' visitors take 0 (count 13: 2 flags); the Kings' take 13 (count 0).
    #   Aces 22, Kings 2. Hand 6 as hand 1: Aces 24, Kings 0.
    for hand, tricks in enumerate([(0, 10)] * 4 + [(13, 0), (0, 10)], start=1):
        play(client, app, token, hand, tricks)
        conserved(app, token, 2)
    assert {r.name: (r.held, r.owed) for r in board(app, token).rows} == {"Aces": (24, 0), "Kings": (0, 0)}
    before = snapshot(app, token)
    # bad loans
    for data, message in [
        ({"table": "2", "flags": "0"}, "Lend 1 to 12 flags"),
        ({"table": "2", "flags": "13"}, "Lend 1 to 12 flags"),
        ({"table": "3", "flags": "1"}, "There is no table 3: tables are 1 to 2"),
        ({"table": "2", "flags": "x"}, "Choose a table and the number of flags to lend."),
    ]:
        response = client.post(f"/d/{token}/loan", data=data)
        assert response.status_code == 422, data
        assert message in errors_in(text(response))
    assert snapshot(app, token) == before
    # Hand 7: the director lends the Kings 2 flags; the Aces' visitors take 7 (1 flag): Kings hold 1, owe 2.
    response = client.post(f"/d/{token}/loan", data={"table": "2", "flags": "2"})
    assert response.status_code == 200 and "Table 2 was lent 2 flags." in text(response)
    assert snapshot(app, token)["loans"] == [(7, 2, 2)]
    assert ("director", "loan", 7, 2, None, {"flags": 2}, "table 2 lent 2 flags") in snapshot(app, token)["audit"]
    response = client.post(f"/d/{token}/loan", data={"table": "2", "flags": "1"})
    assert response.status_code == 422
    assert (
        "Table 2 still holds 2 flags, and a table loses at most 2 flags in a hand: flags are lent only to "
        "a table that runs out"
    ) in errors_in(text(response))
    conserved(app, token, 2)
    play(client, app, token, 7, (0, 7))
    assert {r.name: (r.held, r.owed, r.total) for r in board(app, token).rows} == {
        "Aces": (25, 0, 25),
        "Kings": (1, 2, -1),
    }
    conserved(app, token, 2)
    # Hand 8: the Aces' visitors take 10 (2 flags) from a table holding 1: 1 more is lent by itself.
    tokens = table_tokens(app, token)
    status, page = enter(client, tokens[1], 8, 10, kind="preview")
    assert status == 200 and "Flags held: 1 → <strong>-1</strong>" not in page
    assert "(1 lent by the director)" in page
    play(client, app, token, 8, (0, 10))
    assert {r.name: (r.held, r.owed, r.total) for r in board(app, token).rows} == {
        "Aces": (27, 0, 27),
        "Kings": (0, 3, -3),
    }
    conserved(app, token, 2)
    assert snapshot(app, token)["loans"] == [(7, 2, 2)]  # the automatic loan is derived, not a row
    public = snapshot(app, token)["public_id"]
    for url in (f"/b/{public}", f"/b/{public}/standings"):
        page = text(client.get(url))
        # a table holds no fewer than 0 flags: its loans and the score that ranks it are apart, said
        # plainly (the projector said "Flags -3")
        assert re.search(
            r'<th scope="col" class="num">Flags</th>\s*<th scope="col" class="num">Loans</th>\s*'
            r'<th scope="col" class="num">Score</th>',
            page,
        )
        assert board_rows(page) == {"Aces": ["1", "27", "–", "27"], "Kings": ["2", "0", "3", "-3"]}
        assert "Score: the flags held less the loans owed. It decides the ranking." in page
    table = text(client.get(f"/t/{tokens[1]}"))
    assert flags_at_table(table) == 0 and "(owes 3)" in table


def test_manual_loans_refuse_a_result_until_the_director_lends(client: FlaskClient, app: Flask) -> None:
    token = create(client, preset="custom", days="10", tables="2", teams="Aces\nKings", loans="manual")
    for hand, tricks in enumerate([(0, 10)] * 4 + [(13, 0), (0, 10)], start=1):
        play(client, app, token, hand, tricks)
    tokens = table_tokens(app, token)
    status, page = enter(client, tokens[1], 7, 7, kind="preview")
    assert status == 200 and "the director must lend this table flags first" in page
    before = snapshot(app, token)
    status, page = enter(client, tokens[1], 7, 7)
    assert status == 422
    assert any("lend table 2 at least 1 flag first" in e for e in errors_in(page)), errors_in(page)
    assert snapshot(app, token) == before
    assert client.post(f"/d/{token}/loan", data={"table": "2", "flags": "1"}).status_code == 200
    status, page = enter(client, tokens[1], 7, 7)
    assert status == 200
    assert {r.name: (r.held, r.owed) for r in board(app, token).rows} == {"Aces": (25, 0), "Kings": (0, 1)}
    conserved(app, token, 2)


# One hand at two tables, 7 tricks each side: each table loses 1 flag and wins 1, 12 all: a tie.


def test_a_tie_after_the_last_hand_goes_to_a_playoff(client: FlaskClient, app: Flask) -> None:
    token = create(client, preset="custom", days="1", tables="2", teams="Aces\nKings")
    room = text(client.get(f"/d/{token}"))
    assert "Finish the last hand" in room and "Record the playoff hand" not in room
    # a playoff before the schedule is over
    response = client.post(f"/d/{token}/playoff", data={"team1": "1", "team2": "2", "winner": "1"})
    assert response.status_code == 422
    assert "Playoff hands come after the last scheduled hand" in errors_in(text(response))
    play(client, app, token, 1, (7, 7), then_advance=False)
    status, page = advance(client, token, 1)
    assert status == 200
    assert "hand 2 is open" not in page.lower()  # there is no hand 2
    assert "The last hand is in: the schedule is complete." in page
    assert "Record the playoff hand" in page and "The A and B players of the tied teams play" in page
    assert snapshot(app, token)["current_hand"] == 2
    assert totals(board(app, token)) == {"Aces": 12, "Kings": 12}
    assert [r.rank for r in board(app, token).rows] == [1, 1]
    before = snapshot(app, token)
    for data, message in [
        ({"team1": "1", "team2": "2", "winner": "3"}, "Choose which of the two teams won."),
        ({"team1": "1", "team2": "", "winner": "1"}, "Choose the two teams that played and the winner."),
        ({"team1": "x", "team2": "2", "winner": "1"}, "Choose the two teams that played and the winner."),
        ({"team1": "1", "team2": "2"}, "Choose the two teams that played and the winner."),
    ]:
        response = client.post(f"/d/{token}/playoff", data=data)
        assert response.status_code == 422, data
        assert message in errors_in(text(response))
    response = client.post(f"/d/{token}/playoff", data={"team1": "1", "team2": "3", "winner": "1"})
    assert response.status_code == 422
    assert "A team number (its home table) must be a whole number from 1 to 2" in errors_in(text(response))
    response = client.post(f"/d/{token}/playoff", data={"team1": "1", "team2": "1", "winner": "1"})
    assert response.status_code == 422
    assert "Aces cannot play against itself" in errors_in(text(response))
    assert snapshot(app, token) == before
    response = client.post(f"/d/{token}/playoff", data={"team1": "1", "team2": "2", "winner": "2"})
    assert response.status_code == 200 and "Playoff hand recorded." in text(response)
    assert "Record the playoff hand" not in text(response)
    b = board(app, token)
    assert [(r.rank, r.name, r.total) for r in b.rows] == [(1, "Kings", 12), (2, "Aces", 12)]
    assert b.finished
    assert snapshot(app, token)["playoffs"] == [([1, 2], 2, None)]
    page = text(client.get(f"/b/{snapshot(app, token)['public_id']}"))
    assert list(board_rows(page)) == ["Kings", "Aces"]
    # the playoff is over
    response = client.post(f"/d/{token}/playoff", data={"team1": "1", "team2": "2", "winner": "1"})
    assert response.status_code == 422
    assert "The playoff is over: Kings won it" in errors_in(text(response))
    assert snapshot(app, token)["playoffs"] == [([1, 2], 2, None)]


# --------------------------------------------------------------------------- the public board


def test_board_pages_escape_team_names(client: FlaskClient, app: Flask) -> None:
    token = create(client, teams="<b>X</b>\nKings\n<script>alert(1)</script>\nJacks")
    stored = snapshot(app, token)
    assert stored["teams"][0] == "<b>X</b>"
    public = stored["public_id"]
    pages = [
        client.get(f"/b/{public}"),
        client.get(f"/b/{public}/standings"),
        client.get(f"/d/{token}"),
        client.get(f"/t/{stored['tokens'][0]}"),
        client.get(f"/t/{stored['tokens'][1]}"),
        client.get(f"/d/{token}/qr", follow_redirects=True),
    ]
    for response in pages:
        assert response.status_code == 200
        raw = response.get_data(as_text=True)
        assert "<b>X</b>" not in raw and "<script>alert(1)</script>" not in raw
        assert "&lt;b&gt;X&lt;/b&gt;" in raw


def test_projector_and_standings_show_the_live_board(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    play(client, app, token, 1, (7, 10, 3, 5))
    assert enter(client, table_tokens(app, token)[1], 2, 8)[0] == 200  # Jacks take 1 from Kings
    public = snapshot(app, token)["public_id"]
    for url in (f"/b/{public}", f"/b/{public}/standings"):
        response = client.get(url)
        page = text(response)
        assert response.status_code == 200
        assert "Hand 2 of 30" in page and "3 tables still playing" in page
        assert board_rows(page) == {
            "Jacks": ["1", "14", "–", "14"],
            "Aces": ["2", "13", "–", "13"],
            "Queens": ["3", "12", "–", "12"],
            "Kings": ["4", "9", "–", "9"],
        }
        assert page.count('<span class="badge playing">playing</span>') == 3
    assert client.get("/b/nope").status_code == 404
    assert client.get("/b/nope/standings").status_code == 404
    assert client.get("/b/nope/event.json").status_code == 404


def test_a_result_is_pushed_to_the_boards_stream(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    public = snapshot(app, token)["public_id"]
    app.config["SCOREPAD_HEARTBEAT"] = 0.05
    response = client.get(f"/b/{public}/events")
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    stream: Iterator[bytes] = iter(response.response)  # type: ignore[arg-type]
    try:
        assert next(stream) == b": connected\n\n"
        # Table 2 hosts the Aces' visitors: 10 tricks, 2 flags: Aces 14, Kings 10.
        assert enter(app.test_client(), table_tokens(app, token)[1], 1, 10)[0] == 200
        messages: dict[str, str] = {}
        while len(messages) < 2:  # the small "changed" goes first, then the standings
            chunk = next(stream).decode()
            if not chunk.startswith(": ping"):
                messages[chunk.split("\n", 1)[0]] = chunk
        assert messages["event: changed"] == "event: changed\ndata: 1\n\n"
        board = messages["event: board"]
        assert board.startswith("event: board\ndata: ")
        assert '<td class="num total">14</td>' in board and '<td class="num total">10</td>' in board
        assert "3 tables still playing" in board
    finally:
        response.close()
    with app.app_context():
        assert live.broker().count(f"event:{public}") == 0


def test_a_leaderboard_stream_can_take_the_standings_only(client: FlaskClient, app: Flask) -> None:
    """The projector asks for `board` alone: the notices sent on every entry do not wake it."""
    token = create(client)
    public = snapshot(app, token)["public_id"]
    app.config["SCOREPAD_HEARTBEAT"] = 0.05
    assert f"/b/{public}/events?only=board" in client.get(f"/b/{public}").get_data(as_text=True)
    response = client.get(f"/b/{public}/events?only=board")
    stream: Iterator[bytes] = iter(response.response)  # type: ignore[arg-type]
    try:
        assert next(stream) == b": connected\n\n"
        assert enter(app.test_client(), table_tokens(app, token)[1], 1, 10)[0] == 200
        chunk = next(stream).decode()
        while chunk.startswith(": ping"):
            chunk = next(stream).decode()
        assert chunk.startswith("event: board\n")  # the "changed" sent first never came
    finally:
        response.close()


def test_a_stream_opened_after_a_change_its_page_missed_says_so_first(client: FlaskClient, app: Flask) -> None:
    """A result entered between the leaderboard's drawing and its stream's opening is never pushed to
    it: the stream, told when the page's request began, says `missed` first, and the page fetches
    its board again (static/js/app.js). A page drawn after the change is told nothing."""
    token = create(client)
    public = snapshot(app, token)["public_id"]
    app.config["SCOREPAD_HEARTBEAT"] = 0.05
    found = re.search(r'sse-connect="(/b/[^"]+/events\?[^"]*since=(\d+)[^"]*)"', client.get(f"/b/{public}").text)
    assert found, "the projector's stream carries when its page was drawn"
    url = html.unescape(found.group(1))

    def first_message(url: str) -> str:
        response = client.get(url)
        stream: Iterator[bytes] = iter(response.response)  # type: ignore[arg-type]
        try:
            assert next(stream) == b": connected\n\n"
            return next(stream).decode()
        finally:
            response.close()

    assert first_message(url) == ": ping\n\n"  # nothing changed since the page was drawn
    assert enter(app.test_client(), table_tokens(app, token)[1], 1, 10)[0] == 200
    assert first_message(url) == "event: missed\ndata: 1\n\n"  # asked only for the board, told anyway
    later = html.unescape(re.findall(r'sse-connect="([^"]+)"', client.get(f"/b/{public}").text)[0])
    assert first_message(later) == ": ping\n\n"
    assert first_message(url.replace(f"since={found.group(2)}", "since=x")) == ": ping\n\n"  # not a time: no news


def test_a_stream_for_an_unknown_event_name_is_refused(client: FlaskClient, app: Flask) -> None:
    public = snapshot(app, create(client))["public_id"]
    response = client.get(f"/b/{public}/events?only=board,scores")
    assert response.status_code == 400
    assert (
        "Unknown event name: scores. Choose from board, changed, orders, patch, timer, table-&lt;n&gt;, table-*, "
        "team-&lt;n&gt;." in response.get_data(as_text=True)
    )


def test_the_director_can_replace_a_hands_moves_before_any_result(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    control = f"/d/{token}"
    page = client.get(control).get_data(as_text=True)
    assert 'value="2 3 4 1"' in page  # hand 1 by the schedule: table t's visitors go to t + 1
    # a table hosting two visiting pairs is refused beside the field, and nothing changes
    bad = client.post(control + "/moves", data={"moves": "2 3 2 1"})
    assert bad.status_code == 422
    assert "Table 2 would host two visiting pairs (from tables 1 and 3)" in bad.get_data(as_text=True)
    assert client.post(control + "/moves", data={"moves": "x"}).status_code == 422
    ok = client.post(control + "/moves", data={"moves": "3 4 1 2"})
    assert ok.status_code == 200 and "the visiting pairs go where you said" in ok.get_data(as_text=True)
    tokens = table_tokens(app, token)
    phone = client.get(f"/t/{tokens[0]}").get_data(as_text=True)
    assert "go to table <strong>3</strong>" in phone
    # once a result is in, the moves can no longer change under it
    assert enter(app.test_client(), tokens[0], 1, 7)[0] == 200
    late = client.post(control + "/moves", data={"moves": "2 3 4 1"})
    assert late.status_code == 422 and "already in" in late.get_data(as_text=True)
    assert "director · moves · hand 1" in client.get(control).get_data(as_text=True)


def test_the_provincial_games_from_set_up_to_winner(client: FlaskClient, app: Flask, tmp_path: Path) -> None:
    """The document's provincial tournament: 16 tables, 50 hands over two days, a winner.

    Tricks follow a fixed pattern (no randomness): table t in hand h reports 3 + (5t + 3h) mod 9.
    Day 1 closes after hand 30 (every table back to 12), the totals are the sum of the two days,
    and the command line scores the exported record to the same standings. The tables' phones and
    the director's room play the first hand, each day's last and the next day's first; the other
    hands go through the same services in-process (the room drawn 50 times, each drawing checked
    against a fresh replay of the event, was most of this test's time).
    """
    names = [f"Zone {t + 1}" for t in range(16)]
    token = create(client, preset="provincial", tables="16", teams="\n".join(names))
    for hand in range(1, 51):
        tricks = [3 + (5 * t + 3 * hand) % 9 for t in range(1, 17)]
        if hand in (1, 30, 31, 50):
            play(client, app, token, hand, tricks)
        else:
            with app.app_context():
                event = core.by_director_token(token)
                assert event is not None
                for table, count in enumerate(tricks, start=1):
                    events.enter_result(event, table, hand, count, None, f"table {table}")
                events.advance(event, hand=hand)
        conserved(app, token, 16)
        if hand == 30:
            with app.app_context():
                event = db.session.scalars(db.select(Event)).one()
                assert [d.day for d in event.days_closed] == [1]
                day_one = event.days_closed[0]
                assert sum(day_one.held) - sum(day_one.owed) == 12 * 16
            assert all(row.held == 12 and row.owed == 0 for row in board(app, token).rows)
    final = board(app, token)
    assert final.finished and final.hand is None
    assert all(len(row.days) == 2 and row.total == sum(row.days) for row in final.rows)
    public = snapshot(app, token)["public_id"]
    record = client.get(f"/b/{public}/event.json").get_json()
    assert len(record["hands"]) == 50 and record["options"]["days"] == [30, 20]
    path = tmp_path / "provincial.json"
    path.write_text(json.dumps(record))
    scored = json.loads(
        subprocess.run([SCOREPAD, "score", "--json", str(path)], capture_output=True, text=True, check=True).stdout
    )
    assert {s["name"]: s["total"] for s in scored["standings"]} == totals(final)
    winner = final.rows[0]
    assert scored["winner_names"] == [winner.name] and final.rows[1].total < winner.total
    assert f"{winner.name} wins with {winner.total} flags" in client.get(f"/b/{public}").get_data(as_text=True)


def test_a_page_that_lost_its_stream_can_fetch_the_standings_alone(client: FlaskClient, app: Flask) -> None:
    """After a lost stream the page asks (htmx) for the current standings: the fragment, no page around it."""
    token = create(client)
    public = snapshot(app, token)["public_id"]
    assert enter(app.test_client(), table_tokens(app, token)[1], 1, 10)[0] == 200
    for path in (f"/b/{public}", f"/b/{public}/standings"):
        page = client.get(path).get_data(as_text=True)
        assert f'data-refresh-url="{path}"' in page and "<html" in page
        fragment = client.get(path, headers={"HX-Request": "true"}).get_data(as_text=True)
        assert "<html" not in fragment
        assert 'id="board"' in fragment and "3 tables still playing" in fragment


HEADER = re.compile(r"<strong>(-?\d+)</strong> flags (?:held|at this table)")
PREVIEW = re.compile(r"Flags (?:held|at this table): (-?\d+) → <strong>(-?\d+)</strong>")


def test_a_table_phone_counts_its_flags_the_same_in_the_header_and_the_preview(client: FlaskClient, app: Flask) -> None:
    """Issue 14, bug 2, in the demo event: table 1 enters 8, table 2 enters 10, then table 3 taps 7.
    The header said 15, the preview "13 → 12", and after confirming the header said 14: the
    header counted the flags table 3's visitors had already won elsewhere, the preview did not."""
    with app.app_context():
        event = events.load_demo_event()
        assert event is not None
        hand, tokens = event.current_hand, [t.token for t in event.tables]
    for table, tricks in ((0, 8), (1, 10)):
        assert enter(client, tokens[table], hand, tricks)[0] == 200
    header = HEADER.search(client.get(f"/t/{tokens[2]}").get_data(as_text=True))
    status, page = enter(client, tokens[2], hand, 7, kind="preview")
    preview = PREVIEW.search(page)
    assert status == 200 and header and preview, page
    assert int(preview.group(1)) == int(header.group(1))  # the same count before ...
    assert enter(client, tokens[2], hand, 7)[0] == 200
    after = HEADER.search(client.get(f"/t/{tokens[2]}").get_data(as_text=True))
    assert after and int(after.group(1)) == int(preview.group(2))  # ... and after


def test_a_table_waiting_for_the_others_also_asks_every_few_seconds(client: FlaskClient, app: Flask) -> None:
    """A push can be lost (a stream stalled on the venue's Wi-Fi without an error): a table that has
    reported asks again every 5 s until every table is in; before it reports, and once all are in,
    the pushes alone refresh it."""
    token = create(client)
    tables = table_tokens(app, token)

    def trigger(table: int) -> str:
        found = re.search(
            r'id="table-panel"[^>]*hx-trigger="([^"]*)"', client.get(f"/t/{tables[table]}").get_data(as_text=True)
        )
        assert found is not None
        return found.group(1)

    assert "every" not in trigger(0)
    assert enter(client, tables[0], 1, 7)[0] == 200
    assert trigger(0).endswith(", every 5s") and "every" not in trigger(1)
    for table in (1, 2, 3):
        assert enter(client, tables[table], 1, 7)[0] == 200
    assert "every" not in trigger(0)


def test_a_views_stamp_is_never_newer_than_its_results(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """A live panel drops a refresh whose stamp is not newer than the one it shows. SQLite reads each
    query afresh, so a result committed while a page was drawn made a panel stamped with it that
    still said "waiting for 1 more table": every later refresh was dropped as not newer (CI saw a
    table phone wait for good). The stamp is read first, with the results of the hand in play it
    counts (one query): at worst older than what the page shows."""
    with app.app_context():
        event = events.create_event("Stamp", ["Aces", "Kings", "Queens", "Jacks"], [10])
        events.enter_result(event, 1, 1, 7, None, "table 1")
        derived, injected = events._derived, []

        def then_another_table_reports(ev: Event, setup: Any) -> Any:  # read after the results, before the board
            if not injected:
                injected.append(True)
                with app.app_context():  # another request's session
                    other = db.session.get(Event, ev.id)
                    assert other is not None
                    events.enter_result(other, 2, 1, 6, None, "table 2")
            return derived(ev, setup)

        monkeypatch.setattr(events, "_derived", then_another_table_reports)
        view = events.view(event)
        assert injected and 2 in view.waiting  # drawn before table 2's result
        assert view.stamp == f"{event.revision} 1"  # so stamped before it too


def test_the_director_ends_the_day_early_and_the_standings_say_so(client: FlaskClient, app: Flask) -> None:
    """Play ends "at the conclusion of the pre-set pattern or at the direction of the leader": the
    director ends the day after the hand in play (asked first); that hand then closes the day (or
    ends the event on its last day), the standings say why, and a backup restores it so."""
    from tests.web.test_backup import download, token_of, upload

    token = create(client, preset="custom", days="10, 10", tables="2", teams="Aces\nKings")
    play(client, app, token, 1, (8, 0))
    room = text(client.get(f"/d/{token}"))
    assert "End the day after hand 2" in room and "End the day after hand 2? The day" in room  # hx-confirm
    assert client.post(f"/d/{token}/end-day", data={"hand": "1"}).status_code == 409  # a stale page
    response = client.post(f"/d/{token}/end-day", data={"hand": "2"})
    assert response.status_code == 200 and "The day ends after hand 2" in text(response)
    room = text(client.get(f"/d/{token}"))
    assert "Close day 1 (every table restarts at 12) and open hand 3" in room
    assert "End the day after hand 2" not in room  # hand 2 is the day's last now
    assert "10 hands in the day → 2 hands in the day" in room  # the audit trail
    assert client.post(f"/d/{token}/end-day", data={"hand": "2"}).status_code == 422
    play(client, app, token, 2, (0, 0))
    public = snapshot(app, token)["public_id"]
    note = "Day 1 ended early, after hand 2, at the director's word (10 hands were planned)."
    page = text(client.get(f"/b/{public}"))
    assert note in page and "Hand 3 of 12" in page, re.findall(r"board-note[^<]*<", page)
    # day 2, its last: the event ends after hand 4, the projector's final screen says so
    play(client, app, token, 3, (8, 0))
    room = text(client.get(f"/d/{token}"))
    assert "End the event after hand 4? The other hands are not played" in room
    assert client.post(f"/d/{token}/end-day", data={"hand": "4"}).status_code == 200
    play(client, app, token, 4, (0, 0))
    board = text(client.get(f"/b/{public}"))
    assert "Day 2 ended early, after hand 4, at the director's word (10 hands were planned)." in board
    assert note in board and "wins with" in board
    assert board_rows(board)["Kings"][0] == "1" and "Kings wins with 26 flags" in board
    # a backup carries it: the restored event's standings say the same
    restored = token_of(upload(client, download(client, token)))
    again = snapshot(app, restored)["public_id"]
    assert note in text(client.get(f"/b/{again}/standings"))
