"""Issue 30, item 3: each player's or team's own results, after an event of every format and after a
home game. The pages are found as a player finds them (the short link printed under the standings,
the index, a name), and what they say is checked against what the app already derives for the same
event: its standings, its sheets, its seatings."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import club, core, drive, military
from scorepad.events import results as event_results
from scorepad.events.bid_whist import derived as bid_whist
from scorepad.games import service as games
from scorepad.games.results import PlayerResults
from scorepad.models import Event
from tests.web.test_backup import EVENTS
from tests.web.test_events import HX
from tests.web.test_games import _play_both_hands, start
from tests.web.test_tournament_director import play_round, started


def _event(token: str) -> Event:
    event = core.by_director_token(token)
    assert event is not None
    return event


def _index_links(client: FlaskClient, public_id: str) -> tuple[str, list[str]]:
    """The printed results' short link to the index, and the index's links to each player's page."""
    standings = client.get(f"/b/{public_id}/standings").get_data(as_text=True)
    found = re.search(r'class="results-link".*?<figcaption><a href="https?://[^/"]+(/r/[^"]+)"', standings, re.S)
    assert found, "the printed results carry the short link to each player's results"
    index = client.get(found.group(1))
    assert index.status_code == 200
    return found.group(1), re.findall(r'<a href="(/r/[^"/]+/[^"]+)">', index.get_data(as_text=True))


def _military(event: Event, pages: list[PlayerResults]) -> None:
    view = military.view(event)
    rows = {row.name: row for row in view.board.rows}
    names = [t.name for t in view.setup.teams]
    lines = view.sheet.lines
    for team, page in enumerate(pages):
        assert (page.rank, page.total) == (rows[page.name].rank, rows[page.name].total)
        assert [h.points for h in page.hands] == [line.cells[team].points for line in lines]
        assert [h.total for h in page.hands] == [line.cells[team].total for line in lines]
        if view.board.finished:
            assert page.hands[-1].total == page.total
        first = lines[0].spec
        assert str(page.hands[0].against) == (
            f"{names[first.arrivals[team]]} visiting · {names[first.moves[team]]} hosting"  # type: ignore[attr-defined]
        )


def _drive(event: Event, pages: list[PlayerResults]) -> None:
    view = drive.view(event)
    places = {p.name: p for p in view.board}
    complete = view.state.deal - 1
    for number, page in enumerate(pages, start=1):
        assert (page.rank, page.total) == (places[page.name].rank, places[page.name].score)
        assert len(page.hands) == complete and page.hands[-1].total == page.total
        for deal, hand in enumerate(page.hands, start=1):
            four = next(f for f in view.state.seating(deal) if number in f)
            seat = four.index(number)
            partner = view.drive.players[four[(seat + 2) % 4] - 1]
            assert hand.partner == partner and partner not in str(hand.against)
            assert {view.drive.players[four[(seat + 1) % 4] - 1], view.drive.players[four[(seat + 3) % 4] - 1]} == set(
                str(hand.against).split(", ")
            )


def _bid_whist(event: Event, pages: list[PlayerResults]) -> None:
    view = bid_whist.view(event)
    rows = {row.number: row for row in view.public_standings}
    for team, page in zip(view.teams, pages):
        row = rows.get(team.number)
        assert (page.rank, page.total) == ((row.rank, row.points) if row else (None, 0))
        mine = [v for v in view.views.values() if team.number in (v.match.home, v.match.away) and v.match.game]
        expected = []
        for v in sorted(mine, key=lambda v: (v.match.stage != "round", v.match.number)):
            side = 0 if v.match.home == team.number else 1
            assert v.match.game is not None
            sheet = games.view(v.match.game).sheet
            expected += [(v.names[1 - side], line.cells[side].points, line.cells[side].total) for line in sheet.lines]
        assert [(str(h.against), h.points, h.total) for h in page.hands] == expected


def _club(event: Event, pages: list[PlayerResults]) -> None:
    view = club.view(event)
    playing = [(t, g) for t, g, _ in view.tables if g is not None]
    assert len(pages) == sum(len(games.view(g).sheet.columns) for _, g in playing)
    rows = {(r.table, r.name): r for r in view.rows}
    at = iter(pages)
    for table, game in playing:
        sheet = games.view(game).sheet
        for seat, name in enumerate(sheet.columns):
            page = next(at)
            assert page.name == name and str(page.hands[0].where) == f"Table {table.number}"
            assert (page.rank, page.total) == (rows[(table.number, name)].rank, rows[(table.number, name)].total)
            assert [h.points for h in page.hands] == [line.cells[seat].points for line in sheet.lines]
            others = [n for n in sheet.columns if n != name]
            assert str(page.hands[0].against) == ", ".join(others)


CHECKS: dict[str, Callable[[Event, list[PlayerResults]], None]] = {
    "military-playoff": _military,
    "military-loans": _military,
    "bid-whist-bracket": _bid_whist,
    "whist-drive": _drive,
    "club-night": _club,
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_each_players_page_says_the_hands_opponents_scores_and_place_the_event_derives(
    client: FlaskClient, app: Flask, name: str
) -> None:
    token = EVENTS[name](client, app)
    with app.app_context():
        event = _event(token)
        public_id = event.public_id
        pages = list(event_results.players(event).players)
        assert pages
        CHECKS[name](event, pages)
    index, links = _index_links(client, public_id)
    assert sorted(links) == sorted(f"{index}/{p.code}" for p in pages)
    for page in pages:
        body = client.get(f"{index}/{page.code}").get_data(as_text=True)
        assert f"<h1>{page.name}</h1>" in unescape(body)
        assert f'class="result-place">{page.place} of {page.of}' in body if page.place else "not ranked yet" in body
        assert body.count('<tr><th scope="row">') == len(page.hands)


def test_the_addresses_stay_the_same_and_unknown_ones_are_404(client: FlaskClient, app: Flask) -> None:
    token = EVENTS["whist-drive"](client, app)
    with app.app_context():
        event = _event(token)
        public_id, first = event.public_id, event_results.players(event).players[0]
    index, links = _index_links(client, public_id)
    assert (index, links) == _index_links(client, public_id)  # the same on every render
    with app.app_context():  # derived from the stored rows: an app of its own finds the same
        assert event_results.link_code(_event(token)) == index.removeprefix("/r/")
    response = client.get(f"/r/{index[3:].upper()}/{first.code.upper()}")  # typed in capitals
    assert response.status_code == 200 and first.name in response.get_data(as_text=True)
    event_id, code = index.removeprefix("/r/").split("-")
    wrong = "".join("b" if c != "b" else "c" for c in code)
    for path in (
        f"/r/{event_id}-{wrong}",
        f"/r/{int(event_id) + 1}-{code}",
        f"/r/{code}",
        "/r/1-é" + "a" * 9,
        f"{index}/{'a' * 10}",
        f"{index}/{first.code}x",
        f"{index}/é{first.code[1:]}",
    ):
        assert client.get(path).status_code == 404, path


def test_a_home_games_pages_follow_its_sheet_and_are_linked_from_the_finished_game_and_its_share_page(
    client: FlaskClient, app: Flask
) -> None:
    token = start(client)
    _play_both_hands(client, token)
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        view = games.view(game)
        public_id, sheet = game.public_id, view.sheet
    assert sheet.lines
    shown = [client.get(f"/g/{token}").get_data(as_text=True), client.get(f"/g/{token}/share").get_data(as_text=True)]
    links = [re.findall(rf'href="(/w/{public_id}/p/[^"]+)"', page) for page in shown]
    assert len(links[0]) == len(sheet.columns) and links[1] == []
    # the share screen gives the game's short code alone: its players' links go by it, on to the pages
    short = re.findall(r'href="(/s/[a-z0-9]{8}\?player=([a-z0-9]{10}))"', shown[1])
    assert [f"/w/{public_id}/p/{player}" for _, player in short] == links[0]
    for link, _ in short:
        assert client.get(link).headers["Location"] == f"/w/{public_id}/p/{link.rsplit('=', 1)[1]}"
    wrong = short[0][0][:-1] + ("b" if short[0][0][-1] != "b" else "c")
    assert client.get(wrong).status_code == 404
    ranks = {s.seat: s for s in sheet.standings}
    for seat, link in enumerate(links[0]):
        body = client.get(link).get_data(as_text=True)
        assert f"<h1>{sheet.columns[seat]}</h1>" in unescape(body)
        assert body.count('<tr><th scope="row">') == len(sheet.lines)
        if seat in ranks:
            assert f'class="result-place">{ranks[seat].rank}' in body
    assert client.get(f"/w/{public_id}/p/{'a' * 10}").status_code == 404
    assert client.get(f"/w/{'x' * 32}/p/{links[0][0].rsplit('/', 1)[1]}").status_code == 404


def test_hidden_standings_keep_the_unpublished_rounds_off_the_teams_pages(client: FlaskClient, app: Flask) -> None:
    token = started(client, app, 4, rounds="2", hidden="on")
    play_round(client, app, token, 1)
    with app.app_context():
        public_id = _event(token).public_id
    index, links = _index_links(client, public_id)
    assert len(links) == 4
    for link in links:
        page = client.get(link).get_data(as_text=True)
        assert "not ranked yet" in page and "No hand played yet." in page
    assert client.post(f"/d/{token}/publish", data={"round": "1"}, headers=HX).status_code == 200
    with app.app_context():
        event = _event(token)
        pages = list(event_results.players(event).players)
        _bid_whist(event, pages)
    assert all(p.rank is not None and p.hands for p in pages)
    assert client.get(links[0]).get_data(as_text=True).count('<tr><th scope="row">') == len(
        next(p for p in pages if links[0].endswith(p.code)).hands
    )


def test_a_military_teams_page_counts_the_hand_in_play_once_every_table_is_in(app: Flask) -> None:
    with app.app_context():
        event = military.create_event("Zone day", ["Aces", "Kings"], [2])
        military.enter_result(event, 1, 1, 10, None, "table 1")
        token = event.director_token
        assert [len(p.hands) for p in event_results.players(event).players] == [0, 0]  # table 2 still playing
    with app.app_context():  # a request of its own, as the table's phone's
        event = _event(token)
        military.enter_result(event, 2, 1, 7, None, "table 2")
    with app.app_context():
        event = _event(token)
        rows = {row.name: row for row in military.view(event).board.rows}
        for page in event_results.players(event).players:
            assert len(page.hands) == 1 and page.hands[0].total == page.total == rows[page.name].total
