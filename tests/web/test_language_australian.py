"""Issue 15: Australian Whist in French and Spanish: its options, its special rounds' notes, the
sheet's cells, the standings and the refusals of its rules (raised in English by the pure rules as
`Message`s). The English is as before (tests/rules/test_australian.py)."""

from __future__ import annotations

import html
import json

from flask import Flask
from flask.testing import FlaskClient

from scorepad.games import records
from tests.conftest import EXAMPLES
from tests.web.test_games import FOUR, errors_in


def page_of(client: FlaskClient, path: str) -> str:
    return html.unescape(client.get(path).get_data(as_text=True)).replace("\u00a0", " ")


def australian_in_play(app: Flask, hands: int) -> str:
    with app.app_context():
        family = json.loads((EXAMPLES / "australian-family-four.json").read_text())
        return records.import_record({**family, "hands": family["hands"][:hands]}).scorer_token


def test_the_options_in_french_and_spanish(client: FlaskClient) -> None:
    client.set_cookie("lang", "fr")
    page = page_of(client, "/new/australian")
    assert "Atouts après les tours sans couleur" in page and "Jeu à distance avec plusieurs jeux de cartes" in page
    assert "Suspendre le cycle pendant les tours sans couleur" in page and "Remote play" not in page
    client.set_cookie("lang", "es")
    assert "Juego a distancia con varias barajas" in page_of(client, "/new/australian")


def test_a_special_round_the_sheet_and_the_standings_in_french(app: Flask, client: FlaskClient) -> None:
    token = australian_in_play(app, 12)  # four players: rounds 10 to 14 are the special ones
    client.set_cookie("lang", "fr")
    page = page_of(client, f"/g/{token}")
    assert "Tour spécial 4 sur 5 : misère - sans atout, sans annonces" in page, page
    assert (
        'class="part">fait ' in page
        and 'class="part">pari ' in page
        and "annonces réussies" in page
        and "Après 12 tours sur" in page
    )
    assert "Special round" not in page and "took" not in page
    client.set_cookie("lang", "en")
    assert "Special round 4 of 5: misère - no trumps, no bidding" in page_of(client, f"/g/{token}")


def test_a_refusal_of_the_rules_in_spanish(client: FlaskClient) -> None:
    response = client.post(
        "/new/australian",
        data={**FOUR, "name.3": "ann", "opt.trump_cycle": "skip", "action": "start"},
        headers={"Accept-Language": "es"},
    )
    assert response.status_code == 422
    errors = errors_in(response.get_data(as_text=True))
    assert "dos jugadores se llaman «ann»; da a cada uno su propio nombre" in errors, errors
