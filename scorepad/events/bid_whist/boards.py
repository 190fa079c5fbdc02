"""The view a Bid Whist tournament's boards show, kept per event while nothing it is derived from changed.

Every board page, every catch-up fetch after a lost stream and every push after a tap derives the
whole tournament (`derived.view`): for 128 teams that is some 500 rows made into objects, 15 to
20 ms, though most taps (a call, a bid) change nothing on the board. The view is kept under a
fingerprint of every row it is derived from, read in plain SQL (no objects made): the event row,
its entrants, matches and decisions whole, each game's hands revision, lock and dealer (not the
hand in play), and the count and last id of its audit trail. Any change to any of them, by this
worker or another, makes a new fingerprint, so a kept view is never served stale. Nothing is
written to keep it (no counter to move on every write, no lock for the tables to wait on).

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

from scorepad.extensions import db
from scorepad.kept import Kept
from scorepad.models import AuditEntry, Event, EventDecision, EventEntrant, EventMatch, Game

View = TypeVar("View")  # derived.TournamentView (which imports this module)
_KEPT: Kept[Any] = Kept("Bid Whist board views", size=64)  # by event id; a server runs a handful at a time


class Row(SimpleNamespace):
    """A row's column values, copied: read like the row (`match.table`), kept after its session."""


def board_view(event: Event, derive: Callable[[Event], View]) -> View:
    """`derive(event)` (`derived.view`) with plain rows in it, derived again only when a row it reads
    changed.

    The fingerprint is read before the view is derived: a change committed in between is then in
    the view but not in the stamp, and the next request derives again (never the other way round)."""
    return cast(
        View,
        _KEPT.get(
            event.id, fingerprint(event), lambda _: detached(derive(event)), stamp_now=lambda: fingerprint(event)
        ),
    )


def forget(event_id: int) -> None:
    """Drop the view kept for this row id (a restore rolled back leaves ids SQLite gives again)."""
    _KEPT.forget(event_id)


def fingerprint(event: Event) -> tuple[Any, ...]:
    """Every value the tournament's view reads, in plain SQL: equal fingerprints, equal views.

    The rows come back as the driver reads them (JSON and times as SQLite's text, nothing parsed,
    no objects made), which is what makes this a few ms where deriving the view is some 15."""
    connection = db.session.connection()
    return tuple(tuple(tuple(r) for r in connection.execute(query, {"event": event.id})) for query in _queries())


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
        # a game's outcome follows its hands; its lock makes a sheet final. The hand in play
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
