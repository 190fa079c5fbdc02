"""Issue 15, a group's statistics in a real browser: on a 320 px phone, the family picks "All time",
reads the season's table and the records, opens a player's page from the table (the figures, the
chart and the same results as a table), and compares two players head to head; then the same pages
on a laptop, in dark mode and in large text. Each page fits the width, draws its chart without inline style, and
axe-core finds nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.games import group_stats, groups
from tests.browser.conftest import NARROW_PHONE
from tests.web.test_group_stats import example, play

LAPTOP = {"viewport": {"width": 1366, "height": 768}}


def fits(page: Page) -> None:
    width = page.viewport_size["width"]  # type: ignore[index]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"


def table_fits(page: Page) -> None:
    """The season's table shows every column without scrolling inside its box."""
    assert page.evaluate(
        "(b => b.scrollWidth <= b.clientWidth)(document.querySelector('.group-season .table-scroll'))"
    ), "the season's table scrolls sideways"


def shot(page: Page, directory: Path, step: str) -> None:
    page.screenshot(path=str(directory / f"group-stats-{step}.png"), full_page=True)


def a_season(app: Flask) -> str:
    """A family's group: seven finished games over the last weeks and one in progress (made through the
    services: the live server's forms want CSRF tokens)."""
    with app.app_context():
        token = groups.create("Sunday at Gran's").token
    now = group_stats.now()
    games = [
        (example("nomination-family-four", ("Ann", "Bob", "Cat", "Gran")), 60),
        (example("australian-lockdown-remote", ("Ann", "Bob", "Cat")), 53),
        (example("nomination-three-hook-every-tie", ("Gran", "Bob", "Cat")), 46),
        (example("australian-family-four", ("Gran", "Ann", "Bob", "Cat")), 39),
        (example("whist-drive", pairs=(("Ann", "Gran"), ("Bob", "Cat"))), 32),
        (example("australian-lockdown-remote", ("Cat", "Gran", "Ann")), 25),
        (example("nomination-family-four", ("Bob", "Gran", "Ann", "Cat")), 18),
    ]
    for data, days_ago in games:
        play(app, token, data, now - timedelta(days=days_ago))
    play(app, token, example("nomination-family-four", ("Ann", "Bob", "Cat", "Gran")), hands=4)
    return token


def test_a_family_reads_its_season_a_players_figures_and_a_head_to_head(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Callable[[Any], None]
) -> None:
    token = a_season(app)
    context = browser.new_context(**NARROW_PHONE)
    page = context.new_page()

    # ---- the group's page: all time, the table and the records
    page.goto(f"{live_server}/group/{token}")
    season = page.get_by_role("region", name="The season's table")
    page.get_by_label("Season", exact=True).select_option(label="All time")
    season.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"season=all$"))
    table = season.get_by_role("table")
    expect(table.get_by_role("row")).to_have_count(5)  # a header and four players
    expect(season).to_contain_text("7 finished games.")
    records = page.get_by_role("region", name="Records")
    expect(records).to_contain_text("Highest Australian Whist score:")
    expect(records).to_contain_text("Highest Nomination Whist score: 134")
    fits(page)
    table_fits(page)
    shot(page, screenshot_dir, "1-group-page-320")
    no_axe_violations(page)

    # ---- a player's page from the table
    table.get_by_role("link", name="Cat", exact=True).click()
    expect(page.get_by_role("heading", name="Cat", level=1)).to_be_visible()
    nomination = page.get_by_role("region", name="Nomination Whist")
    expect(
        nomination.get_by_role("img", name=re.compile(r"^Nomination Whist scores, game after game 3 games from"))
    ).to_be_visible()
    expect(nomination.locator("dl.figures")).to_contain_text("Exact bids")
    nomination.get_by_text("The Nomination Whist results as a table").click()
    expect(nomination.get_by_role("table").get_by_role("row")).to_have_count(4)
    box = nomination.locator("svg.results-chart").bounding_box()
    assert box is not None and box["width"] > 250 and box["height"] > 100, box  # drawn, and readable
    fits(page)
    shot(page, screenshot_dir, "2-player-page-320")
    no_axe_violations(page)

    # ---- head to head from the player's page
    page.get_by_label("Compare Cat with").select_option(label="Bob")
    page.get_by_role("button", name="Compare").click()
    expect(page.get_by_role("heading", name="Cat against Bob")).to_be_visible()
    expect(page.locator(".versus-list li").first).to_contain_text("Nomination Whist")
    fits(page)
    shot(page, screenshot_dir, "3-head-to-head-320")
    no_axe_violations(page)
    page.get_by_label("Second player").select_option(label="Choose a player")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#err-b")).to_have_text("Choose a player.")
    fits(page)
    no_axe_violations(page)
    context.close()

    # ---- a laptop, dark mode, and large text (the header's setting: a cookie) on the 320 px phone
    for name, settings in (
        ("laptop", LAPTOP),
        ("dark-320", {**NARROW_PHONE, "color_scheme": "dark"}),
        ("large-text-320", NARROW_PHONE),
    ):
        context = browser.new_context(**settings)
        if name.startswith("large-text"):
            context.add_cookies([{"name": "text_size", "value": "large", "url": live_server}])
        page = context.new_page()
        page.goto(f"{live_server}/group/{token}?season=all")
        fits(page)
        table_fits(page)
        shot(page, screenshot_dir, f"4-group-page-{name}")
        no_axe_violations(page)
        page.get_by_role("region", name="The season's table").get_by_role("link", name="Gran", exact=True).click()
        expect(page.get_by_role("heading", name="Gran", level=1)).to_be_visible()
        assert page.evaluate("document.documentElement.classList.contains('large-text')") == name.startswith("large")
        fits(page)
        shot(page, screenshot_dir, f"5-player-page-{name}")
        no_axe_violations(page)
        context.close()
