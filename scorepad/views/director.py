"""The director's pages every format shares: the control room (drawn by the event's format), the
tables' QR cards, a table's new QR code, the PIN. Each format's own actions are in its blueprint.

The director's link carries a long secret; with a PIN set, the browser must also unlock it once
(remembered in the signed session). Every change is in the audit trail. The browser that created an
event, or opened its control room, keeps its link in the session too: the home page lists it under
"Your events" (the PIN is still asked when set).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime, tzinfo
from functools import wraps
from typing import Any, TypeVar, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import (
    Blueprint,
    Response,
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
from flask_babel import format_datetime, gettext
from jinja2 import pass_context
from jinja2.runtime import Context
from werkzeug.wrappers import Response as BaseResponse

from scorepad.events import backup, core, lifecycle, roster, timer
from scorepad.events.core import Event, Game
from scorepad.events.registry import get_format
from scorepad.form_input import whole_number
from scorepad.i18n import say
from scorepad.rules.base import RuleErrors
from scorepad.views.audit_trail import audit_action, audit_actor, audit_change, audit_note, audit_words, signed_by
from scorepad.views.common import errors_by_field, format_name, gone_if_deleted, no_event, not_found, partial, share_url

bp = Blueprint("director", __name__)
F = TypeVar("F", bound=Callable[..., Any])
UNLOCKED = "unlocked_events"
RECOVERY = "recovery_code_once"
MY_EVENTS = "my_events"  # director tokens of the events this browser created or opened, newest first
MY_EVENTS_KEPT = 20  # the session is a cookie (4 KB at most, shared with the games' tokens)


# the control rooms' audit trails
for _word in (audit_words, audit_change, audit_actor, audit_action, audit_note, signed_by):
    bp.add_app_template_global(_word)


def _server_zone_name() -> str:
    return str(current_app.config.get("SCOREPAD_TZ") or os.environ.get("SCOREPAD_TZ") or "")


def _zone(event: Event | None = None) -> tzinfo | None:
    """The zone an event's times are shown in: its own (chosen at its creation, migration 0018),
    else the server's, SCOREPAD_TZ (config or environment, an IANA name such as
    "America/Edmonton"), else the machine's (None: datetime.astimezone's local zone)."""
    for name, server in ((event.time_zone if event is not None else None, False), (_server_zone_name(), True)):
        if name:
            try:
                return ZoneInfo(name)
            except (ZoneInfoNotFoundError, ValueError):
                if server:
                    current_app.logger.warning("SCOREPAD_TZ=%r is not a known time zone: using the server's", name)
    return None


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite hands back naive UTC


@bp.app_template_filter("iso_utc")
def iso_utc(moment: datetime) -> str:
    """For <time datetime>: the moment in UTC, ISO 8601 with its Z."""
    return _utc(moment).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@bp.app_template_filter("local_time")
@pass_context
def local_time(context: Context, moment: datetime, with_day: bool = False, short: bool = False) -> str:
    """The moment in the zone of the page's `event` (`_zone`), labelled with the zone: "14:03:22 MDT"
    ("Sat 02 May 14:03:22 MDT", the day in the reader's language); `short`: "14:03", the zone said
    once on the page (`zone_name`)."""
    event = context.get("event")
    local = _utc(moment).astimezone(_zone(event if isinstance(event, Event) else None))
    if short:
        return local.strftime("%H:%M")
    day = format_datetime(local, "EEE dd MMM ", rebase=False) if with_day else ""  # the reader's day names
    return (day + local.strftime("%H:%M:%S %Z")).strip()


@bp.app_template_global()
def zone_name(event: Event) -> str:
    """The zone an event's times are in, as a page says it once: "America/Edmonton"."""
    return event.time_zone or _server_zone_name() or gettext("the server's time zone")


# --------------------------------------------------------------------------- access


def _unlocked() -> dict[str, str]:
    found = session.get(UNLOCKED)
    return dict(found) if isinstance(found, dict) else {}


def _unlock(event: Event) -> None:
    """Remember in this browser's session that it may open the event, with the PIN it was opened
    under: a new PIN (core.pin_stamp changes) locks out every browser opened with the old one.

    A recovery code made by this request (a PIN set, or the old code used) waits in the session for
    the next full control-room page, which shows it once and drops it."""
    unlocked = _unlocked()
    unlocked[str(event.id)] = core.pin_stamp(event)
    session[UNLOCKED] = unlocked
    remember_event(event)
    if event.recovery_code:
        session[RECOVERY] = {"event": event.id, "code": event.recovery_code}


def _recovery_code(event: Event) -> str | None:
    """The recovery code to show once on this page, if this browser has one waiting for the event."""
    waiting = session.get(RECOVERY)
    if not isinstance(waiting, dict) or waiting.get("event") != event.id:
        return None
    session.pop(RECOVERY)
    return str(waiting.get("code", "")) or None


def is_unlocked(event: Event) -> bool:
    """Whether this browser may open the event's control room without entering its PIN now."""
    if event.director_pin is None:
        return True
    stamp = _unlocked().get(str(event.id))
    return stamp is not None and stamp == core.pin_stamp(event)


def directs(game: Game) -> bool:
    """Whether this browser is the director of the event the game is played at: it holds the event's
    director's link (created or opened here) and may open it now."""
    event = core.event_of(game)
    return event is not None and directs_here(event)


def unlock_for(event: Event) -> None:
    """The formats' set-up pages: the browser that created the event may open it, and lists it."""
    _unlock(event)


def my_event_tokens() -> list[str]:
    """The director's links of the events this browser created or opened, newest first."""
    found = session.get(MY_EVENTS)
    return [t for t in found if isinstance(t, str)] if isinstance(found, list) else []


def remember_event(event: Event) -> None:
    """List the event on this browser's home page ("Your events"); the newest first."""
    mine = my_event_tokens()
    if mine[:1] == [event.director_token]:
        return  # already first: the cookie is not sent again
    session[MY_EVENTS] = [event.director_token, *(t for t in mine if t != event.director_token)][:MY_EVENTS_KEPT]
    session.permanent = True


def forget_event(token: str) -> bool:
    """Take the event off this browser's list, and sign this browser out of it (with a PIN set, the
    PIN is asked again). The event itself is untouched. False when it was not on the list."""
    mine = my_event_tokens()
    if token not in mine:
        return False
    session[MY_EVENTS] = [t for t in mine if t != token]
    event = core.by_director_token(token)
    if event is not None:
        unlocked = _unlocked()
        if unlocked.pop(str(event.id), None) is not None:
            session[UNLOCKED] = unlocked
    return True


def _event(token: str) -> Event:
    event = core.by_director_token(token)
    if event is None:
        not_found(token, no_event())
    return event


def _guarded(view: F, key: str | None) -> F:
    @wraps(view)
    def wrapped(token: str, **kwargs: Any) -> Any:
        event = _event(token)
        if key is not None and event.format != key:
            abort(
                404,
                description=gettext(
                    "This is not a %(format)s event: that page is not part of it.",
                    format=format_name(get_format(key).title),
                ),
            )
        if not is_unlocked(event):
            if request.method != "GET":
                abort(403, description=gettext("Enter the director's PIN first."))
            return render_template("director/unlock.html", event=event, errors={}), 403
        return view(event, **kwargs)

    return wrapped  # type: ignore[return-value]


def director_only(view: F) -> F:
    """The director's token in the URL, and the PIN once per browser when one is set."""
    return _guarded(view, None)


def director_of(key: str) -> Callable[[F], F]:
    """`director_only` for a format's own page: an event of another format answers 404."""
    return lambda view: _guarded(view, key)


@bp.post("/d/<token>/unlock")
def unlock(token: str) -> BaseResponse | tuple[str, int]:
    """Check the director's PIN; remember it in this browser's session (locked out a while after
    too many wrong PINs: see core.unlock)."""
    event = _event(token)
    if event.director_pin is None:  # no PIN (any more): the link alone opens the event
        return redirect(url_for("director.control", token=token))
    code = request.form.get("recovery", "").strip()
    if code:  # the director on a new phone, the PIN forgotten or locked by someone's wrong tries
        if not core.recover(event, code):
            return render_template(
                "director/unlock.html",
                event=event,
                open_recovery=True,
                errors={"recovery": gettext("That is not this event's recovery code.")},
            ), 403
        _unlock(event)
        flash(
            gettext(
                "Opened with the recovery code. It is used up: write down the new one below. "
                "If someone else has been trying PINs, set a new PIN."
            )
        )
        return redirect(url_for("director.control", token=token), code=303)
    try:
        if not core.unlock(event, request.form.get("pin", "")):
            return render_template(
                "director/unlock.html", event=event, errors={"pin": gettext("That is not the PIN. Try again.")}
            ), 403
    except core.PinLocked as locked:
        return render_template(
            "director/unlock.html", event=event, open_recovery=True, errors={"pin": say(locked.message)}
        ), 429
    _unlock(event)
    return redirect(url_for("director.control", token=token))


@bp.post("/d/<token>/lock")
def lock(token: str) -> BaseResponse:
    """Sign this browser out of the event: with a PIN set, it must enter the PIN again."""
    event = _event(token)
    unlocked = _unlocked()
    unlocked.pop(str(event.id), None)
    session[UNLOCKED] = unlocked
    return redirect(url_for("director.control", token=token), code=303)


# --------------------------------------------------------------------------- the control room


def render_room(
    event: Event,
    status: int = 200,
    errors: dict[str, str] | None = None,
    notice: str = "",
    form: Any = None,
    timer_errors: dict[str, str] | None = None,
    near: dict[str, str] | None = None,
) -> tuple[str, int]:
    """The event's control room, drawn by its format (the live part alone for htmx); the notice
    given, else the flashed ones; a refused form comes back with its values (and `near`: the club's
    member each near name may be, `roster.NearMembers`)."""
    fmt = get_format(event.format)
    page = "_room.html" if partial() else "control.html"
    club = roster.club_of(event)
    notices = [notice] if notice else list(get_flashed_messages())
    recovery = None if partial() else _recovery_code(event)
    links = {} if partial() else _links_to_self(event)
    return render_template(
        f"{fmt.pages}/{page}",
        event=event,
        pages=fmt.pages,
        **fmt.room(event),
        errors=errors or {},
        notices=notices,
        form=form or {},
        recovery_code=recovery,
        timer_errors=timer_errors or {},
        club=club,
        members=roster.members(club) if club is not None else [],
        near=near or {},
        **links,
    ), status


def _links_to_self(event: Event) -> dict[str, str]:
    """The director's link, to open on another device of the director's: in full (its QR code) and
    short (every event has its code since migration 0008; this page writes nothing, as it may follow
    a refused form)."""
    code = event.director_code
    return {
        "director_link": share_url(url_for("director.control", token=event.director_token)),
        "director_short_link": share_url(url_for("director.control", token=code)) if code else "",
    }


def _room_page(event: Event) -> tuple[str, int]:
    remember_event(event)  # opened with its link (and PIN): listed on this browser's home page
    return render_room(event)


_control = cast(Callable[[str], tuple[str, int]], director_only(_room_page))


@bp.get("/d/<token>")
def control(token: str) -> BaseResponse | tuple[str, int]:
    """The control room: what the event's format shows its director, and what the director can do.
    The director's short link (`/d/<code>`, typed on another device) goes on to the full link."""
    event = core.by_director_code(token)
    if event is not None:
        return redirect(url_for("director.control", token=event.director_token), code=302)
    return _control(token)


@bp.get("/d/<token>/room")
@director_only
def room(event: Event) -> tuple[str, int]:
    """The control room's live part, fetched again on every change."""
    return render_room(event)


@bp.post("/d/<token>/archive")
@director_only
def archive(event: Event) -> BaseResponse | tuple[str, int]:
    """Archive the event (off the home page's lists, its pages kept), or take it out of the archive."""
    archived = request.form.get("archived") == "1"
    try:
        lifecycle.archive(event, archived)
    except RuleErrors as e:
        return render_room(event, 422, errors_by_field(e), form=request.form)
    flash(
        gettext(
            "“%(event)s” is archived: it is off the home page's lists; its pages and links work as before, "
            "and this control room can take it out of the archive.",
            event=event.name,
        )
        if archived
        else gettext("“%(event)s” is out of the archive: the home page lists it again.", event=event.name)
    )
    return redirect(url_for("director.control", token=event.director_token), code=303)


@bp.post("/d/<token>/club")
@director_only
def club(event: Event) -> BaseResponse | tuple[str, int]:
    """Link the event to a club's roster (the group's link or code), or take it off (`unlink`)."""
    if request.form.get("unlink"):
        group = roster.unlink(event)
        if group is not None:
            flash(
                gettext(
                    "The event no longer uses the roster of “%(club)s”; its members stay in the group.", club=group.name
                )
            )
        return redirect(url_for("director.control", token=event.director_token) + "#club-title", code=303)
    try:
        group, _ = roster.link(event, request.form.get("club", ""))
    except RuleErrors as e:
        return render_room(event, 422, errors_by_field(e), form=request.form)
    flash(
        gettext(
            "The registration offers the members of “%(club)s” now; a new name typed there joins the club.",
            club=group.name,
        )
    )
    return redirect(url_for("director.control", token=event.director_token) + "#club-title", code=303)


@bp.route("/d/<token>/delete", methods=["GET", "POST"])
@director_only
def delete(event: Event) -> BaseResponse | tuple[str, int]:
    """Delete the event for good, once its name is typed to confirm."""
    if request.method == "GET":
        return render_template("director/delete.html", event=event, errors={}, typed=""), 200
    typed = request.form.get("confirm", "")
    name = event.name
    try:
        lifecycle.delete(event, typed)
    except RuleErrors as e:
        return render_template("director/delete.html", event=event, errors=errors_by_field(e), typed=typed), 422
    flash(
        gettext("“%(event)s” is deleted, with everything entered in it. Its links no longer open anything.", event=name)
    )
    return redirect(url_for("home.index"), code=303)


@bp.get("/d/<token>/audit")
@director_only
def audit_trail(event: Event) -> str:
    """The event's whole audit trail, a page at a time, newest first; or one table's entries."""
    page = whole_number(request.args.get("page") or "1", digits=6)
    raw_table = request.args.get("table") or ""
    table = whole_number(raw_table) if raw_table else None
    found = None
    if page is not None and (table is not None or not raw_table):
        found = core.audit_page(event, page, table)
    if found is None:
        abort(404, description=gettext("The audit trail has no such page: go back to its first page."))
    return render_template("director/audit.html", event=event, trail=found)


@bp.post("/d/<token>/pin")
@director_only
def pin(event: Event) -> tuple[str, int]:
    """Set (or remove) the director's PIN: every other browser must enter the new one."""
    try:
        core.set_pin(event, request.form.get("pin", "").strip())
    except RuleErrors as e:
        return render_room(event, 422, errors_by_field(e), form=request.form)
    _unlock(event)  # this browser knows the new PIN (and is shown its recovery code once)
    return render_room(
        event,
        notice=gettext("PIN saved. Other browsers must enter it again.")
        if request.form.get("pin")
        else gettext("PIN removed."),
    )


# --------------------------------------------------------------------------- the round timer


def _timer_panel(event: Event, status: int = 200, errors: dict[str, str] | None = None, form: Any = None) -> Any:
    """The control room's timer panel (htmx), or the whole control room for a form posted without
    script: after a change, back to it (303); refused, with the message beside the field."""
    if partial():
        return render_template(
            "director/_timer.html", event=event, timer=timer.view(event), timer_errors=errors or {}, form=form or {}
        ), status
    if status != 200:
        return render_room(event, status, form=form, timer_errors=errors)
    return redirect(url_for("director.control", token=event.director_token) + "#timer-panel", code=303)


@bp.get("/d/<token>/timer")
@director_only
def timer_panel(event: Event) -> tuple[str, int]:
    """The control room's timer panel, fetched again on each `timer` push."""
    return render_template("director/_timer.html", event=event, timer=timer.view(event), timer_errors={}, form={}), 200


def _timer_change(event: Event, change: Callable[[Event], None]) -> Any:
    """A change to the timer: every screen follows; refused, the message beside its field."""
    try:
        change(event)
    except RuleErrors as e:
        return _timer_panel(event, 422, errors_by_field(e), form=request.form)
    except timer.TimerStateError as e:
        return _timer_panel(event, 409, {"timer": say(e.message)}, form=request.form)
    return _timer_panel(event)


@bp.post("/d/<token>/timer/minutes")
@director_only
def timer_minutes(event: Event) -> Any:
    """Set the minutes per round (per hand in Military Whist), from the next start."""
    return _timer_change(event, lambda e: timer.set_minutes(e, request.form.get("minutes", "")))


@bp.post("/d/<token>/timer/start")
@director_only
def timer_start(event: Event) -> Any:
    """Start the round's clock with its whole time (again, for a new round)."""
    return _timer_change(event, timer.start)


@bp.post("/d/<token>/timer/pause")
@director_only
def timer_pause(event: Event) -> Any:
    """Stop the clock on every screen, keeping what is left."""
    return _timer_change(event, timer.pause)


@bp.post("/d/<token>/timer/resume")
@director_only
def timer_resume(event: Event) -> Any:
    """Run the clock again from what was left."""
    return _timer_change(event, timer.resume)


@bp.post("/d/<token>/timer/add")
@director_only
def timer_add(event: Event) -> Any:
    """Give the round more minutes."""
    return _timer_change(event, lambda e: timer.add(e, request.form.get("add", "")))


@bp.post("/d/<token>/timer/stop")
@director_only
def timer_stop(event: Event) -> Any:
    """Take the clock off every screen; the minutes are kept."""
    return _timer_change(event, timer.stop)


@bp.get("/d/<token>/backup")
@director_only
def download_backup(event: Event) -> Response:
    """Download the whole event as one file to restore on another server (docs/event-backup.md)."""
    data, name = backup.download(event)
    return Response(
        data, mimetype="application/json", headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


# --------------------------------------------------------------------------- QR codes


@bp.get("/d/<token>/qr")
@director_only
def qr_sheet(event: Event) -> BaseResponse:
    """On to the printable QR sheet, at an address of its own (see `print_sheet`)."""
    remember_event(event)  # the sheet opens in this browser alone
    return redirect(url_for("director.print_sheet", token=core.print_token(event)), code=303)


def directs_here(event: Event) -> bool:
    """Whether this browser is the director's: it opened the control room (and its PIN, if any)."""
    return event.director_token in my_event_tokens() and is_unlocked(event)


@bp.get("/qr/<token>")
def print_sheet(token: str) -> str:  # sent no-store, as every page of secret links (security.py)
    """A printable sheet with one card per table (the QR code of its own score page), and one per team
    where the format gives teams a page of their own. Its address is not the director's: browsers
    print the page's address in the footer, and these sheets lie on the tables. So it opens only in
    the browser that came from the control room: the address printed opens nothing anywhere else."""
    event = core.by_print_token(token)
    if event is None and (public_id := core.print_token_public_id(token)) is not None:
        gone_if_deleted(public_id)
    if event is None or not directs_here(event):
        abort(
            403,
            description=gettext(
                "This QR sheet opens only on the director's own device, from the control room "
                "(Print the QR cards). Each card opens its own table's or team's page."
            ),
        )
    fmt = get_format(event.format)
    core.give_short_codes(event)
    cards = [
        (
            t,
            share_url(url_for("tables.table", token=t.token)),  # the QR code's link, and the one to type
            share_url(url_for("tables.table", token=t.short_code)),
        )
        for t in event.tables
    ]
    return render_template(f"{fmt.pages}/qr.html", event=event, cards=cards, teams=fmt.teams(event))


@bp.post("/d/<token>/tables/<int:table>/token")
@director_only
def new_token(event: Event, table: int) -> BaseResponse:
    """Replace a table's secret: its old QR code stops working at once."""
    try:
        core.regenerate_token(event, table)
    except RuleErrors as e:
        abort(404, description=say(e.errors[0].message))
    flash(gettext("Table %(table)s has a new QR code: print its card again; the old one no longer works.", table=table))
    return redirect(url_for("director.control", token=event.director_token) + "#tables")
