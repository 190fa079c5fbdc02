"""Issue 15, an event's games joining a group, in a real browser on a 320 px phone: from the group's
page, "Add an event's games"; an empty link is said beside the field; the club night's board link
pasted, the group's page says what was kept and lists the tables' games and players. Each page fits
the width and axe-core finds nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, expect

from scorepad.events import club
from scorepad.extensions import db
from scorepad.games import groups
from tests.browser.conftest import NARROW_PHONE

WIDTH = NARROW_PHONE["viewport"]["width"]


def a_club_night(app: Flask) -> tuple[str, str]:
    """A group and a club night whose two tables started games (made through the services): (the
    group's token, the director's token)."""
    with app.app_context():
        token = groups.create("Tuesday club").token
        event = club.create("Tuesday Nomination", "nomination", 3)
        for table, names in zip(event.tables, (("Ann", "Bob", "Cat", "Dan"), ("ann", "Eve", "Fay", "Gus"))):
            club.start_game(table, {"variant": "nomination", "players": list(names)})
        db.session.commit()
        return token, event.director_token


def test_a_club_keeps_an_evenings_games_in_its_group(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Callable[[Any], None]
) -> None:
    token, director = a_club_night(app)
    context = browser.new_context(**NARROW_PHONE)
    page = context.new_page()
    page.goto(f"{live_server}/group/{token}")
    page.get_by_role("link", name="Add an event's games").click()
    expect(page.get_by_role("heading", name="Add an event's games")).to_be_visible()
    page.get_by_role("button", name="Add the event's games").click()
    field = page.get_by_label("The director's link or code")
    expect(field).to_have_accessible_description("Paste the director's link of the event, or type the director's code.")
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    page.screenshot(path=str(screenshot_dir / "group-events-empty.png"), full_page=True)
    no_axe_violations(page)

    field.fill(f"{live_server}/d/{director}")
    page.get_by_role("button", name="Add the event's games").click()
    expect(page.get_by_role("status")).to_have_text("2 games of “Tuesday Nomination” kept.")
    expect(page.locator(".group-games li")).to_have_count(2)
    expect(page.locator(".group-players li")).to_have_count(7)  # Ann (and "ann"), Bob, Cat, Dan, Eve, Fay, Gus
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    page.screenshot(path=str(screenshot_dir / "group-events-kept.png"), full_page=True)
    no_axe_violations(page)
    context.close()
