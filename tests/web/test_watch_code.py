"""Issue 15: "Watch a game" on the home page takes a game's short code as typed (any case, spaces,
dashes, even the short link itself) and opens its spectators' page; a code no game has is a 404
said beside the field. A table's or a team's card code opens that card's page; a director's code
is not taken there (it opens the control room: a field on a shared phone is no place for it)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import core
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import EventEntrant
from tests.web.test_events import create as create_military
from tests.web.test_events import table_tokens
from tests.web.test_tournament_registration import create as create_tournament

WHIST = {
    "variant": "whist",
    "first_dealer": 0,
    "teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}],
}


def a_game(app: Flask) -> tuple[str, str, str]:
    """A new game's short code, its spectators' link and its scorer's link."""
    with app.app_context():
        game = games.create(WHIST)
        return games.short_code(game), game.public_id, game.scorer_token


def beside_field(response: Any) -> str:
    page = response.get_data(as_text=True)
    found = re.search(r'<p class="field-error" id="err-code" role="alert">([^<]*)</p>', page)
    assert found, page[:3000]
    return html.unescape(found.group(1))


def test_the_home_page_has_the_field_with_its_label(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<form method="get" action="/watch"' in page
    assert '<label for="watch-code">Type its code</label>' in page
    assert 'id="watch-code" name="code"' in page and 'aria-describedby="watch-code-hint"' in page


@pytest.mark.parametrize(
    "typed",
    [
        lambda c: c,
        lambda c: c.upper(),
        lambda c: f"{c[:4]} {c[4:]}",
        lambda c: f" {c[:4].upper()}-{c[4:].upper()} ",
        lambda c: f"{c[:4]}\u2013{c[4:]}",
        lambda c: f"{c[:2]} {c[2:4]} {c[4:6]}-{c[6:]}",
        lambda c: f"http://192.168.1.20:5000/s/{c}",
        lambda c: f"/s/{c.upper()}/",
    ],
    ids=["as shown", "capitals", "a space", "dash and spaces", "en dash", "in pairs", "the short link", "a path"],
)
def test_a_games_code_as_typed_opens_its_spectators_page(
    app: Flask, client: FlaskClient, typed: Callable[[str], str]
) -> None:
    code, public_id, _ = a_game(app)
    response = client.get("/watch", query_string={"code": typed(code)})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/w/{public_id}"
    assert client.get(response.headers["Location"]).status_code == 200


def test_a_code_no_game_has_is_a_404_beside_the_field(app: Flask, client: FlaskClient) -> None:
    code, _, _ = a_game(app)
    other = "".join("3" if ch != "3" else "4" for ch in code)  # the same length, another code
    response = client.get("/watch", query_string={"code": other.upper()})
    assert response.status_code == 404
    message = beside_field(response)
    assert message.startswith(f"No game has the code \u201c{other.upper()}\u201d.")
    assert "no 0, 1, I, L or O" in message
    page = response.get_data(as_text=True)
    assert f'value="{other.upper()}"' in page  # kept in the field, to be corrected
    assert 'aria-describedby="watch-code-hint err-code" aria-invalid="true"' in page
    assert '<h1 id="watch-h">Watch a game</h1>' in page  # the form again, on a page of its own


@pytest.mark.parametrize("typed", ["k7m2x9q0", "abc", "x" * 500, "<script>", "\u0430" * 8, "%00"])
def test_what_cannot_be_a_code_is_a_404_too(app: Flask, client: FlaskClient, typed: str) -> None:
    a_game(app)
    response = client.get("/watch", query_string={"code": typed})
    assert response.status_code == 404
    message = beside_field(response)
    assert message.startswith("No game has the code")
    assert len(message) < 400  # what was typed is shown back cut short
    assert "<script>" not in response.get_data(as_text=True).split('id="watch-code"')[1][:200]


def test_an_empty_code_asks_for_one(client: FlaskClient) -> None:
    for typed in ("", "   "):
        response = client.get("/watch", query_string={"code": typed})
        assert response.status_code == 422
        assert beside_field(response).startswith("Type the game's code")
    assert client.get("/watch").status_code == 200  # the form alone


def test_a_tables_and_a_teams_card_code_open_their_pages(app: Flask, client: FlaskClient) -> None:
    token = create_military(client)
    table = table_tokens(app, token)[0]
    with app.app_context():
        card = core.table_by_token(table)
        assert card is not None and card.short_code is not None
        table_code = card.short_code
        event = core.by_director_token(token)
        assert event is not None and event.director_code is not None
        director_code = event.director_code
    response = client.get("/watch", query_string={"code": f"{table_code[:5].upper()} {table_code[5:]}"})
    assert response.status_code == 303 and response.headers["Location"] == f"/t/{table}"

    bid_whist = create_tournament(client)
    assert (
        client.post(f"/d/{bid_whist}/register", data={"team": "Aces", "player1": "Ann", "player2": "Bob"}).status_code
        == 200
    )
    with app.app_context():
        entrant = db.session.scalars(db.select(EventEntrant)).one()
        team_code, team_token = entrant.short_code, entrant.token
    assert team_code is not None
    response = client.get("/watch", query_string={"code": team_code.upper()})
    assert response.status_code == 303
    response = client.get(response.headers["Location"])  # the card's short link: on to the team's page
    assert response.status_code == 302 and response.headers["Location"] == f"/team/{team_token}"

    response = client.get("/watch", query_string={"code": director_code})
    assert response.status_code == 404  # the control room is not opened from here


def test_the_share_screen_shows_the_code_to_type(app: Flask, client: FlaskClient) -> None:
    code, _, scorer = a_game(app)
    page = client.get(f"/g/{scorer}/share").get_data(as_text=True)
    assert f'<strong class="typed-code">{code[:4].upper()} {code[4:].upper()}</strong>' in page
    assert client.get(f"/s/{code[:4].upper()}-{code[4:]}").headers["Location"].startswith("/w/")
