"""Groups: a family's or a club's page (`/group/<token>`, its secret link), its players (rename,
merge), and keeping a game in a group from the game's scorer page (`/g/<scorer_token>/group`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

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
from flask_babel import format_date, gettext, lazy_gettext
from werkzeug.wrappers import Response as BaseResponse

from scorepad.events import in_group
from scorepad.form_input import whole_number
from scorepad.games import group_stats, groups, records
from scorepad.games import service as games
from scorepad.games.groups import Group, GroupPlayer
from scorepad.games.service import Game
from scorepad.rules import get_variant
from scorepad.rules.base import M, RuleError, RuleErrors
from scorepad.rules.record import GAMES_MAX
from scorepad.views.common import errors_by_field, share_url
from scorepad.views.games import MY_GAMES, remember_game

bp = Blueprint("groups", __name__)
MY_GROUPS = "my_groups"  # the links of the groups this browser made or opened (signed cookie)
BAD_SEASON = lazy_gettext("Choose a season from the list: this year, the last 12 months or all time.")
NO_GROUP = lazy_gettext(
    "There is no group at this link. Check the link you were sent: it is long, and every character counts."
)
NO_PLAYER = lazy_gettext("There is no such player in this group (they may have been merged into another).")


def remember_group(group: Group) -> None:
    """List the group on this browser's home page ("Your groups"), newest first."""
    mine = [t for t in session.get(MY_GROUPS, []) if t != group.token]
    session[MY_GROUPS] = [group.token, *mine][:30]
    session.permanent = True


def my_groups() -> list[Group]:
    """This browser's groups that still exist, as remembered."""
    tokens = session.get(MY_GROUPS, [])
    return groups.by_tokens(tokens if isinstance(tokens, list) else [])


@bp.app_template_global("game_group")
def game_group(game: Game) -> Group | None:
    """The group a game is kept in (its scorer's page says so and links to it)."""
    return groups.group_of(game)


@dataclass(frozen=True)
class GameRow:
    """A game as the group's page lists it."""

    played: groups.GroupGame
    variant: str  # its name
    columns: tuple[str, ...]  # as the group calls them now
    winners: tuple[str, ...]  # of those; several for a tie, none while it is played
    mine: bool  # this browser scores it (its scorer's link), else it is watched


@bp.app_template_filter("day")
def day(moment: datetime) -> str:
    """A date as a family says it, in the reader's language: 3 May 2026, 3 mai 2026."""
    return format_date(moment, "d MMM y")


@bp.app_template_global("group_name_for")
def group_name_for(game: Game) -> str:
    """The name a group made from this game gets in one tap (its players'; renamed on the group's page)."""
    return groups.suggested_name(game)


def _group(token: str) -> Group:
    group = groups.by_token(token)
    if group is None:
        abort(404, description=str(NO_GROUP))
    return group


def _player(group: Group, player_id: int) -> GroupPlayer:
    found = groups.player(group, player_id)
    if found is None:
        abort(404, description=str(NO_PLAYER))
    return found


def _page(
    group: Group,
    errors: dict[str, str] | None = None,
    status: int = 200,
    typed: dict[str, str] | None = None,
    season: str = group_stats.DEFAULT_SEASON,
) -> tuple[str, int]:
    people = groups.players(group)
    names = {p.id: p.name for p in people}
    played = groups.games_of(group)
    overview = group_stats.figures(group, played).overview(season)
    mine = set(session.get(MY_GAMES, []))
    rows = []
    for g in played:
        said = groups.labels(g, names)
        rows.append(
            GameRow(
                g,
                get_variant(g.variant).name,
                said,
                tuple(said[c] for c in g.sheet.winners),
                g.game.scorer_token in mine,
            )
        )
    url = share_url(url_for("groups.page", token=group.token))
    # the export in files a phone's import takes whole: GAMES_MAX games each, newest first
    parts = [(n + 1, n * GAMES_MAX + 1, min((n + 1) * GAMES_MAX, len(rows))) for n in range(-(-len(rows) // GAMES_MAX))]
    return render_template(
        "groups/page.html",
        group=group,
        people=people,
        aliases=groups.aliases(group),
        counts=groups.games_played(group),
        rows=rows,
        url=url,
        errors=errors or {},
        typed=typed or {},
        notice=" ".join(get_flashed_messages()),
        names=names,
        overview=overview,
        season=season,
        seasons=group_stats.SEASONS,
        export_parts=parts,
    ), status


# --------------------------------------------------------------------------- a group's page


@bp.post("/groups/new")
def new() -> BaseResponse | tuple[str, int]:
    """Start a group from the home page: its name, then its page."""
    name = request.form.get("name", "")
    try:
        group = groups.create(name)
    except RuleErrors as e:
        return render_template("groups/new.html", errors=errors_by_field(e), name=name[:200]), 422
    remember_group(group)
    return redirect(url_for("groups.page", token=group.token), code=303)


@bp.get("/group/<token>")
def page(token: str) -> tuple[str, int]:
    """The group: the season's table (`?season=`), its players, its games newest first, the records,
    head to head, a new game, its link and QR code to share."""
    group = _group(token)
    remember_group(group)
    season = request.args.get("season", group_stats.DEFAULT_SEASON)
    if season not in group_stats.SEASONS:  # not one of the form's choices: said beside it, the default shown
        return _page(group, {"season": str(BAD_SEASON)}, 400)
    return _page(group, season=season)


@bp.get("/group/<token>/games.json")
def export_games(token: str) -> BaseResponse:
    """The group's games as one file, a list of game records, newest first; past GAMES_MAX games, in
    parts of that many (`?part=2`), each of which a phone's import takes whole."""
    group = _group(token)
    part = whole_number(request.args.get("part", "1"))
    found = groups.game_rows(group, part, GAMES_MAX) if part is not None and part >= 1 else []
    if not found:
        abort(404, description=gettext("This group has no games there to export."))
    response = current_app.json.response(records.records_of(found))
    name = f"scorepad-group-{date.today():%Y-%m-%d}" + (f"-part-{part}" if part != 1 else "")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


@bp.post("/group/<token>/name")
def rename(token: str) -> BaseResponse | tuple[str, int]:
    group = _group(token)
    try:
        groups.rename(group, request.form.get("name", ""))
    except RuleErrors as e:
        return _page(
            group, {"group-name": errors_by_field(e)["name"]}, 422, {"group-name": request.form.get("name", "")[:200]}
        )
    flash(gettext("The group's name is saved."))
    return redirect(url_for("groups.page", token=token), code=303)


@bp.post("/group/<token>/players/<int:player_id>/name")
def rename_player(token: str, player_id: int) -> BaseResponse | tuple[str, int]:
    """Rename a player: every game of the group shows the new name."""
    group = _group(token)
    person = _player(group, player_id)
    before = person.name
    key = f"players-{player_id}"
    try:
        groups.rename_player(group, person, request.form.get("name", ""))
    except RuleErrors as e:
        return _page(group, {key: errors_by_field(e)["name"]}, 422, {key: request.form.get("name", "")[:200]})
    flash(
        gettext("%(before)s is now called %(name)s in all the group's games.", before=before, name=person.name)
        if before != person.name
        else gettext("The name is unchanged.")
    )
    return redirect(url_for("groups.page", token=token, _anchor="players-h"), code=303)


def _into(group: Group, raw: str | None, away: GroupPlayer) -> GroupPlayer:
    """The player chosen to merge into (a RuleError beside the choice when none of the group)."""
    number = whole_number(raw or "", digits=10)
    into = groups.player(group, number) if number is not None else None
    if into is None:
        raise RuleErrors([RuleError("into", M("Choose the player %(name)s is the same person as.", name=away.name))])
    return into


@bp.get("/group/<token>/players/<int:player_id>/merge")
def merge_page(token: str, player_id: int) -> tuple[str, int]:
    """Merge two spellings of one person: choose the other player, then confirm."""
    group = _group(token)
    away = _player(group, player_id)
    others = [p for p in groups.players(group) if p.id != away.id]
    if "into" not in request.args and "chosen" not in request.args:  # the first visit: nothing chosen yet
        return _merge_page(group, away, others)
    try:
        into = _into(group, request.args.get("into"), away)
        groups.check_merge(group, away, into)
    except RuleErrors as e:
        return _merge_page(group, away, others, errors=errors_by_field(e))
    return _merge_page(group, away, others, into)


def _merge_page(
    group: Group,
    away: GroupPlayer,
    others: list[GroupPlayer],
    into: GroupPlayer | None = None,
    errors: dict[str, str] | None = None,
) -> tuple[str, int]:
    """The merge page: the choice (with its error, 422), or the confirmation once `into` is chosen."""
    return render_template(
        "groups/merge.html",
        group=group,
        away=away,
        others=others,
        into=into,
        counts=groups.games_played(group),
        errors=errors or {},
    ), 422 if errors else 200


@bp.post("/group/<token>/players/<int:player_id>/merge")
def merge(token: str, player_id: int) -> BaseResponse | tuple[str, int]:
    """The confirmed merge: every game of one becomes the other's; the old spelling is kept as an alias."""
    group = _group(token)
    away = groups.player(group, player_id)
    if away is None:  # the confirmation sent twice, or an old page: said, not an error page
        flash(gettext("That player was already merged into another: nothing more to do."))
        return redirect(url_for("groups.page", token=token, _anchor="players-h"), code=303)
    others = [p for p in groups.players(group) if p.id != away.id]
    try:
        into = _into(group, request.form.get("into"), away)
        groups.merge(group, away, into)
    except RuleErrors as e:
        return _merge_page(group, away, others, errors=errors_by_field(e))
    flash(
        gettext(
            "%(away)s and %(into)s are one player now: %(into)s. A game that types “%(away)s” counts for %(into)s.",
            away=away.name,
            into=into.name,
        )
    )
    return redirect(url_for("groups.page", token=token, _anchor="players-h"), code=303)


# --------------------------------------------------------------------------- an event's games


def _event_page(
    group: Group, errors: dict[str, str] | None = None, status: int = 200, typed: str = ""
) -> tuple[str, int]:
    return render_template(
        "groups/event.html", group=group, errors=errors or {}, typed=typed, link_max=in_group.LINK_MAX
    ), status


@bp.get("/group/<token>/event")
def event_page(token: str) -> tuple[str, int]:
    """Add an event's games: paste its board link."""
    return _event_page(_group(token))


def said(done: groups.KeptMany, event_name: str) -> str:
    """What keeping an event's games did, in one sentence ("12 games kept, 2 already in another group")."""

    def games_(n: int) -> str:
        return f"{n} game{'s' if n != 1 else ''}"

    parts = [f"{games_(done.kept)} of “{event_name}” kept"]
    if done.already:
        parts.append(f"{games_(done.already)} already in this group")
    for name, n in sorted(done.elsewhere.items()):
        parts.append(f"{games_(n)} already in another group (“{name}”), left there")
    if done.nobody:
        parts.append(f"{games_(done.nobody)} naming no players, left out")
    return ", ".join(parts) + "."


@bp.post("/group/<token>/event")
def keep_event(token: str) -> BaseResponse | tuple[str, int]:
    """Keep the games an event played in the group: their players' names join the group's history."""
    group = _group(token)
    raw = request.form.get("event", "")
    try:
        event = in_group.event_of(raw)
        if event is None:
            return _event_page(
                group,
                {
                    "event": gettext(
                        "There is no event with this director's link or code. Copy it again: every character counts."
                    )
                },
                404,
                raw[:200],
            )
        done = in_group.keep_in_group(group, event)
    except RuleErrors as e:
        return _event_page(group, errors_by_field(e), 422, raw[:200])
    flash(said(done, event.name))
    return redirect(url_for("groups.page", token=token, _anchor="games-h"), code=303)


# --------------------------------------------------------------------------- a game's group


def _scorer_game(token: str) -> Game:
    game = games.by_scorer_token(token)
    if game is None:
        abort(404, description=gettext("There is no game at this link. It may have been deleted."))
    return game


def _game_page(
    game: Game, errors: dict[str, str] | None = None, status: int = 200, typed: dict[str, str] | None = None
) -> tuple[str, int]:
    return render_template(
        "groups/game.html",
        gv=games.view(game),
        group=groups.group_of(game),
        mine=my_groups(),
        suggested=groups.suggested_name(game),
        errors=errors or {},
        typed=typed or {},
        notice=" ".join(get_flashed_messages()),
    ), status


@bp.get("/g/<token>/group")
def game_group_page(token: str) -> tuple[str, int]:
    """Keep this game in a group: a new one, one of this browser's, or one whose link was sent; or take it out."""
    game = _scorer_game(token)
    remember_game(game)
    return _game_page(game)


@bp.post("/g/<token>/group/new")
def keep_in_new(token: str) -> BaseResponse | tuple[str, int]:
    """One tap from a (finished) game: a new group holding this game and its players."""
    game = _scorer_game(token)
    kept = groups.group_of(game)
    if kept is not None:  # a second tap: the group the first made
        flash(gettext("This game is kept in “%(name)s”.", name=kept.name))
        return redirect(url_for("groups.page", token=kept.token), code=303)
    name = request.form.get("name", "")
    try:
        group = groups.create(name, game)
    except RuleErrors as e:
        errors = {("new-name" if field == "name" else field): message for field, message in errors_by_field(e).items()}
        return _game_page(game, errors, 422, {"new-name": name[:200]})
    remember_group(group)
    flash(gettext("“%(name)s” keeps this game and its players. Share the group's link with them.", name=group.name))
    return redirect(url_for("groups.page", token=group.token), code=303)


def _link_token(raw: str) -> str:
    """A group's token from what was pasted: the link itself, or only its token."""
    raw = raw.strip()
    if "/group/" in raw:
        raw = raw.split("/group/", 1)[1]
    return raw.strip("/").split("/")[0].split("?")[0]


@bp.post("/g/<token>/group/keep")
def keep(token: str) -> BaseResponse | tuple[str, int]:
    """Move the game into a group (one of this browser's, or one whose link is pasted)."""
    game = _scorer_game(token)
    raw = request.form.get("group", "")
    group = groups.by_token(_link_token(raw)) if raw.strip() else None
    if group is None:
        message = (
            gettext("Paste the group's link (or choose one of your groups).") if not raw.strip() else str(NO_GROUP)
        )
        return _game_page(game, {"group-link": message}, 422 if not raw.strip() else 404, {"group-link": raw[:200]})
    try:
        moved = groups.keep(group, game)
    except RuleErrors as e:
        return _game_page(game, {"group": errors_by_field(e)["group"]}, 409)
    remember_group(group)
    flash(
        gettext("This game is kept in “%(name)s”.", name=group.name)
        if moved
        else gettext("This game was already kept in “%(name)s”.", name=group.name)
    )
    return redirect(url_for("groups.page", token=group.token), code=303)


@bp.post("/g/<token>/group/out")
def take_out(token: str) -> BaseResponse:
    """Take the game out of its group; its players stay in the group."""
    game = _scorer_game(token)
    group = groups.take_out(game)
    flash(
        gettext("This game is no longer in “%(name)s”. Its players stay in the group.", name=group.name)
        if group
        else gettext("This game was not in a group.")
    )
    return redirect(url_for("groups.game_group_page", token=token), code=303)
