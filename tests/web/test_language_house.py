"""Issue 15: the pages every event format shares (the director's PIN, the control room's own parts,
the boards' frame, restoring a backup), the offline page, a variant's page, the import and watch
forms' pages and the home page's notices read in French and Spanish, their refusals beside their
fields too; the English reads as before (the other tests)."""

from __future__ import annotations

import html
import io
import json
import re
from datetime import datetime

from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import core
from scorepad.views.director import audit_words, local_time
from tests.web.test_events import create, field_error
from tests.web.test_language import lang_of

FR = {"Accept-Language": "fr-FR,fr;q=0.9"}
ES = {"Accept-Language": "es"}
WORD = re.compile(r"[A-Za-z][a-z']{3,}")
# words the same in English and French or Spanish, or names nobody translates
SAME = {
    "Scorepad",
    "Military",
    "Whist",
    "Nomination",
    "Australian",
    "Boston",
    "json",
    "scorepad",
    "load-demo",
    "demo",
    "Zone",
    "Wi-Fi",
    "Aces",
    "Kings",
    "Queens",
    "Jacks",
    "Page",
    "Type",
    "Total",
    "Totales",
    "Ronda",
    "Nord",
    "Sud",
    "Est",
    "Ouest",
    "Norte",
    "Este",
    "Oeste",
    "code",
    "codes",
    "page",
    "options",
    "point",
    "load",
    "score",
}


def text(page: str) -> str:
    """The page unescaped, runs of white space as one space."""
    return " ".join(html.unescape(page).replace("\u202f", " ").replace("\xa0", " ").split())


def visible(page: str) -> str:
    """The words a reader sees in <main>: tags, comments and scripts taken out, entities read."""
    main = page.split('<main id="main" tabindex="-1">', 1)[1].split("</main>", 1)[0]
    main = re.sub(r"<(script|style)\b.*?</\1>|<!--.*?-->|<svg\b.*?</svg>", " ", main, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", main)).split())


def english_left(english: str, translated: str) -> set[str]:
    """The English page's words still on the translated page (names and shared words aside)."""
    ours = set(WORD.findall(visible(english))) - SAME
    return {w for w in WORD.findall(visible(translated)) if w in ours}


def test_the_unlock_page_and_its_refusal_in_french(app: Flask, client: FlaskClient) -> None:
    token = create(client, pin="2468")
    stranger = app.test_client()
    english = stranger.get(f"/d/{token}").get_data(as_text=True)
    page = stranger.get(f"/d/{token}", headers=FR)
    said = page.get_data(as_text=True)
    assert page.status_code == 403 and lang_of(said) == "fr"
    assert "Code PIN du directeur" in said and "Ouvrir la salle de contrôle" in said
    assert english_left(english, said) == set()
    refused = stranger.post(f"/d/{token}/unlock", data={"pin": "1111"}, headers=FR).get_data(as_text=True)
    assert field_error(refused, "pin") == "Ce n’est pas le code PIN. Réessayez."
    wrong_code = stranger.post(f"/d/{token}/unlock", data={"recovery": "AAAA-BBBB"}, headers=ES).get_data(as_text=True)
    assert field_error(wrong_code, "recovery") == "Ese no es el código de recuperación de este evento."


def test_too_many_wrong_pins_said_in_spanish(app: Flask, client: FlaskClient) -> None:
    token = create(client, pin="2468")
    stranger = app.test_client()
    for attempt in range(core.PIN_TRIES):
        stranger.post(f"/d/{token}/unlock", data={"pin": f"{1000 + attempt}"})
    locked = stranger.post(f"/d/{token}/unlock", data={"pin": "2468"}, headers=ES)
    assert locked.status_code == 429
    message = field_error(locked.get_data(as_text=True), "pin")
    assert re.fullmatch(
        r"Demasiados PIN erróneos: inténtalo de nuevo dentro de \d+ minutos?, o ábrelo con el "
        r"código de recuperación\.",
        message,
    ), message


def test_the_control_room_s_shared_parts_and_a_pin_refused_in_spanish(client: FlaskClient) -> None:
    token = create(client)
    page = client.get(f"/d/{token}", headers=ES).get_data(as_text=True)
    for words in (
        "Imprimir las tarjetas QR",
        "Descargar copia",
        "Abrir esta sala de control en otro dispositivo",
        "PIN del director",
        "Sin PIN: cualquiera con el enlace de esta página puede llevar el evento.",
        "Poner un PIN (de 4 a 8 cifras)",
        "Proyector",
    ):
        assert words in text(page) or words in page, words
    for english in ("Print the QR cards", "Download backup", "Director's PIN", "Set a PIN"):
        assert english not in page, english
    refused = client.post(f"/d/{token}/pin", data={"pin": "12"}, headers=ES)
    assert refused.status_code == 422
    assert (
        field_error(refused.get_data(as_text=True), "pin")
        == "El PIN tiene de 4 a 8 cifras (o déjalo vacío para quitarlo)"
    )
    saved = client.post(f"/d/{token}/pin", data={"pin": "13579"}, headers=FR).get_data(as_text=True)
    assert "Code PIN enregistré. Les autres navigateurs doivent le saisir de nouveau." in saved
    assert "Votre code de secours" in saved and "Il n’est montré que cette fois" in saved


def test_the_boards_frame_in_french(app: Flask, client: FlaskClient) -> None:
    token = create(client)
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None
        public = event.public_id
    projector = client.get(f"/b/{public}", headers=FR).get_data(as_text=True)
    assert "Scannez pour voir le classement sur votre téléphone" in text(projector) and "En direct" in projector
    assert "Scan for" not in projector
    standings = client.get(f"/b/{public}/standings", headers=FR).get_data(as_text=True)
    assert "Imprimer les résultats" in standings and "En direct : se met à jour seul" in text(standings)
    assert ": classement · Scorepad</title>" in standings


def test_restoring_a_backup_in_french_with_its_refusal(client: FlaskClient) -> None:
    english = client.get("/events/restore").get_data(as_text=True)
    page = client.get("/events/restore", headers=FR).get_data(as_text=True)
    assert lang_of(page) == "fr" and "Restaurer un événement depuis une sauvegarde" in page
    assert english_left(english, page) == set()
    refused = client.post("/events/restore", data={}, headers=FR)
    assert refused.status_code == 422
    assert field_error(refused.get_data(as_text=True), "backup").startswith("Choisissez le fichier de sauvegarde")
    bad = client.post(
        "/events/restore",
        data={"backup": (io.BytesIO(b"[1]"), "x.json"), "pin": ""},
        headers=ES,
        content_type="multipart/form-data",
    )
    assert bad.status_code == 422
    assert field_error(bad.get_data(as_text=True), "backup").startswith("Esta copia no se puede restaurar: ")


def test_the_offline_page_in_spanish(client: FlaskClient) -> None:
    english = client.get("/offline").get_data(as_text=True)
    page = client.get("/offline", headers=ES).get_data(as_text=True)
    assert lang_of(page) == "es" and "Estás sin conexión" in page and "vuelve a intentarlo" in page
    assert english_left(english, page) == set()


def test_a_variant_s_page_in_french(client: FlaskClient) -> None:
    english = client.get("/variants/nomination").get_data(as_text=True)
    page = client.get("/variants/nomination", headers=FR).get_data(as_text=True)
    assert lang_of(page) == "fr" and "Les options et leurs valeurs par défaut" in page
    assert english_left(english, page) == set()
    assert "Il n’y a pas de variante appelée « nope »." in client.get("/variants/nope", headers=FR).get_data(
        as_text=True
    )


def test_the_watch_and_import_pages_and_their_refusals(client: FlaskClient) -> None:
    page = client.get("/watch?code=ZZZZ-ZZZZ", headers=FR)
    said = page.get_data(as_text=True)
    assert page.status_code == 404 and lang_of(said) == "fr"
    assert field_error(said, "code").startswith("Aucune partie n’a le code « ZZZZ-ZZZZ ».")
    assert english_left(client.get("/watch?code=ZZZZ-ZZZZ").get_data(as_text=True), said) == set()
    empty = client.post("/games/import", data={}, headers=ES).get_data(as_text=True)
    assert lang_of(empty) == "es"
    assert "Elige un archivo de registro de partida (.json), o pega un registro en el cuadro." in empty
    assert (
        english_left(
            client.get("/games/import").get_data(as_text=True),
            client.get("/games/import", headers=ES).get_data(as_text=True),
        )
        == set()
    )


def test_forgetting_an_event_is_said_in_french(client: FlaskClient) -> None:
    token = create(client)
    client.set_cookie("lang", "fr")
    home = client.post("/your-events/forget", data={"event": token}, follow_redirects=True).get_data(as_text=True)
    assert "« Zone 3 Military Whist » n’est plus listé sur ce navigateur." in home
    again = client.post("/your-events/forget", data={"event": token}, follow_redirects=True).get_data(as_text=True)
    assert "Cet événement n’était pas dans la liste de ce navigateur" in again


def test_a_backup_s_problems_are_said_in_french(client: FlaskClient) -> None:
    """Each problem of the file in the reader's language, its places and keys as the file spells them."""
    token = create(client)
    data = json.loads(client.get(f"/d/{token}/backup").get_data())
    data["event"]["late_minutes"] = 500
    data["tables"][0]["players"] = ["Ann", "", "Cy", "Di"]
    data["surprise"] = 1
    refused = client.post(
        "/events/restore",
        data={"backup": (io.BytesIO(json.dumps(data).encode()), "b.json")},
        headers=FR,
        content_type="multipart/form-data",
    )
    assert refused.status_code == 422
    said = field_error(refused.get_data(as_text=True), "backup")
    assert said.startswith("Cette sauvegarde ne peut pas être restaurée : ") and said.endswith(
        ". Rien n’a été enregistré."
    )
    for problem in (
        "'surprise' ne fait pas partie d’une sauvegarde",
        "event, 'late_minutes' : doit être un nombre entier de 1 à 120 (et non 500)",
        "tables #1, 'players' : le nom 2 ne doit pas être vide",
    ):
        assert problem in said, said
    english = client.post(
        "/events/restore",
        data={"backup": (io.BytesIO(json.dumps(data).encode()), "b.json")},
        content_type="multipart/form-data",
    )
    assert "event, 'late_minutes': must be a whole number from 1 to 120 (not 500)" in field_error(
        english.get_data(as_text=True), "backup"
    )


def test_the_audit_trail_s_values_in_french(app: Flask) -> None:
    """`audit_words`, which every format's control room writes its audit trail's values with."""
    with app.test_request_context("/", headers=FR):
        assert audit_words({"tricks": 6, "revoke": "home"}) == "6 plis, renonce des locaux"
        assert audit_words({"held": [13, 9], "owed": [0, 1]}) == "drapeaux à la clôture table 1 : 13, table 2 : 8"
        assert audit_words(None) == "aucun"
    with app.test_request_context("/"):
        assert audit_words({"tricks": 10, "revoke": "visitors"}) == "10 tricks, revoke by the visitors"


def test_a_day_closed_is_dated_in_the_reader_s_language(app: Flask) -> None:
    app.config["SCOREPAD_TZ"] = "UTC"
    moment = datetime(2026, 5, 2, 14, 3, 22)
    page = {}  # a page's context with no event: the server's zone

    with app.test_request_context("/"):
        assert local_time(page, moment, True) == "Sat 02 May 14:03:22 UTC"
        assert local_time(page, moment) == "14:03:22 UTC"
    with app.test_request_context("/", headers=FR):
        assert local_time(page, moment, True) == "sam. 02 mai 14:03:22 UTC"


def test_an_imported_record_s_problems_in_spanish(client: FlaskClient) -> None:
    refused = client.post(
        "/games/import", data={"text": '{"scorepad": 1, "variant": "whist", "players": ["Ann", "Ann"]}'}, headers=ES
    ).get_data(as_text=True)
    assert "Este registro no se puede importar; no se guardó nada:" in refused
    assert "<li>players.1: dos jugadores se llaman" in refused, refused[refused.find("<ul>") :][:300]
    broken = client.post("/games/import", data={"text": "{"}, headers=FR).get_data(as_text=True)
    assert "<li>ce n’est pas du JSON valide (ligne 1, colonne 2 : " in broken
