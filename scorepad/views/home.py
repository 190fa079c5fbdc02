"""The home page and the variant pages: what each variant is and how it is scored."""

from __future__ import annotations

from dataclasses import dataclass

from flask import (
    Blueprint,
    abort,
    flash,
    get_flashed_messages,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext, lazy_gettext
from werkzeug.wrappers import Response as BaseResponse

from scorepad.events import core
from scorepad.events.core import Event
from scorepad.events.registry import get_format
from scorepad.games import groups, records
from scorepad.games import service as games
from scorepad.i18n import say
from scorepad.rules import VARIANT_MODULES, RuleError, all_variants, get_variant
from scorepad.rules.base import describe_options, resolve_options
from scorepad.rules.record import GAMES_MAX, GAMES_MAX_BYTES, RECORD_MAX_BYTES
from scorepad.views import director
from scorepad.views.common import format_name
from scorepad.views.games import MY_GAMES
from scorepad.views.groups import my_groups

bp = Blueprint("home", __name__)
MAX_TOKEN = 64  # a director's token is 32 characters: anything longer is not one
CODE_SHOWN = 40  # what is typed in the code field is shown back (in its message, in the field) this long
# what the import form says it takes (home/_import_form.html)
IMPORT_LIMITS = {"record_mb": RECORD_MAX_BYTES // 2**20, "games": GAMES_MAX, "games_mb": GAMES_MAX_BYTES // 2**20}
NO_CODE = lazy_gettext("Type the game's code: it is under the QR code on the scorer's \"Share live view\" screen.")


def _not_found(code: str) -> str:
    """The refusal of a code that names nothing, shown back as typed."""
    return gettext(
        'No game has the code \u201c%(code)s\u201d. Check it on the scorer\'s "Share live view" screen: 8 '
        "letters and digits (codes have no 0, 1, I, L or O). A table's or a team's card code has 10.",
        code=code,
    )


@dataclass(frozen=True)
class MyEvent:
    """An event on this browser's list, as the home page shows it."""

    event: Event
    kind: str  # the format's name
    status: str  # where it stands ("Hand 5 of 30")
    locked: bool  # its PIN must be entered on this browser before the control room opens


def _my_events() -> list[MyEvent]:
    """The events this browser created or opened (`director.remember_event`), newest first; those
    deleted since are dropped from the list."""
    tokens = director.my_event_tokens()
    events = core.by_director_tokens(tokens)
    if len(events) != len(tokens):
        session[director.MY_EVENTS] = [e.director_token for e in events]
    found = []
    for e in events:
        fmt = get_format(e.format)
        found.append(MyEvent(e, format_name(fmt.title), say(fmt.status(e)), not director.is_unlocked(e)))
    return found


def form_page(
    name: str, status: int = 200, errors: dict[str, str] | None = None, problems: list[str] | None = None, **typed: str
) -> tuple[str, int]:
    """One of the home page's forms alone on a page of its own (`home/<name>.html`: "watch",
    "import"), with `errors` beside its field, a refused record's `problems` listed under its
    message, and what was `typed` kept to be corrected."""
    return render_template(
        f"home/{name}.html",
        errors=errors or {},
        problems=problems or [],
        typed=typed,
        limits=IMPORT_LIMITS,
    ), status


@bp.get("/")
def index() -> BaseResponse:
    """This browser's games (in progress, finished) and events (those it created or opened; the
    archived ones apart, folded), the other games on this server, a way to start either, and the
    variants' scoring. Other people's events are never listed: a hall's phones reach an event by its
    cards and its projector's QR code. Only this browser's games are derived (their totals, whose
    turn): the others are listed from their rows, so the page costs the same whatever other visitors
    posted."""
    tokens = list(session.get(MY_GAMES, []))
    own = [games.outlined(g) for g in games.by_scorer_tokens(tokens)]  # an imported game: from its check
    others = [(g, get_variant(g.variant).name) for g in games.recent_others(but=tokens)]
    my_events = _my_events()
    groups = my_groups()
    response = make_response(
        render_template(
            "home/index.html",
            variants=all_variants(),
            notices=get_flashed_messages(),
            in_progress=[g for g in own if not g.outline.over],
            finished=[g for g in own if g.outline.over],
            others=others,
            samples=not own and not others and records.has_demo_games(),  # said where "No games yet" is
            my_events=[e for e in my_events if e.event.archived_at is None],
            archived_events=[e for e in my_events if e.event.archived_at is not None],
            my_groups=groups,
            errors={},
            problems=[],
            typed={},
            limits=IMPORT_LIMITS,
        )
    )
    if my_events or groups or own:
        response.headers["Cache-Control"] = "no-store"  # it holds this browser's secret links
    return response


@bp.get("/watch")
def watch_code() -> BaseResponse | tuple[str, int]:
    """Open what a typed short code names: a game's spectators' page (the share screen's code), the
    page of a table's or a team's card (the code printed under its QR code), or a group's page (the
    code under its "Share this group"). Refused, the field
    is shown again on a page of its own, its message beside it."""
    if "code" not in request.args:
        return form_page("watch")
    raw = request.args["code"]
    if "/" in raw:  # the short link itself, pasted (".../s/k7m2x9qp"): its code
        raw = raw.rstrip("/").rpartition("/")[2]
    shown = " ".join(raw.split())[:CODE_SHOWN]
    if not raw.strip():
        return form_page("watch", 422, {"code": NO_CODE}, code=shown)
    game = games.by_short_code(raw)
    if game is not None:
        return redirect(url_for("games.watch", public_id=game.public_id), code=303)
    table = core.table_by_short_code(raw)
    if table is not None:
        return redirect(url_for("tables.table", token=table.token), code=303)
    team = core.entrant_by_short_code(raw)
    if team is not None:  # its card's short link: the team's page, where its format has one
        return redirect(url_for("bid_whist.team", token=team.short_code), code=303)
    group = groups.by_short_code(raw)
    if group is not None:  # the code on the group's "Share this group": the group's page
        return redirect(url_for("groups.page", token=group.token), code=303)
    return form_page("watch", 404, {"code": _not_found(shown)}, code=shown)


@bp.post("/your-events/forget")
def forget_event() -> BaseResponse:
    """Take an event off this browser's "Your events" (and sign this browser out of it); the event
    itself, and its director's link, stay as they are."""
    token = request.form.get("event", "")
    if not token or len(token) > MAX_TOKEN:
        abort(400, description=gettext("Which event should be taken off the list? Reload the home page and try again."))
    if token not in director.my_event_tokens():  # nothing is looked up for a token this browser was not given
        flash(gettext("That event was not on this browser's list (it may have been removed already)."))
    else:
        named = [e.name for e in core.by_director_tokens([token])]
        director.forget_event(token)
        flash(
            gettext(
                "“%(event)s” is no longer listed on this browser. The event is not deleted: its director's "
                "link still opens it.",
                event=named[0],
            )
            if named
            else gettext("The event is no longer listed on this browser.")
        )
    return redirect(url_for("home.index", _anchor="my-events-h"), code=303)


@bp.get("/variants/<key>")
def variant(key: str) -> str:
    """Show one variant: its scoring, its options with their defaults, and a sample sheet."""
    if key not in VARIANT_MODULES:
        abort(404, description=gettext("There is no variant called '%(key)s'.", key=key))
    try:
        rules = get_variant(key)
    except RuleError:
        abort(404)
    defaults = describe_options(rules.option_specs, resolve_options(rules.option_specs, {}))
    demo = records.demo_game(key)
    sample = games.view(demo) if demo else None
    title = records.shown_title(demo) if demo else ""
    return render_template("home/variant.html", variant=rules, defaults=defaults, sample=sample, title=title)


@bp.get("/healthz")
def healthz() -> tuple[str, int, dict[str, str]]:
    """A trivial answer (load balancers, and the benchmark's baseline)."""
    return "ok", 200, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}
