"""The home page and variant pages: every variant listed, summaries shown, errors are 4xx pages; the
home page derives only this browser's own games."""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from scorepad import kept
from scorepad.extensions import db
from scorepad.games import records
from scorepad.games import service as games
from scorepad.models import Game
from scorepad.rules import VARIANT_MODULES, all_variants, get_variant
from scorepad.rules.nomination import CUSTOM_MAX
from tests.web.test_games import nomination_form

NAMES = ["Whist", "Military Whist", "Bid Whist", "Nomination Whist", "Australian Whist"]


def test_home_lists_the_five_variants_with_their_summaries(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    for name in NAMES:
        assert f">{name}</a>" in page
    for variant in all_variants():
        assert str(escape(variant.summary)) in page


def test_home_says_it_varies_on_htmx(client: FlaskClient) -> None:
    assert "HX-Request" in client.get("/").headers["Vary"]


def test_variant_page_shows_options_with_defaults(client: FlaskClient) -> None:
    page = client.get("/variants/whist").get_data(as_text=True)
    spec = next(s for s in all_variants()[0].option_specs if s.key == "target")
    assert spec.label in page and ">5<" in page


def test_unknown_variant_is_a_404_page_not_a_crash(client: FlaskClient) -> None:
    response = client.get("/variants/bridge")
    assert response.status_code == 404
    assert "no variant called" in response.get_data(as_text=True)


def test_variant_page_renders_a_demo_sheet_from_the_database(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        assert records.load_demo_games() > 0
        assert records.load_demo_games() == 0  # loading twice adds nothing
    for variant in all_variants():
        page = client.get(f"/variants/{variant.key}").get_data(as_text=True)
        assert 'id="totals"' in page and 'id="hand-1"' in page, variant.key


def test_the_demo_games_titles_read_in_the_pages_language_and_the_home_page_says_where_they_are(
    app: Flask, client: FlaskClient
) -> None:
    """Issue 31, item 18: a sample game's title stayed English on a French or Spanish page, and with
    the demo games loaded (as the README says) the home page said only "No games yet"."""
    with app.app_context():
        records.load_demo_games()
    said = {
        "en": "Sunday at Gran's: one to thirteen",
        "fr": "Dimanche chez Mamie : de un à treize",
        "es": "Domingo en casa de la abuela: de una a trece",
    }
    for lang, title in said.items():
        client.set_cookie("lang", lang)
        page = html.unescape(client.get("/variants/nomination").get_data(as_text=True))
        assert f'<p class="sheet-title">{title}</p>' in page, lang
    client.set_cookie("lang", "en")
    home = html.unescape(client.get("/").get_data(as_text=True))
    assert "No games yet on this server." in home
    assert "Each game's page below shows a sample score sheet (the demo games)." in home
    assert all(json_title in records.DEMO_TITLES for json_title in example_titles())  # every example's


def example_titles() -> list[str]:
    return [
        json.loads(path.read_text())["title"]
        for path in sorted(records.EXAMPLES_DIR.glob("*.json"))
        if not path.name.endswith(".expected.json")
    ]


# --------------------------------------------------------------------------- other visitors' games (issue 33)
# The home page derived (replayed) each of the server's 20 latest games, anyone's: 20 Nomination
# games of 15,000 rounds x 4 made it take 1-9 s. It derives this browser's own games only; the
# others are listed from their rows and one grouped count of their hands.

LARGEST = ", ".join(["13"] * CUSTOM_MAX)  # the longest custom list accepted, played the most times (4)


def post_other_games(app: Flask, count: int, hands: int = 1) -> None:
    """`count` games of the largest Nomination set-up accepted (52 rounds x 4), each posted by
    another visitor, `hands` hands in."""
    for n in range(count):
        visitor = app.test_client()
        form = nomination_form(**{"opt.custom_sequence": LARGEST, "opt.cycles": "4", "name.0": f"Other{n}"})
        response = visitor.post("/new/nomination", data=form)
        assert response.status_code == 303
        token = response.headers["Location"].rsplit("/", 1)[1]
        with app.app_context():
            game = db.session.query(Game).filter_by(scorer_token=token).one()
            for number in range(1, hands + 1):
                games.enter_hand(game, number, {"trump": "H", "bids": [0, 0, 0, 0], "tricks": [3, 3, 3, 4]})


def forget_kept(app: Flask) -> None:
    """A worker that has derived nothing yet (what a request pays on another worker, or after a restart)."""
    kept.drop(app, "game derivations")


def spy_on_derivations(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Who played each game the rules derive (score, state): one tuple of names per call."""
    derived: list[tuple[str, ...]] = []
    for key in VARIANT_MODULES:
        variant = get_variant(key)
        for name in ("score", "state"):
            original = getattr(variant, name)

            def spy(setup: Any, *args: Any, _original: Any = original) -> Any:
                derived.append(tuple(setup.players) or tuple(t.name for t in setup.teams))
                return _original(setup, *args)

            monkeypatch.setattr(variant, name, spy)
    return derived


def test_other_visitors_games_are_listed_without_being_derived(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    post_other_games(app, 2)
    assert client.post("/new/nomination", data=nomination_form(**{"name.0": "Mine"})).status_code == 303
    forget_kept(app)
    derived = spy_on_derivations(monkeypatch)
    page = client.get("/").get_data(as_text=True)
    assert derived and all(names[0] == "Mine" for names in derived), derived
    mine, others = page.split("Other games on this server")
    assert "Your games in progress" in mine and "Continue scoring" in mine and "Mine, Bob, Cat, Dan" in mine
    for n in range(2):  # listed all the same: variant, players, hands recorded, last change, read-only link
        assert f"Nomination Whist · Other{n}, Bob, Cat, Dan" in others
    assert others.count("1 hand recorded") == 2 and others.count("Watch (read-only)") == 2
    assert "/g/" not in others and others.count('href="/w/') == 2


def test_the_home_pages_queries_do_not_grow_with_other_visitors_games_or_events(app: Flask, queries: list[str]) -> None:
    """Other visitors' games cost one grouped count of their hands, not a load of each game's
    hands; their events one count of their tables, not a load of each event's tables."""
    me = app.test_client()
    assert me.post("/new/nomination", data=nomination_form()).status_code == 303
    drive = {
        "name": "Drive",
        "players": "\n".join(f"P{n}" for n in range(8)),
        "deals": "4",
        "per_change": "1",
        "scoring": "odd",
        "movement": "progressive",
        "top": "stay",
    }
    counted = []
    for more in (1, 3):
        post_other_games(app, more, hands=2)
        assert app.test_client().post("/events/new/whist-drive", data=drive).status_code == 302
        forget_kept(app)
        queries.clear()
        assert me.get("/").status_code == 200
        counted.append(len(queries))
    assert counted[0] == counted[1], counted


def test_the_set_up_page_reads_only_the_names_of_recent_games(
    app: Flask, client: FlaskClient, queries: list[str]
) -> None:
    post_other_games(app, 1)
    queries.clear()
    page = client.get("/new/nomination").get_data(as_text=True)
    assert "Other0" in page  # offered, as before
    game_queries = [q for q in queries if "FROM game" in q]
    assert game_queries and all("game.options" not in q and "game.undo_log" not in q for q in game_queries), (
        game_queries
    )


def test_an_empty_server_says_so(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "No games yet on this server. Start one: it takes a few seconds." in page
    assert "Other games on this server" not in page and "Your games in progress" not in page


def test_the_options_line_says_each_option_changed_with_its_value(client: FlaskClient) -> None:
    """Issue 31, item 13: a changed option is said with what it was changed to, in the reader's
    language; a new game's own settings are not a change."""
    form = {"action": "", "team.0": "Us", "team.1": "Them", "opt.play_to": "points", "opt.target": "9"}
    summaries = {}
    for language in ("en", "fr", "es"):
        page = client.post("/new/bid_whist", data=form, headers={"Accept-Language": language})
        summaries[language] = page.get_data(as_text=True).split("<summary>")[1].split("</summary>")[0]
    assert summaries == {
        "en": "Options: changed: Points for game: 9",
        "fr": "Options\u00a0: modifiées\u00a0: Points pour la manche\u00a0: 9",
        "es": "Opciones: cambiadas: Puntos para ganar la partida: 9",
    }
    form = {**form, "opt.play_to": "rounds", "opt.target": "7"}
    page = client.post("/new/bid_whist", data=form).get_data(as_text=True)
    assert "<summary>Options: changed: Play: Rounds of 4 hands (tournament)</summary>" in page
