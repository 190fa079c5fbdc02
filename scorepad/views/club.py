"""A club night's pages: set-up, the director's room, each table's QR code (set up, then score).

Each table plays an ordinary home game of the evening's variant; its QR code opens the home-game
set-up the first time and the game's scoring page after that. The event core's `/d/`, `/t/` and
`/b/` views hand a club night's requests to the functions here.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_htmx import make_response as htmx_response
from werkzeug.wrappers import Response as BaseResponse

from scorepad.events import club, core
from scorepad.events.core import Event
from scorepad.extensions import htmx
from scorepad.form_input import whole_number
from scorepad.games import setup_form
from scorepad.games.entry import HOME_VARIANTS
from scorepad.rules import get_variant
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.views.common import errors_by_field, partial
from scorepad.views.director import director_of, render_room, unlock_for
from scorepad.views.tables import table_for

bp = Blueprint("club", __name__)


@bp.route("/events/new/club", methods=["GET", "POST"])
def new() -> str | BaseResponse | tuple[str, int]:
    """Set up a club night: the variant every table plays, the number of tables."""
    form = {"name": "", "variant": club.DEFAULT_VARIANT, "tables": "6", "pin": "", "time_zone": ""}
    variants = [get_variant(k) for k in HOME_VARIANTS]
    if request.method == "POST":
        form.update({k: v for k, v in request.form.items() if k != "csrf_token"})
        try:
            tables = whole_number(form.get("tables", "").strip(), 2) or 0
            event = club.create(
                form.get("name", ""),
                form.get("variant", ""),
                tables,
                form.get("pin", "").strip(),
                time_zone=core.time_zone(form.get("time_zone", "")),
            )
        except RuleErrors as e:
            return render_template("club/new.html", form=form, variants=variants, errors=errors_by_field(e)), 422
        unlock_for(event)
        flash(
            gettext(
                "Club night created. This page is your private director's link. Print the tables' QR codes: "
                "each table sets up its own game by scanning its card."
            )
        )
        return redirect(url_for("director.control", token=event.director_token))
    return render_template("club/new.html", form=form, variants=variants, errors={})


@bp.post("/d/<token>/tables/<int:table>/clear")
@director_of(club.KEY)
def clear(event: Event, table: int) -> tuple[str, int]:
    """Free a table for a new game (its game leaves the ranking)."""
    row = next((t for t in event.tables if t.number == table), None)
    if row is None:
        abort(404, description=gettext("There is no table %(table)s at this club night.", table=table))
    try:
        club.clear_table(row)
    except RuleErrors as e:
        return render_room(event, 422, errors_by_field(e))
    return render_room(event, notice=gettext("Table %(table)s is free for a new game.", table=table))


@bp.route("/t/<token>/setup", methods=["GET", "POST"])
def setup(token: str) -> Any:
    """The home-game set-up for this table's game (players, options, first dealer)."""
    table = table_for(token, club.KEY)
    game = club.table_game(table)
    if game is not None:  # the table plays already: back to its game
        return redirect(url_for("games.play", token=game.scorer_token), code=303)
    variant = get_variant(club.variant_of(table.event))
    form = setup_form.SetupForm.from_request(variant, request.form if request.method == "POST" else None)
    errors: dict[str, str] = {}
    if request.method == "POST" and request.form.get("action") == "start":
        try:
            game = club.start_game(table, form.record())
        except (RuleError, RuleErrors) as e:
            errors = errors_by_field(e)
        else:
            target = url_for("games.play", token=game.scorer_token)
            return htmx_response("", redirect=target) if htmx else redirect(target, code=303)
    elif request.method == "POST":
        form.apply(request.form.get("action", ""))
    context = dict(
        variant=variant,
        form=form,
        errors=errors,
        recent=[],
        table=table,
        setup_action=url_for("club.setup", token=token),
    )
    template = "games/_setup_form.html" if partial() else "club/setup.html"
    return render_template(template, **context), (422 if errors else 200)
