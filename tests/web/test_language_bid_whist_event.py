"""Issue 15: a Bid Whist tournament's pages in French and Spanish: the set-up form and a refusal
beside its field, the control room's registration and a refusal there, a team's page and the
event bar of a match, the bracket in the control room. The English is as before
(tests/web/test_tournament*.py)."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web.test_events import HX, field_error, text
from tests.web.test_tournament import current_matches, event_row
from tests.web.test_tournament_director import bracket_of_eight, started
from tests.web.test_tournament_registration import create

# the game's name, the app's, N/S and E/W, and words French or Spanish spell as English does
KEPT = {
    "Bid",
    "Whist",
    "Scorepad",
    "PIN",
    "Letter",
    "Points",
    "Actions",
    "Match",
    "match",
    "Table",
    "Tables",
    "Final",
    "final",
    "place",
    "six",
}


def words_of(page: str) -> set[str]:
    """The visible words of the page's main part, markup and scripts left out."""
    main = page.split("<main", 1)[1].split(">", 1)[1].split("</main>", 1)[0]
    main = re.sub(r"<(script|style|svg)[^>]*>.*?</\1>", " ", main, flags=re.S)
    return set(re.findall(r"[A-Za-zÀ-ÿ’']{3,}", html.unescape(re.sub(r"<[^>]+>", " ", main))))


def test_the_set_up_page_and_a_refusal_beside_its_field_in_french(client: FlaskClient) -> None:
    client.set_cookie("lang", "fr")
    page = text(client.get("/events/new/bid-whist"))
    assert '<html lang="fr"' in page and "Nouveau tournoi de Bid Whist" in page
    assert "Celui du règlement : les 16 premiers" in page and "Les 8 premiers" in page
    response = client.post("/events/new/bid-whist", data={"name": "Club", "rounds": "12", "bracket": "auto"})
    assert response.status_code == 422
    assert field_error(response.get_data(as_text=True), "rounds") == (
        "Jouez de 1 à 8 tours préliminaires (le règlement en joue 3)"
    )
    client.set_cookie("lang", "en")
    english = client.get("/events/new/bid-whist").get_data(as_text=True)
    left = words_of(english) - KEPT
    client.set_cookie("lang", "fr")
    left &= words_of(client.get("/events/new/bid-whist").get_data(as_text=True))
    assert not left, " ".join(sorted(left))


def test_registration_in_the_control_room_in_spanish(client: FlaskClient) -> None:
    token = create(client)
    client.set_cookie("lang", "es")
    room = text(client.get(f"/d/{token}"))
    assert "Inscripción · 0 equipos" in room and "Aún no hay nadie inscrito." in room
    response = client.post(f"/d/{token}/register", data={"team": "Ases", "player1": "Ana", "player2": ""}, headers=HX)
    assert response.status_code == 422
    assert field_error(response.get_data(as_text=True), "player2") == "Indica el nombre del jugador 2"
    response = client.post(
        f"/d/{token}/register", data={"team": "Ases", "player1": "Ana", "player2": "Beto"}, headers=HX
    )
    assert response.status_code == 200 and "Equipo inscrito." in text(response)
    assert "Inscripción · 1 equipo" in text(response)


def test_a_team_s_page_and_its_match_in_french(client: FlaskClient, app: Flask) -> None:
    token = started(client, app, 4)
    with app.app_context():
        team = next(e for e in event_row(app, token).entrants if e.number == 1)
        team_token = team.token
    match = next(m for m in current_matches(app, token) if 1 in (m["home"], m["away"]))
    side, seat = ("N/S", "N/S") if match["home"] == 1 else ("E/W", "E/O")
    client.set_cookie("lang", "fr")
    page = text(client.get(f"/team/{team_token}"))
    assert '<html lang="fr"' in page and "Tour 1 sur 3" in page
    assert f"Table {match['table']}, placez-vous en {seat}, contre" in page and "Classement" in page
    game = text(client.get(f"/g/{match['scorer']}"))
    assert f"Tour 1 sur 3 · table {match['table']}" in game
    assert "Saisissez chaque donne ci-dessous" in game and "Enter every hand below" not in game
    client.set_cookie("lang", "en")
    page = text(client.get(f"/team/{team_token}"))
    assert "Round 1 of 3" in page and f"Table {match['table']}, sit {side}, against" in page


def test_the_bracket_in_the_control_room_in_french(client: FlaskClient, app: Flask) -> None:
    token, _out = bracket_of_eight(client, app)
    client.set_cookie("lang", "fr")
    room = text(client.get(f"/d/{token}"))
    assert "Quarts de finale" in room and "Tableau · Quarts de finale" in room and "tête de série" in room
    assert "Remplacer une équipe absente" in room and "Elite 8" not in room
    client.set_cookie("lang", "en")
    assert "Bracket · Elite 8" in text(client.get(f"/d/{token}"))
