"""Issue 31, the family's table at the narrowest phones: the hand in hand comes first at 320 px with
Large text, and a wide sheet keeps its first column and its header in place."""

from __future__ import annotations

import json
from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, Page

from scorepad.games import records
from tests.browser.conftest import LAN, NARROW_PHONE
from tests.conftest import EXAMPLES

HEIGHT = NARROW_PHONE["viewport"]["height"]


def imported(name: str, hands: int) -> str:
    """A game from docs/examples, its first `hands` hands in: its scorer's token."""
    record = json.loads((EXAMPLES / f"{name}.json").read_text())
    return records.import_record({**record, "hands": record["hands"][:hands]}).scorer_token


def lan_page(lan_browser: Browser, live_server: str, large: bool) -> tuple[Page, str]:
    """A 320 px phone reaching the app by its LAN name, with Large text on or off."""
    base = live_server.replace("127.0.0.1", LAN)
    context = lan_browser.new_context(**NARROW_PHONE)
    if large:
        context.add_cookies([{"name": "text_size", "value": "large", "url": base}])
    return context.new_page(), base


def test_the_hands_controls_are_on_the_first_screen_at_320_px_with_large_text(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
    """Item 8: the title, the players, Share and Print came first; the hand's first control was below
    the first screen of a 320 px phone with Large text, so the scorer scrolled on every page load."""
    with app.app_context():
        tokens = {
            "whist": imported("whist-rubber-default", 2),
            "nomination": imported("nomination-family-four", 3),
            "australian": imported("australian-family-four", 3),
            "australian-7": imported("australian-seven-players", 3),
            "bid-whist": imported("bid_whist-home-to-seven", 1),
        }
    page, base = lan_page(lan_browser, live_server, large=True)
    for name, token in tokens.items():
        page.goto(f"{base}/g/{token}")
        assert "large-text" in (page.locator("html").get_attribute("class") or "")
        page.screenshot(path=str(screenshot_dir / f"family-first-screen-{name}.png"))
        first = (
            page.locator("#hand-panel")
            .locator("button, label.chip, select, input[type=number]")
            .filter(visible=True)
            .first
        )
        box = first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= HEIGHT, (name, box)
        # Share and Print are still on the page, and still a finger's height
        for control in (
            page.get_by_role("link", name="Share live view"),
            page.get_by_role("button", name="Print the score sheet"),
        ):
            seen = control.bounding_box()
            assert seen is not None and seen["height"] >= 44 and seen["x"] + seen["width"] <= 320, (name, seen)
    page.context.close()
