"""A whist drive's pages: set-up, the director's room, each table's phone (seats, trump, N-S tricks).

The event core's `/d/`, `/t/` and `/b/` views hand a whist drive's requests to the functions here.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, get_flashed_messages, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from scorepad.events import drive as drive_event
from scorepad.events import military as events
from scorepad.extensions import htmx
from scorepad.models import Event, EventTable
from scorepad.rules.base import RuleErrors
from scorepad.views import errors_by_field
from scorepad.views.director import director_only, unlock_for

bp = Blueprint("drive", __name__)


def _int(raw: str | None, default: int = -1) -> int:
    try:
        return int(raw or "")
    except ValueError:
        return default


@bp.route("/events/new/whist-drive", methods=["GET", "POST"])
def new() -> str | BaseResponse | tuple[str, int]:
    """Set up a whist drive: the players (four to a table), the deals, the movement."""
    form = {"name": "", "players": "", "deals": "24", "per_change": "1", "scoring": "odd", "movement": "progressive",
            "top": "stay", "pin": ""}
    if request.method == "POST":
        form.update({k: v for k, v in request.form.items() if k != "csrf_token"})
        try:
            event = drive_event.create(
                form["name"], form["players"].splitlines(), deals=_int(form["deals"]), per_change=_int(form["per_change"]),
                scoring=form["scoring"], nt_fifth=form.get("nt_fifth") == "on", movement=form["movement"],
                top=form["top"], pin=form.get("pin", "").strip())
        except RuleErrors as e:
            return render_template("drive/new.html", form=form, errors=errors_by_field(e)), 422
        unlock_for(event)
        flash("Whist drive created. This page is your private director's link. Print the tables' QR cards: "
              "players sit in the order given, four to a table (N, E, S, W).")
        return redirect(url_for("director.control", token=event.director_token))
    return render_template("drive/new.html", form=form, errors={})


def control(event: Event, status: int = 200, errors: dict[str, str] | None = None, notice: str = "") -> tuple[str, int]:
    """The drive's room (called by the event core's /d/<token>)."""
    template = "drive/_room.html" if htmx and not htmx.history_restore_request else "drive/control.html"
    notices = [notice] if notice else list(get_flashed_messages())
    return render_template(template, dv=drive_event.view(event), errors=errors or {}, notices=notices), status


@bp.post("/d/<token>/deals/correct")
@director_only
def correct(event: Event) -> tuple[str, int]:
    """Correct (or enter for a table) a deal's N-S tricks; the scores follow."""
    from scorepad.views.board import publish

    deal, table, ns = _int(request.form.get("deal")), _int(request.form.get("table")), _int(request.form.get("tricks"))
    try:
        drive_event.correct(event, deal, table, ns)
    except RuleErrors as e:
        return control(event, 422, {"correct": " ".join(errors_by_field(e).values())})
    publish(event, orders=True)
    return control(event, notice=f"Deal {deal} at table {table}: North-South took {ns}.")


def table_page(table: EventTable, status: int = 200, **extra: Any) -> tuple[str, int]:
    """The table's phone: who sits where, the trump, the N-S tricks to tap."""
    template = "drive/_table.html" if htmx and not htmx.history_restore_request else "drive/table.html"
    return render_template(template, dv=drive_event.view(table.event), table=table, **extra), status


@bp.post("/t/<token>/deal")
def enter(token: str) -> tuple[str, int]:
    """Record this table's N-S tricks for the deal in play (once)."""
    from scorepad.views.board import publish

    table = events.table_by_token(token)
    if table is None or table.event.format != drive_event.FORMAT:
        abort(404, description="This table link is not valid any more: scan the card on your table again.")
    deal, ns = _int(request.form.get("deal")), _int(request.form.get("tricks"))
    try:
        drive_event.enter(table.event, table.number, deal, ns, f"table {table.number}")
    except RuleErrors as e:
        return table_page(table, 422, errors=errors_by_field(e))
    except drive_event.Conflict as c:
        return table_page(table, 409, conflict=c.message)
    # the phones refetch their panel only when the deal in play moved on (and with it, the places)
    publish(table.event, orders=table.event.current_hand != deal)
    return table_page(table, notice=f"Deal {deal} recorded: North-South {ns}, East-West {13 - ns}.")
