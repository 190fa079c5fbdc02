"""A club night's pages: set-up, the director's room, each table's QR code (set up, then score).

Each table plays an ordinary home game of the evening's variant; its QR code opens the home-game
set-up the first time and the game's scoring page after that. The event core's `/d/`, `/t/` and
`/b/` views hand a club night's requests to the functions here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import format_percent, get_locale, gettext
from flask_htmx import make_response as htmx_response
from werkzeug.wrappers import Response as BaseResponse

from scorepad.events import club, core, roster
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


@bp.app_template_filter("place_score")
def place_score(share: Fraction) -> str:
    """A place score in the reader's form, to a tenth of a percent so that unequal scores read
    unequal (9/14 is 64.3%, 15/23 is 65.2%)."""
    whole = get_locale().percent_formats[None].pattern  # "#,##0%"; French "#,##0\u00a0%"
    head, _, tail = whole.rpartition("0")
    return format_percent(float(share), f"{head}0.#{tail}")


@bp.route("/events/new/club", methods=["GET", "POST"])
def new() -> str | BaseResponse | tuple[str, int]:
    """Set up a club night: the variant every table plays (or those each table chooses from, and
    how they are ranked), the number of tables."""
    form: dict[str, Any] = {
        "name": "",
        "variant": club.DEFAULT_VARIANT,
        "tables": "6",
        "pin": "",
        "time_zone": "",
        "variants": list(HOME_VARIANTS),
        "ranking": "variant",
    }
    variants = [get_variant(k) for k in HOME_VARIANTS]
    if request.method == "POST":
        form.update({k: v for k, v in request.form.items() if k not in ("csrf_token", "variants")})
        form["variants"] = request.form.getlist("variants")
        try:
            tables = whole_number(form.get("tables", "").strip(), 2) or 0
            event = club.create(
                form.get("name", ""),
                form.get("variant", ""),
                tables,
                form.get("pin", "").strip(),
                time_zone=core.time_zone(form.get("time_zone", "")),
                variants=form["variants"],
                ranking=form.get("ranking", ""),
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
    """The home-game set-up for this table's game (players, options, first dealer); first, on a
    night where each table chooses, its variant (`?variant=`)."""
    table = table_for(token, club.KEY)
    game = club.table_game(table)
    if game is not None:  # the table plays already: back to its game
        return redirect(url_for("games.play", token=game.scorer_token), code=303)
    offered = club.variants_of(table.event)
    key = request.args.get("variant", "") if club.tables_choose(table.event) else offered[0]
    if key not in offered:  # the table chooses its game first
        chosen = [get_variant(k) for k in offered]
        status = 422 if key else 200
        return render_template("club/choose.html", table=table, variants=chosen, token=token, wrong=bool(key)), status
    variant = get_variant(key)
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
    roster_group = roster.club_of(table.event)  # a linked club: the players' fields offer its members
    context = dict(
        variant=variant,
        form=form,
        errors=errors,
        recent=[],
        roster_club=roster_group,
        offered=roster.members(roster_group) if roster_group is not None else [],
        table=table,
        setup_action=url_for("club.setup", token=token, variant=key if club.tables_choose(table.event) else None),
        choose_again=url_for("club.setup", token=token) if club.tables_choose(table.event) else None,
    )
    template = "games/_setup_form.html" if partial() else "club/setup.html"
    return render_template(template, **context), (422 if errors else 200)
