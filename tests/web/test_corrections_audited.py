"""Issue 32 item 2: every correction of every format goes to the event's audit trail, as Military
Whist's do: old → new, who (the director, or the table's phone with its device) and when; the
control room's "What happened" shows it, and the event's backup keeps it through a restore.

A Bid Whist match's and a club night's table's hands are home games at the event, corrected on
the game's correction form (`/g/<scorer>/hands/<n>`): from the director's browser (which holds
the event's director's link) or from the table's phone."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient

from scorepad.extensions import db
from scorepad.models import AuditEntry, Event
from tests.web.test_backup import download, fresh, token_of, upload  # noqa: F401 (a fixture)
from tests.web.test_club_night import create as create_club
from tests.web.test_club_night import enter as enter_club
from tests.web.test_club_night import start_table
from tests.web.test_club_night import table_tokens as club_tables
from tests.web.test_events import text
from tests.web.test_tournament import lower_wins, play
from tests.web.test_tournament_director import round_matches, started


def what_happened(page: str) -> str:
    """The control room's "What happened" list as words."""
    found = re.search(r"What happened</h2>.*?<ol[^>]*>(.*?)</ol>", page, re.S)
    assert found, page
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1)))


def corrections(app: Flask, token: str) -> list[AuditEntry]:
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        return [a for a in event.audit if a.action == "correction"]


def bid_whist_hand_two(books: int) -> dict[str, str]:
    """The correction form of hand 2 of tests.web.test_tournament's matches: seat 2 bid 4 in spades."""
    return {"bidder": "2", "bid": "4", "kind": "plain", "trump": "S", "books": str(books), "renege": "none"}


def test_a_bid_whist_correction_by_the_director_is_in_what_happened_and_the_backup(
    client: FlaskClient, app: Flask, fresh: Flask
) -> None:
    token = started(client, app, 4, rounds="1")
    m = next(m for m in round_matches(app, token, 1) if lower_wins(m) == 0)
    play(app, m["scorer"], 0)  # hand 2: N/S bid 4 and took 10 books
    response = client.post(f"/g/{m['scorer']}/hands/2", data=bid_whist_hand_two(11))
    assert response.status_code == 303, text(response)

    [entry] = corrections(app, token)
    assert (entry.actor, entry.hand, entry.table) == ("director", 2, m["table"])
    assert (entry.old, entry.new) == ({"hand": {"books": 10}}, {"hand": {"books": 11}})
    assert entry.at is not None
    line = f"director: correction · hand 2 · table {m['table']}: 10 books → 11 books · round 1"
    assert line in what_happened(text(client.get(f"/d/{token}")))

    exported = json.loads(download(client, token))
    [kept] = [a for a in exported["audit"] if a["action"] == "correction"]
    assert (kept["old"], kept["new"], kept["hand"]) == ({"hand": {"books": 10}}, {"hand": {"books": 11}}, 2)
    other = fresh.test_client()
    restored = token_of(upload(other, json.dumps(exported).encode()))
    assert line in what_happened(text(other.get(f"/d/{restored}")))


def test_a_bid_whist_correction_on_the_table_s_phone_names_the_table_and_the_device(
    client: FlaskClient, app: Flask
) -> None:
    token = started(client, app, 4, rounds="1")
    m = next(m for m in round_matches(app, token, 1) if lower_wins(m) == 0)
    play(app, m["scorer"], 0)
    phone = app.test_client()
    assert phone.post(f"/g/{m['scorer']}/hands/2", data=bid_whist_hand_two(9)).status_code == 303

    [entry] = corrections(app, token)
    assert entry.actor == f"table {m['table']}"
    assert (entry.old, entry.new) == ({"hand": {"books": 10}}, {"hand": {"books": 9}})
    with phone.session_transaction() as session:
        device = session["device"]
    assert entry.note == f"round 1: corrected on device {device}"
    assert f"table {m['table']}: correction · hand 2 · table {m['table']}: 10 books → 9 books" in what_happened(
        text(client.get(f"/d/{token}"))
    )


def test_a_club_night_correction_is_in_its_control_room(client: FlaskClient, app: Flask) -> None:
    token = create_club(client)
    phone = app.test_client()
    scorer = start_table(phone, club_tables(app, token)[1], ("Ann", "Bob", "Cat", "Dan"))
    enter_club(app, scorer, {"trump": "H", "bids": [1, 2, 0, 0], "tricks": [1, 2, 1, 0]})
    form = {"trump": "H", **{f"bids.{i}": str(b) for i, b in enumerate((1, 2, 0, 0))}}
    form |= {f"tricks.{i}": str(t) for i, t in enumerate((1, 2, 0, 1))}
    assert phone.post(f"/g/{scorer}/hands/1", data=form).status_code == 303

    [entry] = corrections(app, token)
    assert (entry.actor, entry.hand, entry.table) == ("table 1", 1, 1)
    assert (entry.old, entry.new) == ({"hand": {"tricks": [1, 2, 1, 0]}}, {"hand": {"tricks": [1, 2, 0, 1]}})
    assert "table 1: correction · hand 1 · table 1: tricks 1, 2, 1, 0 → tricks 1, 2, 0, 1" in what_happened(
        text(client.get(f"/d/{token}"))
    )


def test_a_recorded_hand_taken_back_by_undo_at_a_match_is_in_the_trail(client: FlaskClient, app: Flask) -> None:
    """Undo on the table's phone takes back the last recorded hand: a change to the record, audited
    like a correction (the hand as it was; nothing after it)."""
    token = started(client, app, 4, rounds="1")
    m = next(m for m in round_matches(app, token, 1) if lower_wins(m) == 0)
    play(app, m["scorer"], 0)
    phone = app.test_client()
    assert phone.post(f"/g/{m['scorer']}/undo").status_code == 303

    [entry] = [a for a in audit_of(app, token) if a.action == "hand taken back"]
    assert (entry.actor, entry.hand, entry.table, entry.new) == (f"table {m['table']}", 4, m["table"], None)
    assert entry.old == {"hand": {"bidder": 0, "bid": 4, "kind": "plain", "trump": "S", "books": 10}}
    with phone.session_transaction() as session:
        assert entry.note == f"round 1: taken back on device {session['device']}"
    assert (
        f"table {m['table']}: hand taken back · hand 4 · table {m['table']}: "
        "before: bidder: seat 1, bid 4, kind of bid plain, trump S, 10 books"
    ) in what_happened(text(client.get(f"/d/{token}")))


def audit_of(app: Flask, token: str) -> list[AuditEntry]:
    with app.app_context():
        return list(db.session.query(Event).filter_by(director_token=token).one().audit)
