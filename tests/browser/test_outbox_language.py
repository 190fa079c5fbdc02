"""Issue 15: what the scripts write reads in the page's language. A French phone loses the Wi-Fi mid-hand:
the note beside the bid, the outbox bar and the hand the phone goes on with are French, from the page's data
block (no catalogue fetched: the bar works offline), and once the connection is back so is the bar."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, expect

from tests.browser.conftest import LAN, PHONE
from tests.browser.test_outbox import bids, lan, new_game


def test_the_outbox_speaks_french_on_a_french_page(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
    context = lan_browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    token = new_game(page, lan(live_server))
    context.add_cookies([{"name": "lang", "value": "fr", "domain": LAN, "path": "/"}])
    page.reload()
    page.wait_for_load_state("load")  # the scripts have run: a tap goes through htmx and the outbox
    expect(page.locator("html")).to_have_attribute("lang", "fr")

    context.set_offline(True)
    page.get_by_role("button", name="Bob annonce 0").click()
    expect(page.locator(".outbox-note")).to_have_text(
        re.compile(
            r"^En attente d’envoi\u00a0: Bob annonce 0 \(touché à \d\d:\d\d\)\. Elle part d’elle-même quand la connexion "
            r"revient\u00a0: continuez la donne\.$"
        )
    )
    bar = page.locator(".outbox-bar")
    expect(bar).to_have_text(
        re.compile(
            r"^Hors ligne depuis \d\d:\d\d · 1 saisie en attente d’envoi \(la première\u00a0: Bob annonce 0, touchée à \d\d:\d\d\)\. "
            r"Elles partent d’elles-mêmes quand la connexion revient\.$"
        )
    )
    # the hand goes on on the phone (issue 31, item 3), in French too
    expect(page.locator(".offline-hand .bid-tag.waiting")).to_have_text("Bob 0 · en attente")
    expect(page.locator(".offline-hand").get_by_role("button", name="Cat annonce 1")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "outbox-waiting-fr.png"), full_page=True)
    assert bids(app, token) is None

    context.set_offline(False)
    expect(page.locator(".bids-so-far")).to_contain_text("Bob 0")
    expect(bar).to_have_text(
        re.compile(
            r"^De nouveau en ligne\u00a0: votre saisie «\u00a0Bob annonce 0\u00a0» \(touché à \d\d:\d\d\) a été envoyée et "
            r"enregistrée une seule fois\.$"
        )
    )
    assert bids(app, token) == [0]
    assert not [e for e in errors if "Content Security Policy" in e], errors  # the data block is never run
    context.close()
