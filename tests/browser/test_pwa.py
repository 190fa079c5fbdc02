"""Installable and usable offline: Chromium's own installability check, the cached shell offline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserType, expect

from tests.browser.conftest import PHONE


def test_chromium_finds_the_app_installable_and_it_opens_offline(
    live_server: str,
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    tmp_path: Path,
    screenshot_dir: Path,
) -> None:
    # A real profile: Chromium never offers to install from an incognito-like context.
    context = browser_type.launch_persistent_context(str(tmp_path / "profile"), **browser_type_launch_args, **PHONE)
    page = context.new_page()
    page.goto(live_server + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now controlled by the service worker
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")

    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == []

    context.set_offline(True)
    page.goto(live_server + "/")  # the shell, from the cache
    expect(page.get_by_role("heading", name="Keep score for whist")).to_be_visible()
    if page.evaluate("navigator.onLine") is False:
        expect(page.locator(".offline-banner")).to_be_visible()
    page.goto(live_server + "/variants/whist")  # never visited: the offline page says so
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "offline.png"))
    context.set_offline(False)
    context.close()


def test_a_tap_that_cannot_reach_the_server_says_so_and_is_sent_when_back(
    live_server: str, browser: Any, screenshot_dir: Path
) -> None:
    """The banner says the phone is offline; the tap waits in the outbox (tests/browser/test_outbox.py)."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_server + "/new/australian")
    for i, name in enumerate(["Ann", "Bob", "Cat"]):
        page.fill(f"#name-{i}", name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Hand 1 of 23")).to_be_visible()

    context.set_offline(True)
    page.get_by_role("button", name="Bob bids 0").click()
    expect(page.locator(".offline-banner")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "offline-tap.png"))
    expect(page.locator(".outbox-bar")).to_contain_text("1 entry waiting to send")
    context.set_offline(False)
    expect(page.locator(".offline-banner")).to_be_hidden()
    expect(page.locator(".bids-so-far")).to_contain_text("Bob 0")
    context.close()
