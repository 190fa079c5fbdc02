"""Backup and restore of a whole event, of any format, as one JSON file (docs/event-backup.md).

The file holds what people entered and decided (the event's set-up, tables, results, loans,
playoffs, entrants, matches, decisions, the games played at the event with their hands) and the
audit trail, with their timestamps; never a secret link or the PIN's hashes. A restore makes new
links, so a backup that leaks gives nobody a way into the event, and two servers restoring the
same file never share a link.

Restoring trusts nothing in the file: it is read in full and every field checked against the
limits the app's own forms and columns keep (a value that fits SQLite but not PostgreSQL would
be a 500 there), then the rows are written in one transaction and the event's format derives its
standings from them (`EventFormat.check`), so a file edited into a state play could not reach is
refused with what is wrong, and nothing of it is kept.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from flask import Flask, current_app
from sqlalchemy import insert, inspect, select
from sqlalchemy.exc import DataError, IntegrityError, SQLAlchemyError

from scorepad import offload
from scorepad.events import core
from scorepad.events.bid_whist import matches as bid_whist_matches
from scorepad.events.bid_whist import registration
from scorepad.events.military import REVOKES
from scorepad.events.registry import FORMATS, all_formats, get_format
from scorepad.extensions import db
from scorepad.form_input import valid_pin
from scorepad.models import (
    AuditEntry,
    DayClose,
    Event,
    EventDecision,
    EventEntrant,
    EventMatch,
    EventPlayoff,
    EventTable,
    FlagLoan,
    Game,
    Hand,
    OpenedHand,
    ReportedResult,
    utcnow,
)
from scorepad.rules import VARIANT_MODULES, get_variant
from scorepad.rules.base import RuleError, RuleErrors, key_field, quoted
from scorepad.rules.errors import M, Message, from_said
from scorepad.rules.record import HANDS_MAX, NAME_MAX, TITLE_MAX, parse_record

VERSION = 1
KIND = "backup"
MAX_KB = 8192  # SCOREPAD_BACKUP_MAX_KB: a provincial Military event (64 tables, 100 hands) is under 2 MB
HAND_MAX = 2 * HANDS_MAX  # hand, deal and round numbers: a schedule's hands and its playoffs
NUMBER_MAX = 10_000  # entrant numbers (never reused in an event, so they may pass the teams' count)
TABLES_MAX = 500  # past every format (64 tables; a Bid Whist tournament of 256 teams, 128): its own check refuses more
COUNT_MAX = 1_000_000  # flags, points: any count the formats keep, far inside 32 bits
DEPTH_MAX = 16  # the deepest a backup nests is about 8 (a Bid Whist hand's auction in a game)
PROBLEMS_MAX = 20  # problems reported at once: the first ones say enough to fix a file


class BackupError(Exception):
    """A backup that cannot be restored, and why, one line per problem; `field` is the form's field
    it belongs beside ("backup", or "pin"); `too_large` answers 413."""

    def __init__(self, problems: Sequence[str], too_large: bool = False, field: str = "backup") -> None:
        self.field = field
        self.problems = list(problems[:PROBLEMS_MAX])  # each a Message (rules/errors.py): said in the reader's language
        if len(problems) > PROBLEMS_MAX:
            self.problems.append(M("... and %(count)s more problems", count=len(problems) - PROBLEMS_MAX))
        self.too_large = too_large
        super().__init__("; ".join(self.problems))

    def __reduce__(self) -> tuple[Callable[..., BackupError], tuple[object, ...]]:
        """Pickled as it is (a file checked in another process is refused here with the same words):
        made again without cutting its problems a second time."""
        return _backup_error, (self.args, self.__dict__)


def _backup_error(args: tuple[object, ...], state: dict[str, object]) -> BackupError:
    error = BackupError.__new__(BackupError, *args)
    error.__dict__.update(state)
    return error


# --------------------------------------------------------------------------- field checks


class _Bad(Exception):
    """One field's value is refused; the message completes "<field>: ..."."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


def _at(where: str, problem: str) -> Message:
    """A problem at a place in the file: "results #3: ..."."""
    return M("%(where)s: %(problem)s", where=where, problem=problem)


def _said(error: RuleError) -> Message:
    """A rule's refusal as `str(error)` reads, its message kept to be said in the reader's language."""
    if error.hand is not None:
        return M("hand %(hand)s, %(field)s: %(problem)s", hand=error.hand, field=error.field, problem=error.message)
    return _at(error.field, error.message)


Check = Callable[[object], object]


def _length(column: Any) -> int:
    """A String column's length, read from the model: the bound the database itself keeps."""
    return int(column.property.columns[0].type.length)


def text(limit: int, *, empty: bool = True) -> Check:
    def check(value: object) -> object:
        if not isinstance(value, str):
            raise _Bad(M("must be text (a string in quotes)"))
        if not empty and not value.strip():
            raise _Bad(M("must not be empty"))
        if len(value) > limit:
            raise _Bad(M("is too long: at most %(most)s characters (%(count)s given)", most=limit, count=len(value)))
        return value

    return check


def choice(*allowed: str | None) -> Check:
    def check(value: object) -> object:
        if value not in allowed:
            raise _Bad(
                M(
                    "must be one of %(allowed)s (not %(value)s)",
                    allowed=", ".join("null" if a is None else quoted(a) for a in allowed),
                    value=quoted(value),
                )
            )
        return value

    return check


def whole(low: int, high: int) -> Check:
    def check(value: object) -> object:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Bad(M("must be a whole number"))
        if not low <= value <= high:
            raise _Bad(
                M("must be a whole number from %(low)s to %(high)s (not %(value)s)", low=low, high=high, value=value)
            )
        return value

    return check


def flag(value: object) -> object:
    if not isinstance(value, bool):
        raise _Bad(M("must be true or false"))
    return value


def moment(value: object) -> object:
    """An ISO 8601 moment, stored as the app stores them: naive, in UTC."""
    if not isinstance(value, str) or len(value) > 40:
        raise _Bad(M('must be a date and time in ISO 8601, e.g. "2026-05-01T14:03:22+00:00"'))
    try:
        return core.aware(datetime.fromisoformat(value)).astimezone(UTC).replace(tzinfo=None)
    except (ValueError, OverflowError):  # not ISO 8601, or out of the calendar once in UTC
        raise _Bad(M("is not a date and time in ISO 8601 (not %(value)s)", value=quoted(value))) from None


def optional(check: Check) -> Check:
    return lambda value: None if value is None else check(value)


def _list_of(one: Check, most: int, of_names: bool) -> Check:
    """A list of at most `most` values (names, or whole numbers), each passing `one`; a bad one is
    named by its place."""

    def check(value: object) -> object:
        if not isinstance(value, list) or len(value) > most:
            raise _Bad(
                M("must be a list of at most %(most)s names", most=most)
                if of_names
                else M("must be a list of at most %(most)s whole numbers", most=most)
            )
        for i, single in enumerate(value, start=1):
            try:
                one(single)
            except _Bad as bad:
                raise _Bad(
                    M("name %(number)s %(problem)s", number=i, problem=bad.message)
                    if of_names
                    else M("number %(number)s %(problem)s", number=i, problem=bad.message)
                ) from None
        return list(value)

    return check


def names(most: int, limit: int) -> Check:
    """A list of at most `most` names, each at most `limit` characters."""
    return _list_of(text(limit, empty=False), most, of_names=True)


def numbers(most: int, low: int, high: int) -> Check:
    return _list_of(whole(low, high), most, of_names=False)


def document(value: object) -> object:
    """A JSON object the event's format or the rules read and check in full (options, an entry)."""
    if not isinstance(value, dict):
        raise _Bad(M("must be an object"))
    return value


MATCH_REF = "match"  # an audit value's match (events/bid_whist/matches.py: a team's code tries on a sheet)
HAND_PART_MAX = 2000  # characters of a corrected hand's changed keys as JSON: a whole hand's are far fewer


def hand_part(value: object) -> object:
    """The keys a correction changed in a game's hand (events/registry.entry_change): an object
    of the hand's own keys, each value as the hand's entry holds it (null: the key was absent)."""
    if not isinstance(value, dict) or len(json.dumps(value)) > HAND_PART_MAX:
        raise _Bad(M("must be an object of the hand's keys that changed"))
    return value


# What the audit trail records as old and new values (events/military.py, events/drive.py; a game's
# hand corrected at any event, events/registry.py), each key with its shape: the control room writes
# these values out (director.audit_words).
_CHANGE_KEYS: dict[str, Check] = {
    "hand": hand_part,
    # a wrong team code, or the director lifting a team's lock, on one sheet: its match's place in
    # "matches" counting from 1 (the server's row id in the database), and the team's side
    MATCH_REF: whole(1, NUMBER_MAX),
    "side": whole(0, 1),
    "tricks": whole(0, 13),
    "hands": whole(1, HAND_MAX),  # a day's hands, before and after the director ended it early
    "revoke": choice(None, *REVOKES),
    "flags": whole(-COUNT_MAX, COUNT_MAX),
    "moves": optional(numbers(TABLES_MAX, 1, TABLES_MAX)),
    "held": numbers(TABLES_MAX, -COUNT_MAX, COUNT_MAX),
    "owed": numbers(TABLES_MAX, -COUNT_MAX, COUNT_MAX),
    "winner": whole(0, NUMBER_MAX),
    "bye": numbers(TABLES_MAX, 0, NUMBER_MAX),
    "name": text(core.MAX_EVENT_NAME),
}


def change(value: object) -> object:
    """An audit entry's old or new value: null, or an object of the keys above."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _Bad(M("must be null or an object"))
    for key, item in value.items():
        if key == "teams":  # team numbers (a playoff) or team names (names changed)
            if not isinstance(item, list) or not all(isinstance(t, str) for t in item):
                numbers(TABLES_MAX, 0, NUMBER_MAX)(item)
            else:
                names(TABLES_MAX, NAME_MAX)(item)
        elif key == "players":  # each team's four players (names changed)
            if not isinstance(item, list) or len(item) > TABLES_MAX:
                raise _Bad(M('"players" must be a list of each team\'s players'))
            for four in item:
                names(4, NAME_MAX)(four)
        elif key in _CHANGE_KEYS:
            try:
                _CHANGE_KEYS[key](item)
            except _Bad as bad:
                raise _Bad(M("%(key)s %(problem)s", key=quoted(key), problem=bad.message)) from None
        else:
            raise _Bad(M("%(key)s is not a value the audit trail records", key=quoted(key)))
    if ("held" in value) != ("owed" in value):
        raise _Bad(M('a day\'s flags are recorded as "held" and "owed" together'))
    return value


SAID_MAX = 4000  # characters of an audit note's message as JSON: a 300-character note's words and more


def said(value: object) -> object:
    """An audit note's message (rules/errors.as_said): null, or a template with its params. An entry
    with no "said" reads in English, as it was written."""
    if value is None:
        return None
    if not isinstance(from_said(value), Message) or len(json.dumps(value)) > SAID_MAX:
        raise _Bad(M('must be null or a message: its "template" and its "params"'))
    return value


said.may_be_missing = True  # type: ignore[attr-defined]


def time_zone(value: object) -> object:
    """The event's time zone: null (the server's), or an IANA name this server's zone database holds.
    A backup made before events had one (migration 0018) has no key: null."""
    if value is None:
        return None
    if not isinstance(value, str) or core.zone_errors(value):
        raise _Bad(M('must be null or a time zone\'s name, e.g. "America/Edmonton"'))
    return value


time_zone.may_be_missing = True  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- the file's sections


GAME_REF = "game"  # tables' and matches' game: its position in "games", counting from 1


@dataclass(frozen=True)
class Section:
    """One list of rows of the event: the file's key, the model, each field and its check."""

    key: str
    model: type
    fields: Mapping[str, Check]
    most: int

    def rows(self, event: Event) -> list[Any]:
        return list(getattr(event, self.key))


EVENT_FIELDS: dict[str, Check] = {
    "name": text(core.MAX_EVENT_NAME, empty=False),
    "format": choice(*FORMATS),
    "options": document,
    "auto_advance": flag,
    "late_minutes": whole(1, 120),
    "current_hand": whole(0, HAND_MAX),
    "started_at": optional(moment),
    "time_zone": time_zone,
    "created_at": moment,
    "updated_at": moment,
}

SECTIONS = (
    Section(
        "tables",
        EventTable,
        {
            "number": whole(1, TABLES_MAX),
            "team": text(NAME_MAX),
            "players": names(4, NAME_MAX),
            GAME_REF: optional(whole(1, NUMBER_MAX)),
        },
        TABLES_MAX,
    ),
    Section(
        "hands",
        OpenedHand,
        {"number": whole(1, HAND_MAX), "moves": optional(numbers(TABLES_MAX, 1, TABLES_MAX)), "opened_at": moment},
        HAND_MAX,
    ),
    Section(
        "results",
        ReportedResult,
        {
            "hand": whole(1, HAND_MAX),
            "table": whole(1, TABLES_MAX),
            "tricks": whole(0, 13),
            "revoke": choice(None, *REVOKES),
            "entered_by": text(_length(ReportedResult.entered_by), empty=False),
            "entered_at": moment,
        },
        HAND_MAX * 64,
    ),
    Section(
        "loans",
        FlagLoan,
        {
            "hand": whole(1, HAND_MAX),
            "table": whole(1, TABLES_MAX),
            "flags": whole(-COUNT_MAX, COUNT_MAX),
            "lent_at": moment,
        },
        HAND_MAX * 64,
    ),
    Section(
        "playoffs",
        EventPlayoff,
        {
            "number": whole(1, HAND_MAX),
            "teams": numbers(TABLES_MAX, 0, TABLES_MAX),
            "winner": whole(0, TABLES_MAX),
            "bye": optional(numbers(TABLES_MAX, 0, TABLES_MAX)),
            "entered_at": moment,
        },
        HAND_MAX,
    ),
    Section(
        "days_closed",
        DayClose,
        {
            "day": whole(1, 100),
            "held": numbers(TABLES_MAX, -COUNT_MAX, COUNT_MAX),
            "owed": numbers(TABLES_MAX, -COUNT_MAX, COUNT_MAX),
            "closed_at": moment,
        },
        100,
    ),
    Section(
        "entrants",
        EventEntrant,
        {
            "number": whole(1, NUMBER_MAX),
            "name": text(registration.MAX_NAME, empty=False),
            "players": names(2, registration.MAX_PLAYER),
            "registered_at": moment,
        },
        NUMBER_MAX,
    ),
    Section(
        "matches",
        EventMatch,
        {
            "stage": choice("round", "bracket"),
            "number": whole(1, HAND_MAX),
            "table": whole(1, TABLES_MAX),
            "home": whole(0, NUMBER_MAX),
            "away": whole(0, NUMBER_MAX),
            GAME_REF: optional(whole(1, NUMBER_MAX)),
            "signed_home_at": optional(moment),
            "signed_away_at": optional(moment),
            "signed_home_by": optional(text(_length(EventMatch.signed_home_by))),
            "signed_away_by": optional(text(_length(EventMatch.signed_away_by))),
            "sign_note": text(_length(EventMatch.sign_note)),
            "closed_by": optional(choice("director", bid_whist_matches.WALKOVER)),
            "dispute": text(_length(EventMatch.dispute)),
        },
        NUMBER_MAX,
    ),
    Section(
        "decisions",
        EventDecision,
        {
            "kind": text(_length(EventDecision.kind), empty=False),
            "key": text(_length(EventDecision.key)),
            "data": document,
            "actor": text(_length(EventDecision.actor)),
            "at": moment,
        },
        NUMBER_MAX,
    ),
    Section(
        "audit",
        AuditEntry,
        {
            "at": moment,
            "actor": text(_length(AuditEntry.actor)),
            "action": text(_length(AuditEntry.action)),
            "hand": optional(whole(0, HAND_MAX)),
            "table": optional(whole(1, TABLES_MAX)),
            "old": change,
            "new": change,
            "note": text(_length(AuditEntry.note)),
            "said": said,
        },
        50 * NUMBER_MAX,
    ),
)

GAME_FIELDS: dict[str, Check] = {
    "variant": choice(*VARIANT_MODULES),
    "title": text(TITLE_MAX),
    "options": document,
    "players": names(7, NAME_MAX),
    "teams": lambda value: value if isinstance(value, list) else _refuse(M("must be a list of teams")),
    "first_dealer": whole(0, 6),
    "pending": optional(document),
    "locked_at": optional(moment),
    "created_at": moment,
    "updated_at": moment,
    "hands": lambda value: value if isinstance(value, list) else _refuse(M("must be a list of hands")),
}
HAND_FIELDS: dict[str, Check] = {
    "number": whole(1, HANDS_MAX),
    "entry": document,
    "entered_at": moment,
    "corrected_at": optional(moment),
}
GAMES_MAX = NUMBER_MAX

# Every column the file leaves out, and why (tests/web/test_backup.py checks that each column is
# either exported or listed here).
LEFT_OUT: dict[str, str] = {
    "event.public_id": "a secret link (the board's): the restore makes a new one",
    "event.director_token": "a secret link: the restore makes a new one",
    "event.director_code": "the director's short link (as secret as the link): the restore makes a new one",
    "event.director_pin": "the PIN's hash: the restore sets a new PIN, or none",
    "event.pin_recovery": "the recovery code's hash: a new code comes with a new PIN",
    "event.pin_tries": "wrong PINs tried on the old server: none on the new one",
    "event.pin_tries_since": "as pin_tries",
    "event.revision": "this server's key for its cached standings: starts again at 0",
    "event.is_demo": "a restored event is an event of its own, never the server's demo",
    "event.archived_at": "a restored event is a new event on the home page's list: archived or not is this server's",
    "event_table.token": "a secret link (the table's QR code): the restore makes a new one",
    "event_table.short_code": "the short link on the table's card (as secret as the token): the restore makes a new one",
    "event_table.token_issued_at": "when the token was issued: the new token is issued at the restore",
    "event_table.game_id": "exported as `game`, the game's place in `games`",
    "event_entrant.token": "a secret link (the team's card): the restore makes a new one",
    "event_entrant.short_code": "the short link on the team's card (as secret as the token): the restore makes a new one",
    "event_match.game_id": "exported as `game`, the game's place in `games`",
    "game.public_id": "a secret link (the spectators'): the restore makes a new one",
    "game.scorer_token": "a secret link (the scorer's): the restore makes a new one",
    "game.short_code": "the spectators' short link: the restore makes a new one",
    "game.event_id": "the restored event",
    "game.rematch_of_id": "a rematch is a home game's, never an event's (games.service refuses it)",
    "game.is_demo": "an event's game is never a demo game",
    "game.revision": "the ORM's count of writes to the row: starts again",
    "game.hands_revision": "this server's key for the game's kept sheet: starts again at 0",
    "game.undo_log": "the hand-entry screen's undo history, not part of the record",
    "game.redo_log": "as undo_log",
}


def _refuse(message: Message) -> object:
    raise _Bad(message)


# --------------------------------------------------------------------------- export


def _out(value: object) -> object:
    if isinstance(value, datetime):
        return core.aware(value).astimezone(UTC).isoformat()
    return value


def export_event(event: Event) -> dict[str, object]:
    """The whole event as a backup (see docs/event-backup.md): tokens and PIN hashes left out."""
    return _shaped(_rows_of(event))


def download(event: Event) -> tuple[bytes, str]:
    """The backup file's bytes and its name (the control room's "Download backup"): the rows read
    in plain SQL, the database session ended, then shaped and encoded off the worker's loop (for a
    64-table event of 500 hands, a second of CPU: scorepad/offload.py)."""
    rows, name = _rows_of(event), file_name(event)
    core.end_session()  # nothing more is read: the request waits in line holding no connection
    return offload.run(backup_file, rows), name


def backup_file(rows: _Rows) -> bytes:
    """The backup file of the rows `_rows_of` read. Pure."""
    return dumps(_shaped(rows))


@dataclass(frozen=True)
class _Rows:
    """An event's rows as the database gives them: the event's fields, each section's (the game's
    place in `games` for GAME_REF), each game's fields and hands, in the order of the file."""

    event: dict[str, object]
    sections: dict[str, list[tuple[object, ...]]]
    games: list[tuple[dict[str, object], list[tuple[object, ...]]]]


_GAME_COLUMNS = tuple(k for k in GAME_FIELDS if k != "hands")


def _rows_of(event: Event) -> _Rows:
    """Read in plain SQL, in each relationship's order: no row objects (32,000 results of a 64-table
    event as objects cost a download a second)."""
    games = list(
        db.session.execute(
            select(Game.id, *(getattr(Game, k) for k in _GAME_COLUMNS))
            .where(Game.event_id == event.id)
            .order_by(Game.id)
        )
    )
    place = {g[0]: i for i, g in enumerate(games, start=1)}
    hands: dict[int, list[tuple[object, ...]]] = {g[0]: [] for g in games}
    if games:
        for game_id, *fields in db.session.execute(
            select(Hand.game_id, *(getattr(Hand, k) for k in HAND_FIELDS))
            .where(Hand.game_id.in_(list(hands)))
            .order_by(Hand.game_id, Hand.number)
        ):
            hands[game_id].append(tuple(fields))
    sections = {}
    match_order = inspect(Event).relationships["matches"].order_by
    match_place = {
        match_id: i
        for i, match_id in enumerate(
            db.session.scalars(select(EventMatch.id).where(EventMatch.event_id == event.id).order_by(*match_order)),
            start=1,
        )
    }
    for section in SECTIONS:
        model: Any = section.model
        columns = [model.game_id if k == GAME_REF else getattr(model, k) for k in section.fields]
        order = inspect(Event).relationships[section.key].order_by
        ref = list(section.fields).index(GAME_REF) if GAME_REF in section.fields else None
        found = db.session.execute(select(*columns).where(model.event_id == event.id).order_by(*order))
        sections[section.key] = [tuple(place.get(v) if i == ref else v for i, v in enumerate(row)) for row in found]
    audit_fields = list(next(section for section in SECTIONS if section.key == "audit").fields)
    values = [audit_fields.index("old"), audit_fields.index("new")]
    sections["audit"] = [
        tuple(_match_moved(v, match_place) if i in values else v for i, v in enumerate(row))
        for row in sections["audit"]
    ]
    return _Rows(
        {k: getattr(event, k) for k in EVENT_FIELDS},
        sections,
        [(dict(zip(_GAME_COLUMNS, g[1:])), hands[g[0]]) for g in games],
    )


def _match_moved(value: object, moved: Mapping[int, int | None]) -> object:
    """An audit value with its match reference moved (a row id to its place in the file, or back);
    a reference to no match of the event (an older version's, or a match since deleted) goes."""
    if not isinstance(value, dict) or MATCH_REF not in value:
        return value
    found = moved.get(value[MATCH_REF]) if isinstance(value[MATCH_REF], int) else None
    return {**value, MATCH_REF: found} if found is not None else {k: v for k, v in value.items() if k != MATCH_REF}


def _shaped(rows: _Rows) -> dict[str, object]:
    """The backup document of the rows read (moments in ISO 8601, UTC). Pure."""
    out: dict[str, object] = {
        "scorepad_event": VERSION,
        "kind": KIND,
        "exported_at": _out(utcnow()),
        "event": {k: _out(v) for k, v in rows.event.items()},
    }
    for section in SECTIONS:
        keys = list(section.fields)
        out[section.key] = [{k: _out(v) for k, v in zip(keys, row)} for row in rows.sections[section.key]]
    out["games"] = [
        {
            **{k: _out(v) for k, v in fields.items()},
            "hands": [{k: _out(v) for k, v in zip(HAND_FIELDS, hand)} for hand in hands],
        }
        for fields, hands in rows.games
    ]
    return out


def dumps(backup: Mapping[str, object]) -> bytes:
    """The file's bytes: UTF-8 JSON, one field a line, so two backups compare with diff."""
    return (json.dumps(backup, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def file_name(event: Event) -> str:
    """scorepad-event-<name>-<date>.json: the name in plain ASCII letters and digits, today's date."""
    plain = unicodedata.normalize("NFKD", event.name).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:50].strip("-") or "event"
    return f"scorepad-event-{slug}-{utcnow():%Y-%m-%d}.json"


def token_of(link: str) -> str:
    """The director's token from a director's link (http://host/d/<token>, /d/<token>) or the token."""
    found = re.search(r"/d/([^/?#\s]+)", link)
    return found.group(1) if found else link.strip()


# --------------------------------------------------------------------------- reading a file


def limit_bytes() -> int:
    return int(current_app.config.get("SCOREPAD_BACKUP_MAX_KB", MAX_KB)) * 1024


def too_large(size: int) -> BackupError:
    return _too_large(size, limit_bytes())


def _too_large(size: int, limit: int) -> BackupError:
    return BackupError(
        [
            M(
                "the file is too large for a backup: %(size)s KB, at most %(most)s KB",
                size=size // 1024,
                most=limit // 1024,
            )
        ],
        too_large=True,
    )


class _Constant(ValueError):
    pass


def _constant(name: str) -> object:
    raise _Constant(name)


def parse(raw: bytes) -> object:
    """The file's JSON, its size checked first; every way it can fail is one clear BackupError."""
    return _parse(raw, limit_bytes())


def _parse(raw: bytes, limit: int) -> object:
    if len(raw) > limit:
        raise _too_large(len(raw), limit)
    try:
        return json.loads(raw.decode("utf-8-sig"), parse_constant=_constant)
    except UnicodeDecodeError:
        raise BackupError([M("not a UTF-8 text file: a backup is the .json file Scorepad made")]) from None
    except json.JSONDecodeError as e:
        raise BackupError(
            [
                M(
                    "not valid JSON (line %(line)s, column %(column)s: %(error)s): a backup is the .json "
                    "file Scorepad made",
                    line=e.lineno,
                    column=e.colno,
                    error=e.msg,
                )
            ]
        ) from None
    except _Constant as e:
        raise BackupError([M("not a backup: %(value)s is not a number JSON allows", value=str(e))]) from None
    except RecursionError:
        raise BackupError([M("not a backup: lists or objects nested too deeply")]) from None
    except ValueError:  # int() past the digit limit
        raise BackupError(
            [M("not a backup: a number longer than %(digits)s digits", digits=sys.get_int_max_str_digits())]
        ) from None


def _path(parts: tuple[object, ...]) -> str:
    """A place in the document in words: `results #3.tricks` (list items counted from 1)."""
    out = ""
    for part in parts:
        out += f" #{part}" if isinstance(part, int) else (f".{key_field(part)}" if out else key_field(part))
    return out or M("the file")


def _text_problems(data: object) -> list[str]:
    """Text no column can hold: NUL (PostgreSQL refuses it) and lone surrogates (not UTF-8); and
    nesting deeper than a backup ever goes. Walked without recursion, keys and values alike."""
    problems = []
    stack: list[tuple[tuple[object, ...], object]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if len(path) > DEPTH_MAX:
            raise BackupError([M("%(where)s: nested more deeply than a backup ever is", where=_path(path))])
        if isinstance(value, dict):
            stack.extend(((*path, k), v) for k, v in value.items())
            stack.extend(((*path, k), k) for k in value)
        elif isinstance(value, list):
            stack.extend(((*path, i), v) for i, v in enumerate(value, start=1))
        elif isinstance(value, str):
            if "\x00" in value:
                problems.append(
                    M("%(where)s: holds a NUL character (\\u0000), which no field of Scorepad takes", where=_path(path))
                )
            elif _SURROGATE.search(value):
                problems.append(
                    M("%(where)s: holds half of a UTF-16 pair (\\ud800-\\udfff), which is not text", where=_path(path))
                )
    return problems


_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class _Plan:
    """A backup read and checked, field by field and reference by reference, ready to write."""

    event: dict[str, Any]
    sections: dict[str, list[dict[str, Any]]]
    games: list[dict[str, Any]]
    exported_at: datetime | None


def _fields(raw: object, fields: Mapping[str, Check], where: str, problems: list[str]) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        problems.append(M("%(where)s: must be an object", where=where))
        return None
    clean: dict[str, Any] = {}
    for key in raw:
        if key not in fields:
            problems.append(M("%(where)s: %(key)s is not part of a backup here", where=where, key=quoted(key)))
    for key, check in fields.items():
        if key not in raw:
            if not getattr(check, "may_be_missing", False):
                problems.append(M("%(where)s: %(key)s is missing", where=where, key=quoted(key)))
            continue
        try:
            clean[key] = check(raw[key])
        except _Bad as bad:
            problems.append(M("%(where)s, %(key)s: %(problem)s", where=where, key=quoted(key), problem=bad.message))
    return clean


def _list(data: Mapping[str, object], key: str, most: int, problems: list[str]) -> list[object]:
    found = data.get(key)
    if not isinstance(found, list):
        problems.append(
            M("%(key)s: is missing", key=quoted(key))
            if found is None
            else M("%(key)s: must be a list", key=quoted(key))
        )
        return []
    if len(found) > most:
        problems.append(
            M("%(key)s: at most %(most)s rows (%(count)s given)", key=quoted(key), most=most, count=len(found))
        )
        return []
    return found


def _read(data: object) -> _Plan:
    """Check the whole file before the database sees any of it: version, every field's type and
    bound, every reference inside the file, each game's hands by its variant's rules."""
    if not isinstance(data, dict):
        raise BackupError([M("not a backup: a backup is a JSON object")])
    version = data.get("scorepad_event")
    if version is None:
        raise BackupError([M('not a Scorepad event backup: it has no "scorepad_event" version')])
    if isinstance(version, bool) or version != VERSION:
        raise BackupError(
            [
                M(
                    "this backup is format version %(version)s: this Scorepad restores version %(supported)s only",
                    version=quoted(version),
                    supported=VERSION,
                )
            ]
        )
    if data.get("kind") != KIND:
        raise BackupError(
            [
                M(
                    "this is not a backup but an event's public export (event.json), which leaves out the "
                    'audit trail: download the backup from the event\'s control room ("Download backup")'
                )
            ]
        )
    problems = _text_problems(data)
    if problems:
        raise BackupError(problems)
    known = {"scorepad_event", "kind", "exported_at", "event", "games", *(s.key for s in SECTIONS)}
    problems += [M("%(key)s is not part of a backup", key=quoted(k)) for k in data if k not in known]
    exported_at = None
    try:
        exported_at = optional(moment)(data.get("exported_at"))
    except _Bad as bad:
        problems.append(_at("'exported_at'", bad.message))
    event = _fields(data.get("event"), EVENT_FIELDS, "event", problems)
    sections: dict[str, list[dict[str, Any]]] = {}
    for section in SECTIONS:
        rows = _list(data, section.key, section.most, problems)
        found = [_fields(row, section.fields, f"{section.key} #{i}", problems) for i, row in enumerate(rows, start=1)]
        sections[section.key] = [row for row in found if row is not None]
    games = []
    for i, raw in enumerate(_list(data, "games", GAMES_MAX, problems), start=1):
        game = _fields(raw, GAME_FIELDS, f"games #{i}", problems)
        if game is None or "hands" not in game:
            continue
        hands = [
            _fields(h, HAND_FIELDS, f"games #{i}, hands #{j}", problems)
            for j, h in enumerate(game["hands"][: HANDS_MAX + 1], start=1)
        ]
        game["hands"] = [h for h in hands if h is not None]
        games.append(game)
    if problems or event is None:
        raise BackupError(problems)
    _references(sections, games, problems)
    for i, game in enumerate(games, start=1):
        problems += [_at(f"games #{i}", p) for p in _game_problems(game)]
    if problems:
        raise BackupError(problems)
    return _Plan(event, sections, games, exported_at if isinstance(exported_at, datetime) else None)


def _unique(rows: list[dict[str, Any]], keys: tuple[str, ...], what: str, problems: list[str]) -> None:
    seen: set[tuple[object, ...]] = set()
    for i, row in enumerate(rows, start=1):
        key = tuple(row[k] for k in keys)
        if key in seen:
            problems.append(
                M(
                    "%(where)s: a second row for %(key)s",
                    where=f"{what} #{i}",
                    key=", ".join(f"{k} {v}" for k, v in zip(keys, key)),
                )
            )
        seen.add(key)


UNIQUE = {
    "tables": ("number",),
    "hands": ("number",),
    "results": ("hand", "table"),
    "loans": ("hand", "table"),
    "playoffs": ("number",),
    "days_closed": ("day",),
    "entrants": ("number",),
    "matches": ("stage", "number", "table"),
    "decisions": ("kind", "key"),
}


def _references(sections: dict[str, list[dict[str, Any]]], games: list[dict[str, Any]], problems: list[str]) -> None:
    """Each reference inside the file names a row of the file: a table, an entrant, a game (once)."""
    for key, keys in UNIQUE.items():
        _unique(sections[key], keys, key, problems)
    tables = [t["number"] for t in sections["tables"]]
    if sorted(tables) != list(range(1, len(tables) + 1)):
        problems.append(
            M(
                "tables: the tables are numbered 1 to %(count)s, each once (given: %(given)s)",
                count=len(tables),
                given=", ".join(map(str, tables[:20])),
            )
        )
    known_tables = set(tables)
    for key in ("results", "loans", "matches", "audit"):
        for i, row in enumerate(sections[key], start=1):
            if row["table"] is not None and row["table"] not in known_tables:
                problems.append(
                    M(
                        "%(where)s: there is no table %(table)s in the backup (tables 1 to %(count)s)",
                        where=f"{key} #{i}",
                        table=row["table"],
                        count=len(tables),
                    )
                    if tables
                    else M(
                        "%(where)s: there is no table %(table)s in the backup (it has no tables)",
                        where=f"{key} #{i}",
                        table=row["table"],
                    )
                )
    for i, row in enumerate(sections["audit"], start=1):
        for value in (row["old"], row["new"]):
            if isinstance(value, dict) and value.get(MATCH_REF, 0) > len(sections["matches"]):
                problems.append(
                    M(
                        "%(where)s: there is no match %(match)s in the backup (%(count)s matches)",
                        where=f"audit #{i}",
                        match=value[MATCH_REF],
                        count=len(sections["matches"]),
                    )
                )
    entrants = {e["number"] for e in sections["entrants"]} | {bid_whist_matches.GHOST}
    for i, row in enumerate(sections["matches"], start=1):
        for side in ("home", "away"):
            if row[side] not in entrants:
                problems.append(
                    M(
                        "%(where)s: there is no entrant number %(number)s in the backup (%(side)s)",
                        where=f"matches #{i}",
                        number=row[side],
                        side=side,
                    )
                )
    used: dict[int, str] = {}
    for key in ("tables", "matches"):
        for i, row in enumerate(sections[key], start=1):
            ref = row[GAME_REF]
            if ref is None:
                continue
            if ref > len(games):
                problems.append(
                    M(
                        "%(where)s: there is no game %(game)s in the backup (%(count)s games)",
                        where=f"{key} #{i}",
                        game=ref,
                        count=len(games),
                    )
                )
            elif ref in used:
                problems.append(
                    M(
                        "%(where)s: game %(game)s is already played at %(place)s",
                        where=f"{key} #{i}",
                        game=ref,
                        place=used[ref],
                    )
                )
            else:
                used[ref] = f"{key} #{i}"


def _game_problems(game: dict[str, Any]) -> list[Message]:
    """A game as its variant's rules read it: the set-up, every hand in order, the hand in progress."""
    numbers_found = [h["number"] for h in game["hands"]]
    if numbers_found != list(range(1, len(numbers_found) + 1)):
        return [M("the hands are numbered 1 to %(count)s in order", count=len(numbers_found))]
    record: dict[str, object] = {
        "variant": game["variant"],
        "title": game["title"],
        "options": game["options"],
        "first_dealer": game["first_dealer"],
        "hands": [h["entry"] for h in game["hands"]],
    }
    if game["players"]:
        record["players"] = game["players"]
    if game["teams"]:
        record["teams"] = game["teams"]
    try:
        parsed = parse_record(record)
        variant = get_variant(parsed.setup.variant)
        variant.score(parsed.setup, parsed.hands)
        if game["pending"]:
            variant.state(parsed.setup, parsed.hands, game["pending"])
    except RuleErrors as e:
        return [_said(err) for err in e.errors]
    except RuleError as e:
        return [_said(e)]
    except Exception as e:
        return [M('the hand in progress ("pending") is not one the rules can read (%(error)s)', error=type(e).__name__)]
    return []


# --------------------------------------------------------------------------- restore

COPY = "copy"  # what a restored copy's name says it is, in English (the command line's)


def restore(data: object, *, pin: str = "", actor: str = "director", copy: str = COPY) -> Event:
    """A new event from a backup, with new links and `pin` (none when empty), in one transaction.

    BackupError names every problem found; nothing is written then. The recovery code of a new
    PIN is on the event as `recovery_code`, to be shown once (core.apply_pin). A backup of an event
    this server already holds is restored as a copy named so (`copy`: the word, in the restorer's
    language; see `_copy_of`)."""
    _check_pin(pin)
    return _write(_read(data), pin, actor, copy=copy)


def restore_file(raw: bytes, *, pin: str = "", actor: str = "director", copy: str = COPY) -> Event:
    """`restore` of a backup file's bytes (the restore page's upload): the file read and checked
    (`read_file`, the heavy part: a 64-table event of 500 hands is seconds of CPU) off the worker's
    loop and before this request touches the database (scorepad/offload.py), then written.

    Off the loop, the helper also restores the plan into a scratch database of its own and lets the
    format derive everything from it (`read_and_rehearse`), so the worker only writes the rows: the
    format's check of a big event is a second or two of CPU, and it would otherwise run inside the
    write transaction, holding up the loop and every writer waiting on SQLite's lock."""
    _check_pin(pin)
    if offload.off_loop():
        return _write(offload.run(read_and_rehearse, raw, limit_bytes()), pin, actor, rehearsed=True, copy=copy)
    return _write(offload.run(read_file, raw, limit_bytes()), pin, actor, copy=copy)


def read_file(raw: bytes, limit: int) -> _Plan:
    """A backup file's bytes read (`parse`, at most `limit` bytes) and checked completely, field by
    field, reference by reference, each game by its rules (`_read`): the plan of its rows. Pure."""
    return _read(_parse(raw, limit))


SCRATCH = {"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "scratch", "SCOREPAD_DEMO": False, "TESTING": True}


def _scratch_app() -> Flask:
    """An app with nothing but the database (in memory) and the languages: what a format's check
    reads and says (no blueprint, no live updates, no request)."""
    from scorepad import i18n

    app = Flask("scorepad.rehearsal")
    app.config.update(SCRATCH)
    db.init_app(app)
    i18n.init_app(app)
    return app


def read_and_rehearse(raw: bytes, limit: int) -> _Plan:
    """`read_file`, then the plan restored into a scratch database (an app of the helper process's
    own, in memory, made for this job alone) and derived there by the event's format exactly as
    `_write` does before a commit: BackupError with the format's words, else the plan. Run by the
    offload helper, never on the worker's loop (it makes an app)."""
    plan = read_file(raw, limit)
    app = _scratch_app()
    with app.app_context():
        db.create_all()
        try:
            _write(plan, "", "director", commit=False)
        finally:
            db.session.remove()
            for engine in db.engines.values():
                engine.dispose()
    return plan


def _check_pin(pin: str) -> None:
    if pin and not valid_pin(pin):
        raise BackupError([M("the new PIN is 4 to 8 digits (or leave it empty)")], field="pin")


def _match_ids(event: Event, matches: Sequence[Mapping[str, Any]]) -> dict[int, int | None]:
    """The new row id of each match of the file, by its place there (counting from 1)."""
    written = {
        (stage, number, table): match_id
        for match_id, stage, number, table in db.session.execute(
            select(EventMatch.id, EventMatch.stage, EventMatch.number, EventMatch.table).where(
                EventMatch.event_id == event.id
            )
        )
    }
    return {i: written.get((m["stage"], m["number"], m["table"])) for i, m in enumerate(matches, start=1)}


def _copy_of(event: Event, copy: str) -> None:
    """A backup of an event already on this server (the same format, created at the same moment:
    restored before, or never deleted) becomes a copy that says so in its name, "Zone 3 (copy)",
    "(copy 2)" for the next, so a list of events never shows the same one twice; the original is
    left as it is. `event.copy_of` keeps the original's name for the restore's notice."""
    same = db.session.scalars(
        select(Event.name)
        .where(Event.format == event.format, Event.created_at == event.created_at, Event.id != event.id)
        .order_by(Event.id)
    ).all()
    if not same:
        return
    suffix = f" ({copy})" if len(same) == 1 else f" ({copy} {len(same)})"
    event.copy_of = same[0]
    event.name = event.name[: core.MAX_EVENT_NAME - len(suffix)].rstrip() + suffix


def _write(plan: _Plan, pin: str, actor: str, rehearsed: bool = False, commit: bool = True, copy: str = COPY) -> Event:
    """The plan's rows in one transaction, derived by the event's format before the commit
    (`rehearsed`: the helper did so in its scratch database already, `read_and_rehearse`; `commit`
    False: a rehearsal, rolled back).

    The rows of each section go in as one INSERT (a row object each cost the ORM 0.3 ms: 32,000
    results of a 64-table event of 500 hands were seconds). What the format derived to check them
    is forgotten after the commit too: kept, a 64-table event's 450,000 objects stayed in the
    worker for every restore, and each full pass of the garbage collector walked them all (4 clients
    restoring in a loop: passes of 2-7 s, bench/heavy_neighbours.py); the control room derives it
    again when it is opened."""
    event = Event(**plan.event)
    core.apply_pin(event, pin)
    games: list[Game] = []
    try:
        db.session.add(event)
        db.session.flush()
        if commit:
            _copy_of(event, copy)
        for raw in plan.games:
            game = Game(event_id=event.id, **{k: v for k, v in raw.items() if k != "hands"})
            games.append(game)
        db.session.add_all(games)
        db.session.flush()
        hands = [{**h, "game_id": game.id} for game, raw in zip(games, plan.games) for h in raw["hands"]]
        if hands:
            db.session.execute(insert(Hand), hands)
        ids: dict[int, int | None] = {}  # the matches' new ids by their place in the file (written before the audit)
        for section in SECTIONS:
            rows = [
                {
                    **{k: v for k, v in row.items() if k != GAME_REF},
                    "event_id": event.id,
                    **(
                        {"game_id": None if row[GAME_REF] is None else games[row[GAME_REF] - 1].id}
                        if GAME_REF in section.fields
                        else {}
                    ),
                }
                for row in plan.sections[section.key]
            ]
            if section.key == "audit" and plan.sections["matches"]:
                rows = [
                    {**row, "old": _match_moved(row["old"], ids), "new": _match_moved(row["new"], ids)} for row in rows
                ]
            if rows:
                db.session.execute(insert(section.model), rows)
            if section.key == "matches":
                ids = _match_ids(event, plan.sections["matches"])
        if not rehearsed:
            db.session.expire_all()  # the format reads the rows back as any later request will
            _derive(event)
        if not commit:
            _abandon(event, games)
            return event
        db.session.add(
            core.audit_entry(
                actor[:40],
                "restored",
                event_id=event.id,
                note=M(
                    "restored from a backup made %(when)s UTC: every link (director, tables, teams, scorers) is new",
                    when=f"{plan.exported_at:%Y-%m-%d %H:%M}",
                )
                if plan.exported_at
                else M("restored from a backup: every link (director, tables, teams, scorers) is new"),
            )
        )
        db.session.commit()
    except BackupError:
        _abandon(event, games)
        raise
    except (IntegrityError, DataError) as e:  # a bound or key the checks above missed: still no 500
        _abandon(event, games)
        current_app.logger.warning("a backup passed the checks but the database refused it: %s", e)
        raise BackupError([M("the database refused a value of the backup: it is not a file Scorepad made")]) from None
    _forget(event.id, [g.id for g in games])
    return event


def _derive(event: Event) -> None:
    """The event's format derives everything from the rows just written (`EventFormat.check`):
    what play could not have left is refused with the format's words."""
    fmt = get_format(event.format)
    try:
        fmt.check(event)
    except RuleErrors as e:
        raise BackupError(
            [M("the records do not fit together: %(problem)s", problem=_said(err)) for err in e.errors]
        ) from None
    except RuleError as e:
        raise BackupError([M("the records do not fit together: %(problem)s", problem=_said(e))]) from None
    except SQLAlchemyError:
        raise
    except Exception as e:
        raise BackupError(
            [
                M(
                    "the records do not fit together: the %(format)s standings cannot be derived from them (%(error)s)",
                    format=fmt.title,
                    error=f"{type(e).__name__} {quoted(str(e))}",
                )
            ]
        ) from None


def _abandon(event: Event, games: list[Game]) -> None:
    """Roll the restore back, then forget what was cached under its row ids (read without a query:
    the session may be failed)."""
    event_key = inspect(event).identity
    game_ids = [key[0] for key in (inspect(g).identity for g in games) if key is not None]
    db.session.rollback()
    if event_key is not None:
        _forget(int(event_key[0]), game_ids)


def _forget(event_id: int, game_ids: list[int]) -> None:
    """Drop what the formats cached for these row ids while checking: an id rolled back is given
    again (SQLite), and a cache keyed by it must not answer for another event or game. Each
    format says what it keeps (`EventFormat.forget`); every one is asked, whatever the format of
    the event restored."""
    for fmt in all_formats():
        fmt.forget(event_id, game_ids)
