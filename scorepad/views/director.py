"""The director's pages: set up an event, print the tables' QR codes, run the control room.

The director's link carries a long secret; with a PIN set, the browser must also unlock it once
(remembered in the signed session). Only the director can change the set-up, correct a result,
lend flags, advance the hands, close a day or record a playoff; every change is in the audit trail.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone, tzinfo
from functools import wraps
from typing import Any, Callable, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from scorepad.events import military as events
from scorepad.extensions import htmx
from scorepad.form_input import whole_number
from scorepad.formats.military import PRESETS
from scorepad.models import Event
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.military import LETTERS
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
        found = [whole_number(d) for d in form.get("days", "").replace(",", " ").split()]
        days = [d for d in found if d is not None]
        if not found or len(days) != len(found):
            errors.append(RuleError("days", "give the hands of each day as numbers, e.g. 30 or 30, 20"))
    tables = whole_number(form.get("tables", ""), 2) or 0
    if not 2 <= tables <= 64:
        errors.append(RuleError("tables", "an event has 2 to 64 tables"))
        tables = 0
    teams = [line.strip() for line in form.get("teams", "").splitlines()]
    while teams and not teams[-1]:  # a blank line inside keeps its table ("Table N"); trailing ones do not count
        teams.pop()
    if len(teams) > tables:
        errors.append(RuleError("teams", f"{len(teams)} team names for {tables} tables: one name per line, "
                                         f"at most one per table"))
    teams += [""] * max(0, tables - len(teams))
    late = whole_number(form.get("late_minutes", "12"))
    if late is None:
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
            return render_template("director/new.html", form=form, presets=PRESETS, errors=errors, max_name=events.MAX_NAME), 422
        _unlock(event)
        flash("Event created. This page is your private director's link: bookmark it and share it with nobody.")
        return redirect(url_for("director.control", token=event.director_token))
    return render_template("director/new.html", form=form, presets=PRESETS, errors={}, max_name=events.MAX_NAME)


@bp.app_template_global()
def audit_words(value: dict[str, Any] | None) -> str:
    """An audit trail value in words: "8 tricks, revoke by the visitors", "none"."""
    if not value:
        return "none"
    if "tricks" in value:
        revoke = value.get("revoke")
        return f"{value['tricks']} tricks" + (f", revoke by the {revoke}" if revoke else "")
    if "held" in value and "owed" in value:  # a day closed: the flags as counted then
        return "flags at closing " + ", ".join(
            f"table {t + 1}: {h - o}" for t, (h, o) in enumerate(zip(value["held"], value["owed"])))
    if "teams" in value and "name" in value:  # names changed
        players = value.get("players") or []
        return f"“{value.get('name', '')}”; " + "; ".join(
            team + (f" ({', '.join(players[i])})" if i < len(players) and players[i] else "")
            for i, team in enumerate(value["teams"]))
    return ", ".join(f"{k} {v}" for k, v in value.items())


def _zone() -> tzinfo | None:
    """The hall's time zone: SCOREPAD_TZ (config or environment, an IANA name such as
    "America/Edmonton"), else the server's own (None: datetime.astimezone's local zone)."""
    name = current_app.config.get("SCOREPAD_TZ") or os.environ.get("SCOREPAD_TZ")
    if name:
        try:
            return ZoneInfo(str(name))
        except (ZoneInfoNotFoundError, ValueError):
            current_app.logger.warning("SCOREPAD_TZ=%r is not a known time zone: using the server's", name)
    return None


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)  # SQLite hands back naive UTC


@bp.app_template_filter("iso_utc")
def iso_utc(moment: datetime) -> str:
    """For <time datetime>: the moment in UTC, ISO 8601 with its Z."""
    return _utc(moment).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@bp.app_template_filter("local_time")
def local_time(moment: datetime, with_day: bool = False) -> str:
    """The moment in the hall's time zone, labelled with the zone: "14:03:22 MDT"."""
    local = _utc(moment).astimezone(_zone())
    return local.strftime(("%a %d %b " if with_day else "") + "%H:%M:%S %Z").strip()


# --------------------------------------------------------------------------- access


def _unlocked() -> dict[str, str]:
    found = session.get(UNLOCKED)
    return dict(found) if isinstance(found, dict) else {}


def _unlock(event: Event) -> None:
    """Remember in this browser's session that it may open the event, with the PIN it was opened
    under: a new PIN (events.pin_stamp changes) locks out every browser opened with the old one."""
    unlocked = _unlocked()
    unlocked[str(event.id)] = events.pin_stamp(event)
    session[UNLOCKED] = unlocked


def _is_unlocked(event: Event) -> bool:
    stamp = _unlocked().get(str(event.id))
    return stamp is not None and stamp == events.pin_stamp(event)


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
        if event.director_pin and not _is_unlocked(event):
            if request.method != "GET":
                abort(403, description="Enter the director's PIN first.")
            return render_template("director/unlock.html", event=event, errors={}), 403
        return view(event, **kwargs)
    return wrapped  # type: ignore[return-value]


@bp.post("/d/<token>/unlock")
def unlock(token: str) -> BaseResponse | tuple[str, int]:
    """Check the director's PIN; remember it in this browser's session (locked out a while after
    too many wrong PINs: see events.unlock)."""
    event = _event(token)
    try:
        if not events.unlock(event, request.form.get("pin", "")):
            return render_template("director/unlock.html", event=event,
                                   errors={"pin": "That is not the PIN. Try again."}), 403
    except events.PinLocked as locked:
        return render_template("director/unlock.html", event=event, errors={"pin": locked.message}), 429
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
    expected = whole_number(request.form.get("hand", ""), 4)
    if expected is None:
        return _control(event, 422, {"hand": "The form lost its hand number: reload the page."})
    if expected != event.current_hand:  # a second tap, or a stale page: do not skip a hand
        return _control(event, 409, {"hand": f"Hand {expected} was already advanced: hand {event.current_hand} "
                                             f"is in play now." if expected < event.current_hand else
                                             f"Hand {expected} is not open: hand {event.current_hand} is in play."})
    closes = events.view(event).spec
    words = (f"Day {closes.day} closed; hand {closes.number + 1} is open." if closes and closes.closes_day
             else f"Hand {event.current_hand + 1} is open.")
    if closes and closes.number == events.military.scheduled_hands(events.setup_of(event)):
        words = "The last hand is in: the schedule is complete."
    return _act(event, lambda: events.advance(event, hand=expected), words)


@bp.post("/d/<token>/loan")
@director_only
def loan(event: Event) -> tuple[str, int]:
    """Lend flags to a table for the hand in play."""
    table, flags = whole_number(request.form.get("table", "")), whole_number(request.form.get("flags", ""))
    if table is None or flags is None:
        return _control(event, 422, {"flags": "Choose a table and the number of flags to lend."})
    return _act(event, lambda: events.lend(event, table, flags), f"Table {table} was lent {flags} "
                                                                 f"flag{'s' if flags != 1 else ''}.")


@bp.post("/d/<token>/return")
@director_only
def give_back(event: Event) -> tuple[str, int]:
    """Record flags a table gives back to the director against its loans."""
    table, flags = whole_number(request.form.get("table", "")), whole_number(request.form.get("flags", ""))
    if table is None or flags is None:
        return _control(event, 422, {"back": "Choose a table and the number of flags it gives back."})
    return _act(event, lambda: events.return_flags(event, table, flags),
                f"Table {table} gave {flags} flag{'s' if flags != 1 else ''} back.")


@bp.post("/d/<token>/playoff")
@director_only
def playoff(event: Event) -> tuple[str, int]:
    """Record a tie-break hand: the two teams, the winner, the bye (three or more tied)."""
    found = [whole_number(request.form.get(key, "")) for key in ("team1", "team2", "winner")]
    if None in found:
        return _control(event, 422, {"playoff": "Choose the two teams that played and the winner."})
    teams, winner = [t or 0 for t in found[:2]], found[2]
    byes = [whole_number(b) for b in request.form.getlist("bye")]
    bye = [b for b in byes if b is not None]
    if len(bye) != len(byes):
        return _control(event, 422, {"playoff": "Choose the team that had the bye from the list."})
    if winner not in (1, 2):
        return _control(event, 422, {"playoff": "Choose which of the two teams won."})
    return _act(event, lambda: events.record_playoff(event, teams, teams[(winner or 1) - 1], bye or None),
                "Playoff hand recorded.")


@bp.post("/d/<token>/moves")
@director_only
def moves(event: Event) -> tuple[str, int]:
    """Replace where the visiting pairs go in the hand in play (empty: back to the schedule's moves)."""
    found = [whole_number(part) for part in request.form.get("moves", "").replace(",", " ").split()]
    destinations = [d for d in found if d is not None] or None
    if None in found:
        return _control(event, 422, {"moves": "Give one table number per table, table 1's first, e.g. 3 4 1 2."})
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
    """Set (or remove) the director's PIN: every other browser must enter the new one."""
    def save() -> None:
        events.set_pin(event, request.form.get("pin", "").strip())
        _unlock(event)  # this browser knows the new PIN
    return _act(event, save, "PIN saved. Other browsers must enter it again." if request.form.get("pin")
                else "PIN removed.")


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


@bp.route("/d/<token>/setup", methods=["GET", "POST"])
@director_only
def setup(event: Event) -> tuple[str, int] | BaseResponse:
    """Rename the event, its teams and their players (A, B, X, Y); the QR cards and boards follow."""
    if event.format != "military":
        abort(404, description="This event's names are changed on its own set-up page.")
    tables = event.tables
    if request.method == "POST":
        form = request.form
        names = [form.get(f"team.{t.number}", "") for t in tables]
        players = [[form.get(f"player.{t.number}.{letter}", "") for letter in LETTERS]
                   for t in tables]
        try:
            events.rename(event, form.get("name", ""), names, players)
        except RuleErrors as e:
            errors = {k.removesuffix(".name"): v for k, v in errors_by_field(e).items()}
            return render_template("director/setup.html", event=event, form=form, errors=errors,
                                   max_name=events.MAX_NAME), 422
        publish(event, orders=True)
        flash("Names saved: the QR cards, the phones and the boards show them now.")
        return redirect(url_for("director.control", token=event.director_token))
    current: dict[str, str] = {"name": event.name}
    for t in tables:
        current[f"team.{t.number}"] = t.team
        for letter, player in zip(LETTERS, t.players):
            current[f"player.{t.number}.{letter}"] = player
    return render_template("director/setup.html", event=event, form=current, errors={}, max_name=events.MAX_NAME), 200


# --------------------------------------------------------------------------- QR codes


@bp.get("/d/<token>/qr")
@director_only
def qr_sheet(event: Event) -> str:
    """A printable sheet with one card per table: its team and the QR code of its own score page."""
    cards = [(t, share_url(url_for("tables.table", token=t.token))) for t in event.tables]
    if event.format != "military":
        from scorepad.events.bid_whist import tournament
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
