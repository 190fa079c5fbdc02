"""The event's public pages: the projector leaderboard, the players' phone standings, the live stream.

What a change sends to these pages is `pushes.boards`' (the services announce their changes): here
the pages are drawn from the same versioned board, and a page subscribes to its event's stream.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from markupsafe import Markup

from scorepad import i18n, pushes
from scorepad.events import core
from scorepad.events.core import Event
from scorepad.events.registry import get_format
from scorepad.pushes.boards import OWN_EVENT, STREAM_EVENTS, board_context, channel, render_board
from scorepad.views.common import no_event, partial

bp = Blueprint("board", __name__)


def _page(public_id: str, page: str) -> str:
    """A board page (the fragment alone for htmx): the board in it is the versioned one."""
    folder, context = board_context(_event(public_id))
    board = render_board(folder, context)
    if partial():
        return board.html
    return render_template(f"{folder}/{page}", board_html=Markup(board.html), **context)


def _event(public_id: str) -> Event:
    event = core.by_public_id(public_id)
    if event is None:
        abort(404, description=no_event())
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
