"""Issue 15: the set-up page's options of Whist and Bid Whist in French and Spanish (their labels,
help and choices said through M); a Bid Whist game's own words: tests/web/test_language_bid_whist.py."""

from __future__ import annotations

import html

from flask.testing import FlaskClient


def page_of(client: FlaskClient, path: str, language: str) -> str:
    client.set_cookie("lang", language)
    return html.unescape(client.get(path).get_data(as_text=True)).replace("\u00a0", " ")


def test_whist_options_in_french_and_spanish(client: FlaskClient) -> None:
    page = page_of(client, "/new/whist", "fr")
    for words in (
        "Points pour la manche",
        "Compter les honneurs",
        "Jouer un robre",
        "Suite fixe : cœur, carreau, pique, trèfle",
        "Nombre fixe de donnes (tournoi de whist)",
        "Levées de mieux (les plis au-delà de six)",
    ):
        assert words in page, words
    assert "Points for game" not in page and "Score honours" not in page
    assert "Jugar un rubber" in page_of(client, "/new/whist", "es")


def test_bid_whist_options_keep_boston(client: FlaskClient) -> None:
    page = page_of(client, "/new/bid_whist", "es")
    for words in (
        "Boston (las 13 bazas)",
        "Premio por Boston",
        "Cuando pasan los cuatro",
        "El repartidor debe apostar",
    ):
        assert words in page, words
    page = page_of(client, "/new/bid_whist", "fr")
    assert "Boston (les 13 levées)" in page and "Jeter les cartes et redonner" in page
    assert "Boston (all 13 books)" in page_of(client, "/new/bid_whist", "en")


def test_a_whist_deal_s_note_and_a_refusal_in_french(app: object, client: FlaskClient) -> None:
    from tests.web.test_games import PARTNERS, errors_in, post, start

    token = start(client, "whist", PARTNERS)
    page = page_of(client, f"/g/{token}", "fr")
    assert "donne, " in page and " entame ; la dernière carte du donneur est retournée pour l’atout" in page, page
    assert "is turned up for trumps" not in page
    status, answer = post(client, token, action="result", number="1", trump="H", tricks="14")
    assert status == 422
    errors = [e.replace("\u00a0", " ") for e in errors_in(answer)]
    assert "le nombre de plis de us doit être entre 0 et 13" in errors, errors  # errors_in lower-cases
    honours = start(client, "whist", {**PARTNERS, "opt.honours": "on"})
    page = page_of(client, f"/g/{honours}", "fr")
    assert "Us : les quatre" in page and "Them : trois" in page and "Partagés 2-2, ou non réclamés" in page
    assert "leads; the dealer's last card is turned up for trumps" in page_of(client, f"/g/{token}", "en")


def test_a_whist_deal_scored_reads_in_spanish(app: object, client: FlaskClient) -> None:
    from tests.web.test_games import PARTNERS, post, start

    token = start(client, "whist", PARTNERS)
    status, _answer = post(client, token, action="result", number="1", trump="H", tricks="9")
    assert status == 200
    page = page_of(client, f"/g/{token}", "es")
    assert 'class="part">hizo 9<' in page and 'class="part">3 de más<' in page and 'class="part">hizo 4<' in page
    assert "5 puntos ganan la partida" in page and "Partida 1: Us 3, Them 0" in page and "took 9" not in page
    english = page_of(client, f"/g/{token}", "en")
    assert "5 points win the game" in english and "Game 1: Us 3, Them 0" in english and 'class="part">3 odd<' in english
