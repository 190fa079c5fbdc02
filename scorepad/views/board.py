"""The event's public pages: the projector leaderboard, the players' phone standings, the live stream.

What a change sends to these pages is `pushes.boards`' (the services announce their changes): here
the pages are drawn from the same versioned board, and a page subscribes to its event's stream.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from markupsafe import Markup

from scorepad import i18n, pushes
from scorepad.events import core, results, timer
from scorepad.events.core import Event, Game
from scorepad.events.registry import get_format
from scorepad.pushes.boards import OWN_EVENT, STREAM_EVENTS, board_context, channel, render_board
from scorepad.views.common import no_event, not_found, partial, share_url

bp = Blueprint("board", __name__)


@bp.app_template_global()
def timer_of(event: Event) -> timer.TimerView:
    """The event's round timer, at the server's time now (templates/board/_timer.html)."""
    return timer.view(event)


@bp.app_template_global()
def timer_per(event: Event) -> str:
    """What the event's round timer times: "hand" or "round"."""
    return get_format(event.format).timer_per


@bp.app_template_global()
def event_of_game(game: Game) -> Event | None:
    """The event a game is played at (its page shows the event's round timer)."""
    return core.event_of(game)


@bp.app_template_filter("clock")
def clock(ms: int) -> str:
    """Time left as a clock shows it, to the second up: "12:05" (minutes past 59 too: "95:00")."""
    seconds = -(-max(0, ms) // 1000)
    return f"{seconds // 60}:{seconds % 60:02d}"


def _page(public_id: str, page: str) -> str:
    """A board page (the fragment alone for htmx): the board in it is the versioned one."""
    event = _event(public_id)
    folder, context = board_context(event)
    board = render_board(folder, context)
    if partial():
        return board.html
    link = share_url(url_for("board.results_index", code=results.link_code(event)))
    return render_template(f"{folder}/{page}", board_html=Markup(board.html), results_link=link, **context)


def _event(public_id: str) -> Event:
    event = core.by_public_id(public_id)
    if event is None:
        not_found(public_id, no_event())
    return event


@bp.get("/b/<public_id>")
def projector(public_id: str) -> str:
    """The leaderboard for the hall's screen: sized by it, live, paged to fit, a QR code for the phones.

    An htmx request gets the standings fragment alone: a page catching up after a lost stream."""
    return _page(public_id, "projector.html")


@bp.get("/b/<public_id>/standings")
def standings(public_id: str) -> str:
    """The same standings as a compact page for players' phones (the fragment alone for htmx)."""
    return _page(public_id, "standings.html")


@bp.get("/b/<public_id>/timer")
def round_timer(public_id: str) -> str:
    """The round timer alone, as the tables and the projector show it, fetched on each `timer` push."""
    event = _event(public_id)
    return render_template("board/_timer.html", event=event, timer=timer.view(event))


@bp.get("/b/<public_id>/events")
def stream(public_id: str) -> Response:
    """Server-sent events: `board` carries the standings fragment, `changed` the hand in play, `orders`
    a new hand or new moves, `table-<n>` a change at table n alone (`table-*`: at any table),
    `team-<n>` a change at the table where team n plays.
    `?only=board,orders` keeps a page to the names it listens to."""
    event = _event(public_id)
    names = {n for n in request.args.get("only", "").split(",") if n}
    unknown = {n for n in names - STREAM_EVENTS if not OWN_EVENT.fullmatch(n)}
    if unknown:
        abort(
            400,
            description=gettext(
                "Unknown event name: %(name)s. Choose from %(names)s.",
                name=sorted(unknown)[0],
                names=", ".join([*sorted(STREAM_EVENTS), "table-<n>", "table-*", "team-<n>"]),
            ),
        )
    only = frozenset(names) or None
    # a leaderboard's pushes are drawn in its page's language, asked in this request itself
    return pushes.stream(channel(event.public_id), only, i18n.chosen())


@bp.get("/b/<public_id>/event.json")
def export_json(public_id: str) -> ResponseReturnValue:
    """The event as JSON: Military Whist's game record (the format `scorepad score` reads), or the
    tournament format's own export (entrants, matches with their games' records, decisions, seed)."""
    event = _event(public_id)
    response = current_app.json.response(get_format(event.format).export(event))
    response.headers["Content-Disposition"] = f'attachment; filename="event-{event.id}.json"'
    return response


# --------------------------------------------------------------------------- each player's results


def _results_event(code: str) -> Event:
    event = results.by_link(code)
    if event is None:
        not_found(code, gettext("There are no results at this link. Check the code, or scan the QR code again."))
    return event


@bp.get("/r/<code>")
def results_index(code: str) -> str:
    """Every player or team of the event, by name, each with a link to their own results."""
    event = _results_event(code)
    found = results.players(event)
    return render_template(
        "results/index.html",
        event=event,
        finished=found.finished,
        pages=results.by_name(found.players),
        code=results.link_code(event),
        link=share_url(url_for("board.results_index", code=results.link_code(event))),
    )


@bp.get("/r/<code>/<player>")
def results_player(code: str, player: str) -> str:
    """One player's or team's results: every hand, where, against whom, what it scored, the place."""
    event = _results_event(code)
    page = results.player(event, player)
    if page is None:
        abort(
            404,
            description=gettext("There is no player at this link. Find your name in the list of the event's players."),
        )
    return render_template(
        "results/player.html",
        page=page,
        title=event.name,
        index_url=url_for("board.results_index", code=results.link_code(event)),
        standings_url=url_for("board.standings", public_id=event.public_id),
    )
