"""The view a Bid Whist tournament's boards show, kept per event while nothing it is derived from changed.

Every board page, every catch-up fetch after a lost stream and every push after a tap derives the
whole tournament (`derived.view`): for 128 teams that is some 500 rows made into objects, 15 to
20 ms, though most taps (a call, a bid) change nothing on the board. The view is kept under a
fingerprint of every row it is derived from, read in plain SQL (no objects made): the event row,
its entrants, matches and decisions whole, each game's hands revision, lock and dealer (not the
hand in play), and the count and last id of its audit trail. Any change to any of them, by this
worker or another, makes a new fingerprint, so a kept view is never served stale. Nothing is
written to keep it (no counter to move on every write, no lock for the tables to wait on). When
the fingerprints differ in some games' rows alone (a hand entered at a table, after which a board is
pushed to every screen), the view kept before is advanced by those games (`derived.advanced`).

The kept view holds plain copies of the rows (`Row`), never the ORM objects of the request that
derived it: those belong to its session, and are expired or detached once it ends.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, TypeVar, cast

from sqlalchemy import Executable, Text, bindparam, func, inspect, select, type_coerce
from sqlalchemy.orm import InstanceState

from scorepad.extensions import db
from scorepad.kept import Kept
from scorepad.models import AuditEntry, Event, EventDecision, EventEntrant, EventMatch, Game

View = TypeVar("View")  # derived.TournamentView (which imports this module)
# by event id, the view with the fingerprint it was derived at (what the next is advanced from); a
# server runs a handful at a time
_KEPT: Kept[tuple[tuple[Any, ...], Any]] = Kept("Bid Whist board views", size=64, same=lambda a, b: a[1] == b[1])


class Row(SimpleNamespace):
    """A row's column values, copied: read like the row (`match.table`), kept after its session."""


def board_view(
    event: Event, derive: Callable[[Event], View], advance: Callable[[View, Event, set[int]], View | None]
) -> View:
    """`derive(event)` (`derived.view`) with plain rows in it, derived again only when a row it reads
    changed, and then advanced from the view kept before (`advance`: `derived.advanced`) when only
    some games' rows did (a hand entered at a table: the board pushed after it reads that game, not
    the whole tournament again).

    The fingerprint is read before the view is derived, and the event's row (and the rows loaded
    with it) read again after it (`_read_again`): a change committed in between is then in the view
    but not in the stamp, and the next request derives again (never the other way round)."""
    stamp = fingerprint(event)

    def kept(before: tuple[tuple[Any, ...], View] | None) -> tuple[tuple[Any, ...], View]:
        _read_again(event)
        games = _games_changed(before[0], stamp) if before is not None else None
        found = advance(before[1], event, games) if before is not None and games else None
        return stamp, found if found is not None else detached(derive(event))

    return cast(View, _KEPT.get(event.id, stamp, kept, stamp_now=lambda: fingerprint(event))[1])


def _read_again(event: Event) -> None:
    """The event's row read again when next used, with its relationships: this request may have read
    it before another request's commit that the fingerprint, read since, holds (the director's next
    round), and a view derived from the older row would be kept under the newer stamp. A row this
    request changed and has not written yet is the newest there is, and is kept as it is. (The
    matches and games a view reads are read again by its own queries: `populate_existing`.)"""
    state: InstanceState[Event] = inspect(event)
    if state.persistent and not state.modified:
        db.session.expire(event)


def _games_changed(before: tuple[Any, ...], now: tuple[Any, ...]) -> set[int] | None:
    """The games whose rows differ between two fingerprints when nothing else does (the same games,
    the event, its entrants, matches, decisions and trail as they were), else None."""
    if len(before) != len(now) or len(now) <= GAMES:
        return None
    games_before, games_now = before[GAMES], now[GAMES]
    if any(before[i] != now[i] for i in range(len(now)) if i != GAMES) or len(games_before) != len(games_now):
        return None
    if any(a[0] != b[0] for a, b in zip(games_before, games_now)):
        return None
    return {int(b[0]) for a, b in zip(games_before, games_now) if a != b}


def forget(event_id: int) -> None:
    """Drop the view kept for this row id (a restore rolled back leaves ids SQLite gives again)."""
    _KEPT.forget(event_id)


def fingerprint(event: Event) -> tuple[Any, ...]:
    """Every value the tournament's view reads, in plain SQL: equal fingerprints, equal views.

    The rows come back as the driver reads them (JSON and times as SQLite's text, nothing parsed,
    no objects made), which is what makes this a few ms where deriving the view is some 15."""
    connection = db.session.connection()
    return tuple(tuple(tuple(r) for r in connection.execute(query, {"event": event.id})) for query in _queries())


GAMES = 4  # the fingerprint's part that reads the games' rows (`_queries`)


@functools.cache
def _queries() -> tuple[Executable, ...]:
    """The fingerprint's queries, built once (building them costs as much as running them)."""
    event: Any = bindparam("event")

    def rows(*columns: Any, where: Any, order: Any) -> Executable:
        return select(*(type_coerce(c, Text) for c in columns)).where(where).order_by(order)  # nothing parsed

    return (
        rows(*Event.__table__.columns, where=Event.id == event, order=Event.id),
        rows(*EventEntrant.__table__.columns, where=EventEntrant.event_id == event, order=EventEntrant.id),
        rows(*EventMatch.__table__.columns, where=EventMatch.event_id == event, order=EventMatch.id),
        rows(*EventDecision.__table__.columns, where=EventDecision.event_id == event, order=EventDecision.id),
        # (GAMES) a game's outcome follows its hands; its lock makes a sheet final. The hand in play
        # (calls, bids: `pending`, undo) is on no board, so a tap there keeps the view.
        rows(
            Game.id,
            Game.hands_revision,
            Game.locked_at,
            Game.first_dealer,
            Game.options,
            Game.teams,
            where=Game.event_id == event,
            order=Game.id,
        ),
        select(func.count(AuditEntry.id), func.max(AuditEntry.id)).where(AuditEntry.event_id == event),
    )


def detached(tournament_view: View) -> View:
    """The view with plain copies of its event, teams and matches in place of the ORM rows."""
    view: Any = tournament_view
    views = {key: dataclasses.replace(mv, match=copy(mv.match)) for key, mv in view.views.items()}
    return cast(
        View,
        dataclasses.replace(
            view,
            event=copy(view.event),
            teams=[copy(e) for e in view.teams],
            singles=[copy(e) for e in view.singles],
            views=views,
            current=[views[mv.match.id] for mv in view.current],
        ),
    )


def copy(row: Any) -> Any:
    """A row's columns (the relationships are left behind: a board reads none of them), standing in
    for the row where the view's type says a row (`Any`: it reads like one)."""
    model: Any = type(row)
    return Row(**{key: getattr(row, key) for key in _columns(model)})


@functools.cache
def _columns(model: Any) -> tuple[str, ...]:
    """A model's column attributes (once per model: asking the mapper for each row costs 1.5 ms a view)."""
    mapper: Any = inspect(model)
    return tuple(attr.key for attr in mapper.column_attrs)
