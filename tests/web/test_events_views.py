"""What the Military Whist pages show: closed days derived from the results (with the record made at
closing beside them when a correction changed them since), audit times labelled in the hall's time
zone, the projector's next-hand orders once a hand is complete, the table phone's live refresh.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import core
from scorepad.events import military as events
from scorepad.extensions import db
from scorepad.models import AuditEntry
from tests.web.test_events import HX, create, enter, play, snapshot, table_tokens, text

# --------------------------------------------------------------------------- closed days


def test_a_closed_day_shows_the_flags_the_results_give_now(client: FlaskClient, app: Flask) -> None:
    token = create(client, preset="custom", days="2, 2")
    play(client, app, token, 1, (7, 10, 3, 5))
    play(client, app, token, 2, (6, 8, 6, 6))  # day 1 closes: Aces 13, Kings 9, Queens 12, Jacks 14
    room = text(client.get(f"/d/{token}"))
    assert "Days closed" in room and "Day 1, closed" in room
    assert '1 Aces</th><td class="num">13</td></tr>' in room
    assert "corrected since" not in room and "Recorded at closing" not in room
    assert "day closed · hand 2: flags at closing table 1: 13, table 2: 9, table 3: 12, table 4: 14" in room
    # Hand 1 at table 1 was really 3: the Jacks' visitors took nothing. Day 1 is now 14, 9, 12, 13.
    response = client.post(f"/d/{token}/results/1/1", data={"tricks": "3", "revoke": "none"})
    assert response.status_code == 302
    room = text(client.get(f"/d/{token}"))
    assert "corrected since" in room and "Recorded at closing" in room
    assert '1 Aces</th><td class="num">14</td><td class="num">13</td></tr>' in room
    assert '4 Jacks</th><td class="num">13</td><td class="num">14</td></tr>' in room
    assert '2 Kings</th><td class="num">9</td><td class="num">9</td></tr>' in room
    # the boards agree with the derived figures
    assert [r.days[0] for r in sorted(events_board(app, token), key=lambda r: r.team)] == [14, 9, 12, 13]


def events_board(app: Flask, token: str) -> tuple[events.fmt.BoardRow, ...]:
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None
        return events.view(event).board.rows


# --------------------------------------------------------------------------- audit times


def audit_moment(app: Flask) -> datetime:
    with app.app_context():
        at = db.session.scalars(db.select(AuditEntry.at)).first()
        assert at is not None
        return at.replace(tzinfo=UTC) if at.tzinfo is None else at


@pytest.mark.parametrize(
    ("config", "env", "zone"),
    [
        ("America/Edmonton", None, "America/Edmonton"),
        (None, "Asia/Tokyo", "Asia/Tokyo"),
        (None, None, None),  # the server's own zone
        ("Not/AZone", None, None),
    ],
)
def test_audit_times_carry_utc_and_the_halls_zone(
    client: FlaskClient,
    app: Flask,
    monkeypatch: pytest.MonkeyPatch,
    config: str | None,
    env: str | None,
    zone: str | None,
) -> None:
    monkeypatch.delenv("SCOREPAD_TZ", raising=False)
    if env:
        monkeypatch.setenv("SCOREPAD_TZ", env)
    if config:
        app.config["SCOREPAD_TZ"] = config
    token = create(client)
    assert client.post(f"/d/{token}/tables/2/token").status_code == 302
    at = audit_moment(app)
    local = at.astimezone(ZoneInfo(zone) if zone else None)
    page = client.get(f"/d/{token}").get_data(as_text=True)
    stamp = f'<time datetime="{at.astimezone(UTC):%Y-%m-%dT%H:%M:%S}Z">{local:%H:%M:%S %Z}</time>'
    assert stamp in page, re.findall(r"<time[^>]*>[^<]*</time>", page)
    assert local.strftime("%Z")  # a label, never a bare time


# --------------------------------------------------------------------------- the projector


def movement(page: str) -> tuple[str, list[str]]:
    found = re.search(r'<section class="movement[^"]*".*?<h2[^>]*>(.*?)</h2>(.*?)</section>', page, re.S)
    assert found, page
    heading = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))).strip()
    moves = re.findall(r'<span class="from">(\d+)</span> → <span class="to">(\d+)</span>', found.group(2))
    return heading, [f"{a}→{b}" for a, b in moves]


def test_the_projector_shows_the_next_hands_moves_once_every_table_is_in(client: FlaskClient, app: Flask) -> None:
    token = create(client, preset="custom", days="2, 1")
    public = snapshot(app, token)["public_id"]
    tokens = table_tokens(app, token)
    heading, moves = movement(client.get(f"/b/{public}").get_data(as_text=True))
    assert heading == "Hand 1: A&B go out, X&Y stay home; dealer B of the visitors"
    assert moves == ["1→2", "2→3", "3→4", "4→1"]
    for table_token, tricks in zip(tokens[:3], (7, 10, 3)):
        assert enter(client, table_token, 1, tricks)[0] == 200
    assert movement(client.get(f"/b/{public}").get_data(as_text=True))[0].startswith("Hand 1:")  # one still playing
    assert enter(client, tokens[3], 1, 5)[0] == 200
    for url in (f"/b/{public}", f"/b/{public}/standings"):
        heading, moves = movement(client.get(url).get_data(as_text=True))
        assert heading == "Next: hand 2 · trump Spades · X&Y go out, A&B stay home; dealer X of the visitors"
        assert moves == ["1→3", "2→4", "3→1", "4→2"]
    assert client.post(f"/d/{token}/advance", data={"hand": "1"}).status_code == 200
    play(client, app, token, 2, (6, 6, 6, 6), then_advance=False)  # day 1's last hand: next is day 2
    heading, _ = movement(client.get(f"/b/{public}").get_data(as_text=True))
    assert heading.startswith("Next: hand 3 (day 2: every table starts again with 12) · trump Diamonds")
    assert client.post(f"/d/{token}/advance", data={"hand": "2"}).status_code == 200
    play(client, app, token, 3, (6, 6, 6, 6), then_advance=False)  # the last hand: nothing follows it
    heading, _ = movement(client.get(f"/b/{public}").get_data(as_text=True))
    assert heading.startswith("Hand 3:")


# --------------------------------------------------------------------------- the table phone


def panel_root(page: str) -> str:
    found = re.search(r'<div id="table-panel"[^>]*>', page)
    assert found, page
    return found.group(0)


def test_a_waiting_tables_check_is_answered_204_until_something_changed(client: FlaskClient, app: Flask) -> None:
    """A table that reported asks every 5 s with the stamp it shows; while the event is as it was the
    answer is an empty 204 (the panel is not drawn), and a new result elsewhere brings the panel."""
    token = create(client)
    tokens = table_tokens(app, token)
    playing = panel_root(client.get(f"/t/{tokens[0]}").get_data(as_text=True))
    assert "since=" not in playing and "every 5s" not in playing  # still to report: no check
    status, answer = enter(client, tokens[0], 1, 7)
    assert status == 200
    root = panel_root(answer)
    assert "every 5s" in root
    url = html.unescape(re.search(r'hx-get="([^"]+)"', root).group(1))  # type: ignore[union-attr]
    stamp = re.search(r'data-stamp="([^"]+)"', root).group(1)  # type: ignore[union-attr]
    assert url.startswith(f"/t/{tokens[0]}/panel?since=") and stamp.replace(" ", "+") in url
    unchanged = client.get(url, headers=HX)
    assert unchanged.status_code == 204 and unchanged.get_data() == b""
    assert enter(app.test_client(), tokens[1], 1, 6)[0] == 200  # another table reports
    changed = client.get(url, headers=HX)
    assert changed.status_code == 200
    newer = re.search(r'data-stamp="([^"]+)"', panel_root(text(changed))).group(1)  # type: ignore[union-attr]
    assert newer != stamp
    assert client.get(f"/t/{tokens[0]}/panel?since=0+0", headers=HX).status_code == 200  # another stamp: drawn
    assert client.get("/t/not-a-table/panel?since=0+0", headers=HX).status_code == 404


def test_the_phone_panel_refreshes_on_results_but_never_over_a_confirm_screen(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    tokens = table_tokens(app, token)
    page = client.get(f"/t/{tokens[1]}").get_data(as_text=True)
    assert "only=orders%2Cchanged" in page or "only=orders,changed" in page
    root = panel_root(page)
    assert 'hx-trigger="sse:orders, sse:changed' in root and "data-hold-while-editing" in root
    stamp = re.search(r'data-stamp="(\d+) (\d+)"', root)
    assert stamp and stamp.group(2) == "0"
    # table 1 reports: table 2's panel, fetched again, has the new figures and a newer stamp
    assert enter(app.test_client(), tokens[0], 1, 7)[0] == 200
    panel = client.get(f"/t/{tokens[1]}/panel", headers=HX).get_data(as_text=True)
    newer = re.search(r'data-stamp="(\d+) (\d+)"', panel_root(panel))
    assert newer and newer.group(2) == "1"
    # the confirm screen listens to nothing: no push replaces it while the table decides
    status, confirm = enter(client, tokens[1], 1, 10, kind="preview")
    assert status == 200 and "Check before you confirm" in confirm
    raw = client.post(
        f"/t/{tokens[1]}/preview", data={"hand": "1", "tricks": "10", "revoke": "none"}, headers=HX
    ).get_data(as_text=True)
    root = panel_root(raw)
    assert "hx-trigger" not in root and "hx-get" not in root and "data-hold-while-editing" not in root
