"""Issue 14, "Trust at the table", in a real browser: the director's link goes to another device of
theirs; the QR cards print a short link to type, tidy on screen and on paper."""

from __future__ import annotations

import math
import re
from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, Locator, expect

from scorepad.events import military
from scorepad.events.bid_whist import registration, writes
from tests.browser.conftest import NARROW_PHONE, PHONE

SHORT_URL = re.compile(r"^https?:\/\/[^\/\s]+\/(t|team)\/[a-z0-9]{10}$")  # "/" escaped for Playwright


def test_the_director_sends_the_link_to_another_device(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    with app.app_context():
        token = military.create_event("Zone 3 finals", ["Aces", "Kings"], [30], pin="2468").director_token
    director = browser.new_context(**NARROW_PHONE).new_page()
    director.goto(f"{live_server}/d/{token}")
    director.get_by_label("Director's PIN").fill("2468")
    director.get_by_role("button", name="Open the control room").click()
    section = director.get_by_role("region", name="Open this control room on another device")
    expect(section.locator(".warning")).to_be_hidden()  # folded until asked for
    director.get_by_role("link", name="Open on another device").click()  # the link at the top unfolds it
    expect(section.locator(".warning")).to_be_visible()
    expect(section).to_contain_text("Whoever has this link can run the event")
    expect(section).to_contain_text("The PIN is still asked on the other device.")
    expect(section.get_by_role("img", name=re.compile(rf"^QR code for .*\/d\/{re.escape(token)}$"))).to_be_visible()
    short = section.locator(".short-link")
    expect(short).to_have_text(re.compile(r"^https?:\/\/\S+\/d\/[a-z0-9]{12}$"))
    box, page_width = short.bounding_box(), director.viewport_size["width"]  # type: ignore[index]
    assert box is not None and box["x"] + box["width"] <= page_width, box  # no sideways scrolling at 320 px
    section.screenshot(path=str(screenshot_dir / "control-room-link-to-self-320.png"))

    path = re.sub(r"^https?://[^/]+", "", short.inner_text())
    phone = browser.new_context(**PHONE).new_page()  # the director's other phone types it in capitals
    phone.goto(live_server + path.upper().replace("/D/", "/d/"))
    expect(phone.get_by_label("Director's PIN")).to_be_visible()  # the PIN still applies
    assert phone.url.endswith(f"/d/{token}")
    for page in (director, phone):
        page.context.close()


def card_fits(card: Locator) -> None:
    """The card shows all it holds (print cards are a fixed height, anything more is cut off) and the
    short link stays inside it."""
    outside = card.evaluate("""c => {
        const box = c.getBoundingClientRect();  // a centred column can overflow upwards too: every child's box
        return Array.from(c.children).filter(child => {
            const r = child.getBoundingClientRect();
            return r.top < box.top - 1 || r.bottom > box.bottom + 1 || r.left < box.left - 1 || r.right > box.right + 1;
        }).map(child => child.className || child.tagName);
    }""")
    assert outside == [], (outside, card.inner_text())
    outer, link = card.bounding_box(), card.locator(".qr-url").bounding_box()
    assert outer and link
    assert outer["x"] <= link["x"] and link["x"] + link["width"] <= outer["x"] + outer["width"], (outer, link)
    assert link["y"] + link["height"] <= outer["y"] + outer["height"], (outer, link)


def test_qr_cards_print_a_short_link_to_type(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    with app.app_context():
        event = military.create_event("County finals of the Red Deer Rovers", [f"Team {n}" for n in range(1, 6)], [30])
        token, tables = event.director_token, {t.number: t.token for t in event.tables}
    director = browser.new_context(**PHONE).new_page()
    director.goto(f"{live_server}/d/{token}/qr")
    cards = director.locator(".qr-card")
    expect(cards).to_have_count(5)
    for n in range(5):
        expect(cards.nth(n).locator(".qr-typed")).to_contain_text("No scanner? Type")
        expect(cards.nth(n).locator(".qr-url")).to_have_text(SHORT_URL)
        card_fits(cards.nth(n))
    director.screenshot(path=str(screenshot_dir / "qr-cards-short-links.png"), full_page=True)

    director.set_viewport_size({"width": 320, "height": 640})
    for n in range(5):
        card_fits(cards.nth(n))
    director.screenshot(path=str(screenshot_dir / "qr-cards-short-links-320.png"), full_page=True)

    # on paper: four cards a page, nothing cut off, on A4 and Letter
    director.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    director.emulate_media(media="print")
    for n in range(5):
        card_fits(cards.nth(n))
    director.screenshot(path=str(screenshot_dir / "qr-cards-short-links-print.png"), full_page=True)
    margin = dict.fromkeys(("top", "right", "bottom", "left"), "12mm")
    for paper in ("A4", "Letter"):
        pdf = director.pdf(format=paper, margin=margin)
        assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == math.ceil(5 / 4), paper

    # a phone that cannot scan types table 3's link, in capitals: it is at table 3
    typed = cards.nth(2).locator(".qr-url").inner_text()
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live_server + re.sub(r"^https?://[^/]+", "", typed).upper().replace("/T/", "/t/"))
    expect(phone.get_by_role("heading", name=re.compile("^Table 3"))).to_be_visible()
    assert phone.url == f"{live_server}/t/{tables[3]}"
    phone.goto(live_server + "/t/2222222222")  # a wrong code: the plain 404 page
    expect(phone.get_by_role("heading", name="Page not found")).to_be_visible()
    for page in (director, phone):
        page.context.close()


def test_team_cards_print_a_short_link_too(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    with app.app_context():
        cup = writes.create("Senior Olympics Bid Whist", rounds=1)
        for n, (one, two) in enumerate((("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal")), start=1):
            registration.register_team(cup, f"Team {n}", [one, two])
        writes.start(cup)
        token = cup.director_token
    director = browser.new_context(**PHONE).new_page()
    director.goto(f"{live_server}/d/{token}/qr")
    cards = director.locator(".qr-card")
    expect(cards).to_have_count(6)  # 2 tables, 4 teams
    for n in range(6):
        expect(cards.nth(n).locator(".qr-url")).to_have_text(SHORT_URL)
        card_fits(cards.nth(n))
    director.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi: the paper's width, not the phone's
    director.emulate_media(media="print")
    for n in range(6):
        card_fits(cards.nth(n))
    director.screenshot(path=str(screenshot_dir / "qr-cards-teams-print.png"), full_page=True)
    typed = cards.nth(2).locator(".qr-url").inner_text()  # team 1's card
    assert "/team/" in typed
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live_server + re.sub(r"^https?://[^/]+", "", typed))
    expect(phone.get_by_role("heading", name=re.compile("Team 1"))).to_be_visible()
    for page in (director, phone):
        page.context.close()
