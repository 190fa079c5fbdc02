"""Issue 14, "Trust at the table", in a real browser: a Military Whist table's phone says its orders
in plain words with the players' names ("Ann and Bob go to table 2") beside the hall's terse
"A&B go out", readable at 320 px in light and dark mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, expect

from scorepad.events import military
from tests.browser.conftest import NARROW_PHONE


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_table_phone_says_who_goes_where_by_name(
    app: Flask, live_server: str, browser: Browser, no_axe_violations: Any, screenshot_dir: Path, scheme: str
) -> None:
    with app.app_context():
        event = military.create_event(
            "Zone 3 finals",
            ["Aces", "Red Deer Rovers", "Queens", "Jacks"],
            [30],
            players=[["Ann", "Bob", "Xena", "Yuri"], ["Maximilian-Alexander", "Bartholomew", "Cat", "Dan"], [], []],
        )
        aces, rovers = event.tables[0].token, event.tables[1].token
    phone = browser.new_context(**NARROW_PHONE, color_scheme=scheme).new_page()
    phone.goto(f"{live_server}/t/{aces}")
    orders = phone.locator(".orders-list")
    expect(orders.locator("dt").first).to_have_text("A&B go out")
    expect(orders.locator("dd").first).to_have_text("Ann and Bob go to table 2")
    expect(orders).to_contain_text("Xena and Yuri stay here")
    expect(orders).to_contain_text("A&B of Jacks (table 4)")  # the Jacks have no names: their labels
    no_axe_violations(phone)

    phone.goto(f"{live_server}/t/{rovers}")  # long names, and the Aces arriving by name
    expect(orders.locator("dd").first).to_have_text("Maximilian-Alexander and Bartholomew go to table 3")
    expect(orders).to_contain_text("Ann and Bob of Aces (table 1)")
    expect(orders).to_contain_text("Bob deals: B of Aces (a visitor)")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 320
    phone.locator(".orders").screenshot(path=str(screenshot_dir / f"military-orders-plain-words-320-{scheme}.png"))
    no_axe_violations(phone)
    phone.context.close()
