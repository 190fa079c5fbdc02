"""The round timer played through (issue 30, item 1): a Military Whist director sets 10 minutes a
hand and starts the clock; a table's phone, whose own clock is 37 minutes fast, and the projector
count down the same time; the director pauses, adds a minute, resumes; near the end of the hand the
table, now in French, turns to the gentle warning and then says time is up, and its form stays open.
Screenshots: test-output/screenshots/round-timer-*.png (the table at 390 px, the projector at 1080p)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.events import core, timer
from tests.browser.conftest import PHONE, PROJECTOR
from tests.web.test_club_night import public_id
from tests.web.test_events import create, table_tokens


def seconds_left(page: Page) -> int:
    minutes, seconds = page.locator("#round-timer .timer-clock").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_director_times_a_hand_and_a_table_and_the_projector_follow(
    app: Flask,
    live_server: str,
    browser: Browser,
    screenshot_dir: Path,
    no_axe_violations: Callable[[Any], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shift = [timedelta(0)]  # the server's clock, moved on by the test to reach the end of the hand
    monkeypatch.setattr(timer, "clock", lambda: datetime.now(UTC).replace(tzinfo=None) + shift[0])
    app.config["WTF_CSRF_ENABLED"] = False  # the event made beforehand; the director's browser sends its tokens
    with app.test_client() as client:
        token = create(client, tables="2", teams="Aces\nKings")
    app.config["WTF_CSRF_ENABLED"] = True
    table_link, public = table_tokens(app, token)[0], public_id(app, token)

    director = browser.new_context(**PHONE).new_page()
    director.goto(f"{live_server}/d/{token}")
    minutes = director.get_by_label("Minutes per hand")
    minutes.fill("ten")
    director.locator("#timer-panel").get_by_role("button", name="Save").click()
    expect(director.locator("#err-minutes")).to_have_text("Enter a whole number of minutes, from 1 to 180.")
    expect(minutes).to_have_attribute("aria-invalid", "true")
    minutes.fill("10")
    director.locator("#timer-panel").get_by_role("button", name="Save").click()
    director.get_by_role("button", name="Start the clock (10 min)").click()

    table_context = browser.new_context(**PHONE)
    table_context.add_init_script("(() => { const real = Date.now; Date.now = () => real() + 37 * 60000; })()")
    table = table_context.new_page()
    table.goto(f"{live_server}/t/{table_link}")
    projector = browser.new_context(**PROJECTOR).new_page()
    projector.goto(f"{live_server}/b/{public}")
    for page in (table, projector, director):
        expect(page.locator("#round-timer .timer-label")).to_have_text("Time left in this hand")
    assert 9 * 60 + 50 <= seconds_left(table) <= 600  # the phone's fast clock changes nothing
    assert abs(seconds_left(table) - seconds_left(projector)) <= 1
    assert abs(seconds_left(director) - seconds_left(projector)) <= 1

    director.get_by_role("button", name="Pause").click()  # every screen stops at the same second
    for page in (table, projector):
        expect(page.locator("#round-timer .timer-label")).to_have_text("Timer paused")
    paused = seconds_left(table)
    assert seconds_left(projector) == paused
    director.get_by_role("button", name="+1 min").click()
    expect(table.locator("#round-timer .timer-clock")).to_have_text(f"{(paused + 60) // 60}:{(paused + 60) % 60:02d}")
    expect(projector.locator("#round-timer .timer-clock")).to_have_text(
        f"{(paused + 60) // 60}:{(paused + 60) % 60:02d}"
    )
    director.get_by_role("button", name="Resume").click()
    expect(table.locator("#round-timer .timer-label")).to_have_text("Time left in this hand")

    table.get_by_role("button", name="Français").click()  # the table's phone reads French from here
    expect(table.locator("#round-timer .timer-label")).to_have_text("Temps restant pour cette donne")
    expect(table.locator("#round-timer")).not_to_have_class(re.compile("is-warning"))
    # the server's clock 3 s short of the warning: the director's next change brings every screen the new time
    shift[0] = timedelta(seconds=paused + 60 - 123)
    director.get_by_label("Minutes per hand").fill("10")
    director.locator("#timer-panel").get_by_role("button", name="Save").click()
    expect(table.locator("#round-timer")).to_have_class(re.compile("is-warning"))  # crossed on the page itself
    expect(table.locator("#round-timer [data-timer-warn]")).to_have_text("Moins de 2 minutes restantes")
    expect(table.locator("#round-timer [data-timer-say]")).to_have_text("Moins de 2 minutes restantes")
    expect(projector.locator("#round-timer")).to_have_class(re.compile("is-warning"))
    assert abs(seconds_left(table) - seconds_left(projector)) <= 1
    table.screenshot(path=str(screenshot_dir / "round-timer-table-390-fr-warning.png"), full_page=True)
    projector.screenshot(path=str(screenshot_dir / "round-timer-projector-1080p-warning.png"))
    no_axe_violations(table)

    shift[0] += timedelta(minutes=3)  # past the end of the hand
    director.locator("#timer-panel").get_by_role("button", name="Save").click()
    expect(table.locator("#round-timer [data-timer-up]")).to_have_text("Le temps est écoulé")
    expect(table.locator("#round-timer .timer-clock")).to_have_text("0:00")
    expect(projector.locator("#round-timer [data-timer-up]")).to_have_text("Time is up")
    expect(director.locator("#timer-panel")).to_contain_text("Nothing is blocked")
    expect(table.locator("#table-panel button").first).to_be_enabled()  # the table can still enter its result
    table.screenshot(path=str(screenshot_dir / "round-timer-table-390-fr-up.png"), full_page=True)
    projector.screenshot(path=str(screenshot_dir / "round-timer-projector-1080p-up.png"))
    director.screenshot(path=str(screenshot_dir / "round-timer-control-room-390.png"), full_page=True)


def test_one_stream_one_fetch_a_change_and_the_minutes_being_typed_are_kept(
    app: Flask, live_server: str, browser: Browser
) -> None:
    """The projector follows the timer on its board's own stream (it opened a second one); each
    timer change makes a page fetch its timer once (it was twice); and the director's minutes being
    typed stay as typed when a change from elsewhere redraws the timer panel (they were lost)."""
    app.config["WTF_CSRF_ENABLED"] = False
    with app.test_client() as client:
        token = create(client, tables="2", teams="Aces\nKings")
    app.config["WTF_CSRF_ENABLED"] = True
    table_link, public = table_tokens(app, token)[0], public_id(app, token)

    def change(action: Callable[[Any], None]) -> None:  # as from the director's other device
        with app.app_context():
            action(core.by_public_id(public))

    change(lambda event: timer.set_minutes(event, "10"))
    pages, asked = {}, {}
    for name, size, path in (
        ("projector", PROJECTOR, f"/b/{public}"),
        ("table", PHONE, f"/t/{table_link}"),
        ("director", PHONE, f"/d/{token}"),
    ):
        page = browser.new_context(**size).new_page()
        asked[name] = []
        page.on("request", lambda request, log=asked[name]: log.append(request.url.split("?")[0]))
        page.goto(f"{live_server}{path}")
        pages[name] = page
    streams = [url for url in asked["projector"] if url.endswith(f"/b/{public}/events")]
    assert len(streams) == 1, streams
    for page in pages.values():
        page.wait_for_function("document.querySelectorAll('[sse-connect]').length > 0")
    pages["director"].wait_for_timeout(500)  # every stream open before the change

    for log in asked.values():
        log.clear()
    change(timer.start)
    for page in pages.values():
        expect(page.locator("#round-timer .timer-label")).to_have_text("Time left in this hand")
    pages["director"].wait_for_timeout(1000)  # a second fetch would have gone by now
    timer_url = {"projector": f"/b/{public}/timer", "table": f"/b/{public}/timer", "director": f"/d/{token}/timer"}
    for name, log in asked.items():
        assert log.count(f"{live_server}{timer_url[name]}") == 1, (name, log)

    director = pages["director"]
    minutes = director.get_by_label("Minutes per hand")
    minutes.fill("2")  # being typed, not saved yet, when the timer is paused from elsewhere
    change(timer.pause)
    expect(director.locator("#round-timer .timer-label")).to_have_text("Timer paused")
    expect(director.get_by_label("Minutes per hand")).to_have_value("2")
    expect(director.get_by_label("Minutes per hand")).to_be_focused()
    director.keyboard.type("5")
    director.locator("#timer-panel").get_by_role("button", name="Save").click()
    expect(director.get_by_role("button", name="Start again (25 min)")).to_be_visible()
