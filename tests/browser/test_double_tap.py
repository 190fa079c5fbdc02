"""A double tap on "Save hand", or the same form sent again after a reload, never counts twice."""

from __future__ import annotations

import re
import time

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from scorepad.games import service as games
from tests.browser import taps
from tests.browser.conftest import PHONE
from tests.slowness import scaled_ms


@pytest.fixture
def app_config() -> dict[str, object]:
    """The page's double-tap guard as a scorer has it (600 ms), stretched as the suite's waits are
    (tests/slowness.py: on a busy machine the first tap's answer alone may outlast 600 ms, and a second
    tap after it would not be a double tap)."""
    return {"SCOREPAD_TAP_GUARD_MS": int(scaled_ms(600))}


def test_double_tap_and_resend_save_one_hand(app: Flask, live_server: str, browser: Browser) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_server + "/new/australian")
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        page.fill(f"#name-{i}", name)
    page.get_by_role("button", name="Start the game").click()
    for name, bid in [("Bob", 0), ("Cat", 0), ("Dan", 0), ("Ann", 0)]:
        page.get_by_role("button", name=f"{name} bids {bid}").click()
        expect(page.locator(".bids-so-far")).to_contain_text(f"{name} {bid}")
    for name in ("Bob", "Cat", "Dan"):  # tricks in bidding order; Ann's 1 is filled in
        taps.tap_one(page, name, 0)
    page.get_by_role("button", name="Save hand 1").dblclick()
    expect(page.get_by_role("heading", name="Hand 2 of 23")).to_be_visible()

    # The same result posted again (a stale page, a retried request) is refused with the saved value kept.
    token = re.search(r"/g/([^/]+)$", page.url)
    assert token is not None
    response = page.request.post(
        f"{live_server}/g/{token.group(1)}/entry",
        headers={"HX-Request": "true"},
        form={
            "action": "result",
            "number": "1",
            "tricks.0": "0",
            "tricks.1": "1",
            "tricks.2": "0",
            "tricks.3": "0",
            "csrf_token": page.locator('meta[name="csrf-token"]').get_attribute("content") or "",
        },
    )
    assert response.status == 409
    with app.app_context():
        game = games.by_scorer_token(token.group(1))
        assert game is not None
        assert [h.entry["tricks"] for h in game.hands] == [[1, 0, 0, 0]]
    context.close()


def double_tap(page: Page, button: Locator, answered: Locator, apart_ms: int = 250) -> None:
    """Two taps on the place of `button`, `apart_ms` apart, as a shaky finger makes them; the first's
    answer is in (`answered` shows) before the second, so the second lands on what it drew there."""
    box = button.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    first = time.monotonic()
    page.touchscreen.tap(x, y)
    expect(answered).to_be_visible()
    page.wait_for_timeout(max(0, apart_ms - (time.monotonic() - first) * 1000))
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(scaled_ms(800))  # past the guard, and the time a second bid's answer would take


def new_game_form(browser: Browser, live_server: str, variant: str) -> tuple[BrowserContext, Page]:
    """A phone at a new game's form, its four players named; the page's double-tap guard stretched
    as the suite's waits are (`app_config` below)."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{live_server}/new/{variant}")
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        page.fill(f"#name-{i}", name)
    return context, page


def test_a_shaky_double_tap_on_a_nomination_bid_is_one_bid(live_server: str, browser: Browser) -> None:
    """Issue 31, item 2: two taps 250 ms apart on "Cat bids 2" recorded Cat 2 and then Dan 2 (the
    answer draws Dan's 2 where Cat's was); only the first counts, and the tapped button shows it."""
    context, page = new_game_form(browser, live_server, "nomination")
    page.get_by_text("Options:").click()
    page.get_by_role("group", name="Cards per round", exact=True).get_by_role("radio", name="13 down to 1").check()
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("group", name="Which trump was turned up?").get_by_role("button", name="♥ Hearts").click()
    bids = page.locator(".bids-so-far .bid-tag")
    page.get_by_role("button", name="Bob bids 1", exact=True).click()
    expect(bids).to_have_text(["Bob 1"])
    cat = page.get_by_role("button", name="Cat bids 2", exact=True)
    cat.evaluate("b => b.form.addEventListener('submit', () => { window.tapped = b.className; })")
    double_tap(page, cat, bids.filter(has_text="Cat 2"))
    expect(bids).to_have_text(["Bob 1", "Cat 2"])
    assert page.evaluate("window.tapped") == "chip taken"  # marked as taken as it was sent
    expect(page.locator("#hand-panel legend")).to_have_text("Dan’s bid")
    # a deliberate tap of the same number for the next player, once the moment has passed, counts
    page.get_by_role("button", name="Dan bids 2", exact=True).click()
    expect(bids).to_have_text(["Bob 1", "Cat 2", "Dan 2"])
    context.close()


def test_a_shaky_double_tap_on_a_bid_whist_pass_is_one_call(live_server: str, browser: Browser) -> None:
    """Issue 31, item 2, in Bid Whist: a double "Pass" is not the next player's pass too."""
    context, page = new_game_form(browser, live_server, "bid_whist")
    page.get_by_role("button", name="Start the game").click()
    calls = page.locator(".bids-so-far .bid-tag")
    page.get_by_role("button", name="4", exact=True).click()
    expect(calls).to_have_count(1)
    double_tap(page, page.get_by_role("button", name="Pass", exact=True), calls.nth(1))
    expect(calls).to_have_count(2)
    expect(calls.nth(1)).to_contain_text("Pass")
    page.get_by_role("button", name="Pass", exact=True).click()  # the next player's own pass
    expect(calls).to_have_count(3)
    context.close()
