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
def test_every_screen_of_the_flow_passes_axe(
    live_server: str, browser: Browser, no_axe_violations: Any, scheme: str
) -> None:
    context = browser.new_context(**NARROW_PHONE, color_scheme=scheme)
    page = context.new_page()
    for path in (
        "/",
        "/new",
        "/new/australian",
        "/new/whist",
        "/new/bid_whist",
        "/variants/military",
        "/offline",
        "/g/no-such-game",
        "/events/restore",
        "/watch",
        "/watch?code=zzzz2222",
        "/games/import",
    ):
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
def test_the_home_pages_forms_refused_and_large_text_pass_axe(
    live_server: str, browser: Browser, no_axe_violations: Any, scheme: str
) -> None:
    """Issue 15: a refused import (its problems listed beside the field), and large text on."""
    context = browser.new_context(**NARROW_PHONE, color_scheme=scheme)
    page = context.new_page()
    page.goto(live_server + "/")
    page.get_by_label("Or paste the record").fill('{"variant": "bridge", "hands": 3}')
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.locator("#err-record li").first).to_be_visible()
    no_axe_violations(page)
    page.get_by_role("button", name="Large text").click()
    expect(page.locator("html")).to_have_class("large-text")
    no_axe_violations(page)
    page.goto(live_server + "/")
    no_axe_violations(page)
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_control_room_with_late_tables_passes_axe(
    app: Any, live_server: str, browser: Browser, no_axe_violations: Any, scheme: str, screenshot_dir: Any
) -> None:
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


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_your_events_the_link_to_self_and_the_qr_cards_pass_axe(
    app: Any, live_server: str, browser: Browser, no_axe_violations: Any, scheme: str
) -> None:
    """Issue 14: the home page's "Your events" (empty, listed, one removed), the control room's link to
    self unfolded, the QR cards with their short links (tables and teams), a wrong short link's 404;
    at 320 px, none wider than the screen."""
    from scorepad.events import military
    from scorepad.events.bid_whist import registration, writes

    with app.app_context():
        token = military.create_event("Zone 3 finals", ["Aces", "Kings"], [30], pin="2468").director_token
        cup = writes.create("Senior Olympics Bid Whist", rounds=1)
        for n in range(1, 5):
            registration.register_team(cup, f"Team {n}", [f"A{n}", f"B{n}"])
        writes.start(cup)
        cup_token = cup.director_token
    context = browser.new_context(**NARROW_PHONE, color_scheme=scheme)
    page = context.new_page()

    def check() -> None:
        no_axe_violations(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 320, page.url

    page.goto(live_server + "/")
    expect(page.get_by_text("No events on this browser yet.")).to_be_visible()
    check()
    page.goto(f"{live_server}/d/{token}")
    page.get_by_label("Director's PIN").fill("2468")
    page.get_by_role("button", name="Open the control room").click()
    page.get_by_role("link", name="Open on another device").click()
    expect(page.get_by_text("Whoever has this link can run the event")).to_be_visible()
    check()
    page.goto(f"{live_server}/d/{cup_token}")
    page.goto(live_server + "/")
    expect(page.get_by_role("button", name="Remove from this list (Zone 3 finals)")).to_be_visible()
    check()
    for director in (token, cup_token):
        page.goto(f"{live_server}/d/{director}/qr")
        expect(page.locator(".qr-url").first).to_be_visible()
        check()
    page.goto(f"{live_server}/t/2222222222")
    expect(page.get_by_role("heading", name="Page not found")).to_be_visible()
    check()
    page.goto(live_server + "/")
    page.get_by_role("button", name="Remove from this list (Zone 3 finals)").click()
    expect(page.get_by_text("is no longer listed on this browser")).to_be_visible()
    check()
    context.close()
