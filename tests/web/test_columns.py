"""Issue 16 item 2, issue 17: every column's limit is checked before the database sees the value.

PostgreSQL refuses a value longer than its `String(n)` column (`value too long for type character
varying(n)`) and an integer past 32 bits (`integer out of range`) with an error, a 500; SQLite
keeps both without a word. So every `String` and `Integer` column of the models is listed here,
either as reached by what a user sends (each way named, and proved through the real route on
PostgreSQL: one character or digit past the limit is a 4xx with the message beside the field and
changes nothing; the longest accepted value is stored whole; or, where the app builds the value
from what was typed, the longest inputs give a value that fits) or as made by the server, with the
reason. A new column in neither list fails `test_every_column_is_listed`, so none is added unchecked.

JSON columns are listed too, with what bounds the user text they hold.

The requests run on PostgreSQL only: SQLite stores whatever it is given, so there they would prove
less. Without PostgreSQL they are skipped (they fail under CI: tests/conftest.py); the lists are
checked either way.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import JSON, Integer, String
from werkzeug.security import generate_password_hash

from scorepad.events import core, drive, military
from scorepad.events.bid_whist import registration
from scorepad.extensions import db
from scorepad.form_input import valid_pin
from scorepad.models import GROUP_NAME_MAX, Event, Game, GroupPlayer
from scorepad.rules.record import NAME_MAX, TITLE_MAX
from tests.web.test_events import HX, create, table_tokens
from tests.web.test_games import PARTNERS, nomination_form, start
from tests.web.test_tournament_registration import create as create_tournament

BIG = ("2147483648", "9" * 30)  # one past PostgreSQL's integer, and far past it


def text_of(length: int) -> str:
    """`length` characters, not all ASCII (a column counts characters, not bytes), no white space."""
    return ("Ünïcødé-Whist·" * (length // 14 + 1))[:length]


# --------------------------------------------------------------------------- what the database holds


def dump(app: Flask) -> dict[str, list[str]]:
    """Every row of every table, to compare before and after a refused request."""
    with app.app_context():
        found = {
            t.name: sorted(repr(tuple(r)) for r in db.session.execute(t.select()).all())
            for t in db.metadata.sorted_tables
        }
        db.session.remove()
    return found


def values(app: Flask, column: str) -> list[Any]:
    table, name = column.split(".")
    with app.app_context():
        found = list(db.session.execute(db.select(db.metadata.tables[table].c[name])).scalars())
        db.session.remove()
    return found


def director_token(app: Flask) -> str:
    with app.app_context():
        return str(db.session.scalars(db.select(Event.director_token).order_by(Event.id.desc())).first())


def page_of(response: Any) -> str:
    return html.unescape(response.get_data(as_text=True))


def messages_in(page: str) -> list[str]:
    return [m.strip() for m in re.findall(r'class="field-error[^"]*"[^>]*>([^<]+)<', page)]


def beside(page: str, key: str) -> str:
    """The message beside the field `key` (the form macro gives it the id err-<key, dots as dashes>)."""
    found = re.search(rf'id="err-{re.escape(key.replace(".", "-"))}" role="alert">([^<]*)<', page)
    assert found, f"no message beside {key}: {messages_in(page)}"
    return found.group(1).strip()


# --------------------------------------------------------------------------- the ways in


Send = Callable[[FlaskClient, Flask, dict[str, Any], str], Any]


@dataclass(frozen=True)
class Typed:
    """A value a user types into a field that is stored in the column as typed.

    `longest` is the app's limit (at most the column's length; 0 for a choice, whose accepted
    value is `choice`); one character more is refused with `message` beside `key` (None: the
    message is listed under the field, as for a line of a textarea). `send` posts the value
    through the real route, after `prepare`."""

    how: str
    send: Send
    longest: int
    message: str
    key: str | None
    prepare: Callable[[FlaskClient, Flask], dict[str, Any]] = lambda client, app: {}
    ok: tuple[int, ...] = (200, 302, 303)
    choice: str = ""


@dataclass(frozen=True)
class Built:
    """A value the app builds from what was typed (a title from an event's name, a note from a
    reason): `send` posts the longest inputs the forms accept; the column must get a value that fits."""

    how: str
    send: Callable[[FlaskClient, Flask], Any]
    reaches: int  # the made value is at least this long: the long inputs did reach it
    ok: tuple[int, ...] = (200, 302, 303)


@dataclass(frozen=True)
class Number:
    """A number a user sends into an Integer column (or one compared with it before storing):
    `send` posts `raw` in its field; past 32 bits it must be refused (4xx with `message`), nothing stored."""

    how: str
    send: Send
    message: str
    prepare: Callable[[FlaskClient, Flask], dict[str, Any]] = lambda client, app: {}
    refused: tuple[int, ...] = (409, 422)


def _new_game(client: FlaskClient, app: Flask, ctx: dict[str, Any], title: str) -> Any:
    return client.post("/new/whist", data={**PARTNERS, "title": title})


def _military(client: FlaskClient, app: Flask) -> dict[str, Any]:
    return {"token": create(client, tables="2", teams="Aces\nKings")}


def _rename(client: FlaskClient, ctx: dict[str, Any], **form: str) -> Any:
    data = {"name": "Zone 3", "team.1": "Aces", "team.2": "Kings", **form}
    return client.post(f"/d/{ctx['token']}/setup", data=data)


def _tournament(client: FlaskClient, app: Flask) -> dict[str, Any]:
    return {"token": create_tournament(client)}


def _singles(client: FlaskClient, app: Flask) -> dict[str, Any]:
    token = create_tournament(client)
    for name in ("Ann", "Bob"):
        assert client.post(f"/d/{token}/register", data={"kind": "single", "single": name}).status_code == 200
    return {"token": token}


def _register(client: FlaskClient, ctx: dict[str, Any], **form: str) -> Any:
    return client.post(f"/d/{ctx['token']}/register", data=form, headers=HX)


def _drive(name: str = "Village hall drive", first: str = "A") -> dict[str, str]:
    return {
        "name": name,
        "players": "\n".join([first, *"BCDEFGHIJKL"]),
        "deals": "6",
        "per_change": "1",
        "scoring": "odd",
        "movement": "progressive",
        "top": "stay",
    }


def _club(name: str = "Tuesday Nomination") -> dict[str, str]:
    return {"name": name, "variant": "whist", "tables": "2"}


def _military_form(**form: str) -> dict[str, str]:
    return {
        "name": "Zone 3",
        "preset": "area",
        "tables": "2",
        "teams": "Aces\nKings",
        "loans": "auto",
        "late_minutes": "12",
        **form,
    }


def _bid_whist_form(**form: str) -> dict[str, str]:
    return {"name": "Senior Olympics", "rounds": "3", "bracket": "auto", "made_scores": "books", **form}


def _playing_match(client: FlaskClient, app: Flask, name: str = "Senior Olympics") -> dict[str, Any]:
    """A Bid Whist tournament of two teams, round 1 at its table: the match game's scorer token."""
    token = create_tournament(client, name=name)
    for team, one, two in (("Aces", "Ann", "Bob"), ("Kings", "Cat", "Dan")):
        assert (
            client.post(f"/d/{token}/register", data={"team": team, "player1": one, "player2": two}).status_code == 200
        )
    assert client.post(f"/d/{token}/start", data={"rounds": "1"}).status_code == 200
    with app.app_context():
        game = db.session.scalars(db.select(Game).where(Game.event_id.isnot(None))).one()
        return {"token": token, "scorer": game.scorer_token}


def _club_table_game(client: FlaskClient, app: Flask) -> Any:
    client.post("/events/new/club", data=_club(text_of(core.MAX_EVENT_NAME)))
    with app.app_context():
        card = db.session.scalars(db.select(Event).order_by(Event.id.desc())).first().tables[1].token
    return client.post(f"/t/{card}/setup", data=PARTNERS)


def _tournament_match_game(client: FlaskClient, app: Flask) -> Any:
    return client.get(f"/g/{_playing_match(client, app, name=text_of(core.MAX_EVENT_NAME))['scorer']}")


def _dispute(client: FlaskClient, app: Flask) -> Any:
    scorer = _playing_match(client, app)["scorer"]
    return client.post(f"/g/{scorer}/sign", data={"action": "dispute", "side": "0", "reason": text_of(5000)})


def _pair_two_long_singles(client: FlaskClient, app: Flask) -> Any:
    token = create_tournament(client)
    for n in range(2):
        single = text_of(registration.MAX_PLAYER - n)  # two names at the limit: "A & B" would be 82
        assert client.post(f"/d/{token}/register", data={"kind": "single", "single": single}).status_code == 200
    return client.post(f"/d/{token}/pair", data={"first": "1", "second": "2"})


def _register_longest(client: FlaskClient, app: Flask) -> Any:
    token = create_tournament(client)
    return client.post(
        f"/d/{token}/register",
        data={
            "team": text_of(registration.MAX_NAME),
            "player1": text_of(registration.MAX_PLAYER),
            "player2": text_of(registration.MAX_PLAYER - 1),
        },
    )


def _club_longest_names(client: FlaskClient, app: Flask) -> Any:
    """Seven players (Nomination's most) of 40 characters (the limit): 'table 1: ' and their names pass 300."""
    client.post("/events/new/club", data={**_club(), "variant": "nomination"})
    with app.app_context():
        card = db.session.scalars(db.select(Event).order_by(Event.id.desc())).first().tables[0].token
    names = {f"name.{i}": f"{i}{text_of(NAME_MAX - 1)}" for i in range(7)}
    return client.post(f"/t/{card}/setup", data={**names, "first_dealer": "0", "action": "start"})


def _walkover(client: FlaskClient, app: Flask) -> Any:
    """Four teams of names at the limit (60), one round, a bracket of four; match 1 by a walkover
    with a long reason."""
    from tests.web.test_tournament import current_matches, lower_wins, play, sign_both

    token = create_tournament(client, rounds="1", bracket="4")
    for n in range(4):
        assert (
            client.post(
                f"/d/{token}/register",
                data={"team": f"{n}{text_of(registration.MAX_NAME - 1)}", "player1": f"A{n}", "player2": f"B{n}"},
            ).status_code
            == 200
        )
    assert client.post(f"/d/{token}/start").status_code == 200
    for m in current_matches(app, token):
        play(app, m["scorer"], lower_wins(m))
        sign_both(client, m)
    assert client.post(f"/d/{token}/next-round", data={"stage": "1"}, headers=HX).status_code == 200
    first = next(m for m in current_matches(app, token) if m["stage"] == "bracket" and m["number"] == 1)
    return client.post(
        f"/d/{token}/walkover", data={"walkover": f"1:{first['home']}", "reason": text_of(5000)}, headers=HX
    )


def _group(client: FlaskClient, app: Flask) -> dict[str, Any]:
    response = client.post("/groups/new", data={"name": "Tuesday club"})
    assert response.status_code == 303
    return {"group": response.headers["Location"].rsplit("/", 1)[1]}


def _group_with_ann(client: FlaskClient, app: Flask) -> dict[str, Any]:
    """A group whose first player (id 1, the key of the message beside their name) is Ann."""
    ctx = _group(client, app)
    start(client, form=nomination_form(group=ctx["group"]))
    with app.app_context():
        assert db.session.get(GroupPlayer, 1).name == "Ann"
    return ctx


def _group_game_of_longest_names(client: FlaskClient, app: Flask) -> Any:
    ctx = _group(client, app)
    names = {f"name.{i}": f"{i}{text_of(NAME_MAX - 1)}" for i in range(4)}
    return client.post("/new/nomination", data=nomination_form(group=ctx["group"], **names))


GROUP_NAME = f"The group's name is too long: at most {GROUP_NAME_MAX} characters."
EVENT_NAME = f"The event's name is too long: at most {core.MAX_EVENT_NAME} characters"
TEAM_NAME = f"The team's name is too long: at most {registration.MAX_NAME} characters"

# Every String column a user's value reaches, and every way it reaches it.
USER_TEXT: dict[str, list[Typed | Built]] = {
    "game.title": [
        Typed(
            "the title on a home game's set-up page (/new/<variant>); a rematch copies it",
            _new_game,
            TITLE_MAX,
            f"The title is longer than {TITLE_MAX} characters",
            "title",
        ),
        Built("a club night's table game is titled '<the event's name>: table N'", _club_table_game, 110),
        Built("a Bid Whist match's game is titled '<the event's name>: round N, table N'", _tournament_match_game, 110),
    ],
    "event.time_zone": [
        Typed(
            "the time zone on an event's set-up (its browser's by default; one of the server's zone names)",
            lambda client, app, ctx, v: client.post("/events/new", data=_military_form(time_zone=v)),
            0,
            "That is not a time zone this server knows (the field shows what was sent): give a name such as "
            "America/Edmonton or Europe/Paris, or leave it empty for the server's",
            "time_zone",
            choice="America/Argentina/ComodRivadavia",  # the longest IANA name (32 characters)
        ),
    ],
    "event.name": [
        Typed(
            "a Military Whist event's set-up (/events/new)",
            lambda client, app, ctx, v: client.post("/events/new", data=_military_form(name=v)),
            core.MAX_EVENT_NAME,
            EVENT_NAME,
            "name",
        ),
        Typed(
            "a Military Whist event's names page (/d/<token>/setup)",
            lambda client, app, ctx, v: _rename(client, ctx, name=v),
            core.MAX_EVENT_NAME,
            EVENT_NAME,
            "name",
            _military,
        ),
        Typed(
            "a Bid Whist tournament's set-up (/events/new/bid-whist)",
            lambda client, app, ctx, v: client.post("/events/new/bid-whist", data=_bid_whist_form(name=v)),
            core.MAX_EVENT_NAME,
            EVENT_NAME,
            "name",
        ),
        Typed(
            "a whist drive's set-up (/events/new/whist-drive)",
            lambda client, app, ctx, v: client.post("/events/new/whist-drive", data=_drive(name=v)),
            core.MAX_EVENT_NAME,
            EVENT_NAME,
            "name",
        ),
        Typed(
            "a club night's set-up (/events/new/club)",
            lambda client, app, ctx, v: client.post("/events/new/club", data=_club(name=v)),
            core.MAX_EVENT_NAME,
            EVENT_NAME,
            "name",
        ),
    ],
    "event_table.team": [
        Typed(
            "a line of the team names on a Military Whist event's set-up (the game record's limit)",
            lambda client, app, ctx, v: client.post("/events/new", data=_military_form(teams=f"Aces\n{v}")),
            military.MAX_NAME,
            f"Team 2's name is too long: at most {military.MAX_NAME} characters",
            None,
        ),
        Typed(
            "a team's name on a Military Whist event's names page",
            lambda client, app, ctx, v: _rename(client, ctx, **{"team.2": v}),
            military.MAX_NAME,
            f"Team 2's name is too long: at most {military.MAX_NAME} characters",
            "teams.1",
            _military,
        ),
    ],
    "event_entrant.name": [
        Typed(
            "a Bid Whist team's registered name",
            lambda client, app, ctx, v: _register(client, ctx, team=v, player1="Ann", player2="Bob"),
            registration.MAX_NAME,
            TEAM_NAME,
            "team",
            _tournament,
        ),
        Typed(
            "a single player's registered name (Bid Whist)",
            lambda client, app, ctx, v: _register(client, ctx, kind="single", single=v),
            registration.MAX_PLAYER,
            f"The player's name is too long: at most {registration.MAX_PLAYER} characters",
            "single",
            _tournament,
        ),
        Typed(
            "the name given to two single players paired into a team",
            lambda client, app, ctx, v: client.post(
                f"/d/{ctx['token']}/pair", data={"first": "1", "second": "2", "name": v}, headers=HX
            ),
            registration.MAX_NAME,
            TEAM_NAME,
            "pair",
            _singles,
        ),
        Built(
            "two single players paired without a name: 'A & B', or 'Team N' when that is too long",
            _pair_two_long_singles,
            6,
        ),
        Typed(
            "a player's line on a whist drive's set-up",
            lambda client, app, ctx, v: client.post("/events/new/whist-drive", data=_drive(first=v)),
            drive.MAX_PLAYER,
            f"A player's name is too long: at most {drive.MAX_PLAYER} characters",
            "players",
        ),
    ],
    "event_match.dispute": [
        # "Aces: " and the reason's 280 characters (a team of a longer name is clipped to the column)
        Built("a team's reason for disputing its sheet, with which team said it (clipped to fit)", _dispute, 286),
    ],
    "event_audit.note": [
        Built("the reason of a dispute (clipped to fit)", _dispute, 280),
        Built("a registration: the team's and its players' names", _register_longest, 150),
        Built("a club table's game started: its players' names (clipped to fit)", _club_longest_names, 290),
        Built("a pairing: both players' names and the team's", _pair_two_long_singles, 100),
        Built("a walkover in the bracket: the team's name and the director's reason (clipped to fit)", _walkover, 290),
    ],
    "player_group.name": [
        Typed(
            'the name under "Start a group" on the home page (/groups/new)',
            lambda client, app, ctx, v: client.post("/groups/new", data={"name": v}),
            GROUP_NAME_MAX,
            GROUP_NAME,
            "name",
        ),
        Typed(
            "the group's name on its page (/group/<token>/name)",
            lambda client, app, ctx, v: client.post(f"/group/{ctx['group']}/name", data={"name": v}),
            GROUP_NAME_MAX,
            GROUP_NAME,
            "group-name",
            _group,
        ),
        Typed(
            "the name of a new group keeping a game (/g/<token>/group/new; one tap sends its players' names, "
            "groups.suggested_name, or 'Our games' when they pass the limit)",
            lambda client, app, ctx, v: client.post(f"/g/{ctx['scorer']}/group/new", data={"name": v}),
            GROUP_NAME_MAX,
            GROUP_NAME,
            "new-name",
            lambda client, app: {"scorer": start(client)},
        ),
    ],
    "group_player.name": [
        Typed(
            "a player's new name on the group's page (/group/<token>/players/<id>/name)",
            lambda client, app, ctx, v: client.post(f"/group/{ctx['group']}/players/1/name", data={"name": v}),
            NAME_MAX,
            f"The player's name is too long: at most {NAME_MAX} characters.",
            "players-1",
            _group_with_ann,
        ),
        Built(
            "the names of a game kept in a group (checked by the rules as the game's: NAME_MAX)",
            _group_game_of_longest_names,
            NAME_MAX,
        ),
    ],
    "event_result.revoke": [
        Typed(
            "the revoke a table's phone reports: one of 'visitors', 'home' or none",
            lambda client, app, ctx, v: client.post(
                f"/t/{ctx['table']}/result", data={"hand": "1", "tricks": "7", "revoke": v}, headers=HX
            ),
            0,
            "A revoke is by the visitors or the home pair (or none)",
            "revoke",
            lambda client, app: {"table": table_tokens(app, create(client))[0]},
            choice="visitors",
        ),
    ],
}

# Every String column only the server writes, and why.
SERVER_MADE: dict[str, str] = {
    "player_group.token": "a random token (models.new_token, 32 characters); a pasted one is looked up only up to "
    "groups.TOKEN_MAX characters",
    "group_player.key": "the player's name case-folded (groups.key_of): at most 3 code points for each of NAME_MAX "
    "characters, the column's 120",
    "game.public_id": "a random token (models.new_token, 32 characters)",
    "game.scorer_token": "a random token (models.new_token, 32 characters)",
    "game.short_code": "a random code of 8 characters (models.new_short_code)",
    "game_scorer.link_token": "a random token (models.new_token, 32 characters)",
    "event.director_code": "a random code of 12 characters (models.new_director_code); a typed code is checked "
    "by core.typed_code (length and letters) before any query",
    "event_table.short_code": "a random code of 10 characters (models.new_card_code); typed ones as director_code",
    "event_entrant.short_code": "a random code of 10 characters (models.new_card_code); typed ones as director_code",
    "player_group.short_code": "a random code of 10 characters (models.new_card_code); typed ones as director_code",
    "game.variant": "a variant key of the registry: /new/<key> answers 404 to any other, a club night checks its variant",
    "event.public_id": "a random token (models.new_token, 32 characters)",
    "event.director_token": "a random token (models.new_token, 32 characters)",
    "event.director_pin": "a password hash (werkzeug) of a PIN of 4 to 8 digits: checked below",
    "event.format": "the format's KEY",
    "event_table.token": "a random token (models.new_token, 32 characters)",
    "event_result.entered_by": "'table N' or 'director'",
    "event_audit.actor": "'director', 'table N', 'team N', 'automatic', 'a browser' or 'demo'",
    "event_audit.action": "the name of the action, written in the code",
    "event_entrant.token": "a random token (models.new_token, 32 characters)",
    "event_match.stage": "'round' or 'bracket'",
    "event_match.closed_by": "'director' or 'walkover'",
    "event_decision.kind": "the decision's kind, written in the code",
    "event_decision.key": "a number the format derived (a deal, a round, a match, a swap's count)",
    "event_decision.actor": "'director'",
    "event.pin_recovery": "SHA-256 in hex (64 characters) of a recovery code the server made (core.apply_pin)",
    "event_match.signed_home_by": "'team page · device <8 hex>' or 'table phone, team code · device <8 hex>' "
    "(views.common.device), clipped to matches.BY_LENGTH",
    "event_match.signed_away_by": "as signed_home_by",
    "event_match.sign_note": "the app's words with team names, clipped to matches.SIGN_NOTE_LENGTH",
    "idempotent_request.key": "the Idempotency-Key header, refused (400) unless 8 to 64 of [A-Za-z0-9_.:-] before "
    "any query (idempotency.KEY; tests/web/test_idempotency.py sends 64 and 65)",
    "idempotent_request.fingerprint": "SHA-256 in hex (64 characters) of the request",
}

# Every Integer column a number a user sends reaches (or is compared with before anything is
# stored), and every way; forms read numbers with form_input.whole_number (a few digits) or check
# them against what is in play, so a number past 32 bits is refused before any query.
USER_NUMBERS: dict[str, list[Number]] = {
    "game.first_dealer": [
        Number(
            "the first dealer on a home game's set-up",
            lambda client, app, ctx, raw: client.post("/new/whist", data={**PARTNERS, "first_dealer": raw}),
            "Choose who deals first",
        ),
    ],
    "hand.number": [
        Number(
            "the hand number a scorer's form sends back",
            lambda client, app, ctx, raw: client.post(
                f"/g/{ctx['scorer']}/entry",
                data={
                    "action": "result",
                    "number": raw,
                    "tricks.0": "1",
                    "tricks.1": "1",
                    "tricks.2": "0",
                    "tricks.3": "2",
                },
                headers=HX,
            ),
            "cannot be entered yet",
            lambda client, app: _bids_made(client),
        ),
    ],
    "event.late_minutes": [
        Number(
            "the minutes after which a Military Whist table counts as late",
            lambda client, app, ctx, raw: client.post("/events/new", data=_military_form(late_minutes=raw)),
            "A table counts as late after",
        ),
    ],
    "event_result.hand": [
        Number(
            "the hand a Military Whist table's phone reports",
            lambda client, app, ctx, raw: client.post(
                f"/t/{ctx['table']}/result", data={"hand": raw, "tricks": "7"}, headers=HX
            ),
            "The form lost its hand number",
            lambda client, app: {"table": table_tokens(app, create(client))[0]},
        ),
        Number(
            "the deal a whist drive's table reports",
            lambda client, app, ctx, raw: client.post(
                f"/t/{ctx['table']}/deal", data={"deal": raw, "tricks": "7"}, headers=HX
            ),
            "is not in play",
            lambda client, app: _drive_table(client, app),
        ),
    ],
    "event_timer.minutes": [
        Number(
            "the minutes per round the director gives the round timer",
            lambda client, app, ctx, raw: client.post(
                f"/d/{ctx['token']}/timer/minutes", data={"minutes": raw}, headers=HX
            ),
            "Enter a whole number of minutes",
            lambda client, app: {"token": create(client)},
        ),
    ],
    "event_result.tricks": [
        Number(
            "the tricks a Military Whist table's phone reports",
            lambda client, app, ctx, raw: client.post(
                f"/t/{ctx['table']}/result", data={"hand": "1", "tricks": raw}, headers=HX
            ),
            "0 to 13",
            lambda client, app: {"table": table_tokens(app, create(client))[0]},
        ),
        Number(
            "North-South's tricks a whist drive's table reports",
            lambda client, app, ctx, raw: client.post(
                f"/t/{ctx['table']}/deal", data={"deal": "1", "tricks": raw}, headers=HX
            ),
            "0 to 13",
            lambda client, app: _drive_table(client, app),
        ),
    ],
    "event_result.table": [
        Number(
            "the table of a whist drive deal the director corrects",
            lambda client, app, ctx, raw: client.post(
                f"/d/{ctx['token']}/deals/correct", data={"deal": "1", "table": raw, "tricks": "7"}, headers=HX
            ),
            "table",
            lambda client, app: _drive_table(client, app),
        ),
    ],
    "event_loan.table": [
        Number(
            "the table the director lends flags to",
            lambda client, app, ctx, raw: client.post(
                f"/d/{ctx['token']}/loan", data={"table": raw, "flags": "1"}, headers=HX
            ),
            "Choose a table and the number of flags to lend",
            _military,
        ),
    ],
    "event_loan.flags": [
        Number(
            "the flags the director lends (or a table gives back: the net is stored)",
            lambda client, app, ctx, raw: client.post(
                f"/d/{ctx['token']}/loan", data={"table": "1", "flags": raw}, headers=HX
            ),
            "Choose a table and the number of flags to lend",
            _military,
        ),
    ],
    "event_playoff.winner": [
        Number(
            "the winner of a Military Whist playoff hand",
            lambda client, app, ctx, raw: client.post(
                f"/d/{ctx['token']}/playoff", data={"team1": "1", "team2": "2", "winner": raw}, headers=HX
            ),
            "Choose the two teams that played and the winner",
            _military,
        ),
    ],
    "event_match.home": [
        Number(
            "the team a director swaps into a bracket match",
            lambda client, app, ctx, raw: client.post(
                f"/d/{ctx['token']}/swap", data={"match": "1", "out": "1", "in": raw}, headers=HX
            ),
            "The bracket is not set yet",
            _tournament,
        ),
    ],
    "event_match.away": [
        Number(
            "the team a director swaps out of a bracket match",
            lambda client, app, ctx, raw: client.post(
                f"/d/{ctx['token']}/swap", data={"match": "1", "out": raw, "in": "2"}, headers=HX
            ),
            "The bracket is not set yet",
            _tournament,
        ),
    ],
}

# Every Integer column only the server counts, and why.
SERVER_COUNTED: dict[str, str] = {
    "event.current_hand": "the hand in play, counted by advancing (at most the schedule + playoffs)",
    "event.revision": "bumped by each change to the complete hands",
    "game_scorer.number": "the game's scorers' links counted, at most models.SCORER_LINKS_MAX (games.add_scorer)",
    "event_table.number": "1 to 64, from the set-up's count of tables (whole_number, 2 digits)",
    "event_hand.number": "the hand opened by advancing",
    "event_loan.hand": "the hand in play",
    "event_playoff.number": "counted: the playoff hands so far + 1",
    "event_day_close.day": "the day of the schedule that closes",
    "event_audit.hand": "the hand in play or a hand checked against the schedule",
    "event_audit.table": "a table of the event, found before anything is written",
    "event_entrant.number": "counted at registration (the numbers a pairing or a withdrawal names are looked up)",
    "event_match.number": "the round or bracket match, counted by the format",
    "event_match.table": "a table of the draw",
    "event.pin_tries": "PIN tries counted by one conditional update, at most core.PIN_TRIES",
    "idempotent_request.status": "the HTTP status the server answered",
    "game.revision": "the ORM's version counter, moved by one on each write to the game",
    "game_seat.sheet_column": "a column of the game's sheet, counted from its set-up (groups.column_names)",
    "event_timer.paused_left_ms": "the time left when the timer was paused: the server's clock, at most "
    "timer.LEFT_MAX_MS (what the minutes and the time added allow)",
    "game.hands_revision": "moved by one by the flush of each change to the game's hands (models.hands_changed)",
}

# Every JSON column, and what bounds what a user puts into it.
JSON_BOUNDS: dict[str, str] = {
    "game.options": "each option checked by its OptionSpec (a choice, a number in range); Nomination's custom "
    "list of cards per round by the request size (64 KB)",
    "game.players": "as many names as the variant seats (at most 7), of at most 40 characters (NAME_MAX)",
    "game.teams": "as many teams as the variant has, names of at most 40 characters (NAME_MAX)",
    "game.pending": "the hand being entered: bids and choices checked by the rules",
    "hand.entry": "one hand as entered: numbers and choices checked by the rules",
    "game.undo_log": "the taps that can be undone: hand-in-hand states the rules accepted and the server's words "
    "for them, at most games/undo.py's LOG_MAX steps",
    "game.redo_log": "the taps undone that can be redone: steps taken from undo_log, at most LOG_MAX",
    "event.options": "each format's settings, numbers and choices checked at set-up",
    "event_table.players": "four names of at most 40 characters (Military Whist)",
    "event_hand.moves": "one table number per table",
    "event_playoff.teams": "two team numbers, checked",
    "event_playoff.bye": "team numbers, checked",
    "event_day_close.held": "counted flags, one per table",
    "event_day_close.owed": "counted flags, one per table",
    "event_audit.old": "values already checked (names, results, numbers)",
    "event_audit.new": "values already checked (names, results, numbers)",
    "event_audit.said": "the note's message (template and params) the server made, its params names and numbers "
    "already checked for the note; a restored one checked by backup.said (at most SAID_MAX)",
    "event_entrant.players": "one or two names of at most 40 characters",
    "event_decision.data": "numbers checked by the format, and a walkover's or swap's reason clipped to 200 characters",
    "idempotent_request.headers": "a fixed list of the server's own response headers (idempotency.REPLAYED_HEADERS)",
    "idempotent_request.written": "the server's own: the ids and revisions of the games the request wrote",
}


def _bids_made(client: FlaskClient) -> dict[str, Any]:
    """A Nomination game whose hand 1 has its trump and bids: only the tricks are left to enter."""
    scorer = start(client)
    assert client.post(f"/g/{scorer}/entry", data={"action": "trump", "trump": "S"}, headers=HX).status_code == 200
    for bid in (1, 1, 0, 1):
        assert client.post(f"/g/{scorer}/entry", data={"action": "bid", "bid": str(bid)}, headers=HX).status_code == 200
    return {"scorer": scorer}


def _drive_table(client: FlaskClient, app: Flask) -> dict[str, Any]:
    client.post("/events/new/whist-drive", data=_drive())
    token = director_token(app)
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None
        return {"token": token, "table": event.tables[0].token}


def columns_of(kind: type) -> dict[str, Any]:
    """`table.column` -> the column, for every column of that type (but keys) in the models."""
    return {
        f"{t.name}.{c.name}": c
        for t in db.metadata.sorted_tables
        for c in t.columns
        if isinstance(c.type, kind) and not c.primary_key and not c.foreign_keys
    }


# --------------------------------------------------------------------------- the lists are whole


def test_every_column_is_listed() -> None:
    """A String, Integer or JSON column in no list (or in two) fails here: say how users reach it."""
    strings, numbers, documents = columns_of(String), columns_of(Integer), columns_of(JSON)
    assert sorted(set(strings) - set(USER_TEXT) - set(SERVER_MADE)) == [], "String columns nobody checked"
    assert set(USER_TEXT) & set(SERVER_MADE) == set()
    assert sorted((set(USER_TEXT) | set(SERVER_MADE)) - set(strings)) == [], "listed but not String columns"
    assert sorted(set(numbers) - set(USER_NUMBERS) - set(SERVER_COUNTED)) == [], "Integer columns nobody checked"
    assert set(USER_NUMBERS) & set(SERVER_COUNTED) == set()
    assert sorted((set(USER_NUMBERS) | set(SERVER_COUNTED)) - set(numbers)) == [], "listed but not Integer columns"
    assert sorted(set(documents) ^ set(JSON_BOUNDS)) == [], "JSON columns without their bound"
    for column, ways in USER_TEXT.items():
        for way in ways:
            if isinstance(way, Typed):
                assert way.longest <= strings[column].type.length, (column, way.how)


def test_a_pin_hash_fits_its_column() -> None:
    longest = "9" * 8
    assert valid_pin(longest) and not valid_pin(longest + "9")
    assert len(generate_password_hash(longest)) <= columns_of(String)["event.director_pin"].type.length


# --------------------------------------------------------------------------- each way, on PostgreSQL


def _ways(kind: type) -> list[Any]:
    found = []
    for column, ways in {**USER_TEXT, **USER_NUMBERS}.items():
        for i, way in enumerate(ways):
            if isinstance(way, kind):
                found.append(pytest.param(column, way, id=f"{column}-{i}"))
    return found


ON_POSTGRESQL = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


@ON_POSTGRESQL
@pytest.mark.parametrize(("column", "way"), _ways(Typed))
def test_one_character_too_many_is_refused_beside_the_field_and_the_longest_is_kept(
    client: FlaskClient, app: Flask, column: str, way: Typed
) -> None:
    length = db.metadata.tables[column.split(".")[0]].c[column.split(".")[1]].type.length
    ctx = way.prepare(client, app)
    before = dump(app)
    for too_long in sorted({way.longest + 1, length + 1}):
        response = way.send(client, app, ctx, text_of(too_long))
        assert 400 <= response.status_code < 500, (way.how, too_long, response.status_code)
        page = page_of(response)
        if way.key is not None:
            assert beside(page, way.key) == way.message, way.how
        else:
            assert way.message in messages_in(page), (way.how, messages_in(page))
        assert dump(app) == before, way.how
    longest = text_of(way.longest) if way.longest else way.choice  # the longest accepted is stored whole
    response = way.send(client, app, ctx, longest)
    assert response.status_code in way.ok, (way.how, response.status_code, messages_in(page_of(response)))
    assert longest in values(app, column), way.how


@ON_POSTGRESQL
@pytest.mark.parametrize(("column", "way"), _ways(Built))
def test_a_value_built_from_the_longest_inputs_fits_its_column(
    client: FlaskClient, app: Flask, column: str, way: Built
) -> None:
    length = db.metadata.tables[column.split(".")[0]].c[column.split(".")[1]].type.length
    before = set(values(app, column))
    response = way.send(client, app)
    assert response.status_code in way.ok, (way.how, response.status_code, messages_in(page_of(response)))
    made = [v for v in values(app, column) if v not in before]
    assert made and all(len(v) <= length for v in made), (way.how, made)
    assert max(len(v) for v in made) >= way.reaches, (way.how, made)


@ON_POSTGRESQL
@pytest.mark.parametrize(("column", "way"), _ways(Number))
def test_a_number_past_32_bits_is_refused_and_changes_nothing(
    client: FlaskClient, app: Flask, column: str, way: Number
) -> None:
    ctx = way.prepare(client, app)
    before = dump(app)
    for raw in BIG:
        response = way.send(client, app, ctx, raw)
        assert response.status_code in way.refused, (way.how, raw, response.status_code)
        assert way.message in " ".join([*messages_in(page_of(response)), page_of(response)]), (way.how, raw)
        assert dump(app) == before, (way.how, raw)
