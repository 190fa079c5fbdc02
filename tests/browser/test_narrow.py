"""Issue 14, bug 11, at 320 px (the narrowest phones): every page fits the screen's width, the
score sheet's Edit column stays on screen, a hand's detail ("bid 0 · took 1") does not wrap over
four lines, and the links back are full tap targets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.events import military
from scorepad.extensions import db
from scorepad.games import records
from scorepad.models import Game
from tests.browser.conftest import NARROW_PHONE


def overflow(page: Page) -> int:
    """How far the page is wider than the screen (0 when it fits)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))


def test_pages_fit_320_px_and_the_sheet_keeps_its_edit_column(app: Flask, live_server: str, browser: Browser,
                                                             screenshot_dir: Path) -> None:
    with app.app_context():
        records.load_demo_games()
        event = military.create_event("Narrow day", ["Aces", "Kings", "Queens", "Jacks"], [30])
        for table, tricks in enumerate((7, 5, 10, 6), start=1):
            military.enter_result(event, table, 1, tricks, None, f"table {table}")
        public = event.public_id
        game = db.session.scalars(db.select(Game).where(Game.variant == "nomination")).first()
        assert game is not None
        scorer = game.scorer_token
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
    lines = detail.evaluate("(el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight))")
    assert lines <= 2, f"a hand's detail wraps over {lines} lines"

    page.goto(f"{live_server}/g/{scorer}/share")
    back = page.get_by_role("link", name="← Back to the game")
    box = back.bounding_box()
    assert box is not None and box["height"] >= 44, box
