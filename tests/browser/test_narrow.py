"""Issue 14, bug 11, at 320 px (the narrowest phones): every page fits the screen's width, the
score sheet's Edit column stays on screen, a hand's detail ("bid 0 · took 1") does not wrap over
four lines, and the links back are full tap targets."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.events import military
from scorepad.extensions import db
from scorepad.games import records
from scorepad.games import service as games
from scorepad.models import Game
from tests.browser.conftest import NARROW_PHONE


def overflow(page: Page) -> int:
    """How far the page is wider than the screen (0 when it fits)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))


def test_pages_fit_320_px_and_the_sheet_keeps_its_edit_column(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    with app.app_context():
        records.load_demo_games()
        event = military.create_event("Narrow day", ["Aces", "Kings", "Queens", "Jacks"], [30])
        for table, tricks in enumerate((7, 5, 10, 6), start=1):
            military.enter_result(event, table, 1, tricks, None, f"table {table}")
        public = event.public_id
        game = db.session.scalars(db.select(Game).where(Game.variant == "nomination")).first()
        assert game is not None
        scorer = game.scorer_token
        rubber = games.create(
            {
                "variant": "whist",
                "first_dealer": 0,
                "teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}],
            }
        )
        for number, tricks in enumerate(([10, 3], [3, 10]), start=1):  # 4 points each: 4-4 in game 1
            games.enter_hand(rubber, number, {"tricks": tricks, "trump": "H"})
        whist = rubber.scorer_token
    page = browser.new_context(**NARROW_PHONE).new_page()

    page.goto(f"{live_server}/b/{public}/standings")
    page.screenshot(path=str(screenshot_dir / "narrow-standings.png"), full_page=True)
    assert overflow(page) == 0, "the phone standings are wider than 320 px"

    page.goto(f"{live_server}/g/{scorer}")
    page.screenshot(path=str(screenshot_dir / "narrow-sheet.png"), full_page=True)
    assert overflow(page) == 0, "the scoring page is wider than 320 px"
    edit = page.get_by_role("link", name="Edit hand 1", exact=True)
    box = edit.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 320, box  # on screen, not cut off
    detail = page.locator(".sheet-table td small").first
    expect(detail).to_be_visible()
    lines = detail.evaluate(
        "(el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight))"
    )
    assert lines <= 3, f"a hand's points and detail wrap over {lines} lines"  # +11, bid 0, took 1
    expect(detail.locator(".points")).to_have_text(re.compile(r"^[+-]\d+$"))  # the hand's points, under the total
    broken = page.locator(".sheet-table td small .part").evaluate_all(
        "(parts) => parts.filter(p => p.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(p).lineHeight)).length"
    )
    assert broken == 0, f"{broken} parts of the sheet's cells wrap inside themselves"

    page.goto(f"{live_server}/g/{whist}")
    page.screenshot(path=str(screenshot_dir / "narrow-whist-scoreboard.png"), full_page=True)
    assert overflow(page) == 0, "the Whist scoring page is wider than 320 px"
    big = page.locator(".scoreboard .big")
    expect(big).to_have_text(["4", "4"])
    size = big.first.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 40, f"the points toward game are {size} px high"
    expect(page.locator(".scoreboard .won")).to_have_text(["0 games won", "0 games won"])

    page.goto(f"{live_server}/g/{scorer}/share")
    back = page.get_by_role("link", name="← Back to the game")
    box = back.bounding_box()
    assert box is not None and box["height"] >= 44, box


def test_a_whist_rubber_sheet_fits_320_px_without_scrolling(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    """Issue 15: Whist's honours said in a phrase ("4 honours, barred at 4") were kept on one line, and the
    rubber's sheet scrolled inside its box at 320 px, in English too; it fits, at both text sizes."""
    with app.app_context():
        rubber = games.create(
            {
                "variant": "whist",
                "first_dealer": 0,
                "options": {"honours": True},
                "teams": [
                    {"name": "Ann & Cat", "players": ["Ann", "Cat"]},
                    {"name": "Bob & Dan", "players": ["Bob", "Dan"]},
                ],
            }
        )
        hands = ([10, 3], None), ([7, 6], [4, 0]), ([8, 5], [1, 3]), ([3, 10], [0, 4]), ([6, 7], [0, 4])
        for number, (tricks, honours) in enumerate(hands, start=1):  # the second's honours barred at 4
            games.enter_hand(
                rubber,
                number,
                {"tricks": tricks, "trump": "CDHS"[number % 4], **({"honours": honours} if honours else {})},
            )
        token = rubber.scorer_token
    for lang, large in (("en", False), ("en", True), ("fr", True), ("es", False)):
        context = browser.new_context(**NARROW_PHONE)
        context.add_cookies(
            [
                {"name": "lang", "value": lang, "url": live_server},
                *([{"name": "text_size", "value": "large", "url": live_server}] if large else []),
            ]
        )
        page = context.new_page()
        page.goto(f"{live_server}/g/{token}")
        expect(page.locator(".sheet-table tbody tr")).to_have_count(8)  # 5 hands and 3 notes (two games, the rubber)
        box = page.locator(".table-scroll:has(.sheet-table)")
        width, room = box.evaluate("(el) => [el.scrollWidth, el.clientWidth]")
        size = "large" if large else "normal"
        box.screenshot(path=str(screenshot_dir / f"narrow-whist-sheet-{lang}-{size}.png"))
        assert width <= room, f"the Whist sheet scrolls at 320 px ({lang}, {size} text): {width} > {room}"
        assert overflow(page) == 0
        context.close()
