"""The projector with more teams than fit on a 1080p screen: it pages itself, and keeps live."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, expect

from scorepad import live
from scorepad.events import core
from scorepad.events import military as events
from tests.browser.conftest import PROJECTOR


def test_the_projector_pages_through_forty_teams(app: Flask, live_server: str, browser: Browser,
                                                 no_axe_violations: Callable[[Any], None]) -> None:
    app.config["SCOREPAD_PAGE_SECONDS"] = 1
    with app.app_context():
        event = events.create_event("County finals", [f"Team {t + 1}" for t in range(40)], [30])
        public = event.public_id
    page = browser.new_context(**PROJECTOR).new_page()
    page.goto(f"{live_server}/b/{public}")
    rows = page.locator("#board .board-rows tr")
    expect(rows).to_have_count(40)
    note = page.locator(".page-note")
    expect(note).to_have_text(re.compile(r"^Page 1 of [2-9]$"))
    pages = int(note.inner_text().rsplit(" ", 1)[1])
    visible = page.locator("#board .board-rows tr:not([hidden])")
    per_page = visible.count()
    assert 0 < per_page < 40 and pages == -(-40 // per_page)
    # every visible row is on the screen, none cut off at the bottom
    last = visible.nth(per_page - 1).bounding_box()
    assert last is not None and last["y"] + last["height"] <= PROJECTOR["viewport"]["height"]
    first_team = visible.first.locator("th").inner_text()
    expect(note).to_have_text("Page 2 of %d" % pages, timeout=5000)
    assert visible.first.locator("th").inner_text() != first_team
    no_axe_violations(page)


def test_the_projector_keeps_working_through_a_long_evening(app: Flask, live_server: str, browser: Browser) -> None:
    """Hours on the wall, compressed: an evening of hands pushed to a paging projector.

    What would make it fail after hours does not need hours to show: the page must not grow (rows,
    listeners' leftovers), open a second stream, stack paging timers, or reload.
    """
    app.config["SCOREPAD_PAGE_SECONDS"] = 0.5
    app.config["SCOREPAD_HEARTBEAT"] = 0.2
    with app.app_context():
        event = events.create_event("Long evening", [f"Team {t + 1}" for t in range(40)], [12])
        public = event.public_id
    page = browser.new_context(**PROJECTOR).new_page()
    page.goto(f"{live_server}/b/{public}")
    page.evaluate("window.__noReload = true")
    expect(page.locator("#board .board-rows tr")).to_have_count(40)
    with app.app_context():
        assert live.broker().count(f"event:{public}") == 1
    for hand in range(1, 13):
        with app.app_context():
            event = core.by_public_id(public)
            assert event is not None
            for table in range(1, 41):
                events.enter_result(event, table, hand, (hand + table) % 14, None, f"table {table}")
                publish_now(app, event)
        if hand == 1:  # every table is in: the wall shows the next hand's moves before the director opens it
            expect(page.locator("#movement-title")).to_contain_text("Next: hand 2", timeout=5000)
        with app.app_context():
            event = core.by_public_id(public)
            assert event is not None
            events.advance(event)
            publish_now(app, event)
        if hand % 4 == 0 and hand < 12:  # the screen has caught up with the last push
            expect(page.locator(".board-status")).to_contain_text(f"Hand {hand + 1} of 12", timeout=5000)
    page.wait_for_timeout(1500)  # a few page turns and heartbeats with nothing new
    assert page.evaluate("window.__noReload") is True
    expect(page.locator("#board .board-rows tr")).to_have_count(40)
    with app.app_context():
        assert live.broker().count(f"event:{public}") == 1  # one stream, reconnected or not
    # no leftovers: the page that lived through the evening has the DOM of one freshly opened now
    fresh = browser.new_context(**PROJECTOR).new_page()
    fresh.goto(f"{live_server}/b/{public}")
    count = "document.getElementsByTagName('*').length"
    assert abs(page.evaluate(count) - fresh.evaluate(count)) <= 2
    fresh.context.close()
    assert page.evaluate("document.querySelectorAll('#board-live').length") == 1
    # one paging timer: over 2.2 s at 0.5 s a page, about four turns, not a multiple of it
    turns = page.evaluate("""() => new Promise(done => {
        const note = document.querySelector('.page-note'); let n = 0;
        const seen = new MutationObserver(() => n++); seen.observe(note, {childList: true, characterData: true, subtree: true});
        setTimeout(() => { seen.disconnect(); done(n); }, 2200); })""")
    assert 2 <= turns <= 6, turns


def publish_now(app: Flask, event: Any) -> None:
    from scorepad.views.board import publish
    with app.test_request_context():
        publish(event)
