"""Issue 15, a variant end to end in French and Spanish: Nomination Whist's options, its rule errors
(raised in English by the pure rules as `Message`s, said in the reader's language by the views), the
hand panel's words, the sheet and the result. The same rules say the same in English as before."""

from __future__ import annotations

import html

from flask.testing import FlaskClient

from tests.web.test_games import HX, bid_round_one, errors_in, nomination_form, post, start

FR = {"Accept-Language": "fr-FR,fr;q=0.9"}


def page_of(client: FlaskClient, path: str) -> str:
    """The page's text, French no-break spaces (before : ; ? ! and inside « ») as plain ones."""
    return html.unescape(client.get(path).get_data(as_text=True)).replace("\u00a0", " ")


def test_the_options_read_in_the_reader_s_language(client: FlaskClient) -> None:
    client.set_cookie("lang", "fr")
    page = page_of(client, "/new/nomination")
    assert "Cartes par tour" in page and "Règle du crochet" in page and "Tours de 4 cartes ou plus" in page
    assert "de 10 à 1 puis de nouveau jusqu’à 10" in page and "les règles habituelles (touchez pour changer)" in page
    assert "Cards per round" not in page and "Hook rule" not in page
    client.set_cookie("lang", "es")
    page = page_of(client, "/new/nomination")
    assert "Cartas por ronda" in page and "Regla del gancho" in page and "Mi propia lista" in page


def test_a_set_up_refused_by_the_rules_is_said_in_french(client: FlaskClient) -> None:
    form = nomination_form(**{"name.3": "ann", "opt.cycles": "9"})
    response = client.post("/new/nomination", data=form, headers=FR)
    assert response.status_code == 422
    errors = [e.replace("\u00a0", " ") for e in errors_in(response.get_data(as_text=True))]  # French: « ann »
    assert "deux joueurs s’appellent « ann » ; donnez à chacun son propre nom" in errors, errors
    assert "nombre de passages de la séquence doit valoir au plus 4" in errors, errors
    english = errors_in(client.post("/new/nomination", data=form).get_data(as_text=True))
    assert "two players are called 'ann'; give each their own name" in english, english


def test_the_hook_rule_and_the_hand_in_spanish(client: FlaskClient) -> None:
    token = start(client)
    client.set_cookie("lang", "es")
    bid_round_one(client, token, (1, 1, 1))  # 4 cards: Ann bids last and may not bid 1
    page = page_of(client, f"/g/{token}")
    assert "Mano 1 de 2" in page and "Apuesta de <strong>Ann</strong>" in page
    assert "Ann apuesta el último y no puede apostar 1: las apuestas sumarían 4, el número de bazas." in page
    assert "♠ Picas" in page and "Repartidor" in page
    status, answer = post(client, token, action="bid", bid="1")  # sent anyway: the rules refuse it
    assert status == 422
    assert "ann apuesta el último y no puede apostar 1: las apuestas sumarían 4, el número de bazas" in errors_in(
        answer
    )


def save(client: FlaskClient, token: str, number: int, tricks: tuple[int, ...]) -> str:
    response = client.post(
        f"/g/{token}/entry",
        headers=HX,
        data={"action": "result", "number": str(number), **{f"tricks.{i}": str(t) for i, t in enumerate(tricks)}},
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    return html.unescape(response.get_data(as_text=True)).replace("\u00a0", " ")


def test_a_game_reads_in_french_to_its_result(client: FlaskClient) -> None:
    token = start(client)  # 2 hands: 4 cards, then 1
    client.set_cookie("lang", "fr")
    bid_round_one(client, token, (1, 1, 0, 1))
    answer = save(client, token, 1, (1, 1, 1, 1))
    assert "Donne 1 enregistrée." in answer
    page = page_of(client, f"/g/{token}")
    assert "Donne 2 sur 2" in page and "Totaux en cours" in page and "4 cartes ♠" in page
    assert '<span class="part">pari 1</span><span class="sep"> · </span><span class="part">fait 1</span>' in page
    assert "Après 1 tours sur 2 : Ann, Bob et Cat mènent avec 11" in page
    assert "3 annonces réussies" not in page and "1 annonce réussie" in page
    post(client, token, action="trump", trump="NT")
    for bid in (0, 0, 0, 1):  # Bob deals: Cat, Dan, Ann, Bob bid; 1 card, no hook
        assert post(client, token, action="bid", bid=str(bid))[0] == 200
    save(client, token, 2, (0, 1, 0, 0))
    page = page_of(client, f"/g/{token}")
    assert "Partie terminée" in page and "Bob gagne avec 22" in page and "Totaux finals" in page
    assert "1 carte NT" in page and "2 annonces réussies" in page
    client.set_cookie("lang", "en")
    page = page_of(client, f"/g/{token}")
    assert "Game over" in page and "Bob wins with 22" in page and "2 bids made" in page
