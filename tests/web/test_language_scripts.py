"""Issue 15: a page in French or Spanish carries, for its scripts, the translations of what they write
(a JSON data block: never run, so the Content-Security-Policy's script-src needs nothing more); an
English page carries none and its scripts write their own English. The offline page the service worker
keeps reads in the reader's language too."""

from __future__ import annotations

import html
import json
import re

from flask.testing import FlaskClient

from scorepad import script_words


def block_of(page: str) -> dict[str, object] | None:
    found = re.search(r'<script type="application/json" id="script-words">(.*?)</script>', page, re.S)
    return json.loads(found.group(1)) if found else None


def test_a_french_page_carries_the_scripts_words_in_french(client: FlaskClient) -> None:
    client.set_cookie("lang", "fr")
    response = client.get("/new/nomination")
    words = block_of(response.get_data(as_text=True))
    assert words is not None and set(words) == set(script_words.MESSAGES) | set(script_words.PLURALS)
    assert words["back-online-updating"] == "De nouveau en ligne\u00a0: la page est en train d’être mise à jour."
    assert words["other-side"] == "Plis de %(team)s\u00a0: %(count)s."
    assert words["sending"] == [
        "Envoi de %(count)s saisie en attente (la première\u00a0: %(label)s, touchée à %(time)s).",
        "Envoi de %(count)s saisies en attente (la première\u00a0: %(label)s, touchée à %(time)s).",
    ]
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp  # the block needs no exception
    client.set_cookie("lang", "es")
    words = block_of(client.get("/new/nomination").get_data(as_text=True))
    assert words is not None and words["your-entry"] == "tu anotación"


def test_an_english_page_carries_none(client: FlaskClient) -> None:
    assert block_of(client.get("/new/nomination").get_data(as_text=True)) is None
    assert "<script>" not in client.get("/").get_data(as_text=True)


def visible_words(page: str) -> set[str]:
    main = re.search(r"<main[^>]*>(.*)</main>", page, re.S)
    assert main
    text = html.unescape(re.sub(r"<[^>]+>", " ", main.group(1)))
    return set(re.findall(r"[A-Za-zÀ-ÿ’']{4,}", text))


def test_the_offline_page_in_french_has_no_english_left(client: FlaskClient) -> None:
    english = client.get("/offline").get_data(as_text=True)
    client.set_cookie("lang", "fr")
    french = client.get("/offline").get_data(as_text=True)
    assert french.startswith('<!doctype html>\n<html lang="fr"')
    assert "Vous êtes hors ligne" in french and 'class="tap" href="/">réessayez</a>' in french
    assert visible_words(english) & visible_words(french) <= {"Scorepad", "Wi-Fi"}, visible_words(
        english
    ) & visible_words(french)
