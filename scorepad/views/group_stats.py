"""A group's statistics pages (issue 15): a player's figures and results over time
(`/group/<token>/player/<id>`) and two players head to head (`/group/<token>/versus?a=&b=`).
The group's own page (views/groups.py) shows the season's table and the records."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from flask_babel import format_decimal, format_percent, gettext, lazy_gettext

from scorepad.events import club_history
from scorepad.form_input import whole_number
from scorepad.games import group_stats, groups
from scorepad.games import stats_presenters as show
from scorepad.games.groups import Group, GroupPlayer
from scorepad.rules import get_variant
from scorepad.rules.stats import SeasonRow
from scorepad.views.common import format_name

bp = Blueprint("group_stats", __name__)
NO_PLAYER = lazy_gettext("There is no such player in this group (they may have been merged into another).")


@bp.app_template_filter("percent")
def percent(rate: float) -> str:
    """A rate in the reader's form, whole: 67% in English, 67 % in French and Spanish (Babel's CLDR)."""
    return format_percent(rate)


@bp.app_template_filter("decimal")
def decimal(value: float) -> str:
    """An average to one decimal place, without a trailing zero, in the reader's form (97.5; 97,5)."""
    return format_decimal(value, "0.#")


@bp.app_template_global("variant_name")
def variant_name(key: str) -> str:
    return get_variant(key).name


@bp.app_template_global("stat_places")
def stat_places(rows: tuple[SeasonRow, ...]) -> dict[int, str]:
    return show.places(rows)


def _group(token: str) -> Group:
    group = groups.by_token(token)
    if group is None:
        abort(
            404,
            description=gettext(
                "There is no group at this link. Check the link you were sent: it is long, and every character counts."
            ),
        )
    return group


def _figures(group: Group) -> group_stats.Figures:
    return group_stats.figures(group, groups.games_of(group))


@bp.get("/group/<token>/player/<int:player_id>")
def player(token: str, player_id: int) -> tuple[str, int]:
    """A player's figures in each variant, all time, and a chart of their scores game after game."""
    group = _group(token)
    person = groups.player(group, player_id)
    if person is None:
        abort(404, description=str(NO_PLAYER))
    people = groups.players(group)
    page = _figures(group).player(person.id)
    charts = {v: show.results_chart(points) for v, points in page.results.items()}
    seasons: dict[int, list[club_history.MemberEvent]] = {}
    for played in club_history.member_events(group, person):
        seasons.setdefault(played.when.year, []).append(played)
    return render_template(
        "group_stats/player.html",
        group=group,
        person=person,
        page=page,
        charts=charts,
        people=people,
        facts=show.shown_facts,
        aliases=groups.aliases(group).get(person.id, []),
        seasons=seasons,
        format_name=format_name,
    ), 200


def _chosen(group: Group, field: str, errors: dict[str, str], unknown: set[str]) -> GroupPlayer | None:
    """The player chosen in `field` (a message in `errors` when none of the group is; the field in
    `unknown` when one was named that the group does not have)."""
    raw = request.args.get(field, "").strip()
    if not raw:
        errors[field] = gettext("Choose a player.")
        return None
    number = whole_number(raw, digits=10)
    found = groups.player(group, number) if number is not None else None
    if found is None:
        errors[field] = gettext("There is no such player in this group: choose one from the list.")
        unknown.add(field)
    return found


@bp.get("/group/<token>/versus")
def versus(token: str) -> tuple[str, int]:
    """Two players of the group head to head: the games both finished on different sides, who was ahead."""
    group = _group(token)
    people = groups.players(group)
    if "a" not in request.args and "b" not in request.args:  # the first visit: nobody chosen yet
        return render_template(
            "group_stats/versus.html", group=group, people=people, a=None, b=None, result=None, errors={}, chosen={}
        ), 200
    errors: dict[str, str] = {}
    unknown: set[str] = set()
    a, b = _chosen(group, "a", errors, unknown), _chosen(group, "b", errors, unknown)
    if a is not None and b is not None and a.id == b.id:
        errors["b"] = gettext("Choose someone other than %(name)s to compare with.", name=a.name)
    chosen = {f: request.args.get(f, "")[:20] for f in ("a", "b")}
    if errors:
        return render_template(
            "group_stats/versus.html", group=group, people=people, a=a, b=b, result=None, errors=errors, chosen=chosen
        ), 404 if unknown else 422
    assert a is not None and b is not None
    result = _figures(group).versus(a.id, b.id)
    return render_template(
        "group_stats/versus.html", group=group, people=people, a=a, b=b, result=result, errors={}, chosen=chosen
    ), 200
