"""Issue 32, item 11: every page of every event format a director, a table or a player opens on a
phone (the control room and its trail, the table pages, the standings, the forms; not the projector)
fits 320 and 390 px wide, at both text sizes. Tables that must stay wide scroll inside their own box."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask
from playwright.sync_api import Browser

from scorepad.extensions import db
from scorepad.models import Event
from tests.browser.conftest import LAN, NARROW_PHONE, PHONE
from tests.browser.test_projector import bid_whist, club_night, drive, military

# The outermost element that reaches past the screen's right edge, as tag.class, for the message.
WIDEST = """(width) => {
    const out = [...document.body.querySelectorAll('*')].filter(el => el.getBoundingClientRect().right > width + 0.5);
    const top = out.find(el => !out.includes(el.parentElement) || el.parentElement === document.body)
        || out[0];
    const inner = out.filter(el => el.children.length === 0).slice(0, 3);
    const name = el => el ? el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '') : '?';
    return name(top) + ' > … ' + inner.map(name).join(', ');
}"""

# How many rows' first cells and names are not wholly in the box once it is scrolled to its end.
STICKY_HIDDEN = """(box) => {
    const edge = box.getBoundingClientRect();
    const cells = [...box.querySelectorAll('tbody tr > :first-child, tbody th[scope="row"]')];
    return cells.filter(c => { const r = c.getBoundingClientRect(); return r.left < edge.left - 1 || r.right > edge.right + 1; }).length;
}"""


def pages(app: Flask, public_id: str) -> list[str]:
    """The phone pages of one event: the director's, every kind of table's, the standings."""
    with app.app_context():
        event = db.session.query(Event).filter_by(public_id=public_id).one()
        director = event.director_token
        found = [f"/d/{director}", f"/d/{director}/audit", f"/b/{public_id}/standings"]
        found += [f"/t/{table.token}" for table in event.tables[:1]]
        if event.format == "military":
            found += [f"/d/{director}/results/1/1", f"/d/{director}/setup"]
        for match in [m for m in event.matches if m.game is not None][:1]:
            assert match.game is not None
            found += [f"/g/{match.game.scorer_token}"]
        if event.format == "bid_whist":
            found += [f"/team/{entrant.token}" for entrant in event.entrants[:1]]
        return found


def test_every_event_page_fits_a_phone_at_both_text_sizes(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
    events = {
        "military": military(app, teams=8),
        "bid-whist": bid_whist(app, teams=8, played=2),
        "drive": drive(app, players=16),
        "club": club_night(app, tables=2),
    }
    base = f"http://{LAN}:{urlsplit(live_server).port}"
    forms = ["/events/new", "/events/new/bid-whist", "/events/new/whist-drive", "/events/new/club"]
    crawl = [("forms", path) for path in forms]
    crawl += [(name, path) for name, public_id in events.items() for path in pages(app, public_id)]
    too_wide = []
    for device, width in ((NARROW_PHONE, 320), (PHONE, 390)):
        for large in (False, True):
            context = lan_browser.new_context(**device)
            if large:
                context.add_cookies([{"name": "text_size", "value": "large", "url": base}])
            page = context.new_page()
            for name, path in crawl:
                page.goto(base + path)
                # a phone's browser widens its layout to what overflows (innerWidth grows with it): the screen's width is the bound
                wider = page.evaluate("() => document.documentElement.scrollWidth") - width
                if width == 320 and large and name != "forms":  # the narrowest, the largest: looked at
                    page.screenshot(path=str(screenshot_dir / f"fit-{name}-{crawl.index((name, path))}-320-large.png"))
                # a table too wide for the screen scrolls in its own box, its row's name kept in view
                for box in page.locator(".grid-scroll").all():
                    if box.evaluate("(el) => el.scrollWidth <= el.clientWidth"):
                        continue
                    box.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
                    hidden = box.evaluate(STICKY_HIDDEN)
                    if hidden:
                        too_wide.append(f"{name} {path} at {width} px: {hidden} row names scrolled out of view")
                    if width == 320 and large:
                        box.screenshot(
                            path=str(screenshot_dir / f"fit-{name}-{crawl.index((name, path))}-scrolled.png")
                        )
                if wider > 0:
                    size = "large" if large else "normal"
                    shot = f"fit-{name}-{len(too_wide)}-{width}-{size}.png"
                    page.screenshot(path=str(screenshot_dir / shot), full_page=True)
                    culprit = page.evaluate(WIDEST, width)
                    too_wide.append(
                        f"{name} {path} at {width} px, {size} text: {wider} px too wide, {culprit} ({shot})"
                    )
            context.close()
    assert too_wide == [], "\n".join(too_wide)
