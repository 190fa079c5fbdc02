"""Issue 30, item 6: "Keep the screen on" on a scoring page and a table's page, in a real browser.

- In a secure context (the app served on 127.0.0.1, which Chromium counts as one) the toggle asks for
  Chromium's real screen wake lock, the phone remembers the choice (a reload holds the lock again
  without a tap), and the lock the browser lets go while the page is hidden is asked for again once
  it is shown. Headless Chromium never hides a page, so the test plays that part: it says the page is
  hidden, lets the lock go as the browser would, then says it is visible again.
- A phone that refuses the lock (a battery saver) is told so.
- Over plain HTTP at a LAN name (the club's case) the page is no secure context, the browser has no
  wake lock: no toggle, a plain sentence instead.

In English and in French, at 390 and 320 px. Screenshots: test-output/screenshots/wake-lock-*.png.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserType, Page, expect

from scorepad.events import military as events
from scorepad.games import records
from tests.browser.conftest import LAN, NARROW_PHONE, PHONE
from tests.browser.test_large_text import overflow
from tests.conftest import EXAMPLES


@pytest.fixture(scope="module")
def browser(browser_type: BrowserType, full_chromium_launch_args: dict[str, Any]) -> Iterator[Browser]:
    """The whole Chromium: its headless shell, which the other browser tests run, has no wake lock."""
    whole = browser_type.launch(**full_chromium_launch_args)
    yield whole
    whole.close()


@pytest.fixture
def lan_launch_args(full_chromium_launch_args: dict[str, Any]) -> dict[str, Any]:
    return full_chromium_launch_args  # without a wake lock at all, "not on plain HTTP" would pass blind


# Chromium's own wake lock, each lock it grants kept in window.wakeLocks for the test to look at
WATCH_LOCKS = """
window.wakeLocks = [];
if (window.WakeLock) {
  const ask = WakeLock.prototype.request;
  WakeLock.prototype.request = function (type) {
    return ask.call(this, type).then(function (lock) { window.wakeLocks.push(lock); return lock; });
  };
}
"""
# a phone whose battery saver refuses the lock
REFUSE_LOCKS = """
if (window.WakeLock) {
  WakeLock.prototype.request = function () { return Promise.reject(new DOMException("Battery saver", "NotAllowedError")); };
}
"""
# what the browser does when the phone's screen shows something else, and then the page again
HIDE_AND_SHOW = """() => {
  const seen = (state) => {
    Object.defineProperty(document, "visibilityState", {configurable: true, get: () => state});
    Object.defineProperty(document, "hidden", {configurable: true, get: () => state === "hidden"});
    document.dispatchEvent(new Event("visibilitychange"));
  };
  seen("hidden");
  window.wakeLocks.forEach((lock) => lock.release());  // the browser lets the lock go with the page hidden
  seen("visible");
}"""


def a_game(app: Flask) -> str:
    """A Whist rubber three hands in: the scorer's token."""
    record = json.loads((EXAMPLES / "whist-rubber-default.json").read_text())
    with app.app_context():
        return records.import_record({**record, "title": "Sunday rubber", "hands": record["hands"][:3]}).scorer_token


def a_military_table(app: Flask) -> str:
    with app.app_context():
        event = events.create_event(
            "Zone 3",
            ["Aces", "Kings", "Queens", "Jacks"],
            [30],
            players=[
                ["Ann", "Bob", "Cat", "Dan"],
                ["Eve", "Fay", "Gus", "Hal"],
                ["Ivy", "Jon", "Kim", "Lou"],
                ["Max", "Ned", "Oli", "Pat"],
            ],
        )
        return event.tables[0].token


def held(page: Page) -> list[bool]:
    """Whether each lock the page was granted is still held."""
    return list(page.evaluate("window.wakeLocks.map((lock) => !lock.released)"))


def looked_at(page: Page, name: str, screenshot_dir: Path, no_axe_violations: Any) -> None:
    page.locator(".wake-lock").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / f"wake-lock-{name}.png"), full_page=True)
    assert overflow(page) == 0, f"{name}: the page is wider than the screen"
    no_axe_violations(page)


def test_the_scorer_keeps_the_screen_on_and_the_phone_remembers(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Any
) -> None:
    token = a_game(app)
    context = browser.new_context(**PHONE)
    context.add_init_script(WATCH_LOCKS)
    page = context.new_page()
    page.goto(f"{live_server}/g/{token}")
    assert page.evaluate("window.isSecureContext") is True
    toggle = page.get_by_role("button", name="Keep the screen on", exact=True)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(page.locator("[data-wake-lock-note]:visible")).to_have_count(0)
    assert held(page) == []  # nothing asked for before the player says so

    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_text("The screen stays on while this page is open.")).to_be_visible()
    assert held(page) == [True]
    looked_at(page, "en-held", screenshot_dir, no_axe_violations)

    # the phone showed something else a while: the lock went with it, and is asked for again
    page.evaluate(HIDE_AND_SHOW)
    page.wait_for_function("window.wakeLocks.length === 2")
    assert held(page) == [False, True]
    expect(page.get_by_text("The screen stays on while this page is open.")).to_be_visible()
    expect(page.locator('[data-wake-lock-note="refused"]')).to_be_hidden()

    # a hand entered, the page reloaded: this phone still wants the screen on, without a tap
    page.reload()
    page.wait_for_function("window.wakeLocks.length === 1")
    assert held(page) == [True]
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_text("The screen stays on while this page is open.")).to_be_visible()

    # another page of the same phone (a table at an event) follows the same choice
    other = context.new_page()
    other.goto(f"{live_server}/t/{a_military_table(app)}")
    other.wait_for_function("window.wakeLocks.length === 1")
    expect(other.get_by_role("button", name="Keep the screen on", exact=True)).to_have_attribute("aria-pressed", "true")
    other.close()

    toggle.click()  # off: let go at once, and remembered so
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_text("The screen stays on while this page is open.")).to_be_hidden()
    assert held(page) == [False]
    page.reload()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.evaluate(HIDE_AND_SHOW)  # shown again, still off: nothing asked for
    page.wait_for_timeout(300)
    assert held(page) == []


def test_a_table_in_french_keeps_the_screen_on_and_says_when_the_phone_refuses(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Any
) -> None:
    table = a_military_table(app)
    context = browser.new_context(**NARROW_PHONE, locale="fr-FR")
    context.add_init_script(WATCH_LOCKS)
    page = context.new_page()
    page.goto(f"{live_server}/t/{table}")
    expect(page.locator("#orders-title")).to_have_text("Donne 1 sur 30")
    toggle = page.get_by_role("button", name="Garder l’écran allumé", exact=True)
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_text("L’écran reste allumé tant que cette page est ouverte.")).to_be_visible()
    assert held(page) == [True]
    looked_at(page, "fr-table-held", screenshot_dir, no_axe_violations)

    refusing = browser.new_context(**NARROW_PHONE, locale="fr-FR")
    refusing.add_init_script(REFUSE_LOCKS)
    phone = refusing.new_page()
    phone.goto(f"{live_server}/t/{table}")
    phone.get_by_role("button", name="Garder l’écran allumé", exact=True).click()
    expect(phone.get_by_text("Le téléphone n’a pas voulu garder l’écran allumé pour l’instant")).to_be_visible()
    expect(phone.get_by_text("L’écran reste allumé tant que cette page est ouverte.")).to_be_hidden()
    looked_at(phone, "fr-table-refused", screenshot_dir, no_axe_violations)


def test_over_plain_http_on_the_lan_the_page_says_it_cannot(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path, no_axe_violations: Any
) -> None:
    token, table = a_game(app), a_military_table(app)
    base = f"http://{LAN}:{urlsplit(live_server).port}"
    for locale, words, cannot, where in (
        ("fr-FR", "Garder l’écran allumé", "Garder l’écran allumé demande une connexion sécurisée", f"/g/{token}"),
        ("en-GB", "Keep the screen on", "Keeping the screen on needs a secure connection", f"/t/{table}"),
    ):
        page = lan_browser.new_context(**NARROW_PHONE, locale=locale).new_page()
        page.goto(base + where)
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'wakeLock' in navigator") is False
        expect(page.get_by_text(cannot)).to_be_visible()
        expect(page.get_by_role("button", name=words, exact=True)).to_have_count(0)
        looked_at(page, f"{locale[:2]}-lan", screenshot_dir, no_axe_violations)
        page.context.close()
