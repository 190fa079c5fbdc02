"""The director's pages: set up an event, print the tables' QR codes, run the control room.

The director's link carries a long secret; with a PIN set, the browser must also unlock it once
(remembered in the signed session). Only the director can change the set-up, correct a result,
lend flags, advance the hands, close a day or record a playoff; every change is in the audit trail.
"""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable, TypeVar

from flask import Blueprint, abort, flash, get_flashed_messages, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from scorepad import events
from scorepad.extensions import htmx
from scorepad.formats.military import PRESETS
from scorepad.models import Event
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.views import errors_by_field, share_url
from scorepad.views.board import publish
from scorepad.views.hosts import host

bp = Blueprint("director", __name__)
F = TypeVar("F", bound=Callable[..., Any])
UNLOCKED = "unlocked_events"


# --------------------------------------------------------------------------- creating an event


def _form_defaults() -> dict[str, str]:
    return {"name": "", "preset": "area", "days": "30", "tables": "4", "teams": "", "loans": "auto",
            "late_minutes": "12", "pin": ""}


def _parse_setup(form: dict[str, str]) -> dict[str, Any]:
    errors: list[RuleError] = []
    preset = form.get("preset", "area")
    days: list[int] = []
    if preset in PRESETS:
        days = list(PRESETS[preset][1])
    else:
        try:
            days = [int(d) for d in form.get("days", "").replace(",", " ").split()]
            if not days:
                raise ValueError
        except ValueError:
            errors.append(RuleError("days", "give the hands of each day as numbers, e.g. 30 or 30, 20"))
    try:
        tables = int(form.get("tables", ""))
        if not 2 <= tables <= 64:
            raise ValueError
    except ValueError:
        errors.append(RuleError("tables", "an event has 2 to 64 tables"))
        tables = 0
    teams = [line.strip() for line in form.get("teams", "").splitlines()]
    while teams and not teams[-1]:  # a blank line inside keeps its table ("Table N"); trailing ones do not count
        teams.pop()
    if len(teams) > tables:
        errors.append(RuleError("teams", f"{len(teams)} team names for {tables} tables: one name per line, "
                                         f"at most one per table"))
    teams += [""] * max(0, tables - len(teams))
    try:
        late = int(form.get("late_minutes", "12"))
    except ValueError:
        late = -1
    if errors:
        raise RuleErrors(errors)
    return {"name": form.get("name", ""), "teams": teams, "days": days, "loans": form.get("loans", "auto"),
            "auto_advance": form.get("auto_advance") == "on", "late_minutes": late, "pin": form.get("pin", "")}


@bp.route("/events/new", methods=["GET", "POST"])
def new() -> str | BaseResponse | tuple[str, int]:
    """Set up a Military Whist event (presets for the document's area, zone and provincial levels)."""
    form = _form_defaults()
    if request.method == "POST":
        form.update({k: v for k, v in request.form.items() if k != "csrf_token"})
        try:
            event = events.create_event(**_parse_setup(form))
        except RuleErrors as e:
            errors = errors_by_field(e)
            if any(k.startswith("options.days") for k in errors):
                errors["days"] = " ".join(v for k, v in errors.items() if k.startswith("options.days"))
            return render_template("director/new.html", form=form, presets=PRESETS, errors=errors), 422
        _unlock(event)
        flash("Event created. This page is your private director's link: bookmark it and share it with nobody.")
        return redirect(url_for("director.control", token=event.director_token))
    return render_template("director/new.html", form=form, presets=PRESETS, errors={})


@bp.app_template_global()
def audit_words(value: dict[str, Any] | None) -> str:
    """An audit trail value in words: "8 tricks, revoke by the visitors", "none"."""
    if not value:
        return "none"
    if "tricks" in value:
        revoke = value.get("revoke")
        return f"{value['tricks']} tricks" + (f", revoke by the {revoke}" if revoke else "")
    return ", ".join(f"{k} {v}" for k, v in value.items())


# --------------------------------------------------------------------------- access


def _unlock(event: Event) -> None:
    unlocked = set(session.get(UNLOCKED, []))
    unlocked.add(event.id)
    session[UNLOCKED] = sorted(unlocked)


unlock_for = _unlock  # the tournament formats' set-up pages unlock their new events too


def _event(token: str) -> Event:
    event = events.by_director_token(token)
    if event is None:
        abort(404, description="There is no event at this director's link.")
    return event


def director_only(view: F) -> F:
    """The director's token in the URL, and the PIN once per browser when one is set."""
    @wraps(view)
    def wrapped(token: str, **kwargs: Any) -> Any:
        event = _event(token)
        if event.director_pin and event.id not in session.get(UNLOCKED, []):
            if request.method != "GET":
                abort(403, description="Enter the director's PIN first.")
            return render_template("director/unlock.html", event=event, errors={}), 403
        return view(event, **kwargs)
    return wrapped  # type: ignore[return-value]


@bp.post("/d/<token>/unlock")
def unlock(token: str) -> BaseResponse | tuple[str, int]:
    """Check the director's PIN; remember it in this browser's session."""
    event = _event(token)
    if not events.pin_ok(event, request.form.get("pin", "")):
        return render_template("director/unlock.html", event=event,
                               errors={"pin": "That is not the PIN. Try again."}), 403
    _unlock(event)
    return redirect(url_for("director.control", token=token))


# --------------------------------------------------------------------------- the control room


def _control(event: Event, status: int = 200, errors: dict[str, str] | None = None,
             notice: str = "", **extra: Any) -> tuple[str, int]:
    ev = events.view(event)
    template = "director/_room.html" if htmx and not htmx.history_restore_request else "director/control.html"
    notices = [notice] if notice else list(get_flashed_messages())
    return render_template(template, ev=ev, errors=errors or {}, notices=notices, late=ev.late(), **extra), status


@bp.get("/d/<token>")
@director_only
def control(event: Event) -> tuple[str, int]:
    """The control room: tables x hands, late tables, advance, corrections, loans, days, playoff."""
    hosted = host(event)
    if hosted is not None:
        return hosted.control(event)  # type: ignore[no-any-return]
    return _control(event)


@bp.get("/d/<token>/room")
@director_only
def room(event: Event) -> tuple[str, int]:
    """The control room's live part, fetched again on every change."""
    hosted = host(event)
    if hosted is not None:
        return hosted.control(event)  # type: ignore[no-any-return]
    return _control(event)


def _act(event: Event, action: Callable[[], object], notice: str) -> tuple[str, int]:
    try:
        action()
    except RuleErrors as e:
        return _control(event, 422, errors_by_field(e))
    except events.Conflict as c:
        return _control(event, 409, {"hand": c.message})
    publish(event, orders=True)
    return _control(event, notice=notice)


@bp.post("/d/<token>/advance")
@director_only
def advance(event: Event) -> tuple[str, int]:
    """Open the next hand (closing the day after its last hand)."""
    try:
        expected = int(request.form.get("hand", ""))
    except ValueError:
        expected = 0
    if expected != event.current_hand:  # a second tap, or a stale page: do not skip a hand
        return _control(event, 409, {"hand": f"Hand {expected} was already advanced: hand {event.current_hand} "
                                             f"is in play now."})
    closes = events.view(event).spec
    words = (f"Day {closes.day} closed; hand {closes.number + 1} is open." if closes and closes.closes_day
             else f"Hand {event.current_hand + 1} is open.")
    if closes and closes.number == events.military.scheduled_hands(events.setup_of(event)):
        words = "The last hand is in: the schedule is complete."
    return _act(event, lambda: events.advance(event), words)


@bp.post("/d/<token>/loan")
@director_only
def loan(event: Event) -> tuple[str, int]:
    """Lend flags to a table for the hand in play."""
    try:
        table, flags = int(request.form.get("table", "")), int(request.form.get("flags", ""))
    except ValueError:
        return _control(event, 422, {"flags": "Choose a table and the number of flags to lend."})
    return _act(event, lambda: events.lend(event, table, flags), f"Table {table} was lent {flags} "
                                                                 f"flag{'s' if flags != 1 else ''}.")


@bp.post("/d/<token>/playoff")
@director_only
def playoff(event: Event) -> tuple[str, int]:
    """Record a tie-break hand: the two teams, the winner, the bye (three or more tied)."""
    try:
        teams = [int(request.form.get("team1", "")), int(request.form.get("team2", ""))]
        winner = int(request.form.get("winner", ""))
    except ValueError:
        return _control(event, 422, {"playoff": "Choose the two teams that played and the winner."})
    bye = [int(b) for b in request.form.getlist("bye") if b.isdigit()]
    if winner not in (1, 2):
        return _control(event, 422, {"playoff": "Choose which of the two teams won."})
    return _act(event, lambda: events.record_playoff(event, teams, teams[winner - 1], bye or None),
                "Playoff hand recorded.")


@bp.post("/d/<token>/moves")
@director_only
def moves(event: Event) -> tuple[str, int]:
    """Replace where the visiting pairs go in the hand in play (empty: back to the schedule's moves)."""
    raw = request.form.get("moves", "").replace(",", " ").split()
    if not all(part.isdigit() for part in raw):
        return _control(event, 422, {"moves": "Give one table number per table, table 1's first, e.g. 3 4 1 2."})
    destinations = [int(part) for part in raw] or None
    try:
        events.set_moves(event, destinations)
    except RuleErrors as e:
        messages = errors_by_field(e)
        return _control(event, 422, {"moves": " ".join(v for k, v in messages.items() if k.startswith("moves"))
                                     or " ".join(messages.values())})
    publish(event, orders=True)
    return _control(event, notice=f"Hand {event.current_hand}: " + (
        "the visiting pairs go where you said." if destinations else "back to the schedule's moves."))


@bp.post("/d/<token>/pin")
@director_only
def pin(event: Event) -> tuple[str, int]:
    """Set (or remove) the director's PIN."""
    return _act(event, lambda: events.set_pin(event, request.form.get("pin", "").strip()),
                "PIN saved." if request.form.get("pin") else "PIN removed.")


@bp.route("/d/<token>/results/<int:hand>/<int:table>", methods=["GET", "POST"])
@director_only
def correct(event: Event, hand: int, table: int) -> tuple[str, int] | BaseResponse:
    """Correct (or enter for a table) one result; everything after it is scored again."""
    ev = events.view(event)
    if not 1 <= table <= ev.tables or not 1 <= hand <= min(event.current_hand, ev.scheduled):
        abort(404, description=f"There is no result to correct for hand {hand} at table {table}.")
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            tricks, revoke = events.parse_result(request.form.get("tricks"), request.form.get("revoke"))
            events.correct_result(event, hand, table, tricks, revoke)
        except RuleErrors as e:
            errors = errors_by_field(e)
        else:
            publish(event, orders=True)
            flash(f"Hand {hand} at table {table} corrected; everything after it is scored again.")
            return redirect(url_for("director.control", token=event.director_token))
    spec = ev.spec_of(hand)
    return render_template("director/correct.html", ev=ev, hand=hand, table=table, spec=spec,
                           result=ev.result(hand, table), errors=errors,
                           form=request.form if request.method == "POST" else {}), 422 if errors else 200


# --------------------------------------------------------------------------- QR codes


@bp.get("/d/<token>/qr")
@director_only
def qr_sheet(event: Event) -> str:
    """A printable sheet with one card per table: its team and the QR code of its own score page."""
    cards = [(t, share_url(url_for("tables.table", token=t.token))) for t in event.tables]
    if event.format != "military":
        from scorepad import tournament
        teams = [(e, share_url(url_for("tournament.team", token=e.token))) for e in tournament.teams(event)]
        return render_template("tournament/qr.html", event=event, cards=cards, teams=teams)
    return render_template("director/qr.html", ev=events.view(event), cards=cards)


@bp.post("/d/<token>/tables/<int:table>/token")
@director_only
def new_token(event: Event, table: int) -> BaseResponse:
    """Replace a table's secret: its old QR code stops working at once."""
    try:
        events.regenerate_token(event, table)
    except RuleErrors as e:
        abort(404, description=str(e.errors[0].message))
    flash(f"Table {table} has a new QR code: print its card again; the old one no longer works.")
    return redirect(url_for("director.control", token=event.director_token) + "#tables")
