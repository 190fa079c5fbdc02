"""Issue 32 item 4 follows a team's code tries on one sheet (issue 33 item 4: wrong codes lock that
team on that sheet alone, and the director lifts the lock, audited). Those audit entries name the
sheet by its match, which the database knows by a row id, and a backup carries no row ids: a
tournament where a team had typed one wrong code could not be restored at all ("match" is not a
value the audit trail records). The backup names the match by its place in "matches", and a
restore gives it back the new match's id, so a lock in force stays on its sheet and the director can
still lift it on the new server."""

from __future__ import annotations

import json

from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import core
from scorepad.events.bid_whist import matches
from tests.web.test_backup import beside_upload, download, fresh, token_of, upload  # noqa: F401 (a fixture)
from tests.web.test_events import HX, text
from tests.web.test_signing import a_match, sign
from tests.web.test_tournament import current_matches


def test_a_tournament_with_a_team_locked_out_of_a_sheet_restores_with_its_lock(
    client: FlaskClient, app: Flask, fresh: Flask
) -> None:
    token, m = a_match(client, app)
    wrong = next(c for c in (f"{n:04d}" for n in range(10000)) if c not in m["codes"])
    for _ in range(matches.CODE_TRIES):
        assert sign(client, m, 1, wrong).status_code == 422
    exported = json.loads(download(client, token))
    place = next(i for i, row in enumerate(exported["matches"], start=1) if row["table"] == m["table"])
    tries = [a for a in exported["audit"] if a["action"] == matches.WRONG_CODE]
    assert len(tries) == matches.CODE_TRIES and all(a["new"] == {"match": place, "side": 1} for a in tries)

    other = fresh.test_client()
    restored = token_of(upload(other, json.dumps(exported).encode()))
    again = json.loads(download(other, restored))
    assert [a for a in again["audit"] if a["action"] == matches.WRONG_CODE] == tries
    new = next(x for x in current_matches(fresh, restored) if x["table"] == m["table"] and x["stage"] == "round")
    with fresh.app_context():
        event = core.by_director_token(restored)
        assert event is not None
        assert matches.code_locks(event) == {(new["id"], 1): matches.CODE_TRIES}  # the restored sheet's id
    room = text(other.get(f"/d/{restored}"))
    assert f"The code for ({m['away']}) T{m['away']} is locked on this sheet after 5 wrong tries." in room
    response = other.post(f"/d/{restored}/matches/{new['id']}/unlock-code", data={"side": "1"}, headers=HX)
    assert response.status_code == 200 and "is locked on this sheet" not in text(response)


def test_a_backup_whose_audit_names_a_match_it_does_not_hold_is_refused(client: FlaskClient, app: Flask) -> None:
    token, m = a_match(client, app)
    wrong = next(c for c in (f"{n:04d}" for n in range(10000)) if c not in m["codes"])
    assert sign(client, m, 1, wrong).status_code == 422
    exported = json.loads(download(client, token))
    entry = next(i for i, a in enumerate(exported["audit"], start=1) if a["action"] == matches.WRONG_CODE)
    exported["audit"][entry - 1]["new"]["match"] = len(exported["matches"]) + 1
    response = upload(client, json.dumps(exported).encode())
    assert response.status_code == 422
    count = len(exported["matches"])
    assert f"audit #{entry}: there is no match {count + 1} in the backup ({count} matches)" in beside_upload(response)
