"""axe-core over the screens the game tests pass by without checking, in light and dark mode, at
320 px: the home page, the variant pages, the set-up screens, share, delete, a correction, the
offline page, an error page and the alert bar of a refused request."""

from __future__ import annotations

import re

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser import taps
from tests.browser.conftest import NARROW_PHONE


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_screen_of_the_flow_passes_axe(live_server: str, browser: Browser, no_axe_violations: Any,
                                             scheme: str) -> None:
    context = browser.new_context(**NARROW_PHONE, color_scheme=scheme)
    page = context.new_page()
    for path in ("/", "/new", "/new/australian", "/new/whist", "/new/bid_whist", "/variants/military",
                 "/offline", "/g/no-such-game", "/events/restore"):
        page.goto(live_server + path)
        no_axe_violations(page)

    page.goto(live_server + "/new/australian")
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        page.fill(f"#name-{i}", name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Hand 1 of 23")).to_be_visible()
    scorer = page.url
    for name in ("Bob", "Cat", "Dan", "Ann"):
        page.get_by_role("button", name=f"{name} bids 0").click()
    for name in ("Bob", "Cat", "Dan"):  # tricks in bidding order; Ann's 1 is filled in
        taps.tap_one(page, name, 0)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("heading", name="Hand 2 of 23")).to_be_visible()
    for suffix in ("/share", "/delete", "/hands/1"):
        page.goto(scorer + suffix)
        no_axe_violations(page)

    page.goto(scorer)
    page.evaluate("""() => {
        document.querySelector('meta[name="csrf-token"]').content = 'stale';
        document.querySelectorAll('input[name="csrf_token"]').forEach(i => { i.value = 'stale'; });
    }""")
    page.get_by_role("button", name="Cat bids 0").click()
    expect(page.locator(".request-error")).to_be_visible()
    no_axe_violations(page)

    # a Whist game with a hand in: the scoreboard (points toward game) and the sheet's points
    page.goto(live_server + "/new/whist")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("radio", name="♥ Hearts").check()
    page.get_by_role("group", name=re.compile("^Tricks taken by")).get_by_role("radio", name="9", exact=True).check()
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".scoreboard .big").first).to_have_text("3")
    no_axe_violations(page)
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_control_room_with_late_tables_passes_axe(app: Any, live_server: str, browser: Browser,
                                                      no_axe_violations: Any, scheme: str, screenshot_dir: Any) -> None:
    """Issue 14, bug 11: in dark mode the late tables' names were 1.2:1 (light grey on pale red)."""
    from datetime import timedelta

    from scorepad.events import military
    from scorepad.extensions import db

    with app.app_context():
        event = military.create_event("Late day", ["Aces", "Kings"], [30], late_minutes=1)
        event.hands[0].opened_at = event.hands[0].opened_at - timedelta(minutes=5)  # nobody has reported for 5 minutes
        db.session.commit()
        token = event.director_token
    context = browser.new_context(**NARROW_PHONE, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{live_server}/d/{token}")
    expect(page.locator(".grid tr.late")).to_have_count(2)  # two tables, both late
    page.screenshot(path=str(screenshot_dir / f"control-room-late-{scheme}.png"), full_page=True)
    no_axe_violations(page)
    context.close()
