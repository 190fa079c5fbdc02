"""Military Whist's own pages: setting up an event, the director's actions on the hand in play
(advance, loans, moves, playoff), corrections and names, and a table phone's tapped result.

A table's phone: the home pair enters the tricks the visiting pair took. A tap on a number shows
what it means ("visitors take 1 flag") before it is confirmed; a second confirmation of the same
hand, from this phone or the other one at the table, is refused with the value already recorded.
The event core's views (`director`, `tables`, `board`) draw its control room, table page and boards
through `events.registry`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext
from werkzeug.wrappers import Response as BaseResponse

from scorepad.events import core, military, roster
from scorepad.events.core import Event
from scorepad.form_input import whole_number
from scorepad.formats.military import PRESETS
from scorepad.i18n import say
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.errors import M
from scorepad.rules.military import LETTERS
from scorepad.views.common import errors_by_field
from scorepad.views.director import director_of, render_room, unlock_for
from scorepad.views.tables import render_table, table_for

bp = Blueprint("military", __name__)


# --------------------------------------------------------------------------- creating an event


def _form_defaults() -> dict[str, str]:
    return {
        "name": "",
        "preset": "area",
        "days": "30",
        "tables": "4",
        "teams": "",
        "loans": "auto",
        "late_minutes": "12",
        "pin": "",
    }


def _parse_setup(form: dict[str, str]) -> dict[str, Any]:
    errors: list[RuleError] = []
    preset = form.get("preset", "area")
    days: list[int] = []
    if preset in PRESETS:
        days = list(PRESETS[preset][1])
    else:
        found = [whole_number(d) for d in form.get("days", "").replace(",", " ").split()]
        days = [d for d in found if d is not None]
        if not found or len(days) != len(found):
            errors.append(RuleError("days", M("give the hands of each day as numbers, e.g. 30 or 30, 20")))
    tables = whole_number(form.get("tables", ""), 2) or 0
    if not 2 <= tables <= 64:
        errors.append(RuleError("tables", M("an event has 2 to 64 tables")))
        tables = 0
    teams = [line.strip() for line in form.get("teams", "").splitlines()]
    while teams and not teams[-1]:  # a blank line inside keeps its table ("Table N"); trailing ones do not count
        teams.pop()
    if len(teams) > tables:
        errors.append(
            RuleError(
                "teams",
                M(
                    "%(count)s team names for %(tables)s tables: one name per line, at most one per table",
                    count=len(teams),
                    tables=tables,
                ),
            )
        )
    teams += [""] * max(0, tables - len(teams))
    late = whole_number(form.get("late_minutes", "12"))
    if late is None:
        late = -1
    if errors:
        raise RuleErrors(errors)
    return {
        "name": form.get("name", ""),
        "teams": teams,
        "days": days,
        "loans": form.get("loans", "auto"),
        "auto_advance": form.get("auto_advance") == "on",
        "late_minutes": late,
        "pin": form.get("pin", ""),
        "time_zone": core.time_zone(form.get("time_zone", "")),
    }


@bp.route("/events/new", methods=["GET", "POST"])
def new() -> str | BaseResponse | tuple[str, int]:
    """Set up a Military Whist event (presets for the document's area, zone and provincial levels)."""
    form = _form_defaults()
    if request.method == "POST":
        form.update({k: v for k, v in request.form.items() if k != "csrf_token"})
        try:
            event = military.create_event(**_parse_setup(form))
        except RuleErrors as e:
            errors = errors_by_field(e)
            if any(k.startswith("options.days") for k in errors):
                errors["days"] = " ".join(v for k, v in errors.items() if k.startswith("options.days"))
            return render_template(
                "military/new.html", form=form, presets=PRESETS, errors=errors, max_name=military.MAX_NAME
            ), 422
        unlock_for(event)
        flash(
            gettext("Event created. This page is your private director's link: bookmark it and share it with nobody.")
        )
        return redirect(url_for("director.control", token=event.director_token))
    return render_template("military/new.html", form=form, presets=PRESETS, errors={}, max_name=military.MAX_NAME)


def _act(event: Event, action: Callable[[], object], notice: str) -> tuple[str, int]:
    try:
        action()
    except RuleErrors as e:
        return render_room(event, 422, errors_by_field(e))
    except core.Conflict as c:
        return render_room(event, 409, {"hand": say(c.message)})
    return render_room(event, notice=notice)


@bp.post("/d/<token>/advance")
@director_of(military.KEY)
def advance(event: Event) -> tuple[str, int]:
    """Open the next hand (closing the day after its last hand)."""
    expected = whole_number(request.form.get("hand", ""), 4)
    if expected is None:
        return render_room(event, 422, {"hand": gettext("The form lost its hand number: reload the page.")})
    if expected != event.current_hand:  # a second tap, or a stale page: do not skip a hand
        return render_room(
            event,
            409,
            {
                "hand": gettext(
                    "Hand %(hand)s was already advanced: hand %(current)s is in play now.",
                    hand=expected,
                    current=event.current_hand,
                )
                if expected < event.current_hand
                else gettext(
                    "Hand %(hand)s is not open: hand %(current)s is in play.", hand=expected, current=event.current_hand
                )
            },
        )
    military_view = military.view(event)
    closes = military_view.spec
    words = (
        gettext("Day %(day)s closed; hand %(hand)s is open.", day=closes.day, hand=closes.number + 1)
        if closes and closes.closes_day
        else gettext("Hand %(hand)s is open.", hand=event.current_hand + 1)
    )
    if closes and closes.number == military_view.scheduled:
        words = gettext("The last hand is in: the schedule is complete.")
    return _act(event, lambda: military.advance(event, hand=expected), words)


@bp.post("/d/<token>/loan")
@director_of(military.KEY)
def loan(event: Event) -> tuple[str, int]:
    """Lend flags to a table for the hand in play."""
    table, flags = whole_number(request.form.get("table", "")), whole_number(request.form.get("flags", ""))
    if table is None or flags is None:
        return render_room(event, 422, {"flags": gettext("Choose a table and the number of flags to lend.")})
    return _act(
        event,
        lambda: military.lend(event, table, flags),
        ngettext(
            "Table %(table)s was lent %(num)s flag.", "Table %(table)s was lent %(num)s flags.", flags, table=table
        ),
    )


@bp.post("/d/<token>/return")
@director_of(military.KEY)
def give_back(event: Event) -> tuple[str, int]:
    """Record flags a table gives back to the director against its loans."""
    table, flags = whole_number(request.form.get("table", "")), whole_number(request.form.get("flags", ""))
    if table is None or flags is None:
        return render_room(event, 422, {"back": gettext("Choose a table and the number of flags it gives back.")})
    return _act(
        event,
        lambda: military.return_flags(event, table, flags),
        ngettext(
            "Table %(table)s gave %(num)s flag back.", "Table %(table)s gave %(num)s flags back.", flags, table=table
        ),
    )


@bp.post("/d/<token>/playoff")
@director_of(military.KEY)
def playoff(event: Event) -> tuple[str, int]:
    """Record a tie-break hand: the two teams, the winner, the bye (three or more tied)."""
    found = [whole_number(request.form.get(key, "")) for key in ("team1", "team2", "winner")]
    if None in found:
        return render_room(event, 422, {"playoff": gettext("Choose the two teams that played and the winner.")})
    teams, winner = [t or 0 for t in found[:2]], found[2]
    byes = [whole_number(b) for b in request.form.getlist("bye")]
    bye = [b for b in byes if b is not None]
    if len(bye) != len(byes):
        return render_room(event, 422, {"playoff": gettext("Choose the team that had the bye from the list.")})
    if winner not in (1, 2):
        return render_room(event, 422, {"playoff": gettext("Choose which of the two teams won.")})
    return _act(
        event,
        lambda: military.record_playoff(event, teams, teams[(winner or 1) - 1], bye or None),
        gettext("Playoff hand recorded."),
    )


@bp.post("/d/<token>/moves")
@director_of(military.KEY)
def moves(event: Event) -> tuple[str, int]:
    """Replace where the visiting pairs go in the hand in play (empty: back to the schedule's moves)."""
    found = [whole_number(part) for part in request.form.get("moves", "").replace(",", " ").split()]
    destinations = [d for d in found if d is not None] or None
    if None in found:
        return render_room(
            event, 422, {"moves": gettext("Give one table number per table, table 1's first, e.g. 3 4 1 2.")}
        )
    try:
        military.set_moves(event, destinations)
    except RuleErrors as e:
        messages = errors_by_field(e)
        return render_room(
            event,
            422,
            {"moves": " ".join(v for k, v in messages.items() if k.startswith("moves")) or " ".join(messages.values())},
        )
    return render_room(
        event,
        notice=gettext("Hand %(hand)s: the visiting pairs go where you said.", hand=event.current_hand)
        if destinations
        else gettext("Hand %(hand)s: back to the schedule's moves.", hand=event.current_hand),
    )


@bp.post("/d/<token>/end-day")
@director_of(military.KEY)
def end_day(event: Event) -> tuple[str, int]:
    """End the day after the hand in play, at the director's word."""
    hand = whole_number(request.form.get("hand", ""), 4)
    if hand is None:
        return render_room(event, 422, {"end_day": gettext("The form lost its hand number: reload the page.")})
    try:
        military.end_day(event, hand)
    except RuleErrors as e:
        return render_room(event, 422, {"end_day": " ".join(errors_by_field(e).values())})
    except core.Conflict as c:
        return render_room(event, 409, {"end_day": say(c.message)})
    return render_room(
        event, notice=gettext("The day ends after hand %(hand)s: close it once every table is in.", hand=hand)
    )


@bp.route("/d/<token>/results/<int:hand>/<int:table>", methods=["GET", "POST"])
@director_of(military.KEY)
def correct(event: Event, hand: int, table: int) -> tuple[str, int] | BaseResponse:
    """Correct (or enter for a table) one result; everything after it is scored again."""
    military_view = military.view(event)
    if not 1 <= table <= military_view.tables or not 1 <= hand <= min(event.current_hand, military_view.scheduled):
        abort(
            404,
            description=gettext(
                "There is no result to correct for hand %(hand)s at table %(table)s.", hand=hand, table=table
            ),
        )
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            tricks, revoke = military.parse_result(request.form.get("tricks"), request.form.get("revoke"))
            military.correct_result(event, hand, table, tricks, revoke)
        except RuleErrors as e:
            errors = errors_by_field(e)
        else:
            flash(
                gettext(
                    "Hand %(hand)s at table %(table)s corrected; everything after it is scored again.",
                    hand=hand,
                    table=table,
                )
            )
            return redirect(url_for("director.control", token=event.director_token))
    spec = military_view.spec_of(hand)
    return render_template(
        "military/correct.html",
        military_view=military_view,
        hand=hand,
        table=table,
        spec=spec,
        result=military_view.result(hand, table),
        errors=errors,
        form=request.form if request.method == "POST" else {},
    ), 422 if errors else 200


@bp.route("/d/<token>/setup", methods=["GET", "POST"])
@director_of(military.KEY)
def setup(event: Event) -> tuple[str, int] | BaseResponse:
    """Rename the event, its teams and their players (A, B, X, Y); the QR cards and boards follow."""
    tables = event.tables
    club = roster.club_of(event)
    listed = dict(
        club=club, members=roster.members(club) if club is not None else []
    )  # the roster's club, not a format
    if request.method == "POST":
        form = request.form
        names = [form.get(f"team.{t.number}", "") for t in tables]
        players = [
            [  # the club's member picked for a name ("Did you mean …? Yes"), else the name typed
                form.get(f"pick.teams.{i}.players.{j}") or form.get(f"player.{t.number}.{letter}", "")
                for j, letter in enumerate(LETTERS)
            ]
            for i, t in enumerate(tables)
        ]
        near: dict[str, str] = {}
        try:
            military.rename(event, form.get("name", ""), names, players, new_members=form.getlist("new_member"))
        except RuleErrors as e:
            near = e.near if isinstance(e, roster.NearMembers) else {}
            errors = {k.removesuffix(".name"): v for k, v in errors_by_field(e).items()}
            return render_template(
                "military/setup.html",
                event=event,
                form=form,
                errors=errors,
                max_name=military.MAX_NAME,
                near=near,
                **listed,
            ), 422
        flash(gettext("Names saved: the QR cards, the phones and the boards show them now."))
        return redirect(url_for("director.control", token=event.director_token))
    current: dict[str, str] = {"name": event.name}
    for t in tables:
        current[f"team.{t.number}"] = t.team
        for letter, player in zip(LETTERS, t.players):
            current[f"player.{t.number}.{letter}"] = player
    return render_template(
        "military/setup.html", event=event, form=current, errors={}, max_name=military.MAX_NAME, near={}, **listed
    ), 200


# --------------------------------------------------------------------------- a table's phone


def _read() -> tuple[int, int, str | None]:
    """(hand, tricks, revoke) from the form; RuleErrors for anything out of range."""
    hand = whole_number(request.form.get("hand", ""), 4)
    if hand is None:
        raise RuleErrors([RuleError("hand", M("the form lost its hand number: reload the page"))])
    tricks, revoke = military.parse_result(request.form.get("tricks"), request.form.get("revoke"))
    return hand, tricks, revoke


@bp.post("/t/<token>/preview")
def preview(token: str) -> tuple[str, int]:
    """What the tapped result means, before it is confirmed."""
    table = table_for(token, military.KEY)
    try:
        hand, tricks, revoke = _read()
        shown = military.preview(military.view(table.event), table.number, hand, tricks, revoke)
    except RuleErrors as e:
        return render_table(table, 422, errors=errors_by_field(e), form=request.form)
    except core.Conflict as c:
        return render_table(table, 409, conflict=say(c.message))
    return render_table(table, 200, confirm=shown.shown, held=shown.held, form=request.form)


@bp.post("/t/<token>/result")
def result(token: str) -> tuple[str, int] | BaseResponse:
    """Record the confirmed result (once: a second one is refused with the value already in)."""
    table = table_for(token, military.KEY)
    try:
        hand, tricks, revoke = _read()
        military.enter_result(table.event, table.number, hand, tricks, revoke, f"table {table.number}")
    except RuleErrors as e:
        return render_table(table, 422, errors=errors_by_field(e), form=request.form)
    except core.Conflict as c:
        return render_table(table, 409, conflict=say(c.message))
    return render_table(table, 200, notice=gettext("Hand %(hand)s recorded.", hand=hand))
