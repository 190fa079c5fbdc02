"""Issue 30, item 2 on a director's narrow phone: a Bid Whist tournament takes its players from the
Tuesday Club's roster (the group's code typed in the control room); a misspelt member is caught
("Did you mean John Smith?") and picked; then, in French, a near name is said to be a new member
and joins the club; the member's page lists the event under its season."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, expect

from scorepad.extensions import db
from scorepad.games import groups
from scorepad.models import GroupPlayer
from tests.browser.conftest import NARROW_PHONE


def fits(page: object) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))  # type: ignore[attr-defined]


def test_a_director_registers_a_clubs_members_and_a_new_one_in_english_then_french(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Any
) -> None:
    with app.app_context():
        club = groups.create("Tuesday Club")
        for name in ("Zoé Martin", "John Smith", "Claire Dubois"):
            db.session.add(GroupPlayer(group_id=club.id, name=name, key=groups.key_of(name)))
        db.session.commit()
        token, code = club.token, club.short_code
    page = browser.new_context(**NARROW_PHONE).new_page()
    page.goto(f"{live_server}/events/new/bid-whist")
    page.get_by_label("Event name").fill("Club Bid Whist")
    page.get_by_role("button", name="Create the tournament and open registration").click()

    panel = page.get_by_role("region", name="Club roster")
    panel.get_by_text("Link this event to a club's roster").click()  # folded until asked for
    panel.get_by_label("The club's group link or code").fill(str(code).upper())
    panel.get_by_role("button", name="Use this club's roster").click()
    expect(page.get_by_text("The registration offers the members of “Tuesday Club” now")).to_be_visible()
    expect(panel).to_contain_text("(3 members)")
    expect(page.locator("#club-members option")).to_have_count(3)  # the players' fields offer them
    expect(page.get_by_label("Player 1")).to_have_attribute("list", "club-members")

    page.get_by_label("Team name", exact=False).first.fill("Aces")
    page.get_by_label("Player 1").fill("Zoé Martin")
    page.get_by_label("Player 2").fill("Jon Smith")
    page.get_by_role("button", name="Register the team").click()
    expect(page.locator("#err-player2")).to_have_text(
        "“Jon Smith” is not a member of Tuesday Club. Did you mean “John Smith”?"
    )
    assert fits(page)
    no_axe_violations(page)
    page.screenshot(path=str(screenshot_dir / "club-roster-near.png"), full_page=True)
    page.get_by_role("button", name="Yes, John Smith").click()
    expect(page.locator("table.entrants")).to_contain_text("Zoé Martin & John Smith")

    page.get_by_role("button", name="Français").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.get_by_label("Nom de l’équipe", exact=False).first.fill("Rois")
    page.get_by_label("Joueur 1").fill("Claire Dubos")
    page.get_by_label("Joueur 2").fill("Luc Petit")
    page.get_by_role("button", name="Inscrire l’équipe").click()
    expect(page.locator("#err-player1")).to_have_text(
        "« Claire Dubos » n’est pas membre de Tuesday Club. Vouliez-vous dire « Claire Dubois » ?"
    )
    page.get_by_role("button", name="Non, « Claire Dubos » est un nouveau membre").click()
    expect(page.locator("table.entrants")).to_contain_text("Claire Dubos & Luc Petit")
    page.reload()
    expect(page.get_by_role("region", name="Membres du club")).to_contain_text("(5 membres)")
    assert fits(page)

    with app.app_context():
        found = groups.by_token(token)
        assert found is not None
        member = groups.find(found, "John Smith")
        assert member is not None
        member_id = member.id
    page.goto(f"{live_server}/group/{token}/player/{member_id}")
    events = page.get_by_role("region", name="Événements")
    expect(events.locator("caption")).to_have_text(re.compile(r"Saison \d{4}"))
    expect(events.get_by_role("link", name="Club Bid Whist")).to_be_visible()
    assert fits(page)
    page.screenshot(path=str(screenshot_dir / "club-member-fr.png"), full_page=True)
