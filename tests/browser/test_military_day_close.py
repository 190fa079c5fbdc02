"""A Military Whist director is asked before closing a day or finishing the last hand (issue 32,
item 6): neither can be taken back, so one stray tap must not do it. Declining leaves the hand in
play; accepting does what the button says."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, Dialog, Page, expect

from tests.browser.conftest import PHONE
from tests.web.test_events import create, play


def setup_two_days(app: Flask) -> str:
    """Two days of one hand, hand 1 reported by every table: the director's token."""
    csrf = app.config["WTF_CSRF_ENABLED"]
    app.config["WTF_CSRF_ENABLED"] = False  # set up through the forms, as tests/web does
    try:
        client = app.test_client()
        token = create(client, preset="custom", days="1, 1")
        play(client, app, token, 1, (7, 10, 3, 5), then_advance=False)
    finally:
        app.config["WTF_CSRF_ENABLED"] = csrf
    return token


def play_hand_2(app: Flask, token: str) -> None:
    csrf = app.config["WTF_CSRF_ENABLED"]
    app.config["WTF_CSRF_ENABLED"] = False
    try:
        play(app.test_client(), app, token, 2, (6, 8, 6, 6), then_advance=False)
    finally:
        app.config["WTF_CSRF_ENABLED"] = csrf


def tap_and_answer(page: Page, button: str, accept: bool) -> str:
    """Tap `button`, answer its question; returns the question asked ("" if none was)."""
    asked: list[str] = []

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.message)
        if accept:
            dialog.accept()
        else:
            dialog.dismiss()

    page.once("dialog", answer)
    page.get_by_role("button", name=re.compile("^" + re.escape(button))).click()
    page.wait_for_timeout(300)
    return asked[0] if asked else ""


def test_closing_a_day_and_finishing_the_last_hand_are_asked_first(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    token = setup_two_days(app)
    director = browser.new_context(**PHONE).new_page()
    director.goto(f"{live_server}/d/{token}")
    expect(director.get_by_role("heading", name=re.compile("^Hand 1 of 2"))).to_be_visible()

    close = "Close day 1 (every table restarts at 12) and open hand 2"
    question = tap_and_answer(director, close, accept=False)
    assert "Close day 1 now?" in question and "restarts at 12 for hand 2" in question, question
    expect(director.get_by_role("heading", name=re.compile("^Hand 1 of 2"))).to_be_visible()  # nothing done
    assert "Close day 1 now?" in tap_and_answer(director, close, accept=True)
    expect(director.get_by_role("status").first).to_have_text("Day 1 closed; hand 2 is open.")
    expect(director.get_by_role("heading", name=re.compile("^Hand 2 of 2"))).to_be_visible()

    play_hand_2(app, token)
    director.reload()
    question = tap_and_answer(director, "Finish the last hand", accept=False)
    assert question.startswith("Finish the last hand now?"), question
    expect(director.get_by_role("heading", name=re.compile("^Hand 2 of 2"))).to_be_visible()
    assert tap_and_answer(director, "Finish the last hand", accept=True).startswith("Finish the last hand now?")
    expect(director.get_by_role("status").first).to_contain_text("schedule is complete")
    director.screenshot(path=str(screenshot_dir / "military-finished.png"), full_page=True)
    director.context.close()
