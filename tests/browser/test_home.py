"""The home page in a real browser at phone width: readable, no sideways scrolling, accessible."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, expect

from scorepad.games import records
from tests.browser.conftest import NARROW_PHONE


def test_home_and_variant_page_fit_a_320px_phone(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Callable[[Any], None]
) -> None:
    with app.app_context():
        records.load_demo_games()
    context = browser.new_context(**NARROW_PHONE)
    page = context.new_page()
    page.goto(live_server + "/")
    expect(page.get_by_role("heading", name="Keep score for whist")).to_be_visible()
    expect(page.get_by_role("link", name="Australian Whist")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.screenshot(path=str(screenshot_dir / "home-320.png"), full_page=True)
    no_axe_violations(page)

    page.get_by_role("link", name="Australian Whist").click()
    expect(page.get_by_role("heading", name="A sample score sheet")).to_be_visible()
    expect(page.get_by_role("heading", name="Final totals")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.screenshot(path=str(screenshot_dir / "variant-australian-320.png"), full_page=True)
    no_axe_violations(page)
    context.close()
