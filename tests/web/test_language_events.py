"""Issue 15: the Military Whist, whist drive and club night pages read in French and Spanish: a
table's phone (its orders, its tapped result refused beside the field in the reader's language),
the control room, the standings, the set-up forms. Each French page is compared with the English
one: the words they share are only names, numbers and words both languages spell alike."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web import test_events
from tests.web.test_events import HX, create, snapshot, table_tokens
from tests.web.test_language import lang_of
from tests.web.test_whist_drive import create as create_drive
from tests.web.test_whist_drive import tokens as drive_tokens

# Words French and English (or Spanish and English) spell alike, and the names the tests give.
ALIKE = {
    "table",
    "page",  # "cette page"
    "minutes",  # the round timer's "Moins de 2 minutes restantes"
    "http",  # "Keep the screen on" needs HTTPS: the protocols keep their names
    "https",
    "tables",
    "total",
    "military",
    "whist",
    "scorepad",
    "json",
    "pin",
    "zone",
    "north",
    "south",
    "aces",
    "kings",
    "queens",
    "jacks",
    "rank",
    "village",
    "hall",
    "drive",
    "nomination",
    "bid",
    "director",
    "score",
    "code",
    "codes",
    "options",
    "multiple",
    "six",
    "club",
    "australian",
    "actions",
}


def plain(text: str) -> str:
    """French puts a no-break space before its colons: read it as a space."""
    return text.replace("\u00a0", " ")


def field_error(page: str, key: str) -> str:
    return plain(test_events.field_error(page, key))


def enter(client: FlaskClient, table_token: str, hand: int, tricks: object, kind: str = "result") -> tuple[int, str]:
    status, page = test_events.enter(client, table_token, hand, tricks, kind=kind)
    return status, plain(page)


def as_(client: FlaskClient, language: str, url: str, **kwargs: object) -> str:
    client.set_cookie("lang", language)
    response = client.get(url, **kwargs)  # type: ignore[arg-type]
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def words(page: str, inside: str = r'<main id="main"[^>]*>(.*)</main>') -> set[str]:
    """The visible words of a part of the page (its main part unless told), lower case."""
    found = re.search(inside, page, re.S)
    assert found, inside
    part = re.sub(r"<(script|template)\b.*?</\1>", " ", found.group(1), flags=re.S)
    visible = html.unescape(re.sub(r"<[^>]+>", " ", part))
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", visible)}


def english_left(
    client: FlaskClient,
    url: str,
    language: str = "fr",
    inside: str = r'<main id="main"[^>]*>(.*)</main>',
    **kwargs: object,
) -> set[str]:
    """Words of the English page found again on the translated one, less the ones spelled alike."""
    english = words(as_(client, "en", url, **kwargs), inside)
    said = words(as_(client, language, url, **kwargs), inside)
    return (english & said) - ALIKE


def test_a_military_table_phone_in_french(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    phone = table_tokens(app, token)[0]
    page = as_(client, "fr", f"/t/{phone}")
    assert lang_of(page) == "fr"
    flat = plain(re.sub(r"\s+", " ", html.unescape(page)))
    for said in (
        "Donne 1 sur 30",
        "Plis faits par les visiteurs de",
        "Une renonce ? Touchez ici d’abord",
        "drapeaux détenus",
        "Atout",
        "Donneur",
        "Tout le classement",
    ):
        assert said in flat, said
    assert english_left(client, f"/t/{phone}") == set()
    assert english_left(client, f"/t/{phone}", "es") == set()


def test_a_tapped_result_refused_beside_its_field_in_french(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    phone = table_tokens(app, token)[0]
    client.set_cookie("lang", "fr")
    response = client.post(f"/t/{phone}/preview", data={"hand": "1", "tricks": "14", "revoke": "sideways"}, headers=HX)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert field_error(page, "tricks") == "Touchez le nombre de plis faits par les visiteurs : 0 à 13"
    assert field_error(page, "revoke") == "Une renonce est faite par les visiteurs ou par la paire locale (ou aucune)"
    status, confirm = enter(client, phone, 1, 10, kind="preview")
    assert status == 200 and "Les visiteurs ont fait 10 plis : les visiteurs prennent 2 drapeaux." in re.sub(
        r"<[^>]*>", "", confirm
    )
    assert enter(client, phone, 1, 10)[0] == 200
    status, again = enter(client, phone, 1, 9)
    assert (
        status == 409
        and (
            "La donne 1 de la table 1 est déjà enregistrée : les visiteurs ont fait 10 plis. "
            "Demandez au directeur si c’est faux."
        )
        in again
    )
    client.set_cookie("lang", "en")
    status, again = enter(client, phone, 1, 9)  # the same refusal reads as before in English
    assert (
        "Hand 1 at table 1 is already recorded: the visitors took 10 tricks. Ask the director if it is wrong." in again
    )


def test_the_military_control_room_in_french(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    phones = table_tokens(app, token)
    enter(client, phones[0], 1, 8)
    room = r'<div id="room"[^>]*>(.*?)<section aria-labelledby="audit-title">'
    assert english_left(client, f"/d/{token}", inside=room) == set()
    page = plain(re.sub(r"\s+", " ", html.unescape(as_(client, "fr", f"/d/{token}"))))
    for said in (
        "Donne 1 sur 30",
        "1 tables sur 4 ont rendu leur résultat",
        "En attente des tables 2, 3, 4",
        "Résultats (plis faits par les visiteurs à chaque table)",
        "Prêter des drapeaux (donne 1)",
    ):
        assert said in page, said
    before = snapshot(app, token)
    response = client.post(f"/d/{token}/loan", data={"table": "2", "flags": "1"})
    assert response.status_code == 422 and snapshot(app, token) == before
    assert field_error(response.get_data(as_text=True), "flags") == (
        "La table 2 détient encore 12 drapeaux, et une table perd au plus 2 drapeaux par donne : on ne prête des "
        "drapeaux qu’à une table qui n’en a plus"
    )
    response = client.post(f"/d/{token}/advance", data={"hand": "1"})
    assert response.status_code == 422 and "La donne 1 n’est pas complète : en attente des tables 2, 3, 4" in plain(
        html.unescape(response.get_data(as_text=True))
    )


def test_the_standings_and_the_set_up_in_spanish(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    public = snapshot(app, token)["public_id"]
    board = r'(<div id="board".*?)<section class="movement"'
    assert english_left(client, f"/b/{public}/standings", "es", inside=board) == set()
    page = re.sub(r"\s+", " ", html.unescape(as_(client, "es", f"/b/{public}/standings")))
    for said in (
        "Mano 1 de 30",
        "Clasificación: banderas por equipo",
        "Puesto",
        "Banderas",
        "Préstamos",
        "4 mesas siguen jugando",
        "salen,",
        "se quedan en casa",
    ):
        assert said in page, said
    new = as_(client, "es", "/events/new")
    assert lang_of(new) == "es" and english_left(client, "/events/new", "es") == set()
    client.set_cookie("lang", "es")
    response = client.post("/events/new", data={"name": "", "preset": "custom", "days": "30, x", "tables": "99"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and lang_of(page) == "es"
    assert field_error(page, "tables") == "Un evento tiene de 2 a 64 mesas"
    assert field_error(page, "days") == "Indica las manos de cada jornada con números, p. ej. 30 o 30, 20"
    response = client.post("/events/new", data={"name": "", "preset": "area", "tables": "4", "pin": "12"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert field_error(page, "name") == "Pon un nombre al evento, p. ej. «Military Whist de la zona 3»"
    assert field_error(page, "pin") == "El PIN tiene de 4 a 8 cifras (o déjalo vacío)"
    setup = as_(client, "es", f"/d/{token}/setup")
    assert lang_of(setup) == "es" and english_left(client, f"/d/{token}/setup", "es") == set()


def test_a_whist_drive_table_and_its_refusal_in_french(client: FlaskClient, app: Flask) -> None:
    client.set_cookie("lang", "en")
    token = create_drive(client)
    phone = drive_tokens(app, token)[1]
    page = as_(client, "fr", f"/t/{phone}")
    assert lang_of(page) == "fr" and "Donne 1 sur 6 · cœur" in html.unescape(page)
    assert "<dt>Nord</dt>" in page and "<dt>Ouest</dt>" in page
    assert english_left(client, f"/t/{phone}") == set()
    response = client.post(f"/t/{phone}/deal", data={"deal": "1", "tricks": "14"}, headers=HX)
    assert response.status_code == 422
    assert field_error(response.get_data(as_text=True), "tricks") == "Touchez les plis faits par Nord-Sud : 0 à 13"
    room = r'<div id="room"[^>]*>(.*?)<section aria-labelledby="log-title">'
    assert english_left(client, f"/d/{token}", inside=room) == set()
    assert english_left(client, "/events/new/whist-drive") == set()


def test_a_club_night_set_up_in_french(client: FlaskClient) -> None:
    client.set_cookie("lang", "fr")
    response = client.post("/events/new/club", data={"name": "Mardi", "variant": "nope", "tables": "0"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and lang_of(page) == "fr"
    assert field_error(page, "tables") == "Une soirée de club compte de 1 à 64 tables"
    assert field_error(page, "variant").startswith("Choisissez le jeu des tables : ")
    assert english_left(client, "/events/new/club") == set()
    response = client.post("/events/new/club", data={"name": "Mardi", "variant": "nomination", "tables": "2"})
    token = response.headers["Location"].removeprefix("/d/")
    tables = r'(<section aria-labelledby="tables-title">.*?</table>)'
    assert english_left(client, f"/d/{token}", inside=tables) == set()
    assert "en attente que la table scanne sa carte" in as_(client, "fr", f"/d/{token}")
