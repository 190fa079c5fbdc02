"""Issue 15: the result card in a real browser at phone width. A Whist rubber is finished by tapping its
last hand; the "Game over" panel and the spectators' page (pushed live) offer the card.

- Over plain HTTP at a LAN name (the club's case) the page is no secure context, the browser has no
  Web Share, so the share button stays hidden and the PNG is downloaded from its link: a real PNG of
  the card's size, saved to test-output/screenshots/result-card.png to be looked at.
- In a secure context where the browser can share files (Web Share stubbed: Linux Chromium has none),
  "Share the result" appears and hands the share sheet the PNG itself, as a file.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from scorepad.games import card as cards
from scorepad.games import records
from tests.browser.conftest import LAN, PHONE
from tests.conftest import EXAMPLES

TEAMS = [
    {"name": "Élodie & Ñico", "players": ["Élodie", "Ñico"]},
    {"name": "Zoë & Jürgen", "players": ["Zoë", "Jürgen"]},
]
# what a browser that can share files offers: canShare and share, which records what it was given
SHARE_STUB = """
Object.defineProperty(navigator, "canShare", {configurable: true, value: function (data) {
  return !!(data && data.files && data.files.length === 1 && data.files[0].type === "image/png"); }});
Object.defineProperty(navigator, "share", {configurable: true, value: function (data) {
  var f = data.files[0];
  window.sharedCard = {name: f.name, type: f.type, size: f.size, title: data.title, text: data.text};
  return Promise.resolve(); }});
"""


def rubber_but_the_last_hand(app: Flask) -> tuple[str, str, dict[str, Any]]:
    """The default-rules rubber of the examples, its last hand (a grand slam that wins it) not yet
    entered: the scorer's token, the public id and that last hand."""
    record = json.loads((EXAMPLES / "whist-rubber-default.json").read_text())
    last = record["hands"][-1]
    with app.app_context():
        game = records.import_record(
            {**record, "title": "Sunday rubber at Gran's", "teams": TEAMS, "hands": record["hands"][:-1]}
        )
        return game.scorer_token, game.public_id, last


def finish(page: Page, hand: dict[str, Any]) -> None:
    """Tap the last hand in and save it."""
    trump = {"H": "♥ Hearts", "D": "♦ Diamonds", "C": "♣ Clubs", "S": "♠ Spades"}[hand["trump"]]
    page.get_by_role("group", name="Trump turned up", exact=True).get_by_role("radio", name=trump, exact=True).check()
    page.get_by_role("group", name=f"Tricks taken by {TEAMS[0]['name']}", exact=True).get_by_role(
        "radio", name=str(hand["tricks"][0]), exact=True
    ).check()
    page.get_by_role("button", name="Save hand 12", exact=True).click()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()


def test_a_finished_game_downloads_its_card_over_plain_http(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path, no_axe_violations: Any
) -> None:
    token, public_id, last = rubber_but_the_last_hand(app)
    base = f"http://{LAN}:{urlsplit(live_server).port}"
    context = lan_browser.new_context(**PHONE)
    watcher = context.new_page()
    watcher.goto(f"{base}/w/{public_id}")
    expect(watcher.locator("#live .sheet-table")).to_be_visible()
    expect(watcher.locator(".result-card")).to_have_count(0)  # not over yet

    page = context.new_page()
    page.goto(f"{base}/g/{token}")
    assert page.evaluate("window.isSecureContext") is False  # the club's LAN: no Web Share
    assert page.evaluate("'share' in navigator") is False
    finish(page, last)
    panel = page.locator("#hand-panel")
    share = panel.get_by_role("button", name="Share the result")
    expect(share).to_be_hidden()
    png_link = panel.get_by_role("link", name="Download the picture (PNG)")
    expect(png_link).to_be_visible()
    expect(panel.get_by_role("link", name="SVG")).to_have_attribute("href", f"/w/{public_id}/result.svg")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    page.screenshot(path=str(screenshot_dir / "result-card-finished.png"), full_page=True)
    no_axe_violations(page)

    with page.expect_download() as waiting:
        png_link.click()
    download = waiting.value
    assert download.suggested_filename.endswith("-result.png")
    saved = screenshot_dir / "result-card.png"
    download.save_as(saved)
    data = saved.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(data)) as image:
        assert image.size == (cards.WIDTH, cards.HEIGHT)

    # the spectators' page was told live: the card is offered there too, without a reload
    expect(watcher.locator(".result-card").get_by_role("link", name="Download the picture (PNG)")).to_be_visible()
    expect(watcher.get_by_role("button", name="Share the result")).to_be_hidden()
    watcher.screenshot(path=str(screenshot_dir / "result-card-watch.png"), full_page=True)
    no_axe_violations(watcher)
    context.close()


def test_where_the_browser_can_share_files_the_card_goes_to_the_share_sheet(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    token, public_id, last = rubber_but_the_last_hand(app)
    context = browser.new_context(**PHONE)
    context.add_init_script(SHARE_STUB)
    page = context.new_page()
    page.goto(f"{live_server}/g/{token}")
    assert page.evaluate("window.isSecureContext") is True  # a loopback address counts as secure
    finish(page, last)
    share = page.locator("#hand-panel").get_by_role("button", name="Share the result")
    expect(share).to_be_visible()  # the PNG is fetched and accepted by canShare before the tap
    share.click()
    page.wait_for_function("window.sharedCard !== undefined")
    shared = page.evaluate("window.sharedCard")
    assert shared["type"] == "image/png" and shared["name"] == "scorepad-result.png"
    assert shared["size"] > 10_000
    assert shared["title"] == "Sunday rubber at Gran's"
    assert "win the rubber" in shared["text"]
    # the spectators' page offers the same
    page.goto(f"{live_server}/w/{public_id}")
    expect(page.get_by_role("button", name="Share the result")).to_be_visible()
    # the SVG as a browser draws it, with its generic fonts, to be looked at beside the PNG
    svg = browser.new_page(viewport={"width": cards.WIDTH, "height": cards.HEIGHT})
    svg.goto(f"{live_server}/w/{public_id}/result.svg")
    expect(svg.locator("svg text").first).to_have_text("Sunday rubber at Gran's")
    svg.screenshot(path=str(screenshot_dir / "result-card-svg.png"))
    svg.close()
    context.close()
