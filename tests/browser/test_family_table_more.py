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


def test_a_name_over_40_characters_is_refused_beside_it_not_cut(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    """Item 18: a 45-character name was cut to 40 by the browser without a word, and the game started
    with it cut; now the whole name is kept in the field and the set-up says why it is refused."""
    long_name = "Margaret-Anne Fotheringham-Smythe of Tadley!"  # 44 characters
    assert len(long_name) > 40
    context = browser.new_context(**NARROW_PHONE)
    page = context.new_page()
    page.goto(live_server + "/new/nomination")
    field = page.locator("#name-0")
    field.fill(long_name)
    expect(field).to_have_value(long_name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#err-players-0")).to_have_text("Player 1's name is longer than 40 characters")
    expect(page.locator("#name-0")).to_have_value(long_name)
    assert "/g/" not in page.url
    page.locator("#name-0").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / "family-name-too-long.png"))
    context.close()


EVENT_LINKS = (
    "Military Whist",
    "Bid Whist tournament",
    "Whist drive",
    "Club night of any game",
    "Restore an event from a backup",
)


def test_the_home_pages_event_links_are_a_fingers_height(live_server: str, browser: Browser) -> None:
    """Item 18: the "Run an event…" links were 19 px tall, in a line of text: each is 44 px or more
    now, at 320 and 390 px and with Large text."""
    for viewport, large in (({"width": 320, "height": 640}, False), ({"width": 390, "height": 844}, True)):
        context = browser.new_context(**{**NARROW_PHONE, "viewport": viewport})
        page = context.new_page()
        page.goto(live_server + "/")
        if large:
            page.get_by_role("button", name="Large text").click()
        for name in EVENT_LINKS:
            box = page.locator(".intro").get_by_role("link", name=name, exact=True).bounding_box()
            assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= viewport["width"], (name, box)
        expect(page.get_by_role("list", name="Run an event with table QR codes and a projector:")).to_be_visible()
        context.close()


def test_whists_trump_and_tricks_chosen_are_kept_on_reload(app: Flask, live_server: str, browser: Browser) -> None:
    """Item 18: a Whist hand's trump and tricks, chosen but not saved, were lost on reload (bids are
    kept); they are kept for that hand, and the next hand starts clean."""
    context = browser.new_context(**NARROW_PHONE)
    page = context.new_page()
    page.goto(live_server + "/new/whist")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 1")
    trump = page.get_by_role("group", name="Trump turned up", exact=True)
    tricks = page.get_by_role("group", name="Tricks taken by Us", exact=True)
    trump.get_by_role("radio", name="♠ Spades", exact=True).check()
    tricks.get_by_role("radio", name="9", exact=True).check()
    page.reload()
    expect(trump.get_by_role("radio", name="♠ Spades", exact=True)).to_be_checked()
    expect(tricks.get_by_role("radio", name="9", exact=True)).to_be_checked()
    expect(page.locator("[data-other-side]")).to_have_text("Them took 4.")
    page.get_by_role("button", name="Save hand 1", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Hand 1 saved.")
    page.reload()
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 2")
    expect(page.locator('form[data-whist] input[type="radio"][name="tricks"]:checked')).to_have_count(0)
    expect(page.locator('form[data-whist] input[type="radio"][name="trump"]:checked')).to_have_count(0)
    context.close()


def test_after_save_the_confirmation_and_the_next_dealer_are_in_view(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    """Item 11: Save, at the foot of a tall hand (Whist at 320 px with Large text), left "Hand 1
    saved." and the next hand's dealer scrolled off the top."""
    context = browser.new_context(**NARROW_PHONE)
    page = context.new_page()
    page.goto(live_server + "/new/whist")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("button", name="Large text").click()
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 1")
    page.get_by_role("group", name="Trump turned up", exact=True).get_by_role("radio", name="♥ Hearts").check()
    page.get_by_role("group", name="Tricks taken by Us", exact=True).get_by_role("radio", name="8", exact=True).check()
    save = page.get_by_role("button", name="Save hand 1", exact=True)
    save.scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 0  # the Save button is below the first screen
    save.click()
    notice = page.get_by_role("status")
    expect(notice).to_have_text("Hand 1 saved.")
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 2")
    page.wait_for_timeout(200)
    height = NARROW_PHONE["viewport"]["height"]
    for seen in (notice, page.locator("#hand-panel h2"), page.locator("#hand-facts")):
        box = seen.bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height, box
    expect(page.locator("#hand-facts")).to_contain_text("Dealer")
    page.screenshot(path=str(screenshot_dir / "family-after-save-in-view.png"))
    context.close()
