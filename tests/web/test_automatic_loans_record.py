"""Issue 32 item 13: an automatic Military Whist loan is recorded hand by hand. The document asks
for "a careful record" of every loan "for possible return of flags to the leader"; with automatic
loans the only trace was the running "owes". Now each automatic loan writes an audit line when the
result that makes it comes in (and again, old → new, when a correction changes it), and the control
room's results grid shows each hand's loan under the table's result. The loan itself stays derived
from the results: the backup's `loans` holds the director's loans only, as entered.

Two tables, one day of 10 hands (tests.web.test_events_loans): after hand 6 the Kings (table 2)
hold nothing, and table 2 hosts the Aces' visitors."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient

from scorepad.extensions import db
from scorepad.models import AuditEntry, Event
from tests.web.test_backup import download
from tests.web.test_events import play, text
from tests.web.test_events_loans import held_owed, kings_on_nothing


def loan_entries(app: Flask, token: str) -> list[tuple[str, int | None, int | None, object, object, str]]:
    with app.app_context():
        event = db.session.query(Event).filter_by(director_token=token).one()
        return [
            (a.actor, a.hand, a.table, a.old, a.new, a.note)
            for a in db.session.query(AuditEntry).filter_by(event_id=event.id, action="loan").order_by(AuditEntry.id)
        ]


def grid_cell(page: str, hand: int, table: int) -> str:
    """The results grid's cell of `hand` at `table` (its link to correct it, and what follows)."""
    found = re.search(rf'<td class="num[^"]*"><a href="[^"]*/results/{hand}/{table}"(.*?)</td>', page, re.S)
    assert found, page
    return re.sub(r"\s+", " ", found[1])


def trail(page: str) -> str:
    found = re.search(r"Audit trail</h2>.*?<ol[^>]*>(.*?)</ol>", page, re.S)
    assert found, page
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found[1]))


def test_an_automatic_loan_is_audited_and_shown_under_its_hand(client: FlaskClient, app: Flask) -> None:
    token = kings_on_nothing(client, app)
    assert loan_entries(app, token) == []
    play(client, app, token, 7, (0, 10))  # the Aces' visitors take 10 tricks at table 2: 2 flags the Kings lack
    assert held_owed(app, token)["Kings"] == (0, 2)
    note = "table 2 ran out of flags: 2 flags lent automatically (it owes 2)"
    assert loan_entries(app, token) == [("automatic", 7, 2, {"flags": 0}, {"flags": 2}, note)]

    room = text(client.get(f"/d/{token}"))
    assert f"automatic · loan · hand 7 · table 2: 0 flags → 2 flags · {note}" in trail(room)
    cell = grid_cell(room, 7, 2)
    assert "; 2 flags lent automatically" in cell and ">+2 auto</small>" in cell
    assert "lent" not in grid_cell(room, 7, 1) and "lent" not in grid_cell(room, 6, 2)

    # a correction that changes what the rules lend says so, old and new
    response = client.post(f"/d/{token}/results/7/2", data={"tricks": "8", "revoke": "none"})
    assert response.status_code == 302, text(response)
    assert held_owed(app, token)["Kings"] == (0, 1)
    assert loan_entries(app, token)[-1] == (
        "automatic",
        7,
        2,
        {"flags": 2},
        {"flags": 1},
        "table 2's automatic loan worked out again after a correction",
    )
    room = text(client.get(f"/d/{token}"))
    assert ">+1 auto</small>" in grid_cell(room, 7, 2) and "; 1 flag lent automatically" in grid_cell(room, 7, 2)

    # derived facts stay derived: the backup keeps the results, and the loan's audit lines
    exported = json.loads(download(client, token))
    assert exported["loans"] == []
    assert [(a["actor"], a["hand"], a["new"]) for a in exported["audit"] if a["action"] == "loan"] == [
        ("automatic", 7, {"flags": 2}),
        ("automatic", 7, {"flags": 1}),
    ]


def test_a_result_that_needs_no_loan_writes_no_loan_line(client: FlaskClient, app: Flask) -> None:
    token = kings_on_nothing(client, app)
    play(client, app, token, 7, (0, 5))  # the Kings keep their (no) flags: nothing to lend
    assert held_owed(app, token)["Kings"] == (0, 0)
    assert loan_entries(app, token) == []
