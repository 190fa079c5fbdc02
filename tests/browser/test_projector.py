"""The projector with more teams than fit on a 1080p screen: it pages itself, and keeps live."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, expect

from scorepad import events
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
