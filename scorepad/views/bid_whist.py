"""A Bid Whist tournament's pages: set-up, registration, the director's room, the teams' own pages.

The director's link, the tables' QR codes and the projector are the event core's (`/d/`, `/t/`,
`/b/`): those views draw a tournament's room, table page and boards through `events.registry`
(`templates/bid_whist/`); the actions on a tournament are here.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from scorepad import pushes
from scorepad.events import core, roster
from scorepad.events.bid_whist import derived, matches, registration, tournament, writes
from scorepad.events.core import Event, EventEntrant
from scorepad.form_input import whole_number
from scorepad.games import service as games
from scorepad.i18n import say
from scorepad.rules.base import RuleErrors
from scorepad.views.common import device, errors_by_field, not_found
from scorepad.views.director import director_of, render_room, unlock_for

bp = Blueprint("bid_whist", __name__)


def _form_defaults() -> dict[str, str]:
    return {"name": "", "rounds": "3", "bracket": "auto", "made_scores": "books", "pin": ""}


@bp.route("/events/new/bid-whist", methods=["GET", "POST"])
def new() -> str | BaseResponse | tuple[str, int]:
    """Set up a Bid Whist tournament and open its registration."""
    form = _form_defaults()
    if request.method == "POST":
        form.update({k: v for k, v in request.form.items() if k != "csrf_token"})
        try:
            try:
                count = int(form.get("rounds", ""))
            except ValueError:
                count = 0
            event = writes.create(
                form.get("name", ""),
                rounds=count,
                bracket=form.get("bracket", "auto"),
                made_scores=form.get("made_scores", "books"),
                hidden=form.get("hidden") == "on",
                pin=form.get("pin", "").strip(),
                time_zone=core.time_zone(form.get("time_zone", "")),
            )
        except RuleErrors as e:
            return render_template(
                "bid_whist/new.html", form=form, brackets=tournament.BRACKETS, errors=errors_by_field(e)
            ), 422
        unlock_for(event)
        flash(
            gettext(
                "Tournament created. This page is your private director's link: bookmark it and share it "
                "with nobody. Register the teams below, then start the event."
            )
        )
        return redirect(url_for("director.control", token=event.director_token))
    return render_template("bid_whist/new.html", form=form, brackets=tournament.BRACKETS, errors={})


# --------------------------------------------------------------------------- the director's room


def _act(event: Event, action: Any, notice: str) -> tuple[str, int]:
    try:
        action()
    except roster.NearMembers as e:
        return render_room(event, 422, errors_by_field(e), form=request.form, near=e.near)
    except RuleErrors as e:
        return render_room(event, 422, errors_by_field(e), form=request.form)
    return render_room(event, notice=notice)


def _named(field: str) -> str:
    """A registration's name as typed, or the club's member picked for it ("Did you mean …? Yes")."""
    return request.form.get(f"pick.{field}") or request.form.get(field, "")


@bp.post("/d/<token>/register")
@director_of(tournament.KEY)
def register(event: Event) -> tuple[str, int]:
    """Register a team of two (or, with only one player, a single player to pair)."""
    team, one, two = request.form.get("team", ""), _named("player1"), _named("player2")
    new_members = request.form.getlist("new_member")
    if request.form.get("kind") == "single":
        single = _named("single")
        return _act(
            event,
            lambda: registration.register_single(event, single, new_members),
            gettext("%(name)s is registered as a single player.", name=" ".join(single.split())),
        )
    return _act(
        event, lambda: registration.register_team(event, team, [one, two], new_members), gettext("Team registered.")
    )


@bp.post("/d/<token>/pair")
@director_of(tournament.KEY)
def pair(event: Event) -> tuple[str, int]:
    """Pair two single players into a team."""
    try:
        first, second = int(request.form.get("first", "")), int(request.form.get("second", ""))
    except ValueError:
        return render_room(event, 422, {"pair": gettext("Choose the two players to pair.")})
    return _act(
        event,
        lambda: registration.pair(event, first, second, request.form.get("name", "")),
        gettext("The two players are a team now."),
    )


@bp.post("/d/<token>/withdraw/<int:number>")
@director_of(tournament.KEY)
def withdraw(event: Event, number: int) -> tuple[str, int]:
    """Remove a registration before the start."""
    return _act(
        event, lambda: registration.withdraw(event, number), gettext("Number %(number)s withdrew.", number=number)
    )


@bp.post("/d/<token>/rename")
@director_of(tournament.KEY)
def rename(event: Event) -> tuple[str, int]:
    """Give a team (or a single player) a new name, at any stage."""
    number = whole_number(request.form.get("number", ""))
    if number is None:
        return render_room(event, 422, {"rename": gettext("Choose the team to rename.")}, form=request.form)
    name = " ".join(request.form.get("name", "").split())
    return _act(
        event,
        lambda: registration.rename(event, number, name),
        gettext("Number %(number)s is now called %(name)s.", number=number, name=name),
    )


@bp.post("/d/<token>/start")
@director_of(tournament.KEY)
def start(event: Event) -> tuple[str, int]:
    """Close registration, set the tables and draw round 1 (with the rounds chosen at the start)."""
    raw = request.form.get("rounds", "").strip()
    if raw and whole_number(raw) is None:
        return render_room(
            event,
            422,
            {"rounds": gettext("Give the number of preliminary rounds as a number, 1 to 8.")},
            form=request.form,
        )
    return _act(
        event,
        lambda: writes.start(event, int(raw) if raw else None),
        gettext("Registration is closed and round 1 is drawn: print the QR cards and the teams' cards."),
    )


def _expect_stage(event: Event, error_field: str) -> tuple[str, int] | None:
    """The page's stage must be the event's: a second tap or a stale page is told so (409); a
    missing or non-numeric value is bad input (422), not "already done"."""
    raw = request.form.get("stage", "").strip()
    if whole_number(raw) is None:
        return render_room(
            event,
            422,
            {
                error_field: gettext(
                    "The form did not say which stage it was sent from: reload the control room and try again."
                )
            },
        )
    if int(raw) != event.current_hand:  # a second tap, or a stale page
        abort(409, description=gettext("That was already done: reload the control room."))
    return None


@bp.post("/d/<token>/next-round")
@director_of(tournament.KEY)
def next_round(event: Event) -> tuple[str, int]:
    """Draw the next preliminary round (every sheet of this one is final), or start the bracket."""
    refused = _expect_stage(event, "advance")
    if refused is not None:
        return refused
    last = event.current_hand >= tournament.rounds(event)
    return _act(
        event,
        lambda: writes.advance(event),
        gettext("The bracket is set: its first matches are at their tables.")
        if last
        else gettext("Round %(number)s is drawn: every team's phone shows its table.", number=event.current_hand + 1),
    )


@bp.post("/d/<token>/cut")
@director_of(tournament.KEY)
def cut(event: Event) -> tuple[str, int]:
    """Record who won the one-game playoff for the last place(s) in the bracket."""
    raw = [n.strip() for n in request.form.getlist("winner")]
    if not raw or not all(whole_number(n) is not None for n in raw):
        return render_room(event, 422, {"cut": gettext("Choose the playoff's winner among the tied teams.")})
    winners = [int(n) for n in raw]
    return _act(event, lambda: writes.record_cut(event, winners), gettext("Playoff recorded."))


@bp.post("/d/<token>/publish")
@director_of(tournament.KEY)
def publish_standings(event: Event) -> tuple[str, int]:
    """Hidden standings: show the players the standings after the round just completed."""
    raw = request.form.get("round", "").strip()
    if whole_number(raw) is None:
        return render_room(
            event, 422, {"publish": gettext("The form did not say which round to publish: reload the control room.")}
        )
    return _act(
        event,
        lambda: writes.publish_standings(event, int(raw)),
        gettext("The standings after round %(number)s are on the projector and the players' phones.", number=raw),
    )


@bp.post("/d/<token>/walkover")
@director_of(tournament.KEY)
def walkover(event: Event) -> tuple[str, int]:
    """A bracket no-show with no team to swap in: the team present goes through without play."""
    match_no, _, team = request.form.get("walkover", "").partition(":")
    if whole_number(match_no) is None or whole_number(team) is None:
        return render_room(event, 422, {"walkover": gettext("Choose the match and the team that goes through.")})
    return _act(
        event,
        lambda: writes.walkover(event, int(match_no), int(team), request.form.get("reason", "")),
        gettext("Team %(number)s goes through by a walkover.", number=team),
    )


@bp.post("/d/<token>/matches/<int:match_id>/<action>")
@director_of(tournament.KEY)
def match_action(event: Event, match_id: int, action: str) -> tuple[str, int]:
    """Close a sheet without both signatures, or reopen one for a correction."""
    match = next((m for m in event.matches if m.id == match_id), None)
    if match is None or action not in ("close", "reopen"):
        abort(404, description=gettext("There is no such match in this event."))
    act = writes.close_match if action == "close" else writes.reopen_match
    words = (
        gettext("Table %(number)s's sheet made final.", number=match.table)
        if action == "close"
        else gettext(
            "Table %(number)s's sheet reopened: the table can correct it, then both teams sign again.",
            number=match.table,
        )
    )
    return _act(event, lambda: act(event, match), words)


@bp.post("/d/<token>/matches/<int:match_id>/unlock-code")
@director_of(tournament.KEY)
def unlock_code(event: Event, match_id: int) -> tuple[str, int]:
    """Let a team locked out by wrong codes on a sheet try its code on the table's phone again."""
    match = next((m for m in event.matches if m.id == match_id), None)
    side = whole_number(request.form.get("side", ""))
    if match is None or side not in (0, 1):
        abort(404, description=gettext("There is no such match in this event."))
    return _act(
        event,
        lambda: matches.lift_code_lock(match, side),
        gettext("Table %(number)s: the team may enter its code again.", number=match.table),
    )


@bp.post("/d/<token>/swap")
@director_of(tournament.KEY)
def swap(event: Event) -> tuple[str, int]:
    """Put another team in a bracket match before it is played (a no-show)."""
    try:
        match_no, out, into = (int(request.form.get(k, "")) for k in ("match", "out", "in"))
    except ValueError:
        return render_room(
            event, 422, {"swap": gettext("Choose the match, the team that leaves and the team that takes its place.")}
        )
    return _act(
        event,
        lambda: writes.swap(event, match_no, out, into, request.form.get("reason", "")),
        gettext("Team %(into)s takes team %(out)s's place.", into=into, out=out),
    )


# --------------------------------------------------------------------------- tables, teams, the game bar


def _game_match(token: str) -> tuple[Any, Any]:
    game = games.by_scorer_token(token)
    match = matches.by_game(game) if game is not None else None
    if game is None or match is None:
        abort(404, description=gettext("There is no event match at this link."))
    return game, match


@bp.get("/g/<token>/event")
def game_bar(token: str) -> BaseResponse:
    """The event bar of a match's scoring page: which round, who, signing, where to go next."""
    game, match = _game_match(token)
    return _bar_response(game, match, render_bar(game, match))


def _bar_response(game: Any, match: Any, html: str, status: int = 200) -> BaseResponse:
    """The bar, and once the sheet is final, word to the scoring page to draw itself again (its
    Edit links and Undo go: see games/play.html), whichever phone gave the last signature."""
    response = make_response(html, status)
    if matches.is_final(match):
        response.headers["HX-Trigger"] = "sheet-final"
    return response


def render_bar(
    game: Any, match: Any, errors: dict[str, str] | None = None, notice: str = "", game_view: Any = None
) -> str:
    """The bar needs this match only: a preliminary round's bar does not derive the whole event (it
    is drawn on every hand entered at every table); a bracket match's title needs the bracket."""
    event = match.event
    title = (
        gettext("Round %(number)s of %(rounds)s", number=match.number, rounds=tournament.rounds(event))
        if match.stage == "round"
        else say(derived.kept_view(event).match_title(match))
    )
    table, names = tournament.table_and_names(event, match)
    mv = matches.view(match, names, game_view)
    walk = tournament.walkover_of(event, match)
    walk_words = (
        gettext("%(team)s go through (%(reason)s).", team=names.get(walk[0], walk[0]), reason=say(walk[1]))
        if walk
        else ""
    )
    return render_template(
        "bid_whist/_bar.html",
        title=title,
        game=game,
        mv=mv,
        table=table,
        errors=errors or {},
        notice=notice,
        walkover=walk_words,
    )


@bp.post("/g/<token>/sign")
def sign(token: str) -> BaseResponse | tuple[str, int]:
    """One team confirms the sheet (both must); or, with a reason, disputes it."""
    game, match = _game_match(token)
    dispute = request.form.get("action") == "dispute"
    raw = request.form.get("side", "")
    if raw not in ("0", "1"):
        field = "dispute" if dispute else "sign"
        return render_bar(game, match, {field: gettext("Choose the team: N/S or E/W.")}), 422
    side = int(raw)
    try:
        if dispute:
            writes.dispute(match.event, match, side, request.form.get("reason", ""), f"table {match.table}")
            notice = gettext("The director has been told; wait at the table.")
        else:
            writes.sign(
                match.event,
                match,
                side,
                f"table {match.table}",
                f"table phone, team code · device {device()}",
                code=request.form.get("code", ""),
            )
            notice = gettext("Signed.")
    except RuleErrors as e:
        return render_bar(game, match, errors_by_field(e)), 422
    return _bar_response(game, match, render_bar(game, match, notice=notice))


def _entrant(token: str) -> EventEntrant:
    """The tournament team whose card carries `token` (a whist drive's players have no team page)."""
    entrant = registration.entrant_by_token(token)
    if entrant is None or entrant.event.format != tournament.KEY:
        not_found(token, gettext("This team link is not valid. Ask the director for your team's card."))
    return entrant


@bp.get("/team/<token>")
def team(token: str) -> str | BaseResponse:
    """A team's own page: its table now, where to move next, its results, and signing its sheet. The
    short link typed from the team's card goes on to the card's full link."""
    card = core.entrant_by_short_code(token)
    if card is not None and card.event.format == tournament.KEY:
        return redirect(url_for("bid_whist.team", token=card.token), code=302)
    entrant = _entrant(token)
    tournament_view = derived.kept_view(entrant.event)  # every team's phone asks again on every signature
    return render_template(
        "bid_whist/team.html",
        tournament_view=tournament_view,
        entrant=entrant,
        mv=tournament_view.match_of(entrant.number),
    )


@bp.post("/team/<token>/sign")
def team_sign(token: str) -> BaseResponse | tuple[str, int]:
    """A team signs its own sheet from its own phone."""
    entrant = _entrant(token)
    tournament_view = derived.view(entrant.event)
    mv = tournament_view.match_of(entrant.number)
    if mv is None:
        abort(409, description=gettext("Your team has no sheet to sign now."))
    side = 0 if mv.match.home == entrant.number else 1
    try:
        writes.sign(entrant.event, mv.match, side, f"team {entrant.number}", f"team page · device {device()}")
    except RuleErrors as e:
        return render_template(
            "bid_whist/team.html", tournament_view=tournament_view, entrant=entrant, mv=mv, errors=errors_by_field(e)
        ), 422
    flash(gettext("Signed: thank you."))
    return redirect(url_for("bid_whist.team", token=token), code=303)


team_code = matches.team_code  # printed on each team's card (a template global)


KEPT_BAR = Markup('<section id="event-bar" class="event-bar" hx-preserve="true"></section>')


def event_bar(game: Any, game_view: Any = None, keep: bool = False) -> Markup:
    """The event bar of a game played at an event (a template global of the game pages). `keep`:
    the page keeps its own (hx-preserve), as drawing it again would be some 1.6 ms of a 3.3 ms tap."""
    match = matches.by_game(game)
    if match is None:
        return Markup("")
    return KEPT_BAR if keep else Markup(render_bar(game, match, game_view=game_view))


def event_stream(game: Any) -> str:
    """The live stream a game played at an event listens to (new rounds, signatures)."""
    event = core.event_of(game)
    if event is None:
        return ""
    match = matches.by_game(game)  # a tournament's match: its table's own changes too (signatures)
    only = f"orders,timer,table-{match.table}" if match is not None else "orders,timer"
    return pushes.stream_url("board.stream", public_id=event.public_id, only=only)
