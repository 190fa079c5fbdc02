"""A double tap on "Save hand", or the same form sent again after a reload, never counts twice."""

from __future__ import annotations

import re

from flask import Flask
from playwright.sync_api import Browser, expect

from scorepad.games import service as games
from tests.browser import taps
from tests.browser.conftest import PHONE


def test_double_tap_and_resend_save_one_hand(app: Flask, live_server: str, browser: Browser) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_server + "/new/australian")
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        page.fill(f"#name-{i}", name)
    page.get_by_role("button", name="Start the game").click()
    for name, bid in [("Bob", 0), ("Cat", 0), ("Dan", 0), ("Ann", 0)]:
        page.get_by_role("button", name=f"{name} bids {bid}").click()
        expect(page.locator(".bids-so-far")).to_contain_text(f"{name} {bid}")
    for name in ("Bob", "Cat", "Dan"):  # tricks in bidding order; Ann's 1 is filled in
        taps.tap_one(page, name, 0)
    page.get_by_role("button", name="Save hand 1").dblclick()
    expect(page.get_by_role("heading", name="Hand 2 of 23")).to_be_visible()

    # The same result posted again (a stale page, a retried request) is refused with the saved value kept.
    token = re.search(r"/g/([^/]+)$", page.url)
    assert token is not None
    response = page.request.post(
        f"{live_server}/g/{token.group(1)}/entry",
        headers={"HX-Request": "true"},
        form={
            "action": "result",
            "number": "1",
            "tricks.0": "0",
            "tricks.1": "1",
            "tricks.2": "0",
            "tricks.3": "0",
            "csrf_token": page.locator('meta[name="csrf-token"]').get_attribute("content") or "",
        },
    )
    assert response.status == 409
    with app.app_context():
        game = games.by_scorer_token(token.group(1))
        assert game is not None
        assert [h.entry["tricks"] for h in game.hands] == [[1, 0, 0, 0]]
    context.close()
