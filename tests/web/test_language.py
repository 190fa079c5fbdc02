"""Issue 15: pages in English, French or Spanish. The header's switch (a form that works without
script) sets a cookie that wins over the browser's Accept-Language; without either, English.
<html lang> says which; pages say they vary by both; the projector has no switch."""

from __future__ import annotations

import re

import pytest
from flask import Flask, render_template_string
from flask.testing import FlaskClient

from scorepad.events import military

SWITCH = re.compile(r'<form class="language" method="post" action="/settings/language"[^>]*>(.*?)</form>', re.S)


def lang_of(page: str) -> str:
    found = re.match(r'<!doctype html>\n<html lang="(\w+)"', page)
    assert found, page[:200]
    return found.group(1)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, "en"),
        ("fr-FR,fr;q=0.9,en;q=0.8", "fr"),
        ("es-MX", "es"),
        ("de-DE,es;q=0.5,fr;q=0.4", "es"),
        ("de, it", "en"),
        ("en-GB,fr;q=0.5", "en"),
        ("fr-CA", "fr"),
        ("*", "en"),
        ("garbage;;q=x", "en"),
    ],
)
def test_the_browser_language_picks_the_page_language(client: FlaskClient, header: str | None, expected: str) -> None:
    headers = {"Accept-Language": header} if header else {}
    response = client.get("/", headers=headers)
    assert response.status_code == 200 and lang_of(response.get_data(as_text=True)) == expected
    assert {"Cookie", "Accept-Language", "HX-Request"} <= set(response.vary)


def test_a_french_page_reads_in_french(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Aller au contenu" in page and ">Grand texte</button>" in page and "Skip to content" not in page
    page = client.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Ir al contenido" in page and ">Más grande</button>" in page


def test_the_switch_remembers_the_choice_over_the_browser(client: FlaskClient) -> None:
    page = client.get("/new/nomination?x=1").get_data(as_text=True)
    form = SWITCH.search(page)
    assert form, page[:3000]
    buttons = re.findall(
        r'<button type="submit" name="lang" value="(\w+)" lang="(\w+)" '
        r'aria-pressed="(\w+)">(\w+)</button>',
        form.group(1),
    )
    assert buttons == [
        ("en", "en", "true", "English"),
        ("fr", "fr", "false", "Français"),
        ("es", "es", "false", "Español"),
    ]  # each language named in itself
    assert 'name="next" value="/new/nomination?x=1"' in form.group(1) and 'name="csrf_token"' in form.group(1)

    response = client.post("/settings/language", data={"lang": "es", "next": "/new/nomination?x=1"})
    assert response.status_code == 303 and response.headers["Location"] == "/new/nomination?x=1"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=es;") and "Path=/" in cookie and "SameSite=Lax" in cookie and "HttpOnly" in cookie
    page = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert lang_of(page) == "es" and 'value="es" lang="es" aria-pressed="true">Español<' in page


@pytest.mark.parametrize("value", ["de", "", "EN", "fr-FR", "x" * 100])
def test_a_language_we_do_not_have_changes_nothing(client: FlaskClient, value: str) -> None:
    client.post("/settings/language", data={"lang": "fr", "next": "/"})
    response = client.post("/settings/language", data={"lang": value, "next": "https://evil.example/"})
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert "Set-Cookie" not in response.headers
    assert lang_of(client.get("/").get_data(as_text=True)) == "fr"


def test_a_cookie_we_do_not_know_falls_back_to_the_browser(client: FlaskClient) -> None:
    client.set_cookie("lang", "de")
    assert lang_of(client.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)) == "es"


def test_the_projector_has_no_switch(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        public = military.create_event("Big screen", ["Aces", "Kings"], [30]).public_id
    page = client.get(f"/b/{public}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert 'class="language"' not in page and lang_of(page) == "fr"


UNTRANSLATED = '{% extends "base.html" %}{% block main %}<p>Words nobody translated</p>{% endblock %}'


def test_a_page_not_translated_yet_says_it_is_english(app: Flask, client: FlaskClient) -> None:
    """<html lang> claims the reader's language only on a page whose own words are translated (every
    page of the app is: tests/web/test_language_every_page.py); on a page that does not say so, as a
    new one drawn here, the translated header, banners and footer say their language themselves."""
    french = {"Accept-Language": "fr"}
    with app.test_request_context("/", headers=french):
        app.preprocess_request()
        page = render_template_string(UNTRANSLATED)
    assert lang_of(page) == "en"
    for opening in (
        '<a class="skip-link" href="#main" lang="fr">',
        '<header class="site-header" lang="fr">',
        '<p class="offline-banner" role="status" lang="fr" hidden>',
        '<footer class="site-footer" lang="fr">',
    ):
        assert opening in page
    assert "Aller au contenu" in page  # the header and skip link are still in French
    for url in ("/", "/new/nomination", "/g/no-such-game"):
        page = client.get(url, headers=french).get_data(as_text=True)
        assert lang_of(page) == "fr" and '<header class="site-header">' in page, url
    with app.test_request_context("/"):  # an English reader: nothing to mark
        app.preprocess_request()
        page = render_template_string(UNTRANSLATED)
    assert lang_of(page) == "en" and '<header class="site-header">' in page


def test_static_files_do_not_vary_by_language(client: FlaskClient) -> None:
    response = client.get("/static/css/app.css")
    response.close()
    assert response.status_code == 200
    assert "Accept-Language" not in response.vary and "Cookie" not in response.vary


def test_what_is_drawn_outside_a_request_is_english(app: Flask) -> None:
    """The live fragments are drawn in the background, with no request."""
    from flask import render_template_string

    with app.app_context():
        assert render_template_string("{{ language }} {{ _('Close') }}") == "en Close"


def test_an_error_page_reads_in_the_browser_language(client: FlaskClient) -> None:
    response = client.get("/g/no-such-game", headers={"Accept-Language": "es"})
    page = response.get_data(as_text=True)
    assert response.status_code == 404 and "<h1>Página no encontrada</h1>" in page and "Volver al inicio" in page
    response = client.post(
        "/settings/language", data={"lang": "fr", "next": "x" * 70_000}, headers={"Accept-Language": "fr"}
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 413 and "Cette demande est trop grande" in page and "(64 Ko au plus)" in page


def test_words_follow_a_language_drawn_mid_request(app: Flask) -> None:
    """A push is drawn once per language watching, within one request: each drawing reads in its own
    language, and the request's own words come back after it (the catalogue is looked up once per
    request and language, never kept across them)."""
    from flask import render_template_string

    from scorepad.i18n import gettext, speaking

    with app.test_request_context("/", headers={"Accept-Language": "fr"}):
        assert gettext("Close") == "Fermer" and render_template_string("{{ _('Close') }}") == "Fermer"
        with speaking("es"):
            assert gettext("Close") == "Cerrar" and render_template_string("{{ _('Close') }}") == "Cerrar"
        with speaking("en"):
            assert render_template_string("{{ _('Close') }}") == "Close"
        assert gettext("Close") == "Fermer" and render_template_string("{{ _('Close') }}") == "Fermer"
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        assert gettext("Close") == "Cerrar"
