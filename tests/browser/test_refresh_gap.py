"""A hall's entries do not each redraw every screen (issue 28, item 4): the control room and a
Military table's panel, which every entry in the hall changes, are drawn again at most once every
data-refresh-gap-ms on "changed" (static/js/app.js), and the last change is always drawn."""

from __future__ import annotations

import math
import time
from urllib.parse import urlsplit

from flask import Flask
from playwright.sync_api import Browser, Page, Request, expect

from scorepad.events import core, military
from tests.browser.conftest import NARROW_PHONE, PHONE
from tests.browser.test_projector import publish_now

TABLES = 8


def counting(page: Page, path: str) -> list[float]:
    """The moments (ms, page clock) of the page's GETs of `path`."""
    seen: list[float] = []

    def note(request: Request) -> None:
        if request.method == "GET" and urlsplit(request.url).path.endswith(path):  # with or without a query
            seen.append(request.timing["startTime"])

    page.on("request", note)
    return seen


def most(took: float, gap: float) -> int:
    """The refreshes a screen may make while entries arrive for `took` seconds, `gap` apart at
    least: the first at once, one per gap, the last change's after the gap; fewer than the entries
    (one each, without the gap) as long as the entries come faster than the gap."""
    return min(TABLES - 2, 2 + math.floor(took / gap))


def report(app: Flask, public: str, table: int, tricks: int = 7, hand: int = 1) -> None:
    """A table's result for `hand`, as the table's phone would send it, and its push at once."""
    with app.app_context():
        event = core.by_public_id(public)
        assert event is not None
        military.enter_result(event, table, hand, tricks, None, f"table {table}")
        publish_now(app, event)


def test_a_hall_reporting_at_once_redraws_the_room_a_few_times_and_shows_every_table(
    app: Flask, live_server: str, browser: Browser
) -> None:
    with app.app_context():
        event = military.create_event("Busy hall", [f"Team {n}" for n in range(1, TABLES + 1)], [10])
        public, token = event.public_id, event.director_token
    room = browser.new_context(**PHONE).new_page()
    room.goto(f"{live_server}/d/{token}")
    expect(room.locator(".room-status")).to_contain_text(f"0 of {TABLES} tables in")
    room.wait_for_timeout(300)  # its live stream is open
    refreshes = counting(room, f"/d/{token}/room")
    started = time.monotonic()
    for table in range(1, TABLES + 1):  # every table within a second or so (longer on a busy machine)
        report(app, public, table)
        room.wait_for_timeout(100)
    took = time.monotonic() - started
    expect(room.locator(".room-status")).to_contain_text(f"{TABLES} of {TABLES} tables in")
    room.wait_for_timeout(2500)  # past the gap: any refresh still to come has come
    assert 1 <= len(refreshes) <= most(took, 2.0), f"{len(refreshes)} refreshes of the room in {took:.1f} s"
    room.context.close()


def test_a_table_sees_other_tables_flags_within_the_gap_and_new_orders_at_once(
    app: Flask, live_server: str, browser: Browser
) -> None:
    with app.app_context():
        event = military.create_event("Busy hall", [f"Team {n}" for n in range(1, TABLES + 1)], [10])
        public, token = event.public_id, event.tables[0].token
    report(app, public, 1)
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{live_server}/t/{token}")
    waiting = phone.locator(".recorded")
    expect(waiting).to_contain_text(f"Waiting for {TABLES - 1} more tables")
    phone.wait_for_timeout(300)  # its live stream is open
    panels = counting(phone, f"/t/{token}/panel")
    started = time.monotonic()
    for table in range(2, TABLES + 1):
        report(app, public, table)
        phone.wait_for_timeout(100)
    took = time.monotonic() - started
    expect(waiting).to_contain_text("Every table is in")
    refreshed = len(panels)
    assert refreshed <= most(took, 3.0), f"{refreshed} refreshes of the table's panel in {took:.1f} s"
    with app.app_context():  # new orders are not held back by the gap
        ev = core.by_public_id(public)
        assert ev is not None
        military.advance(ev, hand=1)
    expect(phone.locator("#orders-title")).to_contain_text("Hand 2 of 10")
    phone.context.close()


def test_a_refreshed_control_room_keeps_the_grid_scrolled_where_the_director_left_it(
    app: Flask, live_server: str, browser: Browser
) -> None:
    """The room's results grid (tables by hands) is wider than a phone: a director who scrolled it
    across is not sent back to hand 1 by every table's entry."""
    with app.app_context():
        event = military.create_event("Wide grid", [f"Team {n}" for n in range(1, TABLES + 1)], [10])
        for hand in range(1, 7):  # six hands in the grid, hand 7 in play
            for table in range(1, TABLES + 1):
                military.enter_result(event, table, hand, 7, None, f"table {table}")
            military.advance(event, hand=hand)
        public, token = event.public_id, event.director_token
    room = browser.new_context(**NARROW_PHONE).new_page()
    room.goto(f"{live_server}/d/{token}")
    grid = room.get_by_role("region", name="Results, tables by hands")
    expect(grid).to_be_visible()
    room.wait_for_timeout(300)  # its live stream is open
    across = grid.evaluate("box => { box.scrollLeft = box.scrollWidth; return box.scrollLeft; }")
    assert across > 0, "the grid fits the phone: nothing to scroll"
    refreshes = counting(room, f"/d/{token}/room")
    report(app, public, 1, hand=7)
    expect(room.locator(".room-status")).to_contain_text(f"1 of {TABLES} tables in")
    assert refreshes, "the room was not refreshed"
    assert room.get_by_role("region", name="Results, tables by hands").evaluate("box => box.scrollLeft") == across
    room.context.close()
