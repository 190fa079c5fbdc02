"""Issue 15: large text for seniors' clubs, at 320 px (the narrowest phones). The header's toggle
makes the text larger at once, is remembered (the next page is drawn large by the server, with no
flash), and no page grows wider than the screen: the home page, and the scoring pages of a
Nomination game and of a Whist rubber, each with hands in and the next hand's taps on screen. At
either size the header stays on one line and a four-player sheet shows every column without
scrolling inside its box."""

from __future__ import annotations

import json
from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.games import records
from scorepad.games import service as games
from tests.browser.conftest import NARROW_PHONE
from tests.conftest import EXAMPLES


def overflow(page: Page) -> int:
    """How far the page is wider than the screen (0 when it fits)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def sheet_scrolls(page: Page) -> int:
    """How far the score sheet is wider than its scrolling box (0 when every column shows)."""
    return int(page.locator(".table-scroll").evaluate("(el) => el.scrollWidth - el.clientWidth"))


def header_lines(page: Page) -> int:
    """1 when the header's brand and its text-size button sit on one line, else 2."""
    brand, toggle = (page.locator(s).bounding_box() for s in (".site-header .brand", ".text-size-toggle"))
    assert brand is not None and toggle is not None
    return 1 if toggle["y"] < brand["y"] + brand["height"] else 2


def font_size(page: Page, selector: str) -> float:
    return float(page.locator(selector).first.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)"))


def test_large_text_fits_320_px_and_is_larger(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    with app.app_context():
        family = json.loads((EXAMPLES / "nomination-family-four.json").read_text())
        nomination = records.import_record({**family, "hands": family["hands"][:6]}).scorer_token
        rubber = games.create(
            {
                "variant": "whist",
                "first_dealer": 0,
                "teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}],
            }
        )
        for number, tricks in enumerate(([10, 3], [3, 10]), start=1):
            games.enter_hand(rubber, number, {"tricks": tricks, "trump": "H"})
        whist = rubber.scorer_token
    page = browser.new_context(**NARROW_PHONE).new_page()
    pages = {"home": "/", "nomination": f"/g/{nomination}", "whist": f"/g/{whist}"}
    checked = {"home": "main p", "nomination": ".facts, main p", "whist": ".scoreboard .won, main p"}
    normal = {}
    for name, path in pages.items():
        page.goto(live_server + path)
        normal[name] = (font_size(page, "html"), font_size(page, checked[name]))
        assert header_lines(page) == 1, name
        if name != "home":
            assert sheet_scrolls(page) == 0, name

    page.goto(live_server + "/")
    toggle = page.get_by_role("button", name="Large text")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(page.locator("html")).to_have_class("large-text")  # at once, with no reload
    expect(toggle).to_have_attribute("aria-pressed", "true")

    for name, path in pages.items():
        page.goto(live_server + path)
        # drawn large by the server (the cookie): the class is in the page as sent, before any script
        assert 'class="large-text"' in page.evaluate("() => document.documentElement.outerHTML.slice(0, 60)")
        page.screenshot(path=str(screenshot_dir / f"large-text-320-{name}.png"), full_page=True)
        root, text = font_size(page, "html"), font_size(page, checked[name])
        assert root == 1.25 * normal[name][0], (name, root, normal[name])
        assert text >= 1.2 * normal[name][1], (name, text, normal[name])
        assert overflow(page) == 0, f"the {name} page is wider than 320 px with large text"
        assert header_lines(page) == 1, f"the header's text-size button wraps on the {name} page"
        if name != "home":  # four players (or two sides): every column in view, none behind a scroll
            assert sheet_scrolls(page) == 0, f"the {name} sheet's last column scrolls with large text"
            assert font_size(page, ".sheet-table td.num .total") >= 1.2 * 16, name
    assert font_size(page, ".scoreboard .big") >= 40

    page.goto(live_server + pages["nomination"])  # the bids' taps of hand 7 (0 to 7), after its trump
    page.get_by_role("group", name="Which trump was turned up?").get_by_role("button", name="♥ Hearts").click()
    expect(page.get_by_role("button", name="Dan bids 7")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "large-text-320-nomination-bids.png"))
    assert overflow(page) == 0, "the Nomination bids are wider than 320 px with large text"

    page.goto(live_server + pages["whist"])
    page.reload()  # remembered
    expect(page.locator("html")).to_have_class("large-text")
    page.get_by_role("button", name="Large text").click()
    expect(page.locator("html")).not_to_have_class("large-text")
    page.goto(live_server + "/")
    assert font_size(page, "html") == normal["home"][0]
    page.context.close()


def test_the_toggle_works_without_script(live_server: str, browser: Browser) -> None:
    context = browser.new_context(**NARROW_PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server + "/new/nomination")
    page.get_by_role("button", name="Large text").click()
    page.wait_for_url(live_server + "/new/nomination")  # back on the same page, now large
    expect(page.locator("html")).to_have_class("large-text")
    expect(page.get_by_role("button", name="Large text")).to_have_attribute("aria-pressed", "true")
    context.close()
