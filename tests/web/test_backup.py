"""Issue 17 item 6: a whole event downloaded as one file and restored on another server.

Each format's event is played through the real routes (with a correction, and a playoff or a
bracket where the format has one), backed up, and restored into a fresh app on a database of its
own; the restored event must derive exactly the same standings, boards and results, keep every
row and the audit trail, and answer to new links only. Bad files are refused with a 4xx and the
reason beside the upload field (or one line per problem and exit status 2 from the command line),
and leave the database as it was.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import JSON, Integer, String

from scorepad import create_app
from scorepad.events import backup, club, core, drive, military
from scorepad.events.bid_whist import boards, tournament
from scorepad.events.bid_whist import derived as bid_whist
from scorepad.events.registry import get_format
from scorepad.extensions import db
from scorepad.games import service as games
from tests.conftest import config_for, migrate, release
from tests.slowness import scaled
from tests.web.test_club_night import create as create_club
from tests.web.test_club_night import start_table
from tests.web.test_club_night import table_tokens as club_tables
from tests.web.test_columns import dump, text_of
from tests.web.test_events import HX, advance, text
from tests.web.test_events import create as create_military
from tests.web.test_events import play as play_military
from tests.web.test_events import table_tokens as military_tables
from tests.web.test_tournament import hand, lower_wins, play, sign_both
from tests.web.test_tournament_director import bracket_matches, bracket_of_eight
from tests.web.test_tournament_registration import create as create_tournament
from tests.web.test_whist_drive import create as create_drive
from tests.web.test_whist_drive import enter as enter_deal
from tests.web.test_whist_drive import tokens as drive_tables

ROOT = Path(__file__).resolve().parent.parent.parent
PIN = "2468"


# --------------------------------------------------------------------------- events to back up


def military_playoff(client: FlaskClient, app: Flask) -> str:
    """Two tables, days of 2 and 1 hands, a PIN; hand 1 corrected, names changed, day 1 closed, a
    tie after the schedule settled by a playoff hand."""
    token = create_military(client, preset="custom", days="2, 1", tables="2", teams="Aces\nKings", pin=PIN)
    play_military(client, app, token, 1, (6, 7))
    assert client.post(f"/d/{token}/results/1/1", data={"tricks": "7", "revoke": "none"}).status_code == 302
    play_military(client, app, token, 2, (7, 7))
    response = client.post(
        f"/d/{token}/setup",
        data={
            "name": "Zone 3 final",
            "team.1": "Aces",
            "team.2": "Kings",
            **{f"player.1.{x}": f"A{x}" for x in "ABXY"},
        },
    )
    assert response.status_code == 302, text(response)
    play_military(client, app, token, 3, (7, 7))
    response = client.post(f"/d/{token}/playoff", data={"team1": "1", "team2": "2", "winner": "2"})
    assert response.status_code == 200, text(response)
    return token


def military_loans(client: FlaskClient, app: Flask) -> str:
    """Two tables, ten hands: a loan by the director, an automatic one, a revoke; hand 9 half in."""
    token = create_military(client, preset="custom", days="10", tables="2", teams="Aces\nKings")
    for number, tricks in enumerate([(0, 10)] * 4 + [(13, 0), (0, 10)], start=1):
        play_military(client, app, token, number, tricks)
    assert client.post(f"/d/{token}/loan", data={"table": "2", "flags": "2"}).status_code == 200
    play_military(client, app, token, 7, (0, 7))
    play_military(client, app, token, 8, (0, 10))
    response = client.post(
        f"/t/{military_tables(app, token)[0]}/result", data={"hand": "9", "tricks": "8", "revoke": "home"}, headers=HX
    )
    assert response.status_code == 200, text(response)
    return token


def tournament_bracket(client: FlaskClient, app: Flask) -> str:
    """Nine teams, one round, a cut playoff, a bracket of 8: a walkover, a sheet signed, corrected
    (its signature withdrawn) and signed again, a dispute settled by the director, a match half played."""
    token, _ = bracket_of_eight(client, app)
    first = bracket_matches(app, token)
    response = client.post(
        f"/d/{token}/walkover", data={"walkover": f"1:{first[1]['home']}", "reason": "no-show"}, headers=HX
    )
    assert response.status_code == 200, text(response)
    two = first[2]
    play(app, two["scorer"], lower_wins(two))
    assert (
        client.post(f"/g/{two['scorer']}/sign", data={"side": "0", "code": two["codes"][0]}, headers=HX).status_code
        == 200
    )
    with app.app_context():
        game = games.by_scorer_token(two["scorer"])
        assert game is not None
        games.correct_hand(game, 4, {**hand(4, lower_wins(two)), "books": 11})
    sign_both(client, two)
    three = first[3]
    play(app, three["scorer"], lower_wins(three))
    response = client.post(
        f"/g/{three['scorer']}/sign",
        data={"action": "dispute", "side": "1", "reason": "hand 2 was misdealt"},
        headers=HX,
    )
    assert response.status_code == 200, text(response)
    assert client.post(f"/d/{token}/matches/{three['id']}/close", headers=HX).status_code == 200
    with app.app_context():
        game = games.by_scorer_token(first[4]["scorer"])
        assert game is not None
        for n in (1, 2):
            games.enter_hand(game, n, hand(n, 0))
    return token


def tournament_registration(client: FlaskClient, app: Flask) -> str:
    """Registration still open: teams, two singles paired, a withdrawal; hidden standings chosen."""
    token = create_tournament(client, hidden="on")
    for team, one, two in (("Aces", "Ann", "Bob"), ("Kings", "Cat", "Dan"), ("Jacks", "Eve", "Fay")):
        assert (
            client.post(f"/d/{token}/register", data={"team": team, "player1": one, "player2": two}).status_code == 200
        )
    for single in ("Gus", "Hal"):
        assert client.post(f"/d/{token}/register", data={"kind": "single", "single": single}).status_code == 200
    assert client.post(f"/d/{token}/pair", data={"first": "4", "second": "5"}).status_code == 200
    assert client.post(f"/d/{token}/withdraw/2").status_code == 200
    return token


def whist_drive(client: FlaskClient, app: Flask) -> str:
    """Twelve players, six deals: three deals in, deal 1 corrected after the players moved, deal 4 half in."""
    token = create_drive(client)
    t = drive_tables(app, token)
    for deal, tricks in ((1, (8, 5, 7)), (2, (6, 9, 4)), (3, (7, 7, 10))):
        for table, ns in zip((1, 2, 3), tricks):
            assert enter_deal(client, t[table], deal, ns)[0] == 200
    response = client.post(f"/d/{token}/deals/correct", data={"deal": "1", "table": "1", "tricks": "4"}, headers=HX)
    assert response.status_code == 200, text(response)
    assert enter_deal(client, t[2], 4, 3)[0] == 200
    return token


def club_night(client: FlaskClient, app: Flask) -> str:
    """Three tables of Nomination: table 1 one hand in (corrected) and the next hand's bids begun;
    table 2 freed (its game set aside) and playing a new game; table 3 not started."""
    token = create_club(client)
    tables = club_tables(app, token)
    one = start_table(app.test_client(), tables[1], ("Ann", "Bob", "Cat", "Dan"))
    two = start_table(app.test_client(), tables[2], ("Eve", "Fay", "Gus", "Hal"))
    with app.app_context():
        first, second = games.by_scorer_token(one), games.by_scorer_token(two)
        assert first is not None and second is not None
        games.enter_hand(first, 1, {"trump": "H", "bids": [1, 2, 0, 0], "tricks": [1, 2, 1, 0]})
        games.correct_hand(first, 1, {"trump": "H", "bids": [1, 2, 0, 0], "tricks": [1, 2, 0, 1]})
        games.enter_hand(second, 1, {"trump": "S", "bids": [2, 1, 0, 0], "tricks": [2, 1, 0, 1]})
    for data in ({"action": "trump", "trump": "C"}, {"action": "bid", "bid": "0"}):
        assert client.post(f"/g/{one}/entry", data=data, headers=HX).status_code == 200
    assert client.post(f"/d/{token}/tables/2/clear", headers=HX).status_code == 200
    three = start_table(app.test_client(), tables[2], ("Ivy", "Jon", "Kim", "Lou"))
    with app.app_context():
        game = games.by_scorer_token(three)
        assert game is not None
        games.enter_hand(game, 1, {"trump": "D", "bids": [0, 1, 1, 1], "tricks": [1, 1, 1, 1]})
    return token


def club_night_of_two_games(client: FlaskClient, app: Flask) -> str:
    """Each table chooses: a Nomination table (one hand in) and a Whist table (its game over),
    ranked by place score."""
    from tests.web.test_club_night import choose_night, whist_form
    from tests.web.test_games import nomination_form

    token = choose_night(client, "place")
    tables = club_tables(app, token)
    nomination = client.post(f"/t/{tables[1]}/setup?variant=nomination", data=nomination_form())
    whist = client.post(f"/t/{tables[2]}/setup?variant=whist", data=whist_form())
    with app.app_context():
        first = games.by_scorer_token(nomination.headers["Location"].rsplit("/", 1)[1])
        second = games.by_scorer_token(whist.headers["Location"].rsplit("/", 1)[1])
        assert first is not None and second is not None
        games.enter_hand(first, 1, {"trump": "H", "bids": [1, 2, 0, 0], "tricks": [1, 2, 1, 0]})
        games.enter_hand(second, 1, {"trump": "H", "tricks": [13, 0]})
    return token


EVENTS: dict[str, Callable[[FlaskClient, Flask], str]] = {
    "military-playoff": military_playoff,
    "military-loans": military_loans,
    "bid-whist-bracket": tournament_bracket,
    "bid-whist-registration": tournament_registration,
    "whist-drive": whist_drive,
    "club-night": club_night,
    "club-night-of-two-games": club_night_of_two_games,
}


# --------------------------------------------------------------------------- what an event shows


def plain(value: Any) -> Any:
    """Derived values as plain data (dataclasses as dicts, rows as their class name): comparable
    between two databases, where row ids and links differ. A view's `stamp` (the event's revision,
    which a restore starts afresh) says which state a live panel shows, not what it shows."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value) if f.name not in ("views", "stamp")
        }
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (db.Model, boards.Row)):  # a row, or a kept board's copy of one
        return type(value).__name__
    return value


def derived(app: Flask, token: str) -> dict[str, Any]:
    """What the event's pages show, derived by its format: standings, boards, brackets, results."""
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None
        fmt = get_format(event.format)
        shown: dict[str, Any] = {"export": fmt.export(event), "board": plain(fmt.board(event))}
        if event.format == military.KEY:
            military_view = military.view(event)
            shown["rows"] = plain(military_view.board.rows)
            shown["sheet"] = plain(military_view.sheet)
            shown["days"] = [(d.day, d.now, d.recorded) for d in military_view.closed_days()]
            shown["in play"] = (military_view.pending, military_view.waiting)
        elif event.format == tournament.KEY:
            tournament_view = bid_whist.view(event)
            shown["standings"] = plain(tournament_view.standings)
            shown["bracket"] = plain(tournament_view.bracket)
            shown["medals"] = tournament_view.medals
            shown["stage"] = (
                tournament_view.stage,
                tournament_view.round,
                tournament_view.status_title,
                tournament_view.status_text,
            )
            shown["matches"] = sorted(
                (v.match.stage, v.match.number, v.match.table, v.names, plain(v.outcome), v.state, v.signed)
                for v in tournament_view.views.values()
            )
            shown["entrants"] = [(e.number, e.name, e.players) for e in event.entrants]
        elif event.format == drive.KEY:
            drive_view = drive.view(event)
            shown["state"] = plain(drive_view.state)
            shown["leaderboard"] = plain(drive_view.board)
            shown["moved"] = drive_view.moved()
        else:
            club_view = club.view(event)
            shown["ranking"] = plain(club_view.rows)
            shown["tables"] = [(t.number, g.title if g else None, words) for t, g, words in club_view.tables]
            shown["games"] = [(g.title, [h.entry for h in g.hands], g.pending) for g in core.games_of(event)]
        db.session.remove()
        return shown


def secrets_of(app: Flask, token: str) -> list[str]:
    """Every secret of the event: its links' tokens and ids, its games' links, the PIN's hashes."""
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None
        found = [
            event.director_token,
            event.public_id,
            event.director_pin,
            event.pin_recovery,
            *(t.token for t in event.tables),
            *(e.token for e in event.entrants),
        ]
        for g in core.games_of(event):
            found += [g.public_id, g.scorer_token, g.short_code]
        db.session.remove()
        return [s for s in found if s]


def download(client: FlaskClient, token: str) -> bytes:
    response = client.get(f"/d/{token}/backup")
    assert response.status_code == 200, text(response)
    assert response.mimetype == "application/json"
    return response.get_data()


def upload(client: FlaskClient, data: bytes, pin: str = "", name: str = "backup.json") -> Any:
    return client.post(
        "/events/restore", data={"backup": (io.BytesIO(data), name), "pin": pin}, content_type="multipart/form-data"
    )


def token_of(response: Any) -> str:
    assert response.status_code == 303, text(response)
    found = re.fullmatch(r"/d/([\w-]+)", response.headers["Location"])
    assert found, response.headers["Location"]
    return found.group(1)


def beside_upload(response: Any) -> str:
    found = re.search(r'id="err-backup" role="alert">([^<]*)<', text(response))
    assert found, text(response)
    return found.group(1)


def without_moment(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "exported_at"}


@pytest.fixture
def fresh(request: pytest.FixtureRequest, database: str, tmp_path: Path) -> Iterator[Flask]:
    """A second app on a fresh database of the same kind: the other server."""
    cluster = name = None
    if database.startswith("sqlite"):
        url = f"sqlite:///{tmp_path / 'other-server.sqlite3'}"
    else:
        cluster = request.getfixturevalue("postgresql")
        name = cluster.create_database(template=request.getfixturevalue("postgresql_template"))
        url = cluster.url(name)
    other = create_app(config_for(url))
    migrate(other)
    yield other
    release(other)
    if cluster is not None and name is not None:
        cluster.drop_database(name)


# --------------------------------------------------------------------------- the round trip


@pytest.mark.postgresql
@pytest.mark.parametrize("kind", list(EVENTS))
def test_every_format_restores_to_the_same_standings_records_and_audit_trail(
    client: FlaskClient, app: Flask, fresh: Flask, kind: str
) -> None:
    token = EVENTS[kind](client, app)
    before = derived(app, token)
    data = download(client, token)
    for secret in secrets_of(app, token):
        assert secret.encode() not in data, "a secret link or hash is in the backup"
    exported = json.loads(data)
    assert exported["scorepad_event"] == 1 and exported["kind"] == "backup"

    other = fresh.test_client()
    response = upload(other, data)
    new_token = token_of(response)
    assert new_token != token
    room = text(other.get(f"/d/{new_token}"))
    assert "Event restored from the backup." in room
    assert derived(fresh, new_token) == before
    again = json.loads(download(other, new_token))
    restored = again["audit"].pop()
    assert (restored["actor"], restored["action"]) == ("director", "restored")
    assert without_moment(again) == without_moment(exported)  # every row, timestamp and audit entry kept
    assert not set(secrets_of(fresh, new_token)) & set(secrets_of(app, token))
    # the restored event plays on: its pages answer, and its public boards render
    with fresh.app_context():
        event = core.by_director_token(new_token)
        assert event is not None and event.director_pin is None and not event.is_demo
        public, tables = event.public_id, [t.token for t in event.tables]
    for url in (f"/b/{public}", f"/b/{public}/standings", f"/b/{public}/event.json", *(f"/t/{t}" for t in tables)):
        assert other.get(url).status_code in (200, 303), url


def test_the_restored_event_plays_on_from_where_the_backup_left_it(
    client: FlaskClient, app: Flask, fresh: Flask
) -> None:
    token = military_loans(client, app)
    other = fresh.test_client()
    new_token = token_of(upload(other, download(client, token)))
    second = military_tables(fresh, new_token)[1]
    for c, t, hand_no in ((client, military_tables(app, token)[1], 9), (other, second, 9)):
        response = c.post(f"/t/{t}/result", data={"hand": str(hand_no), "tricks": "6", "revoke": "none"}, headers=HX)
        assert response.status_code == 200, text(response)
    assert advance(client, token, 9)[0] == 200 and advance(other, new_token, 9)[0] == 200
    assert derived(fresh, new_token)["rows"] == derived(app, token)["rows"]


def test_a_pin_given_at_the_restore_locks_the_event_and_its_recovery_code_is_shown_once(
    client: FlaskClient, app: Flask, fresh: Flask
) -> None:
    data = download(client, military_playoff(client, app))
    other = fresh.test_client()
    response = upload(other, data, pin="12")
    assert response.status_code == 422
    assert re.search(r'id="err-pin" role="alert">The PIN is 4 to 8 digits', text(response))
    new_token = token_of(upload(other, data, pin="97531"))
    page = text(other.get(f"/d/{new_token}"))
    assert "Your recovery code" in page and "Event restored from the backup." in page
    assert "Your recovery code" not in text(other.get(f"/d/{new_token}"))
    assert fresh.test_client().get(f"/d/{new_token}").status_code == 403  # another browser: the PIN first
    with fresh.app_context():
        event = core.by_director_token(new_token)
        assert event is not None and core.unlock(event, "97531") and not core.unlock(event, PIN)


# --------------------------------------------------------------------------- the download


def test_the_control_room_offers_the_backup_named_for_the_event_and_the_day(client: FlaskClient, app: Flask) -> None:
    token = create_military(client, name="Zone 3: Military Whist — ñ Final!")
    room = client.get(f"/d/{token}").get_data(as_text=True)
    assert f'href="/d/{token}/backup" download>Download backup</a>' in room
    response = client.get(f"/d/{token}/backup")
    assert response.status_code == 200
    assert re.fullmatch(
        r'attachment; filename="scorepad-event-zone-3-military-whist-n-final-\d{4}-\d{2}-\d{2}\.json"',
        response.headers["Content-Disposition"],
    )
    assert response.headers["Cache-Control"] == "no-store"
    assert json.loads(response.get_data())["event"]["name"] == "Zone 3: Military Whist — ñ Final!"


def test_the_backup_is_the_directors_only(client: FlaskClient, app: Flask) -> None:
    token = create_military(client, pin=PIN)
    stranger = app.test_client()
    response = stranger.get(f"/d/{token}/backup")
    assert response.status_code == 403 and "scorepad_event" not in response.get_data(as_text=True)
    assert "Enter the director" in text(response) or "PIN" in text(response)
    assert stranger.get(f"/d/{token}x/backup").status_code == 404
    assert stranger.get(f"/b/{token}/backup").status_code == 404
    assert client.get(f"/d/{token}/backup").status_code == 200  # the director's browser, unlocked


# --------------------------------------------------------------------------- bad files


_BUILT: dict[str, bytes] = {}


def built_backup(maker: Callable[[FlaskClient, Flask], str]) -> dict[str, Any]:
    """A copy of the backup that `maker`'s event gives, played once per test process in an app of
    its own (SQLite: a backup is the same whichever database it came from). The tests that edit a
    backup to see it refused start from a copy instead of playing the event again each time."""
    if maker.__name__ not in _BUILT:
        with tempfile.TemporaryDirectory() as folder:
            app = create_app(config_for(f"sqlite:///{folder}/built.sqlite3"))
            migrate(app)
            client = app.test_client()
            _BUILT[maker.__name__] = download(client, maker(client, app))
            release(app)
    return json.loads(_BUILT[maker.__name__])


def _military_backup(client: FlaskClient, app: Flask) -> dict[str, Any]:
    return built_backup(military_playoff)


def _edit(change: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], bytes]:
    def make(data: dict[str, Any]) -> bytes:
        change(data)
        return json.dumps(data).encode()

    return make


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], bytes]:
    """Set one field: "results.0.tricks" (list places from 0)."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        place: Any = data
        for part in parents:
            place = place[int(part)] if part.isdigit() else place[part]
        place[int(last) if last.isdigit() else last] = value

    return _edit(change)


BAD_FILES: dict[str, tuple[Callable[[dict[str, Any]], bytes], int, str]] = {
    "not JSON": (lambda data: b"Zone 3,Aces,Kings\n1,7,7\n", 422, "not valid JSON (line 1, column 1"),
    "not UTF-8": (lambda data: b"\xff\xfe{}", 422, "not a UTF-8 text file"),
    "not an object": (lambda data: b"[1, 2]", 422, "a backup is a JSON object"),
    "a game record": (
        lambda data: json.dumps({"scorepad": 1, "variant": "whist"}).encode(),
        422,
        "not a Scorepad event backup",
    ),
    "the public export": (_edit(lambda d: d.pop("kind")), 422, "not a backup but an event's public export"),
    "a newer version": (
        _set("scorepad_event", 2),
        422,
        "this backup is format version 2: this Scorepad restores version 1 only",
    ),
    "NaN": (
        lambda data: json.dumps(data).replace('"late_minutes": 12', '"late_minutes": NaN').encode(),
        422,
        "NaN is not a number JSON allows",
    ),
    "nested too deeply": (lambda data: b"[" * 100_000 + b"]" * 100_000, 422, "nested too deeply"),
    "a name too long": (
        _set("event.name", text_of(core.MAX_EVENT_NAME + 1)),
        422,
        f"event, 'name': is too long: at most {core.MAX_EVENT_NAME} characters (121 given)",
    ),
    "a team's name too long": (
        _set("tables.1.team", text_of(41)),
        422,
        "tables #2, 'team': is too long: at most 40 characters (41 given)",
    ),
    "a NUL character": (_set("audit.0.note", "a\x00b"), 422, "audit #1.note: holds a NUL character"),
    "half a surrogate pair": (
        lambda data: json.dumps(data).replace('"Aces"', '"Ac\\ud800es"', 1).encode(),
        422,
        "holds half of a UTF-16 pair",
    ),
    "a number past 32 bits": (
        _set("results.0.tricks", 2**31),
        422,
        "results #1, 'tricks': must be a whole number from 0 to 13 (not 2147483648)",
    ),
    "a bad moment": (_set("results.0.entered_at", "yesterday"), 422, "is not a date and time in ISO 8601"),
    "a field unknown": (_set("results.0.points", 3), 422, "results #1: 'points' is not part of a backup here"),
    "a field missing": (_edit(lambda d: d["results"][0].pop("tricks")), 422, "results #1: 'tricks' is missing"),
    "a missing table": (
        _set("results.0.table", 9),
        422,
        "results #1: there is no table 9 in the backup (tables 1 to 2)",
    ),
    "a result twice": (
        _edit(lambda d: d["results"].append(dict(d["results"][0]))),
        422,
        "results #7: a second row for hand 1, table 1",
    ),
    "a missing game": (_set("tables.0.game", 3), 422, "tables #1: there is no game 3 in the backup (0 games)"),
    "an impossible result": (
        _edit(lambda d: d["results"].pop(0)),
        422,
        "the records do not fit together: hand 1, results.0",
    ),
    "a result after the hand in play": (
        _set("event.current_hand", 2),
        422,
        "hand 3, table 1 has a result, but hand 2 is in play",
    ),
    "a playoff nobody needed": (_set("playoffs.0.teams", [1, 1]), 422, "the records do not fit together"),
    "an unknown audit value": (
        _set("audit.0.new", {"points": 3}),
        422,
        "'new': 'points' is not a value the audit trail records",
    ),
    "an unknown format": (_set("event.format", "bridge"), 422, "'format': must be one of"),
    "an audit message that is not one": (
        _set("audit.0.said", {"template": "hand %(hand)s opened", "params": {}}),
        422,
        "audit #1, 'said': must be null or a message",
    ),
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_a_bad_file_is_refused_beside_the_upload_field_and_changes_nothing(
    client: FlaskClient, app: Flask, kind: str
) -> None:
    make, status, message = BAD_FILES[kind]
    data = make(_military_backup(client, app))
    before = dump(app)
    response = upload(app.test_client(), data)
    assert response.status_code == status, text(response)
    words = beside_upload(response)
    assert words.startswith("This backup cannot be restored: ") and words.endswith("Nothing was saved.")
    assert message in words, words
    assert dump(app) == before


@pytest.mark.parametrize(
    ("kind", "change", "message"),
    [
        ("a bid whist game's impossible hand", _set("games.0.hands.0.entry.books", 14), "games #1: hand 1, books"),
        ("a match against a team never registered", _set("matches.0.home", 77), "there is no entrant number 77"),
        ("a round not as the seed draws it", _set("event.options.seed", "s2"), "round 1's matches are not the draw"),
        (
            "a game played at two tables",
            _edit(lambda d: d["matches"][1].update(game=d["matches"][0]["game"])),
            "is already played at matches #1",
        ),
        (
            "a match played to other rules",
            _set("games.0.options.rounds", 2),
            "has no Bid Whist game of the tournament's",
        ),
        (
            "a decision of another format",
            _set("decisions.0.kind", "seating"),
            "'seating' is not a decision of a Bid Whist",
        ),
        (
            "a bracket match not the bracket's",
            _edit(lambda d: d["matches"][0].update(home=d["matches"][0]["away"], away=d["matches"][0]["home"])),
            "bracket match 1, table 1 is not the match the bracket sets there",
        ),
        (
            "two teams with a player of one name",
            _edit(lambda d: d["entrants"][1]["players"].__setitem__(0, d["entrants"][0]["players"][0].upper())),
            "a player's name is theirs alone in a tournament",
        ),
    ],
)
def test_a_tournament_that_play_could_not_leave_is_refused(
    client: FlaskClient, app: Flask, kind: str, change: Callable[[dict[str, Any]], bytes], message: str
) -> None:
    data = change(built_backup(tournament_bracket))
    before = dump(app)
    response = upload(app.test_client(), data)
    assert response.status_code == 422
    assert message in beside_upload(response), kind
    assert dump(app) == before


def test_a_drive_and_a_club_night_that_play_could_not_leave_are_refused(client: FlaskClient, app: Flask) -> None:
    drive_data = json.loads(download(client, whist_drive(client, app)))
    club_data = json.loads(download(client, club_night(client, app)))
    before = dump(app)
    for data, change, message in [
        (drive_data, _set("event.current_hand", 2), "deal 2 cannot be in play: the results say deal 4"),
        (drive_data, _set("results.0.tricks", 14), "'tricks': must be a whole number from 0 to 13"),
        (
            drive_data,
            _edit(lambda d: d["decisions"][0]["data"]["tables"][0].__setitem__(1, 1)),
            "a drive records the seating announced",
        ),
        (drive_data, _edit(lambda d: d["entrants"].pop()), "players: a whist drive seats four players to a table"),
        (club_data, _set("games.0.variant", "whist"), "games #1: "),
        (club_data, _set("games.0.hands.0.entry.tricks", [5, 5, 5, 5]), "games #1: hand 1, tricks"),
        (club_data, _set("event.options.variant", "military"), "a club night's only option is its variant"),
    ]:
        response = upload(app.test_client(), change(json.loads(json.dumps(data))))
        assert response.status_code == 422, message
        assert message in beside_upload(response), message
    assert dump(app) == before


def test_a_file_past_the_size_limit_is_refused_before_it_is_read(client: FlaskClient, app: Flask) -> None:
    data = download(client, military_playoff(client, app))
    app.config["SCOREPAD_BACKUP_MAX_KB"] = len(data) // 1024  # the file is just past the limit
    before = dump(app)
    response = upload(app.test_client(), data)
    assert response.status_code == 413
    assert (
        f"the file is too large for a backup: {len(data) // 1024} KB, at most {len(data) // 1024} KB"
        in beside_upload(response)
    )
    # a request far past it is refused by its length before the form is parsed, on the same page
    response = upload(app.test_client(), b" " * (len(data) + 100 * 1024))
    assert response.status_code == 413 and "too large for a backup" in beside_upload(response)
    assert dump(app) == before
    app.config["SCOREPAD_BACKUP_MAX_KB"] = len(data) // 1024 + 1
    token_of(upload(app.test_client(), data))


def test_the_restore_form_needs_a_file_and_its_csrf_token(client: FlaskClient, tmp_path: Path) -> None:
    page = client.get("/events/restore")
    assert page.status_code == 200 and 'enctype="multipart/form-data"' in page.get_data(as_text=True)
    assert 'href="/events/restore">Restore an event from a backup</a>' in client.get("/").get_data(as_text=True)
    response = client.post("/events/restore", data={"pin": ""}, content_type="multipart/form-data")
    assert response.status_code == 422 and beside_upload(response).startswith("Choose the backup file")
    guarded = create_app(config_for(f"sqlite:///{tmp_path / 'csrf.sqlite3'}", WTF_CSRF_ENABLED=True))
    migrate(guarded)
    response = upload(guarded.test_client(), b"{}")
    assert response.status_code == 400 and "This form has expired" in text(response)
    release(guarded)


def test_a_refused_restore_leaves_no_cached_standings_for_the_next_event(client: FlaskClient, app: Flask) -> None:
    """A restore refused after its rows were written (and rolled back) must not leave what was
    derived from them cached under the row ids the next event is given (SQLite gives them again)."""
    good = _military_backup(client, app)
    bad = json.loads(json.dumps(good))
    bad["tables"][0]["team"] = "Jokers"
    bad["results"].pop(0)  # refused by the rules, once the rows are written
    other = app.test_client()
    assert upload(other, json.dumps(bad).encode()).status_code == 422
    new_token = token_of(upload(other, json.dumps(good).encode()))
    assert "Jokers" not in json.dumps(derived(app, new_token)["rows"])


# --------------------------------------------------------------------------- every column and bound


EXPORTED_TABLES = (
    "event",
    "event_table",
    "event_hand",
    "event_result",
    "event_loan",
    "event_playoff",
    "event_day_close",
    "event_audit",
    "event_entrant",
    "event_match",
    "event_decision",
    "game",
    "hand",
)


def test_every_column_is_in_the_backup_or_left_out_with_a_reason() -> None:
    exported = {f"event.{k}" for k in backup.EVENT_FIELDS}
    for section in backup.SECTIONS:
        table = section.model.__table__.name  # type: ignore[attr-defined]
        exported |= {f"{table}.{k}" for k in section.fields if k != backup.GAME_REF}
    exported |= {f"game.{k}" for k in backup.GAME_FIELDS if k != "hands"} | {f"hand.{k}" for k in backup.HAND_FIELDS}
    keys = {"id", "event_id", "game_id"}  # row ids and the event's: remapped
    columns = {
        f"{t.name}.{c.name}"
        for t in db.metadata.sorted_tables
        if t.name in EXPORTED_TABLES
        for c in t.columns
        if c.name not in keys
        or (t.name, c.name) in (("event_table", "game_id"), ("event_match", "game_id"), ("game", "event_id"))
    }
    assert exported & set(backup.LEFT_OUT) == set()
    assert sorted(columns - exported - set(backup.LEFT_OUT)) == [], "columns neither in the backup nor left out"
    assert sorted((exported | set(backup.LEFT_OUT)) - columns) == [], "listed but not columns"


def _text_fields() -> list[Any]:
    """Every text field of the file with its limit: (section, field, limit)."""
    found = [("event", "name", core.MAX_EVENT_NAME)]
    for section in backup.SECTIONS:
        for name, check in section.fields.items():
            try:
                check("x" * 100_000)
            except backup._Bad as bad:
                limit = re.search(r"at most (\d+) characters", str(bad))
                if limit:
                    found.append((section.key, name, int(limit.group(1))))
    found.append(("games", "title", 120))
    return [pytest.param(*f, id=f"{f[0]}.{f[1]}") for f in found]


def test_every_text_field_has_its_limit() -> None:
    fields = {p.values[:2] for p in _text_fields()}
    strings = {
        f"{t.name}.{c.name}"
        for t in db.metadata.sorted_tables
        for c in t.columns
        if t.name in EXPORTED_TABLES and isinstance(c.type, String) and f"{t.name}.{c.name}" not in backup.LEFT_OUT
    }
    tables = {s.key: s.model.__table__.name for s in backup.SECTIONS}  # type: ignore[attr-defined]
    tables.update(event="event", games="game")
    covered = {f"{tables[s]}.{f}" for s, f in fields}
    choices = {
        "event.format",
        "event.time_zone",  # a name of the zone database (backup.time_zone)
        "event_result.revoke",
        "event_match.stage",
        "event_match.closed_by",
        "game.variant",
    }
    assert sorted(strings - covered - choices) == []
    for column in strings - choices:
        length = db.metadata.tables[column.split(".")[0]].c[column.split(".")[1]].type.length
        limit = next(p.values[2] for p in _text_fields() if f"{tables[p.values[0]]}.{p.values[1]}" == column)
        assert limit <= length, column


def _source(client: FlaskClient, app: Flask, section: str) -> dict[str, Any]:
    """A backup with at least one row in `section`."""
    return built_backup(
        tournament_bracket if section in ("entrants", "matches", "decisions", "games") else military_playoff
    )


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # SQLite keeps any length: the proof is here
@pytest.mark.parametrize(("section", "field", "limit"), _text_fields())
def test_one_character_past_a_fields_limit_is_refused_and_the_longest_is_kept(
    client: FlaskClient, app: Flask, section: str, field: str, limit: int
) -> None:
    data = _source(client, app, section)
    before = dump(app)
    row = data[section] if section == "event" else data[section][0]
    row[field] = text_of(limit + 1)
    response = upload(app.test_client(), json.dumps(data).encode())
    assert response.status_code == 422
    assert f"is too long: at most {limit} characters ({limit + 1} given)" in beside_upload(response)
    assert dump(app) == before
    if (section, field) in (("decisions", "kind"), ("decisions", "key")):
        return  # the format reads these: a made-up kind or key of any length is refused by the format
    row[field] = text_of(limit)
    response = upload(app.test_client(), json.dumps(data).encode())
    assert response.status_code == 303, beside_upload(response)


INTEGERS = {
    f"{t.name}.{c.name}"
    for t in db.metadata.sorted_tables
    for c in t.columns
    if t.name in EXPORTED_TABLES and isinstance(c.type, Integer) and not c.primary_key and not c.foreign_keys
}


def test_every_number_and_document_field_is_bounded() -> None:
    """An Integer column's field refuses 2**31 (PostgreSQL's integer stops below it); a JSON
    column's field refuses a value of the wrong kind."""
    for column in INTEGERS:
        table, name = column.split(".")
        if column in backup.LEFT_OUT:
            continue
        section = next((s for s in backup.SECTIONS if s.model.__table__.name == table), None)  # type: ignore[attr-defined]
        fields = (
            backup.EVENT_FIELDS
            if table == "event"
            else backup.GAME_FIELDS
            if table == "game"
            else backup.HAND_FIELDS
            if table == "hand"
            else section.fields
            if section
            else {}
        )
        assert name in fields, column
        with pytest.raises(backup._Bad):
            fields[name](2**31)
    documents = {
        f"{t.name}.{c.name}"
        for t in db.metadata.sorted_tables
        for c in t.columns
        if t.name in EXPORTED_TABLES and isinstance(c.type, JSON)
    }
    for column in documents - set(backup.LEFT_OUT):
        table, name = column.split(".")
        section = next((s for s in backup.SECTIONS if s.model.__table__.name == table), None)  # type: ignore[attr-defined]
        fields = (
            backup.EVENT_FIELDS
            if table == "event"
            else backup.GAME_FIELDS
            if table == "game"
            else backup.HAND_FIELDS
            if table == "hand"
            else section.fields
            if section
            else {}
        )
        assert name in fields, column
        with pytest.raises(backup._Bad):
            fields[name]("a text where a list or object belongs")


# --------------------------------------------------------------------------- the command line


def test_export_event_and_import_event_restore_an_event_on_another_server(
    client: FlaskClient, app: Flask, fresh: Flask, tmp_path: Path
) -> None:
    token = tournament_bracket(client, app)
    before = derived(app, token)
    path = tmp_path / "zone.json"
    result = app.test_cli_runner().invoke(args=["export-event", f"http://192.168.1.20:5000/d/{token}", "-o", str(path)])
    assert result.exit_code == 0, result.output
    assert f"to {path}" in result.output
    printed = app.test_cli_runner().invoke(args=["export-event", "--", token])
    assert without_moment(json.loads(printed.output)) == without_moment(json.loads(path.read_text()))
    result = fresh.test_cli_runner().invoke(args=["import-event", str(path), "--url", "http://10.0.0.5:5000"], input="")
    assert result.exit_code == 0, result.output
    found = re.search(r"director \(keep it private\): http://10\.0\.0\.5:5000/d/([\w-]+)", result.output)
    assert found, result.output
    assert "projector: http://10.0.0.5:5000/b/" in result.output
    assert len(re.findall(r"  table \d+: http://10\.0\.0\.5:5000/t/", result.output)) == 5
    assert len(re.findall(r"  team \d+ \(T\d\): http://10\.0\.0\.5:5000/team/", result.output)) == 9
    assert derived(fresh, found.group(1)) == before
    with fresh.app_context():
        event = core.by_director_token(found.group(1))
        assert event is not None and event.audit[-1].actor == "command line"
    result = fresh.test_cli_runner().invoke(args=["import-event", str(path), "--pin"], input="13579\n13579\n")
    assert result.exit_code == 0, result.output
    assert re.search(r"PIN recovery code \(shown once\): [A-Z0-9]{4}-", result.output)


def test_the_commands_refuse_what_they_cannot_do_in_one_line_with_status_2(app: Flask, tmp_path: Path) -> None:
    runner = app.test_cli_runner()
    result = runner.invoke(args=["export-event", "http://host/d/nope"])
    assert result.exit_code == 2 and "no event has this director's link on this server" in result.output
    path = tmp_path / "bad.json"
    before = dump(app)
    for content, words in (
        (b"{not json", "not valid JSON (line 1, column 2"),
        (json.dumps({"scorepad_event": 3}).encode(), "format version 3"),
        (b"\x00" * 10, "not valid JSON"),
    ):
        path.write_bytes(content)
        result = runner.invoke(args=["import-event", str(path)])
        assert result.exit_code == 2 and words in result.output, result.output
        assert result.output.startswith(f"{path}: ") and len(result.output.splitlines()) == 1
    result = runner.invoke(args=["import-event", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "cannot read the file" in result.output
    app.config["SCOREPAD_BACKUP_MAX_KB"] = 1
    path.write_bytes(b" " * 2048)
    result = runner.invoke(args=["import-event", str(path)])
    assert result.exit_code == 2 and "too large for a backup: 2 KB, at most 1 KB" in result.output
    assert dump(app) == before


def test_the_scorepad_entry_point_runs_both_commands(tmp_path: Path) -> None:
    """The real `scorepad` command (this checkout's code): a backup out, a bad file refused with
    status 2 and no traceback, the backup restored."""
    env = {
        "PATH": "/usr/bin:/bin",
        "SECRET_KEY": "t",
        "SCOREPAD_DEMO": "0",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}",
        "HOME": str(tmp_path),
    }

    def scorepad(*args: str) -> subprocess.CompletedProcess[str]:
        code = "import sys; from scorepad.cli import main; sys.argv[0] = 'scorepad'; sys.exit(main())"
        return subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=scaled(120)
        )

    other = create_app(config_for(env["DATABASE_URL"]))
    migrate(other)
    with other.app_context():
        event = military.load_demo_event()
        assert event is not None
        token = event.director_token
    release(other)
    out = tmp_path / "demo.json"
    done = scorepad("export-event", "-o", str(out), "--", token)  # a token may start with "-": "--" first
    assert done.returncode == 0, done.stderr
    (tmp_path / "bad.json").write_text('{"scorepad_event": 1, "kind": "backup"}')
    refused = scorepad("import-event", str(tmp_path / "bad.json"))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.splitlines()[0] == f"{tmp_path / 'bad.json'}: event: must be an object"
    restored = scorepad("import-event", str(out))
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.splitlines()[:2] == [  # the demo is still on this server: a copy, said so
        "This server already has 'Demo: Military Whist, area level': the backup is restored as a separate copy.",
        "Restored 'Demo: Military Whist, area level (copy)' as a new event. Its links (the old ones do not work here):",
    ]


def test_the_same_idempotency_key_with_another_file_is_refused_not_answered_with_the_first_restore(
    client: FlaskClient, app: Flask
) -> None:
    """The key's fingerprint covers uploaded files: a key sent again with another backup is refused."""
    first = download(client, club_night(client, app))
    key = {"Idempotency-Key": "restore-0123456789abcdef"}
    made = client.post(
        "/events/restore",
        data={"backup": (io.BytesIO(first), "a.json"), "pin": ""},
        content_type="multipart/form-data",
        headers=key,
    )
    again = client.post(
        "/events/restore",
        data={"backup": (io.BytesIO(first), "a.json"), "pin": ""},
        content_type="multipart/form-data",
        headers=key,
    )
    assert made.status_code == again.status_code == 303 and made.headers["Location"] == again.headers["Location"]
    other = first.replace(b'"name": "', b'"name": "X', 1)
    assert other != first
    refused = client.post(
        "/events/restore",
        data={"backup": (io.BytesIO(other), "a.json"), "pin": ""},
        content_type="multipart/form-data",
        headers=key,
    )
    assert refused.status_code == 422
