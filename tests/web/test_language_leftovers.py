"""Issue 15: the words left over outside the pages' own templates read in French and Spanish too:
the error pages' messages (a dead game link, a hand that does not exist, an unknown address, a
request from another site or holding a NUL), the Whist correction form, a group's "add an event's
games" page, the home page's own events (their format's name and where they stand), the chart's
label, the installed app's description, the outbox's refusal of a reused key. English reads as
before (tests/web/test_games.py, test_security.py, test_your_events.py...)."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.test_games import PARTNERS, post, start
from tests.web.test_groups import make_group
from tests.web.test_tournament_registration import create as create_tournament

FR_ES = ("fr", "es")


def page(client: FlaskClient, language: str, path: str, method: str = "GET", **kwargs: object) -> tuple[int, str]:
    client.set_cookie("lang", language)
    response = client.open(path, method=method, **kwargs)  # type: ignore[arg-type]
    return response.status_code, html.unescape(response.get_data(as_text=True)).replace("\u00a0", " ")


def main_text(text: str) -> str:
    main = text.split("<main", 1)[1].split(">", 1)[1].split("</main>", 1)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", main).split())


@pytest.mark.parametrize(
    "language, title, words",
    [
        ("fr", "Page introuvable", "Il n’y a pas de partie à ce lien. Elle a peut-être été supprimée."),
        ("es", "Página no encontrada", "No hay ninguna partida en este enlace. Puede que se haya borrado."),
        ("en", "Page not found", "There is no game at this link. It may have been deleted."),
    ],
)
def test_a_dead_game_link_says_so_in_the_readers_language(
    client: FlaskClient, language: str, title: str, words: str
) -> None:
    for path in ("/g/no-such-game", "/w/no-such-game"):
        status, text = page(client, language, path)
        assert status == 404 and f'<html lang="{language}"' in text
        assert f"<h1>{title}</h1>" in text and f"<p>{words}</p>" in text, main_text(text)


def test_a_hand_that_does_not_exist_and_a_short_code_that_names_nothing(client: FlaskClient) -> None:
    token = start(client, "whist", PARTNERS)
    expected = {
        "fr": (
            "Il n’y a pas de donne 7 dans cette partie.",
            "Il n’y a pas de partie à ce lien. Elle a peut-être été supprimée, ou le code mal tapé.",
        ),
        "es": (
            "No hay ninguna mano 7 en esta partida.",
            "No hay ninguna partida en este enlace. Puede que se haya borrado, o que el código esté mal escrito.",
        ),
        "en": (
            "There is no hand 7 in this game.",
            "There is no game at this link. It may have been deleted, or the code mistyped.",
        ),
    }
    for language, (hand, code) in expected.items():
        status, text = page(client, language, f"/g/{token}/hands/7")
        assert status == 404 and f'<html lang="{language}"' in text and f"<p>{hand}</p>" in text, main_text(text)
        status, text = page(client, language, "/s/zzzzzzzz")
        assert status == 404 and f"<p>{code}</p>" in text, main_text(text)


def test_an_unknown_address_and_a_home_game_that_does_not_exist(client: FlaskClient) -> None:
    status, text = page(client, "fr", "/no/such/page")
    assert status == 404 and "L’adresse demandée est introuvable sur ce serveur." in text
    status, text = page(client, "es", "/new/chess")
    assert status == 404 and "No hay ninguna partida en casa llamada «chess»." in text
    status, text = page(client, "en", "/no/such/page")  # Werkzeug's own English, as before
    assert (
        "The requested URL was not found on the server. If you entered the URL manually please check your "
        "spelling and try again." in text
    )
    status, text = page(client, "fr", "/settings/language")  # a form's address, opened
    assert status == 405 and "Cette méthode n’est pas permise pour l’adresse demandée." in text, main_text(text)


@pytest.mark.parametrize(
    "language, words",
    [
        ("fr", "Cette demande venait d’un autre site, elle a donc été refusée ; rien n’a été enregistré."),
        ("es", "Esta solicitud venía de otro sitio, así que se rechazó; no se guardó nada."),
    ],
)
def test_a_request_from_another_site_or_with_a_nul_is_refused_in_the_readers_language(
    client: FlaskClient, language: str, words: str
) -> None:
    status, text = page(
        client, language, "/new/whist", method="POST", data=PARTNERS, headers={"Origin": "http://evil.example"}
    )
    assert status == 403 and f'<html lang="{language}"' in text and words in text, main_text(text)
    status, text = page(client, language, "/?x=%00")
    assert status == 400 and "NUL (\\0)" in text and "What was sent" not in text, main_text(text)


def test_the_whist_correction_form_reads_in_french_and_spanish(client: FlaskClient) -> None:
    token = start(client, "whist", PARTNERS)
    assert post(client, token, action="result", number="1", trump="H", tricks="7")[0] == 200
    for language, legend in (
        ("fr", "Plis faits par Us (Them a fait le reste)"),
        ("es", "Bazas ganadas por Us (Them ganó el resto)"),
        ("en", "Tricks taken by Us (Them took the rest)"),
    ):
        status, text = page(client, language, f"/g/{token}/hands/1")
        assert status == 200 and f"<legend>{legend}</legend>" in text, main_text(text)
    status, text = page(client, "fr", f"/g/{token}")
    assert "Totaux après 1 donne :" in text and "Running totals" not in text
    status, text = page(client, "en", f"/g/{token}")
    assert 'aria-label="Running totals after 1 hand: ' in text


def test_a_groups_add_an_events_games_page_reads_in_french(client: FlaskClient) -> None:
    token = make_group(client)
    status, text = page(client, "fr", f"/group/{token}/event")
    assert status == 200 and '<html lang="fr"' in text
    words = main_text(text)
    assert "Ajouter les parties d’un événement" in words and "Le lien ou le code du directeur" in words
    assert not re.search(r"\b(games|event|director|the)\b", words), words
    status, text = page(client, "es", f"/group/{token}")
    assert ">Añadir las partidas de un evento</a> (de una noche de club o de un torneo de Bid Whist)" in text


def test_the_home_pages_own_events_say_their_format_and_state_in_french(client: FlaskClient) -> None:
    client.set_cookie("lang", "fr")  # the notices flashed on creation are said in the creating request's language
    create_tournament(client, name="Senior Olympics")
    assert (
        client.post(
            "/events/new/whist-drive",
            data={
                "name": "Village hall drive",
                "players": "\n".join("ABCDEFGH"),
                "deals": "6",
                "per_change": "1",
                "scoring": "odd",
                "movement": "progressive",
                "top": "stay",
            },
        ).status_code
        == 302
    )
    assert (
        client.post("/events/new/club", data={"name": "Tuesday", "variant": "whist", "tables": "3"}).status_code == 302
    )
    status, text = page(client, "fr", "/")
    for said in (
        "Soirée de club",
        "Aucune table n’a encore commencé de partie",
        "Tournoi de whist (whist drive)",
        "Donne 1 sur 6",
        "Tournoi de Bid Whist",
    ):
        assert said in text, said
    for english in ("Club night", "No table has started", "Whist drive", "Deal 1 of 6"):
        assert english not in main_text(text), english
    status, text = page(client, "es", "/")
    assert "Noche de club" in text and "Whist drive" not in main_text(text).replace("(whist drive)", "")


def test_every_formats_name_is_marked_for_the_catalogues(app: Flask) -> None:
    from scorepad.events.registry import all_formats
    from scorepad.views.common import FORMAT_TITLES

    with app.test_request_context("/"):
        marked = {str(title) for title in FORMAT_TITLES}
    assert {fmt.title for fmt in all_formats()} - marked == {"Military Whist"}  # said so in every language


def test_the_apps_description_and_a_reused_entry_key_are_said_in_the_readers_language(
    app: Flask, client: FlaskClient
) -> None:
    client.set_cookie("lang", "fr")
    manifest = client.get("/manifest.webmanifest").get_json()
    assert manifest["description"] == "La marque de vos parties de whist\u00a0: à table, à la maison, au club."
    client.set_cookie("lang", "en")
    assert client.get("/manifest.webmanifest").get_json()["description"] == (
        "Keep score for whist games: at the table, at home, at the club."
    )
    token = start(client, "whist", PARTNERS)
    headers = {"HX-Request": "true", "Idempotency-Key": "leftover-key-1"}
    assert (
        client.post(
            f"/g/{token}/entry", data={"action": "result", "number": "1", "trump": "H", "tricks": "7"}, headers=headers
        ).status_code
        == 200
    )
    client.set_cookie("lang", "es")
    refused = client.post(
        f"/g/{token}/entry", data={"action": "result", "number": "1", "trump": "S", "tricks": "7"}, headers=headers
    )
    assert refused.status_code == 422
    assert refused.get_data(as_text=True).startswith("Esta Idempotency-Key ya se usó para otra solicitud")


def test_a_qr_codes_label_is_said_in_the_readers_language(client: FlaskClient) -> None:
    token = start(client, "whist", PARTNERS)
    for language, label in (("fr", "Code QR de http"), ("es", "Código QR de http"), ("en", "QR code for http")):
        status, text = page(client, language, f"/g/{token}/share")
        assert status == 200 and f'<svg role="img" aria-label="{label}' in text


def test_an_undo_step_stored_without_its_words_is_said_in_the_readers_language(app: Flask) -> None:
    from scorepad.games.undo import Step
    from scorepad.i18n import say, speaking

    step = Step.from_json({"before": None, "after": None})
    assert str(step.what) == "the last entry"  # English as before
    with app.test_request_context("/"), speaking("fr"):
        assert say(step.what) == "la dernière saisie"
