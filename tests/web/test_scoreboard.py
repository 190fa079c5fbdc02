"""Issue 14 frictions: Whist and Bid Whist show the points toward game big, games or rounds won
beside them (4-4 in the game read "0 v 0"); the sheet shows each hand's points under the total."""

from __future__ import annotations

import json
import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from scorepad.games import service as games
from scorepad.rules.base import Scoreboard
from scorepad.rules.record import score_record

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def example(name: str) -> dict[str, object]:
    with open(EXAMPLES / f"{name}.json", encoding="utf-8") as f:
        loaded: dict[str, object] = json.load(f)
    return loaded


def rubber(hands: list[list[int]]) -> Scoreboard | None:
    record = {
        "scorepad": 1,
        "variant": "whist",
        "options": {},
        "teams": ["Us", "Them"],
        "first_dealer": 0,
        "hands": [{"tricks": t, "trump": "H"} for t in hands],
    }
    return score_record(record).scoreboard


def test_whist_four_all_in_the_game_is_four_all_not_nil_all() -> None:
    # the rubber's default: 5 points win a game. 8-5 and 5-8 (2 odd each), then 1 odd each, twice
    board = rubber([[8, 5], [5, 8], [7, 6], [6, 7], [7, 6], [6, 7]])
    assert board == Scoreboard("Game 1: 5 points win it", (4, 4), (0, 0), "game")
    board = rubber([[9, 4], [4, 9], [7, 6], [6, 7], [12, 1]])  # 3-3, 4-4, then Us win the game 10-4
    assert board is not None and board.points == (0, 0) and board.won == (1, 0)
    assert board.heading == "Game 2: 5 points win it"


def test_whist_over_shows_the_last_games_score_and_the_games() -> None:
    sheet = score_record(example("whist-rubber-default"))
    assert sheet.finished
    assert sheet.scoreboard is not None and sheet.scoreboard.heading == "Final score of the last game"
    assert sum(sheet.scoreboard.won) >= 2 and max(sheet.scoreboard.points) >= 5


def test_bid_whist_rounds_show_the_round_in_play_and_rounds_won() -> None:
    sheet = score_record(example("bid_whist-three-rounds-tied-round"))
    assert sheet.scoreboard is not None and sheet.scoreboard.unit == "round"
    assert sheet.scoreboard.won == tuple(s.total for s in sorted(sheet.standings, key=lambda s: s.seat))
    home = score_record(example("bid_whist-home-to-seven"))
    assert home.scoreboard is not None and home.scoreboard.heading == "First to 7 points"
    assert home.scoreboard.points == tuple(s.total for s in sorted(home.standings, key=lambda s: s.seat))


def test_the_scorers_page_shows_the_board_and_each_hands_points(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        game = games.create(
            {
                "variant": "whist",
                "teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}],
                "first_dealer": 0,
            }
        )
        for number, tricks in enumerate(([10, 3], [3, 10]), start=1):
            games.enter_hand(game, number, {"tricks": tricks, "trump": "H"})
        token = game.scorer_token
    page = client.get(f"/g/{token}").get_data(as_text=True)
    board = page.split('class="scoreboard"')[1].split("</section>")[0]
    assert "Game 1: 5 points win it" in board
    assert re.findall(
        r'<span class="name">(\w+)</span> <span class="big">(\d+)</span> <span class="unit">points</span> '
        r'<span class="won">(\d+ games?) won',
        board,
    ) == [("Us", "4", "0 games"), ("Them", "4", "0 games")]
    row = page.split('id="hand-2"')[1].split("</tr>")[0]
    assert '<span class="part points">+0</span>' in row and '<span class="part points">+4</span>' in row


def test_no_board_for_games_of_more_than_two_sides(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        game = games.create({"variant": "nomination", "players": ["Ann", "Bob", "Cat"], "first_dealer": 0})
        token = game.scorer_token
    assert 'class="scoreboard"' not in client.get(f"/g/{token}").get_data(as_text=True)


def test_a_bid_whist_round_in_play_shows_its_points_big_in_the_running_totals(app: Flask, client: FlaskClient) -> None:
    """A round goes to the side with more points (rules/bid-whist.txt): in a game of one round (a
    tournament's match) the running totals show the points big, the rounds won small beside them
    (they showed 0 and 0 rounds won big, the points that decide it small)."""
    from tests.web.test_tournament import hand

    with app.app_context():
        game = games.create(
            {
                "variant": "bid_whist",
                "teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}],
                "first_dealer": 0,
            }
        )
        for number in (1, 2):
            games.enter_hand(game, number, hand(number, 1))  # Them score 4 a hand, made or set
        token = game.scorer_token
    page = client.get(f"/g/{token}").get_data(as_text=True)
    totals = page.split('id="totals"')[1].split("</section>")[0]
    assert "Running totals" in totals and "Rounds won" not in totals
    assert re.findall(
        r'<span class="name">(\w+)</span>\s*<span class="total">(\d+)</span><small>([^<]*)</small>', totals
    ) == [("Them", "8", "0 rounds won"), ("Us", "0", "0 rounds won")]
