"""The event core, shared by every format: look-ups by link, the director's PIN, the tables' QR
tokens, the audit trail. Each format's own service (`military`, `bid_whist`, `drive`, `club`)
writes its results through here; `registry.get_format(event.format)` finds it."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import zoneinfo
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, TypeVar

from flask import current_app
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import bindparam, case, func, or_, select, update
from sqlalchemy.orm import joinedload
from werkzeug.security import check_password_hash, generate_password_hash

from scorepad import live
from scorepad.extensions import db
from scorepad.form_input import valid_pin
from scorepad.games.results import EventResults
from scorepad.models import (
    CARD_CODE_LENGTH,
    DIRECTOR_CODE_LENGTH,
    AuditEntry,
    Event,
    EventEntrant,
    EventMatch,
    EventTable,
    Game,
    ReportedResult,
    new_card_code,
    new_director_code,
    new_token,
    typed_code,
    utcnow,
)
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.errors import M, Message, as_said

T = TypeVar("T")

# The rows the services hand to the views, named here for the views' types: views never query them.
__all__ = ["Event", "EventEntrant", "EventTable", "Game"]

MAX_EVENT_NAME = 120
PIN_TRIES, PIN_WINDOW = 10, timedelta(minutes=10)
WRONG_PIN = "wrong PIN"
PRINT_SALT = "scorepad.qr-sheet"


@dataclass(frozen=True)
class TablePage:
    """What a table's QR code opens: the scoring page of the home game the table plays now (`game`),
    the set-up of the game it is about to play (`set_up`), or else the format's own table page,
    shown with `context`."""

    context: Mapping[str, object] = field(default_factory=dict)
    game: Game | None = None
    set_up: bool = False


class EventFormat(Protocol):
    key: str  # stored in Event.format
    title: str  # what players call it: "Military Whist", "Whist drive"
    pages: str  # its template folder, and the name of the blueprint of its own routes
    # `board` gives the very same view object while nothing on it changed, so a push drawn from it
    # is not rendered again (views/board.py)
    keeps_board: bool
    # what the round timer's minutes are for: "hand" (a Military Whist hand) or "round"
    timer_per: str

    def room(self, event: Event) -> dict[str, object]:
        """What the director's control room shows (the template context)."""

    def board(self, event: Event) -> dict[str, object]:
        """What the projector, the players' standings and every live push show."""

    def table(self, table: EventTable) -> TablePage:
        """What the table's QR code opens now."""

    def teams(self, event: Event) -> list[EventEntrant]:
        """The entrants that get a QR card of their own besides the tables' (none in most formats)."""

    def status(self, event: Event) -> str:
        """Where the event stands, in a few words for a list of events ("Hand 5 of 30", "Finished")."""

    def export(self, event: Event) -> dict[str, object]:
        """The whole event as JSON (`/b/<id>/event.json`)."""

    def check(self, event: Event) -> None:
        """RuleErrors unless the event's rows are a state its own play could have left, and every
        page can be derived from them: a restored backup is checked so before it is committed
        (events/backup.py)."""

    def forget(self, event_id: int, game_ids: Sequence[int]) -> None:
        """Drop what the format keeps per app under these row ids: a restore that was rolled back
        leaves ids that SQLite gives again, and a kept value must not answer for another event."""

    def players(self, event: Event) -> EventResults:
        """Each player's or team's own results page (issue 30): every hand, where, against whom,
        what it scored, the running total and the place."""

    def game_signals(self, game: Game, orders: bool, ended: bool) -> Signals:
        """Which of the event's screens follow a committed change to one of its games (`orders`:
        hands already recorded changed; `ended`: the hand saved ended the game)."""

    def table_stamp(self, table: EventTable) -> str | None:
        """What the table's panel was drawn from, read without deriving anything: a panel fetched
        again with the stamp it shows (`?since=`) is answered 204 while it is the same, so a table
        asking every few seconds while it waits costs a query, not a page. None: no such stamp."""


@dataclass(frozen=True)
class Signals:
    """What an event's pages hear of a change (see `announce`)."""

    orders: bool = False  # the hand in play or its orders changed: the table phones fetch their panel
    table: int | None = None  # the change is this table's alone
    teams: tuple[int, ...] = ()  # ... and these teams' own pages'
    timer: bool = False  # only the round timer changed: its clocks fetch it again, nothing else


def announce(event: Event, signals: Signals = Signals()) -> None:
    """Tell every open page of the event, in every worker, that it changed (what each draws is
    `pushes.boards.show`'s). Each write to an event calls this once it is committed. `table`: the
    change is that table's alone (a signature): its bar hears `table-<n>` and its teams' own pages
    `team-<number>`, the others nothing but `changed`, so 64 bars and 128 team pages do not all ask
    again for one table's signature."""
    data: dict[str, object] = {"hand": event.current_hand, "orders": signals.orders}
    if signals.table is not None:
        data["table"] = signals.table
        data["teams"] = [number for number in signals.teams if number]  # 0: the ghost team of a bye
    if signals.timer:
        data["timer"] = True
    live.announce("event", event.public_id, data)


class OneView:
    """The usual shape of an EventFormat: the control room, the boards and the table page all show
    one view of the event, derived by `view` and named `view_name` in the templates; no team cards."""

    view_name: str
    keeps_board = False
    timer_per = "round"

    def view(self, event: Event) -> object:
        raise NotImplementedError

    def room(self, event: Event) -> dict[str, object]:
        return {self.view_name: self.view(event)}

    def board(self, event: Event) -> dict[str, object]:
        return {self.view_name: self.view(event)}

    def table(self, table: EventTable) -> TablePage:
        return TablePage({self.view_name: self.view(table.event)})

    def teams(self, event: Event) -> list[EventEntrant]:
        return []

    def forget(self, event_id: int, game_ids: Sequence[int]) -> None:
        """Nothing kept per app (a format that keeps something says what)."""

    def game_signals(self, game: Game, orders: bool, ended: bool) -> Signals:
        """A game's change concerns the whole event (its boards, its control room)."""
        return Signals(orders=orders)

    def table_stamp(self, table: EventTable) -> str | None:
        return None

    def check(self, event: Event) -> None:
        """Derive what the control room, the boards and the export show (a format adds its own
        checks of the rows before this)."""
        self.room(event)
        self.board(event)
        self.export(event)


def hold(event: Event, *more: str) -> None:
    """Write what the session holds, then read the event's row again (`current_hand`, `revision`
    and `more`), held until the commit: a write whose check depends on more than its own row checks
    against what another device or worker committed since this request read the event, and one
    that comes after waits for it. PostgreSQL: FOR NO KEY UPDATE, which the inserts of the event's
    rows (KEY SHARE) do not wait for; SQLite has one writer, and the flush made it this one."""
    db.session.flush()
    db.session.refresh(event, ["current_hand", "revision", *more], with_for_update={"key_share": True})


def games_of(event: Event) -> list[Game]:
    """Every game played at the event (a club night's, a tournament's matches'), in the order made."""
    return list(db.session.scalars(select(Game).where(Game.event_id == event.id).order_by(Game.id)))


def unused(event: Event, *kinds: str) -> list[RuleError]:
    """A refusal for each kind of row (a relationship of Event) a format never keeps but the event has."""
    return [
        RuleError(
            kind,
            M("1 row of %(kind)s, which this format never keeps", kind=kind.replace("_", " "))
            if len(getattr(event, kind)) == 1
            else M(
                "%(count)s rows of %(kind)s, which this format never keeps",
                count=len(getattr(event, kind)),
                kind=kind.replace("_", " "),
            ),
        )
        for kind in kinds
        if getattr(event, kind)
    ]


class Conflict(Exception):
    """The action clashes with what is already recorded (a second entry, a hand already closed)."""

    def __init__(self, message: str, result: ReportedResult | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.result = result


ZONE_MAX = 64  # Event.time_zone's column: the longest IANA name is 32 characters


@functools.cache
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def time_zone(raw: str) -> str | None:
    """The zone a set-up form gave, as typed (white space trimmed); None when left empty."""
    return raw.strip() or None


def zone_errors(zone: str | None) -> list[RuleError]:
    """An event's time zone must be an IANA name the server's zone database holds (zoneinfo), such
    as the director's browser sends ("America/Edmonton"); none is fine (the server's is used)."""
    if zone is None or zone in _zones():
        return []
    return [
        RuleError(
            "time_zone",
            M(
                "that is not a time zone this server knows (the field shows what was sent): give a name "
                "such as America/Edmonton or Europe/Paris, or leave it empty for the server's"
            ),
        )
    ]


def setup_errors(name: str, pin: str, missing: str | Message, zone: str | None = None) -> list[RuleError]:
    """What every format's set-up checks the same way: the event's name (`missing` says what to
    give when it is empty), the optional director's PIN and the optional time zone."""
    errors: list[RuleError] = zone_errors(zone)
    if not name:
        errors.append(RuleError("name", missing))
    elif len(name) > MAX_EVENT_NAME:
        errors.append(
            RuleError("name", M("the event's name is too long: at most %(most)s characters", most=MAX_EVENT_NAME))
        )
    if pin and not valid_pin(pin):
        errors.append(RuleError("pin", M("the PIN is 4 to 8 digits (or leave it empty)")))
    return errors


_BY_PUBLIC_ID = select(Event).where(Event.public_id == bindparam("public_id"))  # every board request's


def by_public_id(public_id: str) -> Event | None:
    return db.session.scalars(_BY_PUBLIC_ID, {"public_id": public_id}).first()


def by_director_token(token: str) -> Event | None:
    """The event whose director link carries `token` (compared in constant time)."""
    event = db.session.scalars(select(Event).where(Event.director_token == token)).first()
    return event if event is not None and hmac.compare_digest(event.director_token, token) else None


# Built once, with the table's event in the same query: every request of a table's phone starts here
_TABLE_BY_TOKEN = select(EventTable).where(EventTable.token == bindparam("token")).options(joinedload(EventTable.event))


def table_by_token(token: str) -> EventTable | None:
    """The table whose QR code carries `token` (compared in constant time)."""
    table = db.session.scalars(_TABLE_BY_TOKEN, {"token": token}).first()
    return table if table is not None and hmac.compare_digest(table.token, token) else None


def _by_code(model: type[T], column: Any, raw: str, length: int) -> T | None:
    """The row whose short code is `raw` as typed (see `typed_code`), compared in constant time."""
    code = typed_code(raw, length)
    if code is None:
        return None
    row = db.session.scalars(select(model).where(column == code)).first()
    return row if row is not None and hmac.compare_digest(getattr(row, column.key) or "", code) else None


def by_director_code(raw: str) -> Event | None:
    """The event whose director's short link (`/d/<code>`) carries `raw`."""
    return _by_code(Event, Event.director_code, raw, DIRECTOR_CODE_LENGTH)


def table_by_short_code(raw: str) -> EventTable | None:
    """The table whose card's short link (`/t/<code>`) carries `raw`."""
    return _by_code(EventTable, EventTable.short_code, raw, CARD_CODE_LENGTH)


def entrant_by_short_code(raw: str) -> EventEntrant | None:
    """The team whose card's short link (`/team/<code>`) carries `raw`."""
    return _by_code(EventEntrant, EventEntrant.short_code, raw, CARD_CODE_LENGTH)


def give_short_codes(event: Event) -> None:
    """Give the event, its tables and its teams the short links they lack (rows made by older code
    than migration 0008's, which gave every row of its time one): committed only when one was missing."""
    missing = False
    if event.director_code is None:
        event.director_code, missing = new_director_code(), True
    rows: list[EventTable | EventEntrant] = [*event.tables, *event.entrants]
    for row in rows:
        if row.short_code is None:
            row.short_code, missing = new_card_code(), True
    if missing:
        db.session.commit()


def by_director_tokens(tokens: list[str]) -> list[Event]:
    """The events whose director's links are `tokens` (a browser's own list: see views/director.py),
    in that order; tokens of deleted events are left out."""
    if not tokens:
        return []
    found = {e.director_token: e for e in db.session.scalars(select(Event).where(Event.director_token.in_(tokens)))}
    return [found[t] for t in tokens if t in found]


def print_token(event: Event) -> str:
    """The address of the event's printable QR sheet: it opens that sheet and nothing else, so a
    browser's printed header or footer carries it, never the director's secret link."""
    return URLSafeSerializer(current_app.secret_key, salt=PRINT_SALT).dumps(event.public_id)


def print_token_public_id(token: str) -> str | None:
    """The public id a printable sheet's address was made for (its event may be gone since)."""
    try:
        public_id = URLSafeSerializer(current_app.secret_key, salt=PRINT_SALT).loads(token)
    except BadSignature:
        return None
    return public_id if isinstance(public_id, str) else None


def by_print_token(token: str) -> Event | None:
    public_id = print_token_public_id(token)
    return by_public_id(public_id) if public_id is not None else None


def table_of(event: Event, table: int) -> EventTable:
    row = next((t for t in event.tables if t.number == table), None)
    if row is None:
        raise RuleErrors(
            [
                RuleError(
                    "table",
                    M("there is no table %(table)s: tables are 1 to %(most)s", table=table, most=len(event.tables)),
                )
            ]
        )
    return row


def pin_stamp(event: Event) -> str:
    """A short fingerprint of the PIN's stored hash: a browser unlocked with an older PIN no longer matches.

    Each save salts the hash anew, so setting a PIN (even the same one) locks out every other browser."""
    if event.director_pin is None:
        return ""
    return hashlib.sha256(event.director_pin.encode()).hexdigest()[:16]


class PinLocked(Exception):
    """Too many wrong PINs lately: the event's unlock page refuses every PIN for a while."""

    def __init__(self, wait: timedelta) -> None:
        minutes = max(1, -(-int(wait.total_seconds()) // 60))
        self.message = (
            M("Too many wrong PINs: try again in 1 minute, or open it with the recovery code.")
            if minutes == 1
            else M(
                "Too many wrong PINs: try again in %(minutes)s minutes, or open it with the recovery code.",
                minutes=minutes,
            )
        )
        super().__init__(str(self.message))


def _take_a_try(event: Event) -> None:
    """Count one PIN try against the event, or raise PinLocked when PIN_TRIES were made in the window.

    One conditional UPDATE, committed before the PIN is checked: the database serialises it, so
    tries arriving at once on several workers cannot all read "9 so far" and pass together."""
    now = utcnow().replace(tzinfo=None)  # stored naive, in UTC
    fresh = or_(Event.pin_tries_since.is_(None), Event.pin_tries_since <= now - PIN_WINDOW)
    taken = db.session.execute(
        update(Event)
        .where(Event.id == event.id, or_(fresh, Event.pin_tries < PIN_TRIES))
        .values(
            pin_tries=case((fresh, 1), else_=Event.pin_tries + 1),
            pin_tries_since=case((fresh, now), else_=Event.pin_tries_since),
        )
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
    db.session.refresh(event)
    if not taken.rowcount:  # type: ignore[attr-defined]
        since = event.pin_tries_since or now
        raise PinLocked(aware(since) + PIN_WINDOW - utcnow())


def _clear_tries(event: Event) -> None:
    db.session.execute(
        update(Event)
        .where(Event.id == event.id)
        .values(pin_tries=0, pin_tries_since=None)
        .execution_options(synchronize_session=False)
    )


def unlock(event: Event, pin: str) -> bool:
    """Check the director's PIN: PinLocked after PIN_TRIES tries within PIN_WINDOW (the right PIN
    clears the count).

    The count is held on the event's row (see `_take_a_try`); each wrong PIN is also written in the
    audit trail, so the director sees the attempts. Neither changes the event's revision.
    """
    if event.director_pin is None:
        return True
    _take_a_try(event)
    if check_password_hash(event.director_pin, pin):
        _clear_tries(event)
        db.session.commit()
        return True
    db.session.add(
        audit_entry(
            "a browser",
            WRONG_PIN,
            event_id=event.id,
            note=M(
                "wrong PIN: %(tries)s of %(allowed)s tries allowed in %(minutes)s minutes",
                tries=event.pin_tries,
                allowed=PIN_TRIES,
                minutes=int(PIN_WINDOW.total_seconds() // 60),
            ),
        )
    )
    db.session.commit()
    return False


def new_recovery_code() -> str:
    """80 random bits in 16 letters and digits that cannot be misread (no 0/O, 1/I/L), as 4 groups."""
    alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    raw = "".join(secrets.choice(alphabet) for _ in range(16))
    return "-".join(raw[i : i + 4] for i in range(0, 16, 4))


def _recovery_hash(code: str) -> str:
    """A fast hash is enough: the code is long and random, so it cannot be guessed try by try."""
    plain = "".join(ch for ch in code.upper() if ch.isalnum())
    return hashlib.sha256(f"scorepad.recovery:{plain}".encode()).hexdigest()


def apply_pin(event: Event, pin: str) -> None:
    """Store `pin` (hashed) with a new recovery code, kept on the object as `recovery_code` for this
    request to show once (views/director.py); an empty PIN removes both. Every browser opened under
    the old PIN must enter the new one (see `pin_stamp`)."""
    if not pin:
        event.director_pin = event.pin_recovery = None
        return
    code = new_recovery_code()
    event.director_pin = generate_password_hash(pin)
    event.pin_recovery = _recovery_hash(code)
    event.recovery_code = code


def recover(event: Event, code: str) -> bool:
    """Open the event with its recovery code, even while wrong PINs hold the lock (the lock is
    cleared): the code is used up and a new one made (`recovery_code`, shown once). False for a
    wrong code.

    Not counted against the PIN's tries: an attacker's wrong PINs must not lock the director out,
    and 80 random bits cannot be found by trying."""
    if event.pin_recovery is None or len(code) > 40:
        return False
    if not hmac.compare_digest(_recovery_hash(code), event.pin_recovery):
        return False  # not written down: wrong codes cost a hash, and would fill the audit trail
    fresh = new_recovery_code()
    event.pin_recovery = _recovery_hash(fresh)
    event.recovery_code = fresh
    _clear_tries(event)
    audit(event, "director", "recovery code", note=M("opened with the recovery code: a new code was shown"))
    db.session.commit()
    return True


def set_pin(event: Event, pin: str) -> None:
    """Change (or remove) the PIN, with a new recovery code to show once (see `apply_pin`)."""
    if pin and not valid_pin(pin):
        raise RuleErrors([RuleError("pin", M("the PIN is 4 to 8 digits (or leave it empty to remove it)"))])
    apply_pin(event, pin)
    audit(event, "director", "pin", note=M("PIN set") if pin else M("PIN removed"))
    db.session.commit()
    announce(event, Signals(orders=True))  # the other browsers' control rooms ask again, and find it locked


def regenerate_token(event: Event, table: int) -> EventTable:
    """A new secret for table `table`'s QR code: the old link and the old short link stop working at
    once, and so do the scoring links of the games played at that table (a phone that scanned the old card kept the
    game's page, not the card's)."""
    row = table_of(event, table)
    row.token = new_token()
    row.short_code = new_card_code()  # the card's short link grants what its QR code grants
    row.token_issued_at = utcnow()
    for game in _table_games(event, row):
        revoke_scorer_link(game)
    audit(event, "director", "new QR code", table=table, note=M("table %(table)s's QR code replaced", table=table))
    db.session.commit()
    return row


def _table_games(event: Event, row: EventTable) -> list[Game]:
    """The games scored at a table: its club-night game, its tournament matches."""
    found = [m.game for m in event.matches if m.table == row.number and m.game is not None]
    if row.game_id is not None:
        found.append(db.session.get(Game, row.game_id))
    return [g for g in found if g is not None]


def table_playing(event: Event, game: Game) -> int | None:
    """The number of the club-night table whose game this is, or None."""
    return next((t.number for t in event.tables if t.game_id == game.id), None)


def revoke_scorer_link(game: Game) -> None:
    """Give a game a new scorer's link: the old one answers 404 from now on (the spectators' stays)."""
    game.scorer_token = new_token()


AUDIT_NOTE_MAX = 300  # AuditEntry.note's column


def audit_entry(actor: str, action: str, *, note: str = "", **fields: Any) -> AuditEntry:
    """An audit entry: its note's English (cut to its column) and, when the note is a `Message`, the
    message beside it (`said`), so the control rooms say it in the reader's language."""
    english = str(note)
    if len(english) > AUDIT_NOTE_MAX:
        english = english[: AUDIT_NOTE_MAX - 1] + "…"
    return AuditEntry(
        actor=actor, action=action, note=english, said=as_said(note) if isinstance(note, Message) else None, **fields
    )


def audit(
    event: Event,
    actor: str,
    action: str,
    *,
    hand: int | None = None,
    table: int | None = None,
    old: dict[str, object] | None = None,
    new: dict[str, object] | None = None,
    note: str = "",
) -> None:
    db.session.add(audit_entry(actor, action, event_id=event.id, hand=hand, table=table, old=old, new=new, note=note))
    event.revision += 1
    event.updated_at = utcnow()


AUDIT_PAGE = 50  # entries on a page of the whole audit trail


@dataclass(frozen=True)
class AuditPage:
    """One page of an event's audit trail, newest first: `page` of `pages` (from 1), the `total`
    entries (of `table` alone when given), and the tables the trail names, to filter by."""

    entries: list[AuditEntry]
    page: int
    pages: int
    total: int
    table: int | None
    tables: list[int]

    @property
    def first(self) -> int:
        """The number of this page's first (newest) entry, counting from the oldest as 1."""
        return self.total - (self.page - 1) * AUDIT_PAGE


def audit_page(event: Event, page: int = 1, table: int | None = None) -> AuditPage | None:
    """A page of the event's whole audit trail (of one table's entries when `table` is given),
    newest first, read a page at a time; None for a page or a table the trail does not have."""
    tables = sorted(
        db.session.scalars(
            select(AuditEntry.table).where(AuditEntry.event_id == event.id, AuditEntry.table.is_not(None)).distinct()
        )
    )
    if table is not None and table not in tables:
        return None
    where = [AuditEntry.event_id == event.id] + ([AuditEntry.table == table] if table is not None else [])
    total = db.session.scalar(select(func.count(AuditEntry.id)).where(*where)) or 0
    pages = max(1, -(-total // AUDIT_PAGE))
    if not 1 <= page <= pages:
        return None
    entries = db.session.scalars(
        select(AuditEntry)
        .where(*where)
        .order_by(AuditEntry.id.desc())  # as written: the order the control rooms list
        .limit(AUDIT_PAGE)
        .offset((page - 1) * AUDIT_PAGE)
    )
    return AuditPage(list(entries), page, pages, total, table, [t for t in tables if t is not None])


def aware(moment: datetime) -> datetime:
    """SQLite gives naive datetimes back: they were stored in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def event_of(game: Game) -> Event | None:
    """The event a game is played at (a tournament's match, a club night's table), or None."""
    return db.session.get(Event, game.event_id) if game.event_id is not None else None


def match_of(game: Game) -> EventMatch | None:
    """The tournament match played in `game`, or None."""
    return db.session.scalars(select(EventMatch).where(EventMatch.game_id == game.id)).first()


def end_session() -> None:
    """Close the database session (rolling back what it had not committed): work done off a request
    (a background push), or a request whose write the database refused."""
    db.session.remove()
