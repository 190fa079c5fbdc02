"""Loans of flags, as the document has them: "should the players of one table lose all their flags ...
the leader may loan that table one or more flags ... a careful record of this must be kept for possible
return of flags to the leader". A table that still holds flags is not lent any; flags given back are
recorded like the loans (and exported); the ledger stays balanced: flags held - loans = 12 x tables.

Two tables, one day of 10 hands: table 1 hosts the Kings' visitors, table 2 the Aces'. Hands 1-6 as in
test_events: the Aces end on 24 flags, the Kings on 0.
"""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorepad import create_app
from scorepad.events import core
from scorepad.events import military as events
from scorepad.rules import military
from scorepad.rules.record import parse_record
from tests.conftest import config_for, release
from tests.web.test_events import (
    board,
    board_rows,
    conserved,
    create,
    enter,
    errors_in,
    play,
    snapshot,
    table_tokens,
    text,
)

KINGS_RUN_OUT = [(0, 10)] * 4 + [(13, 0), (0, 10)]


def kings_on_nothing(client: FlaskClient, app: Flask, loans: str = "auto", days: str = "10") -> str:
    token = create(client, preset="custom", days=days, tables="2", teams="Aces\nKings", loans=loans)
    for hand, tricks in enumerate(KINGS_RUN_OUT, start=1):
        play(client, app, token, hand, tricks)
    assert {r.name: (r.held, r.owed) for r in board(app, token).rows} == {"Aces": (24, 0), "Kings": (0, 0)}
    return token


def flags_held(page: str) -> int:
    found = re.search(r"<strong>(-?\d+)</strong> flags held", page)
    assert found, page
    return int(found.group(1))


def post(client: FlaskClient, token: str, url: str, table: int, flags: int) -> tuple[int, str]:
    response = client.post(f"/d/{token}/{url}", data={"table": str(table), "flags": str(flags)})
    return response.status_code, text(response)


def held_owed(app: Flask, token: str) -> dict[str, tuple[int, int]]:
    return {r.name: (r.held, r.owed) for r in board(app, token).rows}


def test_a_table_that_still_holds_flags_is_not_lent_any(client: FlaskClient, app: Flask) -> None:
    for mode in ("auto", "manual"):
        token = kings_on_nothing(client, app, loans=mode)
        before = snapshot(app, token)
        status, page = post(client, token, "loan", 1, 1)
        assert status == 422
        assert (
            "Table 1 still holds 24 flags, and a table loses at most 2 flags in a hand: flags are lent only "
            "to a table that runs out"
        ) in errors_in(page)
        status, page = post(client, token, "loan", 2, 3)  # the Kings can lose 2 at most
        assert status == 422
        assert "Table 2 holds 0 flags and loses at most 2 this hand: lend it at most 2 flags" in errors_in(page)
        assert snapshot(app, token) == before
        # once the Kings' result is in, the loan is what that result takes: 1 flag for 7 tricks
        if mode == "auto":
            assert enter(client, table_tokens(app, token)[1], 7, 7)[0] == 200
            status, page = post(client, token, "loan", 2, 2)
            assert status == 422
            assert "Table 2 holds 0 flags and loses at most 1 this hand: lend it at most 1 flag" in errors_in(page)
            assert post(client, token, "loan", 2, 1)[0] == 200
            status, page = post(client, token, "loan", 2, 1)
            assert (
                "Table 2 still holds 1 flag, enough to pay the 1 flag its visitors took: flags are lent only "
                "to a table that runs out"
            ) in errors_in(page)
            conserved(app, token, 2)


def test_flags_given_back_are_recorded_and_keep_the_ledger_balanced(client: FlaskClient, app: Flask) -> None:
    token = kings_on_nothing(client, app)
    # Hand 7: the director lends the Kings 2, takes 1 back (a slip), lends it again: one loan of 2.
    assert post(client, token, "loan", 2, 2)[0] == 200
    status, page = post(client, token, "return", 2, 1)
    assert status == 200 and "Table 2 gave 1 flag back." in page
    assert snapshot(app, token)["loans"] == [(7, 2, 1)]
    assert post(client, token, "loan", 2, 1)[0] == 200
    assert snapshot(app, token)["loans"] == [(7, 2, 2)]
    # The Kings' visitors take 7 at table 1 (1 flag), the Aces' none at table 2: Kings hold 3, owe 2.
    play(client, app, token, 7, (7, 0))
    assert held_owed(app, token) == {"Aces": (23, 0), "Kings": (3, 2)}
    conserved(app, token, 2)
    before = snapshot(app, token)
    for table, flags, message in [
        (1, 1, "Table 1 owes no flags: there is nothing to give back"),
        (2, 3, "Table 2 holds 3 flags and owes 2: it can give back at most 2 flags now"),
        (2, 0, "Give back 1 to 12 flags"),
    ]:
        status, page = post(client, token, "return", table, flags)
        assert status == 422 and message in errors_in(page), page
    assert snapshot(app, token) == before
    # Hand 8: the Aces' visitors take 10 at table 2 (2 flags): the Kings keep 2 to pay, give 1 back.
    assert enter(client, table_tokens(app, token)[1], 8, 10)[0] == 200
    status, page = post(client, token, "return", 2, 2)
    assert status == 422 and "Table 2 holds 3 flags and owes 2: it can give back at most 1 flag now" in errors_in(page)
    status, page = post(client, token, "return", 2, 1)
    assert status == 200 and "Table 2 gave 1 flag back." in page
    status, page = post(client, token, "return", 2, 1)
    assert status == 422
    assert "Table 2 cannot give flags back now: it needs its 2 flags to pay this hand" in errors_in(page)
    assert held_owed(app, token) == {"Aces": (25, 0), "Kings": (0, 1)}
    conserved(app, token, 2)
    assert enter(client, table_tokens(app, token)[0], 8, 0)[0] == 200
    stored = snapshot(app, token)
    assert stored["loans"] == [(7, 2, 2), (8, 2, -1)]  # a return is a negative loan row
    assert ("director", "return", 8, 2, None, {"flags": 1}, "table 2 gave 1 flag back to the director") in stored[
        "audit"
    ]
    room = text(client.get(f"/d/{token}"))
    assert "return · hand 8 · table 2" in room and "Flags given back (hand 8)" in room
    page = text(client.get(f"/b/{stored['public_id']}"))
    assert board_rows(page) == {"Aces": ["1", "25", "–", "25"], "Kings": ["2", "0", "1", "-1"]}
    # the export carries the return, and the rules score it to the same flags
    assert client.post(f"/d/{token}/advance", data={"hand": "8"}).status_code == 200
    record = client.get(f"/b/{stored['public_id']}/event.json").get_json()
    assert record["hands"][7]["returns"] == [{"table": 2, "flags": 1}]
    assert record["hands"][6]["loans"] == [{"table": 2, "flags": 2}]
    sheet = military.VARIANT.score(parse_record(record).setup, record["hands"])
    assert {s.name: s.total for s in sheet.standings} == {"Aces": 25, "Kings": -1}
    assert "Return: table 2 gives 1 flag back to the director" in sheet.lines[7].note


def test_a_correction_that_would_undo_a_return_is_refused(client: FlaskClient, app: Flask) -> None:
    """Facts in, totals derived: a correction that leaves a recorded return impossible is refused."""
    token = kings_on_nothing(client, app)
    assert post(client, token, "loan", 2, 2)[0] == 200
    play(client, app, token, 7, (10, 0))  # the Kings' visitors take 2: Kings hold 4, owe 2
    assert post(client, token, "return", 2, 2)[0] == 200  # hand 8: the Kings give both back
    # hand 7 at table 2 was really 10 for the Aces' visitors: the Kings hold 2 at hand 8, still enough
    assert client.post(f"/d/{token}/results/7/2", data={"tricks": "10", "revoke": "none"}).status_code == 302
    conserved(app, token, 2)
    before = snapshot(app, token)
    # and table 1 was really 3: the Kings would hold nothing to give back in hand 8
    response = client.post(f"/d/{token}/results/7/1", data={"tricks": "3", "revoke": "none"})
    assert response.status_code == 422
    assert any(
        "cannot give back 2 flags: it holds 0 and owes 2 at the start of the hand" in m
        for m in errors_in(text(response))
    ), errors_in(text(response))
    assert snapshot(app, token) == before


def test_the_loans_column_counts_every_days_loans(client: FlaskClient, app: Flask) -> None:
    """Day 1's loans are still owed on day 2: the board shows the total, not today's alone."""
    token = kings_on_nothing(client, app, days="7, 2")
    # hand 7 is day 1's last: while it is played the tables hold what they hold, not a new day's 12
    assert flags_held(text(client.get(f"/t/{table_tokens(app, token)[0]}"))) == 24
    play(client, app, token, 7, (0, 10))  # the Kings hold nothing and lose 2: lent 2 automatically
    b = board(app, token)
    kings = next(r for r in b.rows if r.name == "Kings")
    assert (kings.held, kings.owed, kings.loans, kings.day_loans) == (12, 0, 2, (2, 0))
    public = snapshot(app, token)["public_id"]
    for url in (f"/b/{public}", f"/b/{public}/standings"):
        page = text(client.get(url))
        rows = board_rows(page)
        # rank, flags held at each day's close (0 + 12), loans, day 1, day 2, score (flags - loans)
        assert rows["Kings"] == ["2", "12", "2", "-2", "12", "10"]
        assert rows["Aces"] == ["1", "38", "–", "26", "12", "38"]
        assert "Score: the flags held less the loans owed. It decides the ranking." in page


def test_a_result_entered_as_another_worker_lends_flags_is_checked_with_the_loan(
    client: FlaskClient, app: Flask
) -> None:
    """The Kings' table enters hand 7 (the Aces' visitors take 10 tricks: 2 flags the Kings lack)
    just as the director, served by another worker, lends the Kings 2 flags: the table's request
    read the event before the loan, and its check must count the loan all the same (it refused the
    result as one the Kings cannot pay, from the loans its worker kept at the revision it had read)."""
    token = kings_on_nothing(client, app, loans="manual")
    assert client.get(f"/d/{token}").status_code == 200  # this worker keeps hand 7's loans: none
    other = create_app(config_for(app.config["SQLALCHEMY_DATABASE_URI"]))  # another worker, its own kept values
    stale = app.app_context()
    stale.push()
    try:
        event = core.by_director_token(token)
        assert event is not None and event.current_hand == 7  # the table's request has read the event
        assert post(other.test_client(), token, "loan", 2, 2)[0] == 200
        events.enter_result(event, 2, 7, 10, None, "table 2")
    finally:
        stale.pop()
        release(other)
    play(client, app, token, 7, (0,))  # table 1's result (the Kings' visitors take none) closes the hand
    assert held_owed(app, token) == {"Aces": (26, 0), "Kings": (0, 2)}
    conserved(app, token, 2)
