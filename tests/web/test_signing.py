"""A Bid Whist sheet is signed by each team itself, and a signature holds only for the sheet it signed.

Issue 16, item 7: "one phone can press both teams' sign buttons. Make each team's signature come
from that team ... and record which device signed." Issue 14, bug 3: "after one team signed,
anyone at the table could still edit a hand ... and '✓ signed' stayed."

On the table's phone a team signs with the four-digit code on its own team card; from its own
team page (the card's QR code) it signs without one. The device and the way are recorded.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorepad.events.bid_whist import matches
from scorepad.games import service as games
from tests.web.test_events import HX, field_error, text
from tests.web.test_tournament import event_row, hand, lower_wins, play
from tests.web.test_tournament_director import round_matches, started, team_token


def a_match(client: FlaskClient, app: Flask) -> tuple[str, dict[str, Any]]:
    """A one-round tournament of four teams; its first match played to the end, nobody signed."""
    token = started(client, app, 4, rounds="1")
    m = round_matches(app, token, 1)[0]
    play(app, m["scorer"], lower_wins(m))
    return token, m


def match_row(app: Flask, token: str, match_id: int) -> dict[str, Any]:
    with app.app_context():
        row = next(x for x in event_row(app, token).matches if x.id == match_id)
        return {
            "home_at": row.signed_home_at,
            "away_at": row.signed_away_at,
            "home_by": row.signed_home_by,
            "away_by": row.signed_away_by,
            "note": row.sign_note,
            "locked": row.game is not None and row.game.locked_at is not None,
            "audit": [(a.action, a.note) for a in event_row(app, token).audit],
        }


def sign(client: FlaskClient, m: dict[str, Any], side: int, code: str | None) -> Any:
    data = {"side": str(side)} | ({"code": code} if code is not None else {})
    return client.post(f"/g/{m['scorer']}/sign", data=data, headers=HX)


def test_the_table_phone_signs_for_a_team_only_with_that_teams_code(client: FlaskClient, app: Flask) -> None:
    token, m = a_match(client, app)
    for code, message in (
        (None, "Enter the team code for T{n}: the four digits on that team's card"),
        ("", "Enter the team code for T{n}: the four digits on that team's card"),
        (m["codes"][1], "That is not the team code for T{n}: it is on that team's card"),
    ):
        response = sign(client, m, 0, code)  # one phone tries to sign for the home team
        assert response.status_code == 422
        assert field_error(response.get_data(as_text=True), "code-0") == message.format(n=m["home"])
    assert match_row(app, token, m["id"])["home_at"] is None

    response = sign(client, m, 0, f" {m['codes'][0]} ")
    assert response.status_code == 200 and "✓ (" in text(response) and " signed" in text(response)
    row = match_row(app, token, m["id"])
    assert row["home_at"] is not None and row["away_at"] is None and not row["locked"]
    assert re.fullmatch(r"table phone, team code · device [0-9a-f]{8}", row["home_by"])
    assert ("signed", f"round 1: sheet signed by T{m['home']} ({row['home_by']})") in row["audit"]
    # the same phone cannot go on to sign for the other team without that team's code
    assert sign(client, m, 1, m["codes"][0]).status_code == 422
    assert match_row(app, token, m["id"])["away_at"] is None
    # ... with it, it can: the opponents confirm on the table's phone, as on a Bridgemate
    assert sign(client, m, 1, m["codes"][1]).status_code == 200
    row = match_row(app, token, m["id"])
    assert row["locked"] and row["home_by"] == row["away_by"]  # the director can see one device signed both
    room = text(client.get(f"/d/{token}"))
    assert f"({m['home']}) T{m['home']} signed: {row['home_by']}" in room


def test_a_team_signs_from_its_own_page_and_the_device_is_recorded(client: FlaskClient, app: Flask) -> None:
    token, m = a_match(client, app)
    home_phone, away_phone = app.test_client(), app.test_client()
    assert home_phone.post(f"/team/{team_token(app, token, m['home'])}/sign").status_code == 303
    assert away_phone.post(f"/team/{team_token(app, token, m['away'])}/sign").status_code == 303
    row = match_row(app, token, m["id"])
    assert row["locked"]
    assert row["home_by"].startswith("team page · device ") and row["away_by"].startswith("team page · device ")
    assert row["home_by"] != row["away_by"]  # two phones, two devices


def test_wrong_codes_for_a_team_on_a_sheet_stop_after_five(client: FlaskClient, app: Flask) -> None:
    token, m = a_match(client, app)
    wrong = next(c for c in (f"{n:04d}" for n in range(10000)) if c not in m["codes"])
    for _ in range(matches.CODE_TRIES):
        assert sign(client, m, 1, wrong).status_code == 422
    response = sign(client, m, 1, m["codes"][1])  # even the right code waits now
    assert response.status_code == 422
    assert f"Too many wrong codes for T{m['away']} on this sheet: sign from your team's own page" in field_error(
        response.get_data(as_text=True), "code-1"
    )
    assert match_row(app, token, m["id"])["away_at"] is None
    assert sum(1 for a in match_row(app, token, m["id"])["audit"] if a[0] == matches.WRONG_CODE) == 5
    # the team's own page still signs
    assert app.test_client().post(f"/team/{team_token(app, token, m['away'])}/sign").status_code == 303
    assert match_row(app, token, m["id"])["away_at"] is not None


def test_an_opponent_cannot_use_up_a_teams_tries_nor_lock_another_sheet(client: FlaskClient, app: Flask) -> None:
    """Issue 33, item 4: five wrong codes locked the table's phone for both teams, for 10 minutes, into
    the next round's match; they now count for one team on one sheet."""
    token = started(client, app, 4, rounds="1")
    first, second = round_matches(app, token, 1)
    for m in (first, second):
        play(app, m["scorer"], lower_wins(m))
    wrong = next(c for c in (f"{n:04d}" for n in range(10000)) if c not in first["codes"] + second["codes"])
    for _ in range(matches.CODE_TRIES + 1):  # someone keeps trying codes as the away team
        assert sign(client, first, 1, wrong).status_code == 422
    assert sign(client, first, 0, first["codes"][0]).status_code == 200  # the home team still signs here
    assert sign(client, second, 1, second["codes"][1]).status_code == 200  # and the other sheet is untouched
    assert sign(client, first, 1, first["codes"][1]).status_code == 422  # the away team waits on this sheet


def test_the_director_lets_a_locked_team_try_its_code_again(client: FlaskClient, app: Flask) -> None:
    token, m = a_match(client, app)
    wrong = next(c for c in (f"{n:04d}" for n in range(10000)) if c not in m["codes"])
    response = client.post(f"/d/{token}/matches/{m['id']}/unlock-code", data={"side": "1"}, headers=HX)
    assert response.status_code == 422  # nothing is locked yet
    assert "This team's code is not locked on this sheet" in text(response)
    for _ in range(matches.CODE_TRIES):
        sign(client, m, 1, wrong)
    room = text(client.get(f"/d/{token}"))
    assert f"The code for ({m['away']}) T{m['away']} is locked on this sheet after 5 wrong tries." in room
    assert client.post(f"/d/{token}/matches/{m['id']}/unlock-code", data={"side": "7"}, headers=HX).status_code == 404
    response = client.post(f"/d/{token}/matches/{m['id']}/unlock-code", data={"side": "1"}, headers=HX)
    assert response.status_code == 200
    assert "is locked on this sheet" not in text(response)
    assert ("team code unlocked", f"round 1: T{m['away']} may enter its team code again") in match_row(
        app, token, m["id"]
    )["audit"]
    assert sign(client, m, 1, m["codes"][1]).status_code == 200  # the right code is taken again
    assert match_row(app, token, m["id"])["away_at"] is not None


def test_the_team_cards_print_the_team_codes(client: FlaskClient, app: Flask) -> None:
    token, m = a_match(client, app)
    page = text(client.get(f"/d/{token}/qr", follow_redirects=True))
    for code in m["codes"]:
        assert f"Team code <strong>{code}</strong>" in page


def test_a_sheet_changed_after_one_team_signed_loses_the_signature_and_says_why(
    client: FlaskClient, app: Flask
) -> None:
    token, m = a_match(client, app)
    assert sign(client, m, 0, m["codes"][0]).status_code == 200
    with app.app_context():  # someone at the table corrects hand 2 (what the Edit link posts does this)
        game = games.by_scorer_token(m["scorer"])
        assert game is not None
        games.correct_hand(game, 2, {**hand(2, 1 - lower_wins(m)), "books": 9})
    row = match_row(app, token, m["id"])
    assert row["home_at"] is None and row["home_by"] is None
    note = (
        f"Hand 2 was corrected after T{m['home']} signed: the signature is withdrawn. "
        f"Both teams check the sheet and sign again."
    )
    assert row["note"] == note
    assert ("signature withdrawn", f"round 1: Hand 2 was corrected after T{m['home']} signed") in row["audit"]
    bar = text(client.get(f"/g/{m['scorer']}/event"))
    assert note in bar and "✓" not in bar  # both teams see why, at the table ...
    assert note in text(client.get(f"/team/{team_token(app, token, m['away'])}"))  # ... and on their pages

    # taking the last hand back after a signature withdraws it too (Undo takes back the correction first)
    assert client.post(f"/g/{m['scorer']}/undo", headers=HX).status_code == 200
    assert sign(client, m, 1, m["codes"][1]).status_code == 200
    response = client.post(f"/g/{m['scorer']}/undo", headers=HX)
    assert response.status_code == 200
    row = match_row(app, token, m["id"])
    assert row["away_at"] is None and row["note"].startswith("Hand 4 was taken back after T")
    play_last = hand(4, lower_wins(m))
    with app.app_context():
        game = games.by_scorer_token(m["scorer"])
        assert game is not None
        games.enter_hand(game, 4, play_last)
    # both sign again: the sheet is final and the note goes
    assert sign(client, m, 0, m["codes"][0]).status_code == 200
    assert sign(client, m, 1, m["codes"][1]).status_code == 200
    row = match_row(app, token, m["id"])
    assert row["locked"] and row["note"] == ""


def test_a_sheet_nobody_signed_changes_without_a_note(client: FlaskClient, app: Flask) -> None:
    token, m = a_match(client, app)
    with app.app_context():
        game = games.by_scorer_token(m["scorer"])
        assert game is not None
        games.correct_hand(game, 2, {**hand(2, 1 - lower_wins(m)), "books": 9})
    row = match_row(app, token, m["id"])
    assert row["note"] == "" and not any(a[0] == "signature withdrawn" for a in row["audit"])
