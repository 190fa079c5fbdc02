"""A table's QR code at an event: `/t/<token>` opens what the event's format says the table does now
(its own page, the home game it plays, or that game's set-up); the short link printed under the QR
code, `/t/<code>`, goes on to it. The format's own table actions are in its blueprint, which draws
the page again through `render_table`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext

from scorepad.events import core
from scorepad.events.core import EventTable, TablePage
from scorepad.events.registry import get_format
from scorepad.views.common import not_found, partial

bp = Blueprint("tables", __name__)


def table_for(token: str, key: str | None = None) -> EventTable:
    """The table whose QR code carries `token` (of an event of format `key`, when given), else 404."""
    table = core.table_by_token(token)
    if table is None:
        not_found(
            token,
            gettext(
                "This table link is not valid any more: the director may have printed a "
                "new QR code, or deleted the event. Scan the card on your table again, or ask the director."
            ),
        )
    if key is not None and table.event.format != key:
        abort(
            404, description=gettext("This table scores its match on the match's own page: open the table's QR code.")
        )
    return table


def render_table(
    table: EventTable, status: int = 200, opened: TablePage | None = None, **extra: object
) -> tuple[str, int]:
    """The format's table page (the live part alone for htmx), with `extra` (a notice, errors)."""
    fmt = get_format(table.event.format)
    context = (opened or fmt.table(table)).context
    page = "_table.html" if partial() else "table.html"
    return render_template(f"{fmt.pages}/{page}", table=table, **context, **extra), status


def _open(token: str) -> Any:
    table = table_for(token)
    fmt = get_format(table.event.format)
    page = fmt.table(table)
    if page.game is not None and (not partial() or not page.context):
        return redirect(url_for("games.play", token=page.game.scorer_token), code=303)
    if page.set_up:
        return redirect(url_for(f"{fmt.pages}.setup", token=table.token), code=303)
    return render_table(table, opened=page)


@bp.get("/t/<token>")
def table(token: str) -> Any:
    """The table's page: this hand's orders, or the match it plays, or its game's set-up. The short
    link typed from the card (`/t/k7m2x9qpab`, any case) goes on to the card's full link; a wrong
    code is answered as a wrong link."""
    card = core.table_by_short_code(token)
    if card is not None:
        return redirect(url_for("tables.table", token=card.token), code=302)
    return _open(token)


@bp.get("/t/<token>/panel")
def panel(token: str) -> Any:
    """The panel alone, fetched again whenever the event changes (the director advanced, a correction).
    Asked with the stamp it shows (`?since=`, a waiting table's regular check), it is answered 204,
    and not drawn, while nothing changed (htmx swaps nothing on a 204)."""
    since = request.args.get("since")
    if since is not None:
        table = table_for(token)
        if since == get_format(table.event.format).table_stamp(table):
            return "", 204
    return _open(token)
