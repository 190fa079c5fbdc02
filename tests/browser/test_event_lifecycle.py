"""Issue 32, items 12 and 7 on a director's phone set to Edmonton's time: the set-up form fills in
the phone's time zone; the control room's "What happened" says a rename's time in that zone
("old → new"), then, in French, the event is archived and leaves the home page's list, folded
under its archived events."""

from __future__ import annotations

import re
from datetime import UTC
from pathlib import Path
from zoneinfo import ZoneInfo

from flask import Flask
from playwright.sync_api import Browser, expect

from scorepad.extensions import db
from scorepad.models import AuditEntry
from tests.browser.conftest import PHONE

ZONE = "America/Edmonton"


def test_a_director_in_edmonton_renames_a_team_then_archives_the_event_in_french(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    page = browser.new_context(**PHONE, timezone_id=ZONE).new_page()
    page.goto(f"{live_server}/events/new/bid-whist")
    expect(page.get_by_label("Time zone")).to_have_value(ZONE)  # the phone's, from its browser
    page.get_by_label("Event name").fill("Practice Bid Whist")
    page.get_by_role("button", name="Create the tournament and open registration").click()
    for team, one, two in (("Kings", "Ann", "Bob"), ("Aces", "Cat", "Dan")):
        page.get_by_label("Team name", exact=False).first.fill(team)
        page.get_by_label("Player 1").fill(one)
        page.get_by_label("Player 2").fill(two)
        page.get_by_role("button", name="Register the team").click()
        expect(page.locator("table.entrants")).to_contain_text(team)

    rename = page.get_by_role("region", name="Rename a team")
    rename.get_by_label("Team").select_option("1")
    rename.get_by_label("New name").fill("Royal Flush")
    rename.get_by_role("button", name="Rename").click()
    expect(page.get_by_role("status").filter(has_text="Number 1 is now called Royal Flush.")).to_be_visible()
    line = page.locator("ol.audit li").first  # the newest entry
    expect(line).to_contain_text("director: renamed: “Kings” → “Royal Flush” · number 1")
    with app.app_context():
        at = db.session.scalars(db.select(AuditEntry.at).where(AuditEntry.action == "renamed")).one()
    edmonton = at.replace(tzinfo=UTC).astimezone(ZoneInfo(ZONE))
    expect(line.locator("time")).to_have_text(f"{edmonton:%H:%M}")  # not the server's UTC
    expect(page.get_by_text(f"Times in {ZONE}.")).to_be_visible()
    expect(page.locator("table.entrants")).to_contain_text("Royal Flush")

    page.get_by_role("button", name="Français").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_text(f"Heures du fuseau {ZONE}.")).to_be_visible()
    expect(line).to_contain_text("directeur : renommé: “Kings” → “Royal Flush” · numéro 1")
    expect(line.locator("time")).to_have_text(f"{edmonton:%H:%M}")
    page.get_by_role("button", name="Archiver cet événement").click()
    expect(page.get_by_text(re.compile("« Practice Bid Whist » est archivé"))).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "event-archived-fr.png"), full_page=True)

    page.goto(f"{live_server}/")
    mine = page.get_by_role("region", name="Vos événements")
    expect(mine.get_by_role("link", name="Practice Bid Whist")).to_be_hidden()  # folded away
    mine.get_by_text("1 événement archivé").click()
    expect(mine.get_by_role("link", name="Practice Bid Whist")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "home-archived-fr.png"), full_page=True)
