"""Issue 30, item 5: all of a phone's games, and all of a group's, as one file in the game-record
format (a JSON list of records), imported back on another phone by the home page's import, each as
a new game of that phone. The file's limits (its size, how many games, their hands together) are
counted before any game is read, every game is checked before any is stored, and a refused file is
a 4xx with its problems beside the field, each naming its game; nothing is stored."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorepad.extensions import db
from scorepad.games import groups, records
from scorepad.games import service as games
from scorepad.models import Game
from scorepad.rules.record import GAMES_HANDS_MAX, GAMES_MAX, GAMES_MAX_BYTES
from tests.conftest import EXAMPLES
from tests.web.test_home_import import beside_field, game_count, paste, send_file

RECORDS = [
    json.loads((EXAMPLES / name).read_text())
    for name in ("nomination-family-four.json", "whist-rubber-default.json", "australian-family-four.json")
]


def a_phone_with_three_games(client: FlaskClient) -> list[str]:
    """Three games imported one by one on this phone: their scorer's tokens, newest first."""
    tokens = []
    for record in RECORDS:
        response = paste(client, json.dumps(record))
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
        tokens.append(response.headers["Location"].removeprefix("/g/"))
    return tokens[::-1]


def own_tokens(client: FlaskClient) -> list[str]:
    with client.session_transaction() as session:
        return list(session.get("my_games", []))


def records_of(app: Flask, tokens: list[str]) -> list[dict[str, Any]]:
    with app.app_context():
        found = []
        for token in tokens:
            game = games.by_scorer_token(token)
            assert game is not None
            found.append(records.record_of(game))
        return found


def test_a_phones_games_go_to_another_phone_in_one_file(app: Flask, client: FlaskClient) -> None:
    tokens = a_phone_with_three_games(client)
    home = client.get("/").get_data(as_text=True)
    assert '<a href="/games/export.json" download>Export all your games (JSON)</a>' in home
    exported = client.get("/games/export.json")
    assert exported.status_code == 200 and exported.mimetype == "application/json"
    assert re.fullmatch(
        r'attachment; filename="scorepad-games-\d{4}-\d{2}-\d{2}\.json"', exported.headers["Content-Disposition"]
    )
    assert exported.headers["Cache-Control"] == "no-store"
    listed = exported.get_json()
    assert listed == records_of(app, tokens)  # each game's own record, as "Export game (JSON)" gives it
    assert [r["hands"] for r in listed] == [r["hands"] for r in RECORDS[::-1]]

    other = app.test_client()  # another phone
    response = send_file(other, exported.data, name="scorepad-games.json")
    assert response.status_code == 303 and response.headers["Location"] == "/"
    home = other.get("/").get_data(as_text=True)
    assert '<p class="notice" role="status">3 games imported: they are listed below.</p>' in home
    mine = own_tokens(other)
    assert len(mine) == 3 and not set(mine) & set(tokens)  # new games, this phone's own
    for token in mine:
        assert f'href="/g/{token}"' in home
    assert records_of(app, mine) == listed  # in the file's order, each as it was
    assert game_count(app) == 6
    assert other.get("/games/export.json").get_json() == listed  # and so on to the next phone


def test_a_list_of_one_game_opens_it(app: Flask, client: FlaskClient) -> None:
    response = paste(client, json.dumps([RECORDS[0]]))
    assert response.status_code == 303 and response.headers["Location"].startswith("/g/")
    mine = own_tokens(client)
    assert response.headers["Location"] == f"/g/{mine[0]}" and len(mine) == 1
    assert records_of(app, mine)[0]["hands"] == RECORDS[0]["hands"]


def test_a_phone_without_games_has_nothing_to_export(client: FlaskClient) -> None:
    assert "/games/export.json" not in client.get("/").get_data(as_text=True)
    response = client.get("/games/export.json")
    assert response.status_code == 404 and "no games of its own to export" in response.get_data(as_text=True)


def test_a_bad_game_in_the_list_stores_none_and_names_its_game(app: Flask, client: FlaskClient) -> None:
    bad = {**RECORDS[1], "hands": [{"trump": "X", "tricks": [7, 6]}]}
    response = paste(client, json.dumps([RECORDS[0], bad, {"variant": "snap"}]))
    assert response.status_code == 422
    lines = beside_field(response)
    assert lines[0] == "This record cannot be imported; nothing was saved:"
    assert lines[1].startswith("game 2: hand 1, trump: ")
    assert lines[-1].startswith("game 3: variant: ")
    assert game_count(app) == 0  # the good first game neither
    assert own_tokens(client) == []
    client.set_cookie("lang", "fr")
    lines = beside_field(paste(client, json.dumps([RECORDS[0], bad])))
    assert lines[1].startswith("partie 2 : donne 1, trump : ")


def test_the_files_limits_are_counted_before_any_game_is_read(app: Flask, client: FlaskClient) -> None:
    # each item past the limit is not even a record: the count is what is said
    response = paste(client, json.dumps([{}] * (GAMES_MAX + 1)))
    assert response.status_code == 422
    assert beside_field(response)[1:] == [f"a file holds at most {GAMES_MAX} games; this one has {GAMES_MAX + 1}"]
    many = [{"hands": [{}] * 700}] * 3
    response = paste(client, json.dumps(many))
    assert response.status_code == 422
    assert beside_field(response)[1:] == [
        f"the games of a file hold at most {GAMES_HANDS_MAX} hands together; these hold 2100"
    ]
    response = paste(client, "[]")
    assert response.status_code == 422 and beside_field(response)[1:] == ["the list holds no game records"]
    response = paste(client, json.dumps(["not a record"]))
    assert response.status_code == 422 and beside_field(response)[1:] == [
        "game 1: record: a game record is a JSON object"
    ]
    # a list past its size: refused before it is parsed (valid JSON, a title far too long)
    big = json.dumps([{**RECORDS[0], "title": "x" * GAMES_MAX_BYTES}]).encode()
    response = send_file(client, big)
    assert response.status_code == 413
    assert beside_field(response)[1:] == [f"too large for a file of games ({len(big) // 1024} KB; at most 4096 KB)"]
    # one record keeps its own limit, whatever a list may weigh
    one = json.dumps({**RECORDS[0], "title": "x" * (3 * 2**20)}).encode()
    response = send_file(client, one)
    assert response.status_code == 413
    assert beside_field(response)[1:] == [f"too large for a game record ({len(one) // 1024} KB; at most 2048 KB)"]
    assert game_count(app) == 0


def test_a_groups_games_export_in_files_a_phone_imports_whole(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        group = groups.create("Sunday at Gran's")
        for i in range(GAMES_MAX + 2):
            game = records.import_record({**RECORDS[i % 3], "title": f"Game {i + 1}"})
            groups.keep(group, game)
        token = group.token
    page = client.get(f"/group/{token}").get_data(as_text=True)
    assert f'href="/group/{token}/games.json?part=1" download>Games 1 to {GAMES_MAX}</a>' in page
    assert f'href="/group/{token}/games.json?part=2" download>Games {GAMES_MAX + 1} to {GAMES_MAX + 2}</a>' in page
    first = client.get(f"/group/{token}/games.json?part=1")
    assert first.status_code == 200
    assert first.headers["Content-Disposition"].startswith('attachment; filename="scorepad-group-')
    second = client.get(f"/group/{token}/games.json?part=2").get_json()
    titles = [r["title"] for r in first.get_json() + second]
    assert titles == [f"Game {i}" for i in range(GAMES_MAX + 2, 0, -1)]  # newest first, each once
    for part in ("3", "0", "x", "9999"):
        assert client.get(f"/group/{token}/games.json?part={part}").status_code == 404
    before = game_count(app)
    response = send_file(app.test_client(), first.data)
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert game_count(app) == before + GAMES_MAX


def test_a_small_groups_games_are_one_file(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        group = groups.create("Sunday at Gran's")
        for record in RECORDS:
            groups.keep(group, records.import_record(record))
        token = group.token
        kept = [records.record_of(g) for g in groups.game_rows(group)]
    page = client.get(f"/group/{token}").get_data(as_text=True)
    assert f'<a href="/group/{token}/games.json" download>' + "Export all the group's games (JSON)</a>" in page
    assert client.get(f"/group/{token}/games.json").get_json() == kept
    assert client.get("/group/not-a-group/games.json").status_code == 404
    with app.app_context():
        assert len(db.session.scalars(db.select(Game)).all()) == 3
