"""Issue 30, item 3, in a browser: after a whist drive the projector's final screen turns its QR
code to each player's results; the "find your name" page (390 and 320 px) leads to a player's own
page, which prints on one page and is read again in French. A finished home game, in French, links
from its last screen to each player's page. Screenshots: test-output/screenshots/player-results-*.png."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from playwright.sync_api import Browser, Page, Route, expect

from scorepad.events import core, drive
from scorepad.games import records
from tests.browser.conftest import NARROW_PHONE, PHONE, PROJECTOR
from tests.slowness import scaled

ROOT = Path(__file__).resolve().parent.parent.parent
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def printed_pages(page: Page, shot: Path) -> int:
    """How many A4 pages the page prints on; a screenshot of it as printed."""
    page.emulate_media(media="print")
    page.screenshot(path=str(shot), full_page=True)
    count = len(re.findall(rb"/Type\s*/Page[^s]", page.pdf(format="A4")))
    page.emulate_media(media="screen")
    return count


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_after_a_drive_the_projector_leads_each_player_to_their_own_results(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Callable[[Any], None]
) -> None:
    with app.app_context():
        event = drive.create("Village hall drive", PLAYERS, deals=4)
        for deal in range(1, 5):
            for table in (1, 2):
                if (deal, table) != (4, 2):
                    drive.enter(event, table, deal, 8 if table == 1 else 5, f"table {table}")
        public = event.public_id
    projector = browser.new_context(**PROJECTOR).new_page()
    streams: list[Route] = []  # the projector's live stream, held until the last result is in
    projector.route(re.compile(r"/events\?"), lambda route: streams.append(route))
    projector.goto(f"{live_server}/b/{public}")
    expect(projector.locator(".board-qr")).to_be_visible()
    expect(projector.locator("[data-results-qr]")).to_be_hidden()
    with app.app_context():  # the last table's result: the projector's final screen, without a reload
        last = core.by_public_id(public)
        assert last is not None
        drive.enter(last, 2, 4, 5, "table 2")
    # entered after the page was drawn, before its stream opened: never pushed to it, and caught up
    # all the same (live.sse_response says `missed`)
    waited_until = time.monotonic() + scaled(10)
    while not streams and time.monotonic() < waited_until:  # the stream's request, held by the route
        projector.wait_for_timeout(100)
    assert len(streams) == 1
    streams[0].continue_()
    expect(projector.locator(".board-status")).to_have_text("Final scores")
    results_qr = projector.locator("[data-results-qr]")
    expect(results_qr).to_contain_text("Scan for your own results")
    expect(projector.locator(".board-qr")).to_be_hidden()
    projector.screenshot(path=str(screenshot_dir / "player-results-projector-final.png"))
    link = results_qr.locator("a").get_attribute("href")
    assert link and re.search(r"/r/\d+-[a-z0-9]{10}$", link)

    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live_server + urlsplit(link).path)  # the LAN address the QR code carries, here on loopback
    expect(phone.get_by_role("heading", name="Village hall drive")).to_be_visible()
    names = phone.locator(".result-names .name")
    expect(names).to_have_count(8)
    assert names.all_inner_texts() == sorted(PLAYERS)
    phone.screenshot(path=str(screenshot_dir / "player-results-index-390.png"), full_page=True)
    fits(phone)
    no_axe_violations(phone)
    phone.set_viewport_size(NARROW_PHONE["viewport"])
    fits(phone)
    phone.screenshot(path=str(screenshot_dir / "player-results-index-320.png"), full_page=True)

    phone.get_by_role("link", name=re.compile("^Fay")).click()
    expect(phone.get_by_role("heading", name="Fay", exact=True)).to_be_visible()
    expect(phone.locator(".result-place")).to_contain_text(" of 8")
    rows = phone.locator(".result-hands tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text("Table 2, East")  # Fay is player 6: table 2, East
    expect(rows.first).to_contain_text("partner: Hal")
    fits(phone)
    phone.screenshot(path=str(screenshot_dir / "player-results-fay-320.png"), full_page=True)
    phone.set_viewport_size(PHONE["viewport"])
    phone.screenshot(path=str(screenshot_dir / "player-results-fay-390.png"), full_page=True)
    no_axe_violations(phone)
    address = phone.url
    assert printed_pages(phone, screenshot_dir / "player-results-fay-print.png") == 1

    phone.get_by_role("button", name="Français").click()  # the same address, in French
    expect(phone.locator("html")).to_have_attribute("lang", "fr")
    assert phone.url == address
    expect(phone.locator(".result-hands caption")).to_have_text("4 donnes jouées")
    expect(rows.first).to_contain_text("Table 2, Est")
    expect(phone.get_by_role("button", name="Imprimer ces résultats")).to_be_visible()
    phone.screenshot(path=str(screenshot_dir / "player-results-fay-fr.png"), full_page=True)


def test_a_finished_home_game_links_each_player_to_their_results_in_french(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Callable[[Any], None]
) -> None:
    with app.app_context():
        game = records.import_record(json.loads((ROOT / "docs/examples/nomination-family-four.json").read_text()))
        scorer, columns = game.scorer_token, list(game.players)
    page = browser.new_context(**PHONE, locale="fr-FR").new_page()
    page.goto(f"{live_server}/g/{scorer}")
    expect(page.get_by_role("heading", name="Partie terminée")).to_be_visible()
    links = page.locator("#player-links-title + .result-names a")
    expect(links).to_have_count(len(columns))
    links.nth(1).click()
    expect(page.get_by_role("heading", name=columns[1], exact=True)).to_be_visible()
    expect(page.locator(".result-facts")).to_contain_text("Classement final")
    expect(page.get_by_role("link", name="← Retour à la partie")).to_be_visible()
    fits(page)
    no_axe_violations(page)
    page.screenshot(path=str(screenshot_dir / "player-results-home-fr-390.png"), full_page=True)
    assert printed_pages(page, screenshot_dir / "player-results-home-print.png") <= 2
    page.goto(f"{live_server}/g/{scorer}/share")
    expect(page.locator("#player-links-title + .result-names a")).to_have_count(len(columns))
