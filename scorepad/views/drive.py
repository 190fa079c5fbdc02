"""A whist drive's pages: set-up, the director's room, each table's phone (seats, trump, N-S tricks).

The event core's `/d/`, `/t/` and `/b/` views draw a drive's room, table phone and boards through
`events.registry` (`templates/drive/`); the drive's own actions are here.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from scorepad.events import core, roster
from scorepad.events import drive as drive_event
from scorepad.events.core import Event
from scorepad.i18n import say
from scorepad.rules.base import RuleErrors
from scorepad.views.common import errors_by_field
from scorepad.views.director import director_of, render_room, unlock_for
from scorepad.views.tables import render_table, table_for

bp = Blueprint("drive", __name__)


def _int(raw: str | None, default: int = -1) -> int:
    try:
        return int(raw or "")
    except ValueError:
        return default


@bp.route("/events/new/whist-drive", methods=["GET", "POST"])
def new() -> str | BaseResponse | tuple[str, int]:
    """Set up a whist drive: the players (four to a table), the deals, the movement."""
    form = {
        "name": "",
        "players": "",
        "deals": "24",
        "per_change": "1",
        "scoring": "odd",
        "movement": "progressive",
        "top": "stay",
        "pin": "",
        "time_zone": "",
    }
    if request.method == "POST":
        form.update({k: v for k, v in request.form.items() if k != "csrf_token"})
        try:
            event = drive_event.create(
                form["name"],
                form["players"].splitlines(),
                deals=_int(form["deals"]),
                per_change=_int(form["per_change"]),
                scoring=form["scoring"],
                nt_fifth=form.get("nt_fifth") == "on",
                movement=form["movement"],
                top=form["top"],
                pin=form.get("pin", "").strip(),
                time_zone=core.time_zone(form.get("time_zone", "")),
            )
        except RuleErrors as e:
            return render_template("drive/new.html", form=form, errors=errors_by_field(e)), 422
        unlock_for(event)
        flash(
            gettext(
                "Whist drive created. This page is your private director's link. Print the tables' QR cards: "
                "players sit in the order given, four to a table (N, E, S, W)."
            )
        )
        return redirect(url_for("director.control", token=event.director_token))
    return render_template("drive/new.html", form=form, errors={})


@bp.post("/d/<token>/deals/correct")
@director_of(drive_event.KEY)
def correct(event: Event) -> tuple[str, int]:
    """Correct (or enter for a table) a deal's N-S tricks; the scores follow."""
    deal, table, ns = _int(request.form.get("deal")), _int(request.form.get("table")), _int(request.form.get("tricks"))
    try:
        drive_event.correct(event, deal, table, ns)
    except RuleErrors as e:
        return render_room(event, 422, {"correct": " ".join(errors_by_field(e).values())})
    return render_room(
        event,
        notice=gettext(
            "Deal %(deal)s at table %(table)s: North-South took %(tricks)s.", deal=deal, table=table, tricks=ns
        ),
    )


@bp.post("/d/<token>/players/rename")
@director_of(drive_event.KEY)
def rename(event: Event) -> tuple[str, int]:
    """Give a player a new name, at any stage: the seats and scores stay. The name typed, or the
    club's member picked for it ("Did you mean …? Yes")."""
    number = _int(request.form.get("number"))
    name = " ".join((request.form.get("pick.rename") or request.form.get("name", "")).split())
    try:
        drive_event.rename(event, number, name, new_members=request.form.getlist("new_member"))
    except roster.NearMembers as e:
        return render_room(event, 422, errors_by_field(e), form=request.form, near=e.near)
    except RuleErrors as e:
        return render_room(event, 422, errors_by_field(e), form=request.form)
    return render_room(event, notice=gettext("Player %(number)s is now called %(name)s.", number=number, name=name))


@bp.route("/d/<token>/deals/<int:deal>/<int:table>", methods=["GET", "POST"])
@director_of(drive_event.KEY)
def correct_one(event: Event, deal: int, table: int) -> tuple[str, int] | BaseResponse:
    """Correct (or enter for a table) one deal's N-S tricks by tapping them; the scores follow."""
    drive_view = drive_event.view(event)
    if not 1 <= table <= drive_view.tables or not 1 <= deal <= min(drive_view.deal, drive_view.drive.deals):
        abort(
            404,
            description=gettext(
                "There is no result to correct for deal %(deal)s at table %(table)s.", deal=deal, table=table
            ),
        )
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            drive_event.correct(event, deal, table, _int(request.form.get("tricks")))
        except RuleErrors as e:
            errors = errors_by_field(e)
        else:
            flash(
                gettext(
                    "Deal %(deal)s at table %(table)s: North-South took %(tricks)s.",
                    deal=deal,
                    table=table,
                    tricks=request.form.get("tricks"),
                )
            )
            return redirect(url_for("director.control", token=event.director_token))
    return render_template(
        "drive/correct.html",
        drive_view=drive_view,
        deal=deal,
        table=table,
        result=drive_view.results.get((deal, table)),
        errors=errors,
        form=request.form if request.method == "POST" else {},
    ), 422 if errors else 200


@bp.post("/t/<token>/deal/preview")
def preview(token: str) -> tuple[str, int]:
    """What the tapped tricks mean, before they are confirmed: nothing is recorded yet."""
    table = table_for(token, drive_event.KEY)
    deal, ns = _int(request.form.get("deal")), _int(request.form.get("tricks"))
    try:
        drive_event.check_entry(table.event, table.number, deal, ns)
    except RuleErrors as e:
        return render_table(table, 422, errors=errors_by_field(e))
    except core.Conflict as c:
        return render_table(table, 409, conflict=say(c.message))
    return render_table(table, confirm={"deal": deal, "ns": ns, "ew": 13 - ns})


@bp.post("/t/<token>/deal")
def enter(token: str) -> tuple[str, int]:
    """Record this table's N-S tricks for the deal in play (once)."""
    table = table_for(token, drive_event.KEY)
    deal, ns = _int(request.form.get("deal")), _int(request.form.get("tricks"))
    try:
        drive_event.enter(table.event, table.number, deal, ns, f"table {table.number}")
    except RuleErrors as e:
        return render_table(table, 422, errors=errors_by_field(e))
    except core.Conflict as c:
        return render_table(table, 409, conflict=say(c.message))
    return render_table(
        table,
        notice=gettext("Deal %(deal)s recorded: North-South %(ns)s, East-West %(ew)s.", deal=deal, ns=ns, ew=13 - ns),
    )
