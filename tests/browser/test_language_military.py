"""Issue 15: a Military Whist table's phone in French at 320 px, the narrowest phones: the hand's
orders, a tapped result checked before it is confirmed, the recorded hand; no page wider than the
screen, axe-core finds nothing. Screenshots:
test-output/screenshots/language-military-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.events import military as events
from tests.browser.conftest import NARROW_PHONE
from tests.browser.test_large_text import overflow


def fits(page: Page, name: str, screenshot_dir: Path, no_axe_violations: Any) -> None:
    page.screenshot(path=str(screenshot_dir / f"language-military-{name}.png"), full_page=True)
    assert overflow(page) == 0, f"{name}: the page is wider than 320 px"
    no_axe_violations(page)


def test_a_table_phone_in_french_at_320_px(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Any
) -> None:
    with app.app_context():
        event = events.create_event(
            "Zone 3",
            ["Aces", "Kings", "Queens", "Jacks"],
            [30],
            players=[
                ["Ann", "Bob", "Cat", "Dan"],
                ["Eve", "Fay", "Gus", "Hal"],
                ["Ivy", "Jon", "Kim", "Lou"],
                ["Max", "Ned", "Oli", "Pat"],
            ],
        )
        phone = event.tables[0].token
    page = browser.new_context(**NARROW_PHONE, locale="fr-FR").new_page()
    page.goto(f"{live_server}/t/{phone}")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#orders-title")).to_have_text("Donne 1 sur 30")
    expect(page.locator(".named-orders")).to_contain_text("Ann et Bob vont à la table 2")
    fits(page, "fr-orders", screenshot_dir, no_axe_violations)

    page.get_by_role("button", name="10 plis", exact=True).click()
    expect(page.get_by_role("heading", name="Vérifiez avant de confirmer")).to_be_visible()
    expect(page.locator(".confirm .big")).to_contain_text(
        "Les visiteurs ont fait 10 plis : les visiteurs prennent 2 drapeaux."
    )
    fits(page, "fr-confirm", screenshot_dir, no_axe_violations)

    page.get_by_role("button", name="Confirmer la donne 1").click()
    expect(page.get_by_role("heading", name="La donne 1 est enregistrée")).to_be_visible()
    expect(page.locator(".recorded")).to_contain_text("Encore 3 tables à attendre")
    fits(page, "fr-recorded", screenshot_dir, no_axe_violations)
