"""Issue 14, "Trust at the table", in a real browser: the director who closes the tab finds the
event again on the home page ("Your events", kept by this browser only)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.conftest import PHONE


def your_events(page: Page) -> Locator:
    return page.get_by_role("region", name="Your events", exact=True)


def test_your_events_survive_closing_the_tab(live_server: str, browser: Browser, screenshot_dir: Path) -> None:
    context = browser.new_context(**PHONE)
    tab = context.new_page()
    tab.goto(live_server + "/")
    expect(your_events(tab)).to_contain_text("No events on this browser yet.")
    tab.goto(live_server + "/events/new")
    tab.get_by_label("Event name").fill("Zone 3 finals")
    tab.get_by_label(re.compile("^Number of tables")).fill("4")
    tab.get_by_role("button", name="Create the event").click()
    expect(tab.get_by_role("heading", name="Hand 1 of 30")).to_be_visible()
    room = tab.url
    tab.close()  # the director closes the tab: the link was nowhere else

    tab = context.new_page()  # the same browser, a new tab
    tab.goto(live_server + "/")
    item = your_events(tab).get_by_role("listitem").filter(has_text="Zone 3 finals")
    expect(item).to_contain_text("Military Whist · 4 tables")
    expect(item).to_contain_text("Hand 1 of 30")
    tab.screenshot(path=str(screenshot_dir / "home-your-events.png"), full_page=True)
    item.get_by_role("link", name="Zone 3 finals").click()
    expect(tab.get_by_role("heading", name="Hand 1 of 30")).to_be_visible()
    assert tab.url == room

    stranger = browser.new_context(**PHONE).new_page()  # another browser: nothing of it
    stranger.goto(live_server + "/")
    expect(your_events(stranger)).to_contain_text("No events on this browser yet.")
    stranger.context.close()

    tab.goto(live_server + "/")
    your_events(tab).get_by_role("button", name="Remove from this list (Zone 3 finals)").click()
    expect(tab.get_by_role("status").filter(has_text="is no longer listed")).to_contain_text(
        "“Zone 3 finals” is no longer listed on this browser. The event is not deleted"
    )
    expect(your_events(tab)).to_contain_text("No events on this browser yet.")
    tab.goto(room)  # and the event is still there, at its link
    expect(tab.get_by_role("heading", name="Hand 1 of 30")).to_be_visible()
    context.close()
