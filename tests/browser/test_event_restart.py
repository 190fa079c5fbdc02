"""A server restart in the middle of an event loses nothing (issue 4, "Security and integrity").

The app runs as `scorepad run` does for real, in its own process on a SQLite file. Two table phones,
the director and the projector are open when the process is killed (SIGKILL: no clean shutdown)
and started again on the same port and database. The phones keep their pages (the second phone
enters its result with the form and cookies it had before the restart), the projector and the
control room reconnect by themselves, and every result entered before the crash is still there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, PROJECTOR
from tests.serving import ScorepadRun
from tests.slowness import scaled_ms


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ScorepadRun]:
    """`scorepad run` with its demo event, on a fixed port and database across restarts."""
    running = ScorepadRun(tmp_path, database="event.db")
    yield running
    running.stop()


def enter(phone: Page, tricks: int) -> None:
    phone.get_by_role("button", name=f"{tricks} tricks", exact=True).click()
    phone.get_by_role("button", name="Confirm hand 6").click()
    expect(phone.get_by_role("heading", name="Hand 6 is recorded")).to_be_visible()


def test_a_restart_in_the_middle_of_an_event_loses_nothing(server: ScorepadRun, browser: Browser) -> None:
    printed = server.start()
    director_url = re.search(r"director (http://\S+)", printed)
    projector_url = re.search(r"projector (http://\S+)", printed)
    assert director_url and projector_url, printed

    director = browser.new_context(**PHONE).new_page()
    director.goto(director_url.group(1) + "/qr")
    links = list(dict.fromkeys(re.findall(r"/t/[\w-]{20,}", director.content())))
    director.goto(director_url.group(1))
    expect(director.get_by_role("heading", name="Hand 6 of 30")).to_be_visible()
    base = director_url.group(1).split("/d/")[0]
    phones = []
    for link in links[:2]:
        page = browser.new_context(**PHONE).new_page()
        page.goto(base + link)
        phones.append(page)
    projector = browser.new_context(**PROJECTOR).new_page()
    projector.goto(projector_url.group(1))
    projector.evaluate("window.__noReload = true")
    expect(projector.locator(".board-status")).to_contain_text("4 tables still playing")

    enter(phones[0], 7)
    expect(projector.locator(".board-status")).to_contain_text("3 tables still playing")

    # ---- the server dies without a clean shutdown, and comes back on the same port and database
    server.kill()
    expect(projector.locator(".offline-banner")).to_be_visible(timeout=scaled_ms(15_000))
    server.start()

    # the second phone enters with the page (form, CSRF token, cookie) it had before the restart
    enter(phones[1], 5)
    expect(phones[1].locator(".recorded")).to_contain_text("5")

    # the projector and the control room reconnected by themselves and show both results
    expect(projector.locator(".offline-banner")).to_be_hidden(timeout=scaled_ms(15_000))
    expect(projector.locator(".board-status")).to_contain_text("2 tables still playing", timeout=scaled_ms(15_000))
    assert projector.evaluate("window.__noReload") is True
    expect(director.get_by_role("link", name="Correct hand 6 at table 1: 7 tricks")).to_be_visible(
        timeout=scaled_ms(15_000)
    )
    expect(director.get_by_role("link", name="Correct hand 6 at table 2: 5 tricks")).to_be_visible()

    # the first phone, reloaded, still has its result: a second entry of hand 6 is not offered
    phones[0].reload()
    expect(phones[0].get_by_role("heading", name="Hand 6 is recorded")).to_be_visible()
    expect(phones[0].get_by_role("button", name="Confirm hand 6")).to_have_count(0)
