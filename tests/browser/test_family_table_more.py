"""Issue 31, the family's table (more of it): what a scorer at home tripped on, tapped as a new user
would at phone width."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import NARROW_PHONE


def start_australian(page: Page, live_server: str) -> None:
    """An Australian game with the set-up form's defaults."""
    page.goto(live_server + "/new/australian")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#hand-panel h2")).to_contain_text("1")


def test_an_australian_round_played_in_another_trump_is_tapped_on_the_hand(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    """Item 4: the scheduled trump is offered to change on the hand, at 320 px."""
    context = browser.new_context(**NARROW_PHONE)
    page = context.new_page()
    start_australian(page, live_server)
    facts = page.locator("#hand-facts")
    expect(facts).to_contain_text("♥ Hearts")
    page.get_by_text("Played in another trump?").click()
    page.screenshot(path=str(screenshot_dir / "family-australian-other-trump.png"), full_page=True)
    page.get_by_role("button", name="♣ Clubs", exact=True).click()
    expect(facts).to_contain_text("♣ Clubs")
    expect(page.get_by_role("button", name="♣ Clubs", exact=True)).to_have_attribute("aria-pressed", "true")
    box = page.locator("details.trump-override").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 320
    context.close()
