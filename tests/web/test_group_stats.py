"""Issue 15, a group's statistics on its pages: the season's table and the records on the group's
page, a player's figures and results chart, two players head to head.

The family's games are the example records of docs/examples, started in the group and entered
hand by hand through the games service (as the entry pages do). The pages' numbers are checked
against the rules' statistics worked out here from the same records (`PlayedGame.scored`), and
the main ones against figures counted by hand from the records (tests/rules/test_stats.py shows
the counting). Then every refusal: unknown groups and players, another group's player, a season
or a player that is not one of the form's choices."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from scorepad import kept
from scorepad.extensions import db
from scorepad.games import group_stats, groups
from scorepad.games import service as games
from scorepad.models import Hand
from scorepad.rules import stats
from scorepad.rules.record import parse_record
from tests.conftest import EXAMPLES
from tests.web.test_groups import beside, make_group, people, text

MAY_3 = datetime(2026, 5, 3, 15, 0)


def example(
    name: str, names: Sequence[str] | None = None, pairs: Sequence[Sequence[str]] | None = None
) -> dict[str, object]:
    """An example record with the family's names: `names` for its players, `pairs` for its teams' players."""
    data = json.loads((EXAMPLES / f"{name}.json").read_text())
    if names is not None:
        data["players"] = list(names)
    if pairs is not None:
        data["teams"] = [{**team, "players": list(pair)} for team, pair in zip(data["teams"], pairs)]
    return data


def play(
    app: Flask, token: str, data: dict[str, object], finished: datetime | None = None, hands: int | None = None
) -> str:
    """Start the record's game in the group and enter its hands one by one (the first `hands` only);
    `finished`: when its hands were entered. The game's scorer link."""
    with app.app_context():
        group = groups.by_token(token)
        assert group is not None
        game = groups.start_game(group, {**data, "hands": []})
        for number, entry in enumerate(list(data["hands"])[:hands], start=1):  # type: ignore[call-overload]
            games.enter_hand(game, number, entry)
        if finished is not None:
            db.session.execute(update(Hand).where(Hand.game_id == game.id).values(entered_at=finished))
            db.session.commit()
        return game.scorer_token


def scored(data: dict[str, object], seats: Sequence[Sequence[int]], when: datetime) -> stats.PlayedGame:
    """The record as the rules' statistics read it, worked out here, apart from the app."""
    record = parse_record(data)
    return stats.PlayedGame.scored(record.setup, record.hands, when, seats)


def cells(page: str, table_class: str, part: str = "tbody") -> list[list[str]]:
    """The text of each cell of each row of the table with this class, in `part` (tbody or tfoot)."""
    found = re.search(rf'<table class="[^"]*\b{table_class}\b[^"]*">(.*?)</table>', page, re.S)
    assert found, f"no {table_class} table"
    body = re.search(rf"<{part}>(.*?)</{part}>", found.group(1), re.S)
    assert body, f"no {part}"
    return [
        [" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body.group(1), re.S)
    ]


def flat(page: str) -> str:
    """The page's text, tags out, spaces squeezed."""
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def each_variant(page: str) -> list[str]:
    """Head to head: the line of each variant."""
    found = re.search(r'<ul class="versus-list" role="list">(.*?)</ul>', page, re.S)
    assert found, "no list of variants"
    return [flat(item) for item in re.findall(r"<li[^>]*>(.*?)</li>", found.group(1), re.S)]


def figures(page: str) -> dict[str, dict[str, str]]:
    """A player's page: each variant's figures, {variant name: {label: value}}."""
    found: dict[str, dict[str, str]] = {}
    for name, body in re.findall(r'<h2 id="variant-\w+-h">([^<]+)</h2>\s*<dl class="figures">(.*?)</dl>', page, re.S):
        found[name] = {dt: " ".join(dd.split()) for dt, dd in re.findall(r"<dt>([^<]+)</dt><dd>(.*?)</dd>", body, re.S)}
    return found


@pytest.fixture()
def family(app: Flask, client: FlaskClient) -> dict[str, object]:
    """Ann, Bob, Cat and Dan's group: four finished games (two Nomination, one Australian, a whist
    drive with Ann and Dan partners against Bob and Cat), and one Nomination game in progress with Eve."""
    token = make_group(client, "The family")
    records = [
        example("nomination-family-four", ("Ann", "Bob", "Cat", "Dan")),  # Bob wins with 134
        example("australian-lockdown-remote", ("Ann", "Bob", "Cat")),  # Ann wins with 146
        example("nomination-three-hook-every-tie", ("Ann", "Bob", "Cat")),  # Bob and Cat share first, 45 each
        example("whist-drive", pairs=(("Ann", "Dan"), ("Bob", "Cat"))),  # Ann and Dan's pair wins
    ]
    days = [MAY_3 - timedelta(days=30), MAY_3 - timedelta(days=20), MAY_3, MAY_3 + timedelta(days=7)]
    scorers = [play(app, token, data, when) for data, when in zip(records, days)]
    playing = play(app, token, example("nomination-family-four", ("Ann", "Bob", "Cat", "Eve")), hands=3)
    ids = people(app, token)
    ann, bob, cat, dan = (ids[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    seats = [
        ((ann,), (bob,), (cat,), (dan,)),
        ((ann,), (bob,), (cat,)),
        ((ann,), (bob,), (cat,)),
        ((ann, dan), (bob, cat)),
    ]
    expected = [scored(data, s, when) for data, s, when in zip(records, seats, days)]
    return {"token": token, "ids": ids, "expected": expected, "scorers": scorers, "playing": playing}


# --------------------------------------------------------------------------- the group's page


def test_the_season_table_and_records_are_the_rules_figures_of_the_finished_games(
    client: FlaskClient, family: dict[str, object]
) -> None:
    token, ids = family["token"], family["ids"]
    expected: list[stats.PlayedGame] = family["expected"]  # type: ignore[assignment]
    page = text(client.get(f"/group/{token}?season=all"))
    names = {v: k for k, v in ids.items()}  # type: ignore[union-attr]
    rows = cells(page, "season-table")
    # counted by hand: Ann won the Australian game and the drive (2 of 4), Bob the first Nomination
    # game and a shared first in the second (2 of 4), Dan the drive (1 of 2), Cat a shared first (1 of 4);
    # Eve's only game is not finished: she is not in the table
    assert rows == [
        ["1=", "Ann", "2 of 4", "50%"],
        ["1=", "Bob", "2 of 4", "50%"],
        ["3", "Dan", "1 of 2", "50%"],
        ["4", "Cat", "1 of 4", "25%"],
    ]
    table = stats.season_table(expected)
    assert [(names[r.player], f"{r.won} of {r.games}") for r in table] == [(r[1], r[2]) for r in rows]
    assert "4 finished games." in flat(page)
    for row in rows:  # each name links to the player's page
        assert f'href="/group/{token}/player/{ids[row[1]]}">{row[1]}</a>' in page  # type: ignore[index]

    said = flat(page)
    assert "Highest Nomination Whist score: 134 , Bob , 3 May 2026" not in said  # the 134 was set on 3 April
    assert "Highest Nomination Whist score: 134 , Bob , 3 Apr 2026" in said
    assert "Highest Australian Whist score: 146 , Ann , 13 Apr 2026" in said
    assert "Highest Whist score: 14 , Ann and Dan , 10 May 2026" in said
    assert "Most Nomination Whist games won in a row: 2 , Bob , 3 May 2026" in said
    records = stats.variant_records(expected)
    assert records["nomination"].highest_score.value == 134  # type: ignore[union-attr]
    assert records["nomination"].longest_winning_run.value == 2  # type: ignore[union-attr]
    assert "won in a row: 1" not in said  # a run of one game is no record


@pytest.mark.postgresql
def test_the_season_is_this_year_by_default_or_the_last_12_months_or_all_time(app: Flask, client: FlaskClient) -> None:
    token = make_group(client)
    now = group_stats.now()
    two_years_ago = now - timedelta(days=730)
    last_new_years_eve = datetime(now.year - 1, 12, 31, 12, 0)  # within 12 months of any day of this year
    play(app, token, example("nomination-three-hook-every-tie", ("Ann", "Bob", "Cat")), two_years_ago)
    play(app, token, example("nomination-three-hook-every-tie", ("Ann", "Bob", "Dan")), last_new_years_eve)
    play(app, token, example("nomination-three-hook-every-tie", ("Ann", "Eve", "Fay")))  # finished now
    for query, count, players in (
        ("", 1, ["Eve", "Fay", "Ann"]),
        ("?season=year", 1, ["Eve", "Fay", "Ann"]),
        ("?season=12m", 2, ["Bob", "Dan", "Eve", "Fay", "Ann"]),
        ("?season=all", 3, ["Bob", "Cat", "Dan", "Eve", "Fay", "Ann"]),
    ):
        response = client.get(f"/group/{token}{query}")
        assert response.status_code == 200
        page = text(response)
        assert f"{count} finished game{'s' if count > 1 else ''}." in flat(page), query
        assert [row[1] for row in cells(page, "season-table")] == players, query
        chosen = query.rsplit("=", 1)[-1] or "year"
        assert re.search(rf'<option value="{chosen}" selected>', page), query


def test_a_season_starts_on_1_january_or_a_year_ago_from_midnight() -> None:
    at = datetime(2028, 2, 29, 18, 30)  # a leap day: a year before is the 28th
    assert group_stats.season_start("year", at) == datetime(2028, 1, 1)
    assert group_stats.season_start("12m", at) == datetime(2027, 2, 28)
    assert group_stats.season_start("12m", datetime(2026, 5, 3, 9)) == datetime(2025, 5, 3)
    assert group_stats.season_start("all", at) is None
    with pytest.raises(ValueError, match="no such season"):
        group_stats.season_start("month", at)


@pytest.mark.parametrize("season", ["", "YEAR", "2025", "all ", "x" * 300, "<b>"])
def test_a_season_that_is_not_one_of_the_choices_is_said_beside_the_choice(
    client: FlaskClient, family: dict[str, object], season: str
) -> None:
    response = client.get(f"/group/{family['token']}", query_string={"season": season})
    assert response.status_code == 400
    page = text(response)
    assert beside(page, "season") == "Choose a season from the list: this year, the last 12 months or all time."
    assert '<option value="year" selected>' in page and 'aria-invalid="true"' in page


def test_a_season_without_finished_games_and_a_group_without_any_say_so(app: Flask, client: FlaskClient) -> None:
    token = make_group(client)
    page = text(client.get(f"/group/{token}"))
    assert "No finished game yet: the table starts when the group's first game is played to the end." in page
    assert "No records yet: they start with the group's first finished game." in page
    assert "season-table" not in page
    play(app, token, example("nomination-family-four", ("Ann", "Bob", "Cat", "Dan")), hands=5)  # in progress
    page = text(client.get(f"/group/{token}?season=all"))
    assert "No finished game yet" in page and "In progress · 5 hands played" in page
    play(
        app,
        token,
        example("nomination-three-hook-every-tie", ("Ann", "Bob", "Cat")),
        group_stats.now() - timedelta(days=800),
    )
    page = text(client.get(f"/group/{token}?season=12m"))
    assert "No game finished in the last 12 months yet." in flat(page)
    assert f'href="/group/{token}?season=all"' in page
    assert "Highest Nomination Whist score: 45" in flat(page)  # records are all time


# --------------------------------------------------------------------------- a player's page


def test_a_players_page_shows_the_rules_figures_per_variant(client: FlaskClient, family: dict[str, object]) -> None:
    token, ids = family["token"], family["ids"]
    expected: list[stats.PlayedGame] = family["expected"]  # type: ignore[assignment]
    ann = ids["Ann"]  # type: ignore[index]
    response = client.get(f"/group/{token}/player/{ann}")
    assert response.status_code == 200
    page = text(response)
    assert "<h1>Ann</h1>" in page and "4 finished games in this group, all time." in page
    shown = figures(page)
    # by hand: Nomination 130 and 32 (exact bids 10 of 13, then 3 of 6); Australian 146 (exact bids
    # 10 of 22, the misère round won clean, the blind bid missed); the drive 14 points, 14 odd
    # tricks in 12 deals; a drive has no games to the target and no rubber: those lines are left out,
    # and Whist says what was won in its own units (drives, games, rubbers), not a count of sheets
    assert shown == {
        "Whist": {
            "Average score": "14",
            "Best score": "14",
            "Odd tricks per deal": "1.17 (14 in 12 deals)",
            "Whist drives won": "1 of 1 (100%)",
        },
        "Nomination Whist": {
            "Games": "2",
            "Won": "0",
            "Win rate": "0%",
            "Average score": "81",
            "Best score": "130",
            "Exact bids": "13 of 19 (68%)",
        },
        "Australian Whist": {
            "Games": "1",
            "Won": "1",
            "Win rate": "100%",
            "Average score": "146",
            "Best score": "146",
            "Exact bids": "10 of 22 (45%)",
            "Misère rounds won clean": "1 of 1 (100%)",
            "Blind bids made": "0 of 1 (0%)",
        },
    }
    mine = stats.player_stats(expected)[ann]  # type: ignore[index]
    for variant, figures_of in mine.items():
        name = {"whist": "Whist", "nomination": "Nomination Whist", "australian": "Australian Whist"}[variant]
        assert shown[name].get("Games", str(figures_of.games)) == str(figures_of.games)
        assert shown[name]["Best score"] == str(figures_of.best_score)
        assert {f.label for f in figures_of.facts() if f.out_of != 0} == set(shown[name]) - {
            "Games",
            "Won",
            "Win rate",
            "Average score",
            "Best score",
        }
    assert "Games won" not in shown["Whist"] and "Rubbers won" not in shown["Whist"]
    summary = flat(re.search(r'id="chart-nomination-sum">(.*?)</p>', page, re.S).group(1))  # type: ignore[union-attr]
    assert summary == "2 games from 3 Apr 2026 to 3 May 2026: scores from 32 to 130; none won."


def test_a_players_chart_has_a_dot_per_finished_game_and_the_same_results_as_a_table(
    client: FlaskClient, family: dict[str, object]
) -> None:
    token, ids = family["token"], family["ids"]
    bob = ids["Bob"]  # type: ignore[index]
    page = text(client.get(f"/group/{token}/player/{bob}"))
    svg = re.search(
        r'<svg class="chart results-chart"[^>]*aria-labelledby="chart-nomination-cap '
        r'chart-nomination-sum"[^>]*>(.*?)</svg>',
        page,
        re.S,
    )
    assert svg, "no Nomination chart with its text"
    dots = re.findall(r'<circle class="(won|not-won)"', svg.group(1))
    assert dots == ["won", "won"]  # 134 on 3 April, a shared first with 45 on 3 May
    assert "style=" not in svg.group(0)  # the Content-Security-Policy allows no inline style
    summary = flat(re.search(r'id="chart-nomination-sum">(.*?)</p>', page, re.S).group(1))  # type: ignore[union-attr]
    assert summary == "2 games from 3 Apr 2026 to 3 May 2026: scores from 45 to 134; won 2 (the filled dots)."
    assert re.search(r"<polyline class=\"results-line\" points=\"[\d., ]+\"", svg.group(1))
    rows = cells(page.split('id="variant-nomination-h"')[1], "board-table")
    assert rows == [["3 May 2026", "45", "1 of 3 · won"], ["3 Apr 2026", "134", "1 of 4 · won"]]  # newest first
    points = stats.results_over_time(family["expected"], bob)["nomination"]  # type: ignore[arg-type]
    assert [(p.score, p.rank, p.of, p.won) for p in points] == [(134, 1, 4, True), (45, 1, 3, True)]
    assert "chart-whist-cap chart-whist-sum" not in page  # one game: no chart, its result in words and a table
    one = flat(re.search(r'id="chart-whist-sum">(.*?)</p>', page, re.S).group(1))  # type: ignore[union-attr]
    assert one == "1 game, on 10 May 2026: a score of 11, not won."


def test_a_player_without_a_finished_game_says_so(client: FlaskClient, family: dict[str, object]) -> None:
    eve = family["ids"]["Eve"]  # type: ignore[index]
    page = text(client.get(f"/group/{family['token']}/player/{eve}"))
    assert "Eve has no finished game in this group yet" in page and '<svg class="chart' not in page


def test_unknown_players_and_groups_and_another_groups_player_are_not_found(
    app: Flask, client: FlaskClient, family: dict[str, object]
) -> None:
    token, ann = family["token"], family["ids"]["Ann"]  # type: ignore[index]
    club = make_group(client, "Club")
    play(app, club, example("nomination-three-hook-every-tie", ("Zed", "Yan", "Xia")))
    zed = people(app, club)["Zed"]
    for url in (
        f"/group/{token}/player/999999",
        f"/group/{token}/player/{2**40}",
        f"/group/{token}/player/0",
        f"/group/{token}/player/-1",
        f"/group/{token}/player/abc",
        f"/group/{token}/player/{zed}",
        f"/group/{club}/player/{ann}",
        f"/group/nope/player/{ann}",
        "/group/nope/versus",
        f"/group/{'x' * 500}/player/1",
    ):
        assert client.get(url).status_code == 404, url
    assert "There is no such player in this group" in text(client.get(f"/group/{token}/player/{zed}"))
    assert client.get(f"/group/{club}/player/{zed}").status_code == 200


def test_a_merged_away_spelling_has_no_page_and_its_games_count_for_the_player(app: Flask, client: FlaskClient) -> None:
    token = make_group(client)
    play(app, token, example("nomination-three-hook-every-tie", ("Ann", "Bob", "Gran")))
    play(app, token, example("nomination-three-hook-every-tie", ("Ann", "Granny", "Cat")))
    ids = people(app, token)
    before = text(client.get(f"/group/{token}?season=all"))
    assert ["1=", "Granny", "1 of 1", "100%"] in cells(before, "season-table")
    response = client.post(f"/group/{token}/players/{ids['Granny']}/merge", data={"into": str(ids["Gran"])})
    assert response.status_code == 303
    assert client.get(f"/group/{token}/player/{ids['Granny']}").status_code == 404
    gran = figures(text(client.get(f"/group/{token}/player/{ids['Gran']}")))
    assert (
        gran["Nomination Whist"]["Games"] == "2" and gran["Nomination Whist"]["Won"] == "2 (2 shared)"
    )  # 45 in both, first with another
    rows = cells(text(client.get(f"/group/{token}?season=all")), "season-table")
    assert ["1", "Gran", "2 of 2", "100%"] in rows and not any(r[1] == "Granny" for r in rows)


# --------------------------------------------------------------------------- head to head


def test_head_to_head_counts_the_games_on_different_sides_per_variant(
    client: FlaskClient, family: dict[str, object]
) -> None:
    token, ids = family["token"], family["ids"]
    bob, cat, ann, dan = (ids[n] for n in ("Bob", "Cat", "Ann", "Dan"))  # type: ignore[index]
    response = client.get(f"/group/{token}/versus", query_string={"a": bob, "b": cat})
    assert response.status_code == 200
    page = text(response)
    # by hand: Bob ahead in the first Nomination game (134 to 94) and the Australian (86 to 81),
    # level in the second Nomination game (45 each); partners in the drive: not counted
    assert "3 finished games on different sides: Bob finished ahead in 2, Cat in 0, level in 1." in flat(page)
    assert each_variant(page) == [
        "Nomination Whist 2 games: Bob ahead in 1, Cat ahead in 0, level in 1",
        "Australian Whist 1 game: Bob ahead in 1, Cat ahead in 0, level in 0",
    ]
    expected = family["expected"]
    both = stats.head_to_head(expected, bob, cat)  # type: ignore[arg-type]
    assert (both.games, both.a_ahead, both.b_ahead, both.ties) == (3, 2, 0, 1)
    assert re.search(rf'<option value="{bob}" selected>Bob</option>', page.split('id="versus-a"')[1])
    partners = text(client.get(f"/group/{token}/versus", query_string={"a": ann, "b": dan}))
    assert "1 finished game on different sides: Ann finished ahead in 1, Dan in 0, level in 0." in flat(partners)
    assert each_variant(partners) == ["Nomination Whist 1 game: Ann ahead in 1, Dan ahead in 0, level in 0"]


def test_head_to_head_is_offered_on_the_group_page_and_the_players_page(
    client: FlaskClient, family: dict[str, object]
) -> None:
    token, ann = family["token"], family["ids"]["Ann"]  # type: ignore[index]
    group_page = text(client.get(f"/group/{token}"))
    assert f'action="/group/{token}/versus"' in group_page and 'id="versus-a"' in group_page
    player_page = text(client.get(f"/group/{token}/player/{ann}"))
    assert f'<input type="hidden" name="a" value="{ann}">' in player_page
    assert '<label for="versus-b">Compare Ann with</label>' in player_page
    assert f'<option value="{ann}"' not in player_page.split('id="versus-b"')[1]  # not with herself
    empty = text(client.get(f"/group/{token}/versus"))
    assert "<h1>Head to head</h1>" in empty and "versus-list" not in empty


def test_two_players_who_never_met_say_so(app: Flask, client: FlaskClient, family: dict[str, object]) -> None:
    token, ids = family["token"], family["ids"]
    page = text(client.get(f"/group/{token}/versus", query_string={"a": ids["Dan"], "b": ids["Eve"]}))  # type: ignore[index]
    assert "Dan and Eve have not finished a game on different sides yet." in page


@pytest.mark.parametrize(
    ("query", "status", "field", "message"),
    [
        ({"a": "", "b": ""}, 422, "a", "Choose a player."),
        ({"a": "ANN", "b": ""}, 404, "a", "There is no such player in this group: choose one from the list."),
        ({"a": "99999999999", "b": "1"}, 404, "a", "There is no such player in this group: choose one from the list."),
        ({"a": "-1"}, 404, "a", "There is no such player in this group: choose one from the list."),
    ],
)
def test_head_to_head_refuses_what_is_not_two_players_of_the_group(
    client: FlaskClient, family: dict[str, object], query: dict[str, str], status: int, field: str, message: str
) -> None:
    response = client.get(f"/group/{family['token']}/versus", query_string=query)
    assert response.status_code == status
    assert beside(text(response), field) == message


def test_head_to_head_refuses_one_player_twice_or_another_groups_player(
    app: Flask, client: FlaskClient, family: dict[str, object]
) -> None:
    token, ann = family["token"], family["ids"]["Ann"]  # type: ignore[index]
    same = client.get(f"/group/{token}/versus", query_string={"a": ann, "b": ann})
    assert same.status_code == 422 and beside(text(same), "b") == "Choose someone other than Ann to compare with."
    club = make_group(client, "Club")
    play(app, club, example("nomination-three-hook-every-tie", ("Zed", "Yan", "Xia")))
    zed = people(app, club)["Zed"]
    other = client.get(f"/group/{token}/versus", query_string={"a": ann, "b": zed})
    assert other.status_code == 404
    assert beside(text(other), "b") == "There is no such player in this group: choose one from the list."
    missing = client.get(f"/group/{token}/versus", query_string={"a": ann})
    assert missing.status_code == 422 and beside(text(missing), "b") == "Choose a player."


# --------------------------------------------------------------------------- derived on every request


@pytest.mark.postgresql
def test_the_figures_follow_every_change_to_the_games(
    app: Flask, client: FlaskClient, family: dict[str, object]
) -> None:
    token, scorers, ids = family["token"], family["scorers"], family["ids"]
    url = f"/group/{token}?season=all"
    assert cells(text(client.get(url)), "season-table")[0] == ["1=", "Ann", "2 of 4", "50%"]
    with app.app_context():
        group = groups.by_token(token)
        assert group is not None
        kept = group_stats.figures(group, groups.games_of(group))
        assert group_stats.figures(group, groups.games_of(group)) is kept  # nothing changed: the same figures
        drive = games.by_scorer_token(scorers[3])  # type: ignore[index]
        assert drive is not None
        games.undo(drive)  # the drive's last hand taken back: not finished any more
    rows = cells(text(client.get(url)), "season-table")
    assert rows == [
        ["1", "Bob", "2 of 3", "67%"],
        ["2=", "Ann", "1 of 3", "33%"],
        ["2=", "Cat", "1 of 3", "33%"],
        ["4", "Dan", "0 of 1", "0%"],
    ]
    with app.app_context():
        group = groups.by_token(token)
        assert group is not None
        assert group_stats.figures(group, groups.games_of(group)) is not kept
    out = client.post(f"/g/{scorers[1]}/group/out")  # type: ignore[index]
    assert out.status_code == 303
    rows = cells(text(client.get(url)), "season-table")
    assert rows[0] == ["1", "Bob", "2 of 2", "100%"]  # the Australian game taken out of the group
    bob = ids["Bob"]  # type: ignore[index]
    assert client.post(f"/group/{token}/players/{bob}/name", data={"name": "Robert"}).status_code == 303
    assert cells(text(client.get(url)), "season-table")[0][1] == "Robert"


def test_the_group_page_reads_the_stored_hands_only(app: Flask, client: FlaskClient) -> None:
    """Nothing is stored for the statistics: the group's tables hold no figure, only who sat where."""
    token = make_group(client)
    play(app, token, example("nomination-three-hook-every-tie", ("Ann", "Bob", "Cat")))
    from tests.web.test_columns import dump

    before = dump(app)
    for url in (
        f"/group/{token}",
        f"/group/{token}/player/{people(app, token)['Ann']}",
        f"/group/{token}/versus?a=1&b=2",
    ):
        client.get(url)
    assert dump(app) == before


def test_a_groups_games_are_read_in_a_few_queries_and_derived_as_one_game_is(app: Flask, client: FlaskClient) -> None:
    """A worker that knows none of the group's games (just started) reads their hands in one query,
    not one per game, and derives each exactly as a game's own page does."""
    app.config["SCOREPAD_CHECK_KEPT_VIEWS"] = False  # counts work: the fresh derivations of the check are not
    from sqlalchemy import event

    from scorepad.games.derived import derived

    token = make_group(client)
    for names in (("Ann", "Bob", "Cat"), ("Ann", "Bob", "Dan"), ("Bob", "Cat", "Dan"), ("Eve", "Bob", "Cat")):
        play(app, token, example("nomination-three-hook-every-tie", names))
    play(app, token, example("nomination-family-four", ("Ann", "Bob", "Cat", "Dan")), hands=4)
    with app.app_context():
        group = groups.by_token(token)
        assert group is not None
        kept.drop(app, "game derivations")  # a worker just started
        statements: list[str] = []
        engine = db.engine

        def listener(_conn: object, _cursor: object, statement: str, *_: object) -> None:
            statements.append(statement)

        event.listen(engine, "before_cursor_execute", listener)
        try:
            found = groups.games_of(group)
        finally:
            event.remove(engine, "before_cursor_execute", listener)
        assert len(found) == 5
        # the hands (with their games' revision), and the last hand's time
        assert sum("FROM hand" in s or "JOIN hand" in s for s in statements) == 2, statements
        assert len(statements) <= 5, statements
        kept.drop(app, "game derivations")
        for played in found:
            alone = derived(played.game)  # one game's own derivation, from its rows
            assert (alone.setup, alone.hands, alone.sheet) == (played.setup, played.hands, played.sheet)


def test_a_whist_rubber_counts_rubbers_and_games_apart_and_no_points_total(app: Flask, client: FlaskClient) -> None:
    """Issue 31, item 7: a rubber (games won 2 of 3) showed "Games 1, Won 1" beside "Games won 2 of 3",
    an average and best "score" of 12 (the game points added up over the rubber, the losers had 13)
    and a record "Highest Whist score". Now: the rubber and its games apart, no points total."""
    token = make_group(client, "The Whist table")
    play(app, token, example("whist-rubber-honours", pairs=(("Ann", "Cat"), ("Bob", "Dan"))), MAY_3)
    ids = people(app, token)
    shown = figures(text(client.get(f"/group/{token}/player/{ids['Ann']}")))
    assert shown == {
        "Whist": {
            "Odd tricks per deal": "1.09 (12 in 11 deals)",
            "Rubbers won": "1 of 1 (100%)",
            "Games won": "2 of 3 (67%)",
        }
    }
    player = text(client.get(f"/group/{token}/player/{ids['Bob']}"))
    assert figures(player)["Whist"]["Rubbers won"] == "0 of 1 (0%)" and "Whist scores, game after game" not in player
    group = flat(text(client.get(f"/group/{token}")))
    assert "Highest Whist score" not in group and "1 finished game." in group
