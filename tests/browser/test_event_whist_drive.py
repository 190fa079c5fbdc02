"""A 12-player whist drive of 6 deals in real browsers: three table phones and a projector.

Every deal, N-S take 8 tricks at table 1, 5 at table 2 and 7 at table 3 (the worked example of
tests/formats/test_drive.py repeated). After each deal the phones show who moves where, and the
projector follows without a reload, ending on the prizes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, expect

from scorepad.extensions import db
from scorepad.models import Event
from tests.browser.conftest import PHONE, PROJECTOR

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit", "Lou"]
TRICKS = {1: 8, 2: 5, 3: 7}


def test_a_twelve_player_drive_of_six_deals(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Callable[[Any], None]
) -> None:
    director = browser.new_context(**PHONE).new_page()
    director.goto(live_server + "/events/new/whist-drive")
    director.get_by_label("Event name").fill("Village hall drive")
    director.get_by_label(re.compile("^Players, one per line")).fill("\n".join(PLAYERS))
    director.get_by_label("Deals", exact=True).fill("6")
    director.get_by_role("button", name="Create the whist drive").click()
    expect(director.get_by_role("heading", name=re.compile("Deal 1 of 6"))).to_be_visible()
    no_axe_violations(director)
    with app.app_context():
        event = db.session.query(Event).one()
        links = [f"/t/{t.token}" for t in event.tables]
        public = event.public_id
    projector = browser.new_context(**PROJECTOR).new_page()
    projector.goto(f"{live_server}/b/{public}")
    projector.evaluate("window.__noReload = true")
    phones = []
    for link in links:
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(live_server + link)
        phones.append(phone)
    expect(phones[0].locator(".orders-list")).to_contain_text("Ann")
    no_axe_violations(phones[0])
    # Military's tap targets: 14 keys of at least 3.6rem (57.6 px) square, not radio chips
    key = phones[0].get_by_role("button", name="8 tricks", exact=True).bounding_box()
    assert key and key["height"] >= 57 and key["width"] >= 57, key
    for deal in range(1, 7):
        for table, phone in enumerate(phones, start=1):
            expect(phone.get_by_role("heading", name=re.compile(f"^Deal {deal} of 6"))).to_be_visible()
            # the keypad as a Military table's: a tap, a preview, then Confirm
            pad = phone.get_by_role("group", name=re.compile("^Tricks North-South took"))
            pad.get_by_role("button", name=f"{TRICKS[table]} tricks", exact=True).click()
            expect(phone.locator("form.confirm")).to_contain_text(
                f"North-South took {TRICKS[table]}, East-West {13 - TRICKS[table]}."
            )
            if deal == 1 and table == 1:
                phone.screenshot(path=str(screenshot_dir / "whist_drive-table-preview.png"), full_page=True)
            phone.get_by_role("button", name=f"Confirm deal {deal}").click()
            if table < 3:
                expect(phone.get_by_role("status")).to_contain_text(f"Deal {deal} recorded")
            else:  # the last table in: every phone moves on to the next deal (or the end) by itself
                expect(phone.locator("#deal-title")).to_have_text(
                    re.compile(f"^Deal {deal + 1} of 6") if deal < 6 else "The drive is over"
                )
        if deal < 6:
            expect(projector.locator(".board-status")).to_contain_text(f"Deal {deal + 1} of 6")
            expect(phones[1].locator("#moves-title")).to_have_text(f"Change places for deal {deal + 1}")
        if deal == 1:
            # by hand: table 2's E-W (Fay, Hal) won 8 tricks and move up; Fay sits South at table 1
            expect(phones[1].locator(".callout")).to_contain_text("Fay: move up to table 1, sit South")
            expect(phones[0].locator(".orders-list")).to_contain_text("Fay")
            phones[0].screenshot(path=str(screenshot_dir / "whist_drive-table-deal2.png"), full_page=True)
    expect(projector.locator(".board-status")).to_have_text("Final scores")
    expect(projector.locator(".medals")).to_contain_text("Highest score")
    expect(projector.locator(".board-rows tr")).to_have_count(12)
    assert projector.evaluate("window.__noReload") is True
    projector.screenshot(path=str(screenshot_dir / "whist_drive-projector-final.png"))
    no_axe_violations(projector)
    # the director corrects a result by taps: the grid's cell opens the keypad, the recorded 8 chosen
    director.get_by_role("link", name="Correct deal 1 at table 1: 8 tricks").click()
    expect(director.get_by_role("radio", name="8")).to_be_checked()
    no_axe_violations(director)
    director.get_by_text("6", exact=True).click()
    director.screenshot(path=str(screenshot_dir / "whist_drive-correct.png"), full_page=True)
    director.get_by_role("button", name="Save the correction").click()
    expect(director.get_by_role("status").first).to_contain_text("Deal 1 at table 1: North-South took 6.")
