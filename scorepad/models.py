"""Database rows: what people entered, never what is derived from it.

A game stores its variant key, options and who plays; each hand stores the entry exactly as made
(the same JSON mapping the rules engine and the game-record format read). Totals, standings and
state are always recomputed from these facts by `scorepad.rules`.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, ForeignKey, LargeBinary, String, UniqueConstraint, event
from sqlalchemy.orm import Mapped, Session, attributes, mapped_column, relationship

from scorepad.extensions import db
from scorepad.rules.record import NAME_MAX


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_token() -> str:
    """A long random URL-safe token (used in links that must not be guessed)."""
    return secrets.token_urlsafe(24)


SHORT_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: read aloud or typed without mix-ups


GAME_CODE_LENGTH = 8  # a game's spectator link (`/s/<code>`): read-only
CARD_CODE_LENGTH = 10  # a table's or a team's card: about 49.5 random bits
DIRECTOR_CODE_LENGTH = 12  # the director's own link: about 59 random bits


def new_short_code(length: int = GAME_CODE_LENGTH) -> str:
    """The code of a short link to type: `length` characters of SHORT_ALPHABET (log2 31, about 4.95
    random bits each). 8 for a game's spectator link (`/s/<code>`, read-only); the links that grant
    what a secret link grants are longer: CARD_CODE_LENGTH, DIRECTOR_CODE_LENGTH."""
    return "".join(secrets.choice(SHORT_ALPHABET) for _ in range(length))


TYPED_DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2212"  # a phone's keyboard may make "-" an en dash


def typed_code(raw: str, length: int) -> str | None:
    """A short link's code as typed ("K7M2-X9QP-AB") as it is stored ("k7m2x9qpab"): any case,
    hyphens, dashes and spaces left out. None when it cannot be a code of `length` characters of
    SHORT_ALPHABET: nothing is looked up for it (a full token is never one: it is 32 characters)."""
    if len(raw) > 4 * length:
        return None
    code = "".join(ch for ch in raw if not ch.isspace() and ch not in TYPED_DASHES).lower()
    if len(code) != length or any(ch not in SHORT_ALPHABET for ch in code):
        return None
    return code


def new_card_code() -> str:
    """The short link printed under a table's or a team's QR code (`/t/<code>`, `/team/<code>`)."""
    return new_short_code(CARD_CODE_LENGTH)


def new_director_code() -> str:
    """The short link the director sends to another device of theirs (`/d/<code>`)."""
    return new_short_code(DIRECTOR_CODE_LENGTH)


class Game(db.Model):  # type: ignore[name-defined]
    """One game of one variant, from set-up to its last hand."""

    __tablename__ = "game"

    id: Mapped[int] = mapped_column(primary_key=True)
    # Two links: the spectators' (read-only) and the scorer's (may enter and correct hands).
    public_id: Mapped[str] = mapped_column(String(40), unique=True, default=new_token)
    scorer_token: Mapped[str] = mapped_column(String(48), unique=True, default=new_token)
    # The short spectator link shown beside the QR code; games made before it get one when shared.
    short_code: Mapped[str | None] = mapped_column(String(12), unique=True, index=True, default=new_short_code)
    variant: Mapped[str] = mapped_column(String(30))
    title: Mapped[str] = mapped_column(String(120), default="")
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    players: Mapped[list[str]] = mapped_column(JSON, default=list)
    teams: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    first_dealer: Mapped[int] = mapped_column(default=0)
    is_demo: Mapped[bool] = mapped_column(default=False)
    # The hand being entered (bids so far), kept so a refresh or a dropped connection loses nothing.
    pending: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    rematch_of_id: Mapped[int | None] = mapped_column(ForeignKey("game.id", ondelete="SET NULL"))
    # A game played at an event (a Bid Whist match, a club night table): the event's pages find it,
    # and once both teams have signed it (or the director closed it) it is locked against changes.
    event_id: Mapped[int | None] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True, default=None)
    locked_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    # Every write to the game row is conditional on the revision it read (the ORM's version counter):
    # two phones writing from the same state at the same moment cannot both succeed, whichever
    # worker or process took each request.
    revision: Mapped[int] = mapped_column(default=0, server_default="0")
    __mapper_args__ = {"version_id_col": revision}
    # Moved by every change to the recorded hands (an entry, an undo, a correction; hands_changed()
    # below), never by a tap on the hand in hand: a worker keeps the game's derived sheet under it
    # (games/derived.py), so taps and boards reuse it instead of replaying the game.
    hands_revision: Mapped[int] = mapped_column(default=0, server_default="0")
    # The taps of the game that can be undone, newest last, and those undone that can be redone
    # (games/undo.py): each says what it did and the hand-in-hand state before and after it.
    undo_log: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    redo_log: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)

    hands: Mapped[list[Hand]] = relationship(
        back_populates="game", order_by="Hand.number", cascade="all, delete-orphan"
    )


SCORERS_MAX = 3  # scorers' links a home game has open at once (another phone each)
SCORER_LINKS_MAX = 12  # scorers' links a game is ever given, those taken back included


class GameScorer(db.Model):  # type: ignore[name-defined]
    """A scorer's link of a home game (issue 30, item 4): another phone enters, undoes and corrects
    hands with it, never shares, deletes or hands the game on. Taken back (`revoked_at`), the row
    stays so that its link says scoring was handed back. Numbered per game, so two links made at
    the same moment cannot both pass the caps: the second is refused by the unique key."""

    __tablename__ = "game_scorer"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]  # 1 to SCORER_LINKS_MAX: "Scorer's link 2"
    # "token" alone would name its unique key as the game's own scorer_token's: uq_game_scorer_token
    link_token: Mapped[str] = mapped_column(String(48), unique=True, default=new_token)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)


class Hand(db.Model):  # type: ignore[name-defined]
    """One hand as entered: the raw entry, its number in the game, and when it was entered."""

    __tablename__ = "hand"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    entered_at: Mapped[datetime] = mapped_column(default=utcnow)
    corrected_at: Mapped[datetime | None] = mapped_column(default=None)

    game: Mapped[Game] = relationship(back_populates="hands")


@event.listens_for(Session, "before_flush")
def hands_changed(session: Session, _context: object, _instances: object) -> None:
    """Move `Game.hands_revision` of every game whose recorded hands this flush changes (a hand
    added, edited or removed, however it was done), so a sheet kept under the old revision is
    never served for the new hands."""
    changed: set[Game] = set()
    with session.no_autoflush:
        for obj in (*session.new, *session.dirty, *session.deleted):
            if isinstance(obj, Hand) and (obj not in session.dirty or session.is_modified(obj)):
                game = obj.game if obj.game is not None else session.get(Game, obj.game_id)
                if game is not None:
                    changed.add(game)
            elif (
                isinstance(obj, Game)
                and obj in session.dirty
                and attributes.get_history(obj, "hands", attributes.PASSIVE_NO_INITIALIZE).has_changes()
            ):  # never loads the hands
                changed.add(obj)
    for game in changed:
        if game not in session.deleted and attributes.instance_state(game).has_identity:
            game.hands_revision = (game.hands_revision or 0) + 1


# --------------------------------------------------------------------------- groups


GROUP_NAME_MAX = 60  # a group's name ("The Tuesday club at the Red Lion")


class Group(db.Model):  # type: ignore[name-defined]
    """Players who come back to the table together (a family, a Tuesday club): their games and who
    played in each. No accounts: whoever has the group's secret link (`token`) keeps it."""

    __tablename__ = "player_group"  # "group" is a word of SQL

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(48), unique=True, default=new_token)
    # The group's code to type under "Watch a game" (issue 31): it opens what the link does, so it is
    # as long as a card's (CARD_CODE_LENGTH), not a spectator's 8.
    short_code: Mapped[str | None] = mapped_column(String(12), unique=True, index=True, default=new_card_code)
    name: Mapped[str] = mapped_column(String(GROUP_NAME_MAX))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    players: Mapped[list[GroupPlayer]] = relationship(
        back_populates="group", order_by="GroupPlayer.key", cascade="all, delete-orphan"
    )


class GroupPlayer(db.Model):  # type: ignore[name-defined]
    """One person of a group, under the name the group gives them now; or, when `merged_into_id` is
    set, another spelling of that person ("Granny" merged into "Gran"): an alias, which a game's
    name finds as it finds the person's own. `key` makes a name unique in the group whatever its
    case, players and aliases together, by one unique key the database holds."""

    __tablename__ = "group_player"
    __table_args__ = (UniqueConstraint("group_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("player_group.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))  # as a game's names
    key: Mapped[str] = mapped_column(String(3 * NAME_MAX))  # the name case-folded (at most 3 code points a character)
    merged_into_id: Mapped[int | None] = mapped_column(
        ForeignKey("group_player.id", ondelete="CASCADE"), index=True, default=None
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    group: Mapped[Group] = relationship(back_populates="players")


class KeptGame(db.Model):  # type: ignore[name-defined]
    """A game kept in a group's history: a game is in at most one group (its unique key). A row of
    its own rather than a column of `game`, so the game's row (and a migration on SQLite, which
    would copy it) is left alone."""

    __tablename__ = "group_game"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("player_group.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), unique=True)
    kept_at: Mapped[datetime] = mapped_column(default=utcnow)


class GameSeat(db.Model):  # type: ignore[name-defined]
    """Who of the group played in column `sheet_column` of a game's score sheet: one row per player
    (a partnership's column has one per named partner). The link, never a copy of the name: renaming
    or merging a player changes the group's whole history at once."""

    __tablename__ = "game_seat"
    __table_args__ = (UniqueConstraint("game_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    sheet_column: Mapped[int]
    player_id: Mapped[int] = mapped_column(ForeignKey("group_player.id", ondelete="CASCADE"), index=True)


class ClubEvent(db.Model):  # type: ignore[name-defined]
    """An event whose players come from a group's members, its club roster (issue 30, item 2): the
    director links it with the group's link or code. One club an event; a row of its own, so the
    event's row, its backup and the game record know nothing of groups. Table `club_event`."""

    __tablename__ = "club_event"

    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("player_group.id", ondelete="CASCADE"), index=True)
    linked_at: Mapped[datetime] = mapped_column(default=utcnow)


# --------------------------------------------------------------------------- events


class Event(db.Model):  # type: ignore[name-defined]
    """A tournament run by a director: tables with their own secret links, hands opened in turn.

    `current_hand` is the hand open for entry (results of earlier hands are all in); past the
    schedule it stays at scheduled + 1 while playoff hands are recorded.
    """

    __tablename__ = "event"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(40), unique=True, default=new_token)  # the board's link
    director_token: Mapped[str] = mapped_column(String(48), unique=True, default=new_token)
    # The director's short link (`/d/<code>`), redirecting to `director_token`'s; grants what it grants.
    director_code: Mapped[str | None] = mapped_column(String(12), unique=True, index=True, default=new_director_code)
    director_pin: Mapped[str | None] = mapped_column(String(200), default=None)  # a password hash
    # PIN tries in the window that began at `pin_tries_since`: counted by one conditional UPDATE, so
    # concurrent tries on several workers cannot pass the limit (events/core.py `unlock`).
    pin_tries: Mapped[int] = mapped_column(default=0, server_default="0")
    pin_tries_since: Mapped[datetime | None] = mapped_column(default=None)
    pin_recovery: Mapped[str | None] = mapped_column(String(64), default=None)  # SHA-256 of the recovery code
    # The recovery code itself, on the object only for the request that made it (to be shown once).
    recovery_code: ClassVar[str | None] = None
    # A restored backup's event that this server already held: the original's name (events/backup.py).
    copy_of: ClassVar[str | None] = None
    name: Mapped[str] = mapped_column(String(120))
    format: Mapped[str] = mapped_column(String(30), default="military")
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    auto_advance: Mapped[bool] = mapped_column(default=False)
    late_minutes: Mapped[int] = mapped_column(default=12)
    current_hand: Mapped[int] = mapped_column(default=1)
    # Bumped by every change to the complete hands (advance, correction, playoff): derived
    # standings are cached per revision, so entries to the hand in play do not replay the event.
    revision: Mapped[int] = mapped_column(default=0)
    is_demo: Mapped[bool] = mapped_column(default=False)
    # When the director started play: registration is closed from then on (Bid Whist, whist drive).
    started_at: Mapped[datetime | None] = mapped_column(default=None)
    # When the director archived it: off the home page's lists, its pages kept (None: not archived).
    archived_at: Mapped[datetime | None] = mapped_column(default=None)
    # The IANA zone its times are shown in ("America/Edmonton"), chosen at its creation; None (the
    # events made before migration 0018): the server's, SCOREPAD_TZ else the machine's.
    time_zone: Mapped[str | None] = mapped_column(String(64), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    tables: Mapped[list[EventTable]] = relationship(
        back_populates="event", order_by="EventTable.number", cascade="all, delete-orphan"
    )
    hands: Mapped[list[OpenedHand]] = relationship(
        back_populates="event", order_by="OpenedHand.number", cascade="all, delete-orphan"
    )
    results: Mapped[list[ReportedResult]] = relationship(
        back_populates="event", order_by="[ReportedResult.hand, ReportedResult.table]", cascade="all, delete-orphan"
    )
    loans: Mapped[list[FlagLoan]] = relationship(
        back_populates="event", order_by="FlagLoan.id", cascade="all, delete-orphan"
    )
    playoffs: Mapped[list[EventPlayoff]] = relationship(
        back_populates="event", order_by="EventPlayoff.number", cascade="all, delete-orphan"
    )
    days_closed: Mapped[list[DayClose]] = relationship(
        back_populates="event", order_by="DayClose.day", cascade="all, delete-orphan"
    )
    audit: Mapped[list[AuditEntry]] = relationship(
        back_populates="event", order_by="AuditEntry.id", cascade="all, delete-orphan"
    )
    entrants: Mapped[list[EventEntrant]] = relationship(
        back_populates="event", order_by="EventEntrant.number", cascade="all, delete-orphan"
    )
    matches: Mapped[list[EventMatch]] = relationship(
        back_populates="event",
        order_by="[EventMatch.stage, EventMatch.number, EventMatch.table]",
        cascade="all, delete-orphan",
    )
    decisions: Mapped[list[EventDecision]] = relationship(
        back_populates="event", order_by="EventDecision.id", cascade="all, delete-orphan"
    )
    timer: Mapped[RoundTimer | None] = relationship(back_populates="event", cascade="all, delete-orphan")


class RoundTimer(db.Model):  # type: ignore[name-defined]
    """The director's round timer (a hand's in Military Whist): the minutes a round is given, and
    either when it ends (running) or what was left when it was paused. Never started: neither.
    Moments are the server's own, so every screen counts down from the same clock (events/timer.py).
    Table `event_timer`."""

    __tablename__ = "event_timer"

    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), primary_key=True)
    minutes: Mapped[int]
    ends_at: Mapped[datetime | None] = mapped_column(default=None)
    paused_left_ms: Mapped[int | None] = mapped_column(default=None)
    changed_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    event: Mapped[Event] = relationship(back_populates="timer")


class EventTable(db.Model):  # type: ignore[name-defined]
    """Table `number` (from 1) and the team at home there; `token` is in its QR code."""

    __tablename__ = "event_table"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    team: Mapped[str] = mapped_column(String(60))
    players: Mapped[list[str]] = mapped_column(JSON, default=list)  # A, B, X, Y or none
    token: Mapped[str] = mapped_column(String(48), unique=True, default=new_token)
    # The short link printed under the QR code (`/t/<code>`): replaced with `token`, as it grants the same.
    short_code: Mapped[str | None] = mapped_column(String(12), unique=True, index=True, default=new_card_code)
    token_issued_at: Mapped[datetime] = mapped_column(default=utcnow)
    # A club night: the game this table plays (started from the table's QR code).
    game_id: Mapped[int | None] = mapped_column(ForeignKey("game.id", ondelete="SET NULL"), default=None)

    event: Mapped[Event] = relationship(back_populates="tables")


class OpenedHand(db.Model):  # type: ignore[name-defined]
    """A Military Whist hand once the director has opened it: when, and the director's moves if they
    replace the schedule's. Table `event_hand`."""

    __tablename__ = "event_hand"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    moves: Mapped[list[int] | None] = mapped_column(JSON, default=None)  # table numbers from 1
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)

    event: Mapped[Event] = relationship(back_populates="hands")


class ReportedResult(db.Model):  # type: ignore[name-defined]
    """What a table reported for a hand (Military Whist) or a deal (whist drive): the tricks, and any
    revoke. Table `event_result` (migration 0002's name, as are the columns': backups keep them).

    Whose `tricks` they are depends on the format: in Military Whist the visiting team's tricks as
    taken at host table `table` (a revoke's penalty is applied when scoring, not here); in a whist
    drive the tricks North-South took at table `table` in deal `hand` (East-West took the rest)."""

    __tablename__ = "event_result"
    __table_args__ = (UniqueConstraint("event_id", "hand", "table"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    hand: Mapped[int]
    table: Mapped[int]  # from 1
    tricks: Mapped[int]  # Military: the visitors' tricks; whist drive: North-South's tricks
    revoke: Mapped[str | None] = mapped_column(String(10), default=None)  # "visitors" / "home" (Military only)
    entered_by: Mapped[str] = mapped_column(String(40))  # "table 3", "director"
    entered_at: Mapped[datetime] = mapped_column(default=utcnow)

    event: Mapped[Event] = relationship(back_populates="results")


class FlagLoan(db.Model):  # type: ignore[name-defined]
    """Military Whist flags the director lent a table during a hand, net of flags it gave back (one
    row per table and hand; negative when the table returned more than it was lent in that hand).
    Table `event_loan`."""

    __tablename__ = "event_loan"
    __table_args__ = (UniqueConstraint("event_id", "hand", "table"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    hand: Mapped[int]
    table: Mapped[int]  # from 1
    flags: Mapped[int]
    lent_at: Mapped[datetime] = mapped_column(default=utcnow)

    event: Mapped[Event] = relationship(back_populates="loans")


class EventPlayoff(db.Model):  # type: ignore[name-defined]
    """A tie-break hand after the schedule: the two teams (from 1), the winner, any bye."""

    __tablename__ = "event_playoff"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]  # 1, 2, .. after the schedule
    teams: Mapped[list[int]] = mapped_column(JSON)
    winner: Mapped[int]
    bye: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    entered_at: Mapped[datetime] = mapped_column(default=utcnow)

    event: Mapped[Event] = relationship(back_populates="playoffs")


class DayClose(db.Model):  # type: ignore[name-defined]
    """The director closed a day: each table's flags as counted (held, owed) when it closed."""

    __tablename__ = "event_day_close"
    __table_args__ = (UniqueConstraint("event_id", "day"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    day: Mapped[int]
    held: Mapped[list[int]] = mapped_column(JSON)
    owed: Mapped[list[int]] = mapped_column(JSON)
    closed_at: Mapped[datetime] = mapped_column(default=utcnow)

    event: Mapped[Event] = relationship(back_populates="days_closed")


class AuditEntry(db.Model):  # type: ignore[name-defined]
    """Who changed what and when: corrections (old and new value), loans, tokens, days closed.

    `actor` and `action` are keys written in the code ("director", "table 3", "correction"): the
    pages show them in the reader's words (views/audit_words.py)."""

    __tablename__ = "event_audit"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    actor: Mapped[str] = mapped_column(String(40))
    action: Mapped[str] = mapped_column(String(40))
    hand: Mapped[int | None] = mapped_column(default=None)
    table: Mapped[int | None] = mapped_column(default=None)
    old: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    new: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    note: Mapped[str] = mapped_column(String(300), default="")
    # The note's message (rules/errors.as_said: template and params), so a page says it in the
    # reader's language; None for a note written in English only (an entry from before).
    said: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)

    event: Mapped[Event] = relationship(back_populates="audit")


class EventEntrant(db.Model):  # type: ignore[name-defined]
    """A registered team (Bid Whist: two players) or player (whist drive), by its number from 1.

    `token` is in the entrant's own link: where to sit next, its results, signing its round's sheet."""

    __tablename__ = "event_entrant"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    name: Mapped[str] = mapped_column(String(60))
    players: Mapped[list[str]] = mapped_column(JSON, default=list)
    token: Mapped[str] = mapped_column(String(48), unique=True, default=new_token)
    # The short link printed under the team card's QR code (`/team/<code>`).
    short_code: Mapped[str | None] = mapped_column(String(12), unique=True, index=True, default=new_card_code)
    registered_at: Mapped[datetime] = mapped_column(default=utcnow)

    event: Mapped[Event] = relationship(back_populates="entrants")


class EventMatch(db.Model):  # type: ignore[name-defined]
    """Two entrants meeting at a table: a preliminary round's match or a bracket match.

    The hands are those of `game` (a home game of the format's variant, entered on the table's
    phone); the match is final when both sides have signed it or the director has closed it."""

    __tablename__ = "event_match"
    __table_args__ = (UniqueConstraint("event_id", "stage", "number", "table"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    stage: Mapped[str] = mapped_column(String(10))  # "round" (preliminary) or "bracket"
    number: Mapped[int]  # the round's number, or the bracket match's
    table: Mapped[int]  # from 1
    home: Mapped[int]  # entrant numbers; 0 is the ghost team of a bye
    away: Mapped[int]
    game_id: Mapped[int | None] = mapped_column(ForeignKey("game.id", ondelete="SET NULL"), default=None)
    signed_home_at: Mapped[datetime | None] = mapped_column(default=None)
    signed_away_at: Mapped[datetime | None] = mapped_column(default=None)
    signed_home_by: Mapped[str | None] = mapped_column(String(80), default=None)  # how, and from which device
    signed_away_by: Mapped[str | None] = mapped_column(String(80), default=None)
    sign_note: Mapped[str] = mapped_column(String(200), default="", server_default="")  # why signatures went
    closed_by: Mapped[str | None] = mapped_column(String(40), default=None)  # the director's override
    dispute: Mapped[str] = mapped_column(String(300), default="")

    event: Mapped[Event] = relationship(back_populates="matches")
    game: Mapped[Game | None] = relationship()


class EventDecision(db.Model):  # type: ignore[name-defined]
    """A director's decision the format needs as input: a cut playoff's winner, a bracket swap, a pairing."""

    __tablename__ = "event_decision"
    __table_args__ = (UniqueConstraint("event_id", "kind", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    key: Mapped[str] = mapped_column(String(60))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    actor: Mapped[str] = mapped_column(String(40), default="director")
    at: Mapped[datetime] = mapped_column(default=utcnow)

    event: Mapped[Event] = relationship(back_populates="decisions")


# --------------------------------------------------------------------------- replays


class DeletedLink(db.Model):  # type: ignore[name-defined]
    """A link of an event its director deleted (events/lifecycle.py): a digest of it, not the link,
    so that the link answers "deleted by its director" (410) rather than "not found" (404), while
    nothing of the event is kept. Table `deleted_link`."""

    __tablename__ = "deleted_link"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)  # SHA-256 in hex
    deleted_at: Mapped[datetime] = mapped_column(default=utcnow)


class IdempotentRequest(db.Model):  # type: ignore[name-defined]
    """A write sent with an `Idempotency-Key` header, and the answer it got: the same key again (a
    phone re-sending a tap whose answer it never heard) gets that answer back, and nothing is done
    twice. `status` is None while the first request is still being served. See idempotency.py."""

    __tablename__ = "idempotent_request"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    fingerprint: Mapped[str] = mapped_column(String(64))  # method, path and form, hashed
    status: Mapped[int | None] = mapped_column(default=None)
    headers: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    body: Mapped[bytes | None] = mapped_column(LargeBinary, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    # The games the request wrote, each with its revision after the write ({"<id>": revision}): a
    # replay after any of them changed again says what is recorded now, not the stored answer.
    written: Mapped[dict[str, int] | None] = mapped_column(JSON, default=None)
