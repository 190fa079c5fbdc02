"""Issue 32 items 2, 3 and 13 on screen: the director's phone reads a Bid Whist correction in "What
happened", goes from the latest 12 entries to the whole trail and pages through it (and filters it
by table), at 390 and 320 px, with and without large text; a Military Whist automatic loan shows
under its hand in the results grid."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.events import core, military
from scorepad.events.bid_whist import registration, writes
from scorepad.games import service as games
from tests.browser.conftest import NARROW_PHONE, PHONE
from tests.web.test_tournament import hand


def overflow(page: Page) -> int:
    """How far the page is wider than the screen (0 when it fits)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))


def a_busy_tournament(app: Flask) -> tuple[str, int, str]:
    """Four teams, round 1 drawn, table 1's match played and its hand 2 corrected by the director
    (one book more), then 60 new QR codes: more than a page of entries. The token, the count and
    the correction's words."""
    with app.app_context():
        event = writes.create("Saturday Bid Whist", rounds=1)
        for n in range(1, 5):
            registration.register_team(event, f"Team {n}", [f"Ann {n}", f"Bob {n}"])
        writes.start(event)
        match = next(m for m in event.matches if m.table == 1)
        assert match.game is not None
        winner = 0 if match.home < match.away else 1
        for number in range(1, 5):
            games.enter_hand(match.game, number, hand(number, winner))
        books = hand(2, winner)["books"]
        games.correct_hand(match.game, 2, {**hand(2, winner), "books": books + 1}, games.Editor(director=True))
        for _ in range(30):
            for table in (1, 2):
                core.regenerate_token(event, table)
        return event.director_token, len(event.audit), f"{books} books → {books + 1} books"


def test_the_director_reads_a_correction_and_pages_through_the_whole_trail(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Any
) -> None:
    token, count, corrected = a_busy_tournament(app)
    for name, device in (("390", PHONE), ("320", NARROW_PHONE)):
        context = browser.new_context(**device)
        for large in (False, True):
            if large:
                context.add_cookies([{"name": "text_size", "value": "large", "url": live_server}])
            page = context.new_page()
            page.goto(f"{live_server}/d/{token}")
            log = page.locator("#room section", has=page.get_by_role("heading", name="What happened"))
            expect(log.locator("li")).to_have_count(12)
            page.get_by_role("link", name=f"The latest 12 of {count} entries: see them all").click()
            expect(page.get_by_role("heading", name=f"Every entry: {count}")).to_be_visible()
            lines = page.locator("ol.audit li")
            expect(lines).to_have_count(core.AUDIT_PAGE)
            suffix = f"{name}{'-large' if large else ''}"
            page.screenshot(path=str(screenshot_dir / f"audit-trail-{suffix}.png"), full_page=True)
            assert overflow(page) == 0, f"the whole trail is wider than {name} px (large text: {large})"
            if name == "320" and not large:
                no_axe_violations(page)
            page.get_by_role("link", name="Older entries").click()
            expect(page.get_by_text("Page 2 of 2")).to_be_visible()
            expect(
                page.locator("ol.audit li").filter(has_text=f"correction · hand 2 · table 1: {corrected}")
            ).to_have_count(1)
            page.get_by_label("Show").select_option("2")
            page.get_by_role("button", name="Show").click()
            expect(page.get_by_role("heading", name="Table 2: 30 entries")).to_be_visible()
            expect(page.locator("ol.audit li")).to_have_count(30)
            assert overflow(page) == 0, f"the table's trail is wider than {name} px (large text: {large})"
            page.close()
        context.close()


def test_an_automatic_loan_shows_under_its_hand(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Any
) -> None:
    with app.app_context():
        event = military.create_event("Loan day", ["Aces", "Kings"], [10])
        for number, tricks in enumerate([(0, 10)] * 4 + [(13, 0), (0, 10), (0, 10)], start=1):
            for table, count in enumerate(tricks, start=1):
                military.enter_result(event, table, number, count, None, f"table {table}")
            if number < 7:
                military.advance(event, hand=number)
        token = event.director_token
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server}/d/{token}")
    cell = page.get_by_role("link", name="Correct hand 7 at table 2: 10 tricks; 2 flags lent automatically")
    expect(cell).to_be_visible()
    expect(page.locator("td", has=cell).locator(".lent")).to_have_text("+2 auto")
    expect(page.locator("ol.audit li").first).to_contain_text("automatic · loan · hand 7 · table 2: 0 flags → 2 flags")
    page.locator("td", has=cell).screenshot(path=str(screenshot_dir / "military-automatic-loan-cell.png"))
    no_axe_violations(page)


MARKER_ROOM = """(ol) => {
    // the widest number of a list: its first, counting down (`reversed`) from `start` or from its length
    const first = ol.hasAttribute('start') ? ol.start : ol.children.length;
    const li = ol.querySelector('li');
    const context = document.createElement('canvas').getContext('2d');
    context.font = getComputedStyle(li).font;
    return {number: first, needs: context.measureText(`${first}. `).width,
            room: parseFloat(getComputedStyle(ol).paddingLeft)};
}"""


def test_the_trails_numbers_are_whole_at_ten_and_over(app: Flask, live_server: str, browser: Browser) -> None:
    """Issue 32, item 14: "12." read "l2." in the control room, its first digit cut off by the list's box."""
    token, _count, _corrected = a_busy_tournament(app)
    for device in (PHONE, NARROW_PHONE):
        context = browser.new_context(**device)
        for large in (False, True):
            if large:
                context.add_cookies([{"name": "text_size", "value": "large", "url": live_server}])
            page = context.new_page()
            for url in (f"{live_server}/d/{token}", f"{live_server}/d/{token}/audit"):
                page.goto(url)
                marker = page.locator("ol.audit").first.evaluate(MARKER_ROOM)
                assert marker["number"] >= 10, marker
                assert marker["needs"] <= marker["room"], (url, large, marker)
            page.close()
        context.close()
