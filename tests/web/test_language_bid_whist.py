"""Issue 15: a Bid Whist home game in French and Spanish: the bidding panel, a refused call said
beside the calls, the result form, the sheet's cells and notes, the scoreboard and the end. The
rules raise their words in English as `Message`s (tests/rules/test_bid_whist.py reads them)."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient

from tests.web.test_games import HX, PARTNERS, errors_in, post, start

# words of the game itself, said as players say them in any language (docs/translations.md)
GAME_TERMS = {
    "Bid",
    "Whist",
    "Boston",
    "Special",
    "uptown",
    "downtown",
    "Uptown",
    "Downtown",
    "Us",
    "Them",
    "Ann",
    "Bob",
    "Cat",
    "Dan",
    "Scorepad",
}
SAME_WORDS = {
    "CSV",
    "HTTP",  # "Keep the screen on" needs HTTPS: the protocols keep their names
    "https",
    "page",  # "cette page"
    "JSON",
    "PNG",
    "SVG",
    "Options",
    "Points",
    "points",
    "score",
    "six",
    "correction",
}  # French or Spanish spell them so too


def page_of(client: FlaskClient, path: str, language: str) -> str:
    client.set_cookie("lang", language)
    return html.unescape(client.get(path).get_data(as_text=True)).replace("\u00a0", " ")


def words_of(page: str) -> set[str]:
    """The visible words of the page's main part (the hand panel, the sheet), markup and scripts left out."""
    main = page.split("<main", 1)[1].split(">", 1)[1].split("</main>", 1)[0]
    text = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", main, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    return set(re.findall(r"[A-Za-zÀ-ÿ’']{3,}", text))


def a_game_in_play(client: FlaskClient) -> str:
    """Hand 1: Bob, Cat, Dan, Ann call (Ann deals); Bob's 4 No downtown is made with 11 books."""
    token = start(client, "bid_whist", {**PARTNERS, "opt.play_to": "points"})
    for call in ("4-no", "pass", "pass", "pass"):
        assert post(client, token, action="call", call=call)[0] == 200
    assert post(client, token, action="result", number="1", direction="downtown", books="11")[0] == 200
    return token


def test_the_bidding_and_a_refused_call_in_french(client: FlaskClient) -> None:
    token = start(client, "bid_whist", {**PARTNERS, "opt.play_to": "points"})
    page = page_of(client, f"/g/{token}", "fr")
    assert '<html lang="fr"' in page
    assert "À <strong>Bob</strong> de parler" in page and ">Passe</button>" in page and ">4 SA</button>" in page
    assert "À Bob de parler : passer, ou annoncer 4 ou plus (simple, Special ou SA)." in page, page
    assert "choisi par le preneur" in page and "named by the winning bidder" not in page
    assert post(client, token, action="call", call="5-plain")[0] == 200
    client.set_cookie("lang", "fr")
    status, answer = post(client, token, action="call", call="5-special")
    assert status == 422
    assert (
        "cat ne peut pas annoncer 5 special après le 5 de bob : un 5 special ne couvre pas un 5 (seule une "
        "annonce sa couvre une annonce à l’atout du même nombre) ; cat peut passer ou annoncer 5 sa, ou 6 ou plus"
        in errors_in(answer.replace("\u00a0", " "))
    ), errors_in(answer)
    english = page_of(client, f"/g/{token}", "en")
    assert "<strong>Cat</strong>’s call" in english and "Plain = uptown (high wins)" in english


def test_undo_and_redo_name_the_call_in_the_readers_language(client: FlaskClient) -> None:
    token = start(client, "bid_whist", {**PARTNERS, "opt.play_to": "points"})
    for call in ("5-no", "pass"):
        assert post(client, token, action="call", call=call)[0] == 200
    assert "Undo last entry: Cat’s pass" in page_of(client, f"/g/{token}", "en").replace("'", "’")
    french = page_of(client, f"/g/{token}", "fr")
    assert "La passe de Cat" in french and "Cat's pass" not in french, french
    client.set_cookie("lang", "es")
    assert post(client, token, action="uncall")[0] == 200
    spanish = page_of(client, f"/g/{token}", "es")
    assert "retirar: El paso de Cat" in spanish and "taking back" not in spanish, spanish
    undone = client.post(f"/g/{token}/undo", headers=HX)  # takes back the taking back: Cat's pass is there again
    assert undone.status_code == 200 and "Deshecho: retirar: El paso de Cat." in html.unescape(
        undone.get_data(as_text=True)
    )
    assert "Undo last entry: Cat’s pass" in page_of(client, f"/g/{token}", "en").replace("'", "’")


def test_the_result_form_and_an_error_beside_its_field_in_spanish(client: FlaskClient) -> None:
    token = start(client, "bid_whist", {**PARTNERS, "opt.play_to": "points"})
    for call in ("4-no", "pass", "pass", "pass"):
        assert post(client, token, action="call", call=call)[0] == 200
    page = page_of(client, f"/g/{token}", "es")
    assert "<strong>Bob</strong> ganó la subasta: <strong>4 ST</strong>." in page
    assert "Them necesita 10 bazas (el monte cuenta como una)." in page and "Uptown (gana la más alta)" in page
    client.set_cookie("lang", "es")
    status, answer = post(client, token, action="result", number="1", renege="upheld")
    assert status == 422
    errors = [e.replace("\u00a0", " ") for e in errors_in(answer)]
    assert "elige las bazas de los apostadores" in errors and "elige el equipo que renunció" in errors, errors
    status, answer = post(client, token, action="result", number="1", books="10")
    assert status == 422
    errors = [e.replace("\u00a0", " ") for e in errors_in(answer)]
    assert (
        "quien gana una apuesta st declara uptown (ganan las cartas altas) o downtown (ganan las cartas bajas): "
        "elige" in errors
    ), errors


def test_the_sheet_and_the_end_in_french_with_no_english_left(client: FlaskClient) -> None:
    token = a_game_in_play(client)
    page = page_of(client, f"/g/{token}", "fr")
    assert 'class="part">annonce 4 SA downtown<' in page and 'class="part">fait 11<' in page
    assert (
        "Them réussit 4 SA downtown avec 11 levées : Them marque 10 (annonce SA, doublée) ; partie pour Them, 10-0"
        in page
    )
    assert "Them gagne (Us contre Them 0-10)" in page
    english_page = page_of(client, f"/g/{token}", "en")
    assert "Them made 4 No downtown with 11 books: Them score 10 (No bid, doubled); game to Them, 10-0" in english_page
    english = words_of(english_page) - GAME_TERMS - SAME_WORDS
    left = english & words_of(page_of(client, f"/g/{token}", "fr"))
    assert not left, " ".join(sorted(left))
    left = english & words_of(page_of(client, f"/g/{token}", "es"))
    assert not left, " ".join(sorted(left))


def test_a_hand_in_play_reads_in_spanish_with_no_english_left(client: FlaskClient) -> None:
    token = start(client, "bid_whist", {**PARTNERS, "opt.play_to": "points", "opt.target": "20"})
    for call in ("4-plain", "pass", "pass", "pass"):
        assert post(client, token, action="call", call=call)[0] == 200
    assert post(client, token, action="result", number="1", trump="H", books="8")[0] == 200
    assert post(client, token, action="call", call="pass")[0] == 200
    page = page_of(client, f"/g/{token}", "es")
    assert "Fallida: Them hizo 8 de las 10 bazas que pide 4 ♥; Us anota 4" in page
    assert "El primero a 20 puntos" in page and "En juego tras 1 mano: Us contra Them 4-0" in page
    english = words_of(page_of(client, f"/g/{token}", "en")) - GAME_TERMS - SAME_WORDS
    left = english & words_of(page)
    assert not left, " ".join(sorted(left))


def test_the_correction_form_reads_in_french_with_no_english_left(client: FlaskClient) -> None:
    token = a_game_in_play(client)
    page = page_of(client, f"/g/{token}/hands/1", "fr")
    assert '<html lang="fr"' in page and "A remporté les enchères" in page and "Sens annoncé (annonces SA)" in page
    assert "Levées faites par les preneurs (talon compris)" in page and "Downtown (la plus basse gagne)" in page
    english = words_of(page_of(client, f"/g/{token}/hands/1", "en")) - GAME_TERMS - SAME_WORDS
    left = english & words_of(page)
    assert not left, " ".join(sorted(left))
