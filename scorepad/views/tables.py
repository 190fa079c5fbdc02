"""A table's phone at an event: the QR code's secret link, the hand's orders, the result entered by tapping.

The home pair enters the tricks the visiting pair took. A tap on a number shows what it means
("visitors take 1 flag") before it is confirmed; a second confirmation of the same hand, from
this phone or the other one at the table, is refused with the value already recorded.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from scorepad.events import military as events
from scorepad.extensions import htmx
from scorepad.form_input import whole_number
from scorepad.models import EventTable
from scorepad.rules import military
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.views import errors_by_field
from scorepad.views.board import publish
from scorepad.views.hosts import host

bp = Blueprint("tables", __name__)


def _table(token: str, military_only: bool = False) -> EventTable:
    table = events.table_by_token(token)
    if table is None:
        abort(404, description="This table link is not valid any more: the director may have printed a new "
                               "QR code. Scan the card on your table again, or ask the director.")
    if military_only and table.event.format != "military":
        abort(404, description="This table scores its match on the match's own page: open the table's QR code.")
    return table


def _render(table: EventTable, status: int = 200, **extra: object) -> tuple[str, int]:
    ev = events.view(table.event)
    template = "tables/_panel.html" if htmx and not htmx.history_restore_request else "tables/table.html"
    return render_template(template, ev=ev, table=table, **extra), status


@bp.get("/t/<token>")
def table(token: str) -> Any:
    """The table's page: this hand's orders in large type and the result to enter."""
    table = _table(token)
    hosted = host(table.event)
    if hosted is not None:
        return hosted.table_page(table)  # type: ignore[no-any-return]
    return _render(table)


@bp.get("/t/<token>/panel")
def panel(token: str) -> Any:
    """The panel alone, fetched again whenever the event changes (the director advanced, a correction)."""
    table = _table(token)
    hosted = host(table.event)
    if hosted is not None:
        return hosted.table_page(table)  # type: ignore[no-any-return]
    return _render(table)


def _read(table: EventTable) -> tuple[int, int, str | None]:
    """(hand, tricks, revoke) from the form; RuleErrors for anything out of range."""
    hand = whole_number(request.form.get("hand", ""), 4)
    if hand is None:
        raise RuleErrors([RuleError("hand", "the form lost its hand number: reload the page")])
    tricks, revoke = events.parse_result(request.form.get("tricks"), request.form.get("revoke"))
    return hand, tricks, revoke


@bp.post("/t/<token>/preview")
def preview(token: str) -> tuple[str, int]:
    """What the tapped result means, before it is confirmed."""
    table = _table(token, military_only=True)
    try:
        hand, tricks, revoke = _read(table)
        current = table.event.current_hand
        if hand < current:
            raise events.Conflict(f"Hand {hand} is over: the director has opened hand {current}.")
        if hand > current:
            raise events.Conflict(f"Hand {hand} is not open yet: hand {current} is in play.")
        ev = events.view(table.event)
        pending = dict(ev.pending or {})
        results = list(pending.get("results") or [None] * ev.tables)  # type: ignore[call-overload]
        if results[table.number - 1] is not None:
            existing = ev.result(hand, table.number)
            raise events.Conflict(f"Hand {hand} is already recorded: the visitors took "
                                  f"{existing.tricks if existing else '?'} tricks.", existing)
        results[table.number - 1] = {"tricks": tricks, "revoke": revoke}
        shown = military.preview(ev.setup, ev.hands, {**pending, "results": results})[table.number - 1]
    except RuleErrors as e:
        return _render(table, 422, errors=errors_by_field(e), form=request.form)
    except events.Conflict as c:
        return _render(table, 409, conflict=c.message)
    return _render(table, 200, confirm=shown, form=request.form)


@bp.post("/t/<token>/result")
def result(token: str) -> tuple[str, int] | BaseResponse:
    """Record the confirmed result (once: a second one is refused with the value already in)."""
    table = _table(token, military_only=True)
    try:
        hand, tricks, revoke = _read(table)
        events.enter_result(table.event, table.number, hand, tricks, revoke, f"table {table.number}")
    except RuleErrors as e:
        return _render(table, 422, errors=errors_by_field(e), form=request.form)
    except events.Conflict as c:
        return _render(table, 409, conflict=c.message)
    publish(table.event)
    return _render(table, 200, notice=f"Hand {hand} recorded.")
