"""Issue 16, item 5, in a real browser: the Content-Security-Policy (scripts and styles from the app
only) breaks nothing. Pages with every kind of markup are opened (home, a game with its chart, the
spectators' page, an event's control room, projector, QR sheet and table phone), a hand is tapped
in through htmx, and the browser reports no policy violation."""

from __future__ import annotations

from flask import Flask
from playwright.sync_api import Browser, Page

from scorepad.events import military
from scorepad.extensions import db
from scorepad.games import records
from scorepad.models import Game
from tests.browser.conftest import PHONE

WATCH = """window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + e.sourceFile + ":" + e.lineNumber));"""


def violations(page: Page) -> list[str]:
    return list(page.evaluate("window.__csp"))


def test_no_page_breaks_the_content_security_policy(app: Flask, live_server: str, browser: Browser) -> None:
    with app.app_context():
        records.load_demo_games()
        game = db.session.query(Game).filter_by(variant="nomination").first()
        assert game is not None
        scorer, public = game.scorer_token, game.public_id
        event = military.create_event("CSP day", ["Aces", "Kings", "Queens", "Jacks"], [30])
        director, board, table = event.director_token, event.public_id, event.tables[0].token
    context = browser.new_context(**PHONE)
    context.add_init_script(WATCH)
    page = context.new_page()
    for path in ("/", "/new", "/new/whist", f"/g/{scorer}", f"/w/{public}", f"/g/{scorer}/share", "/events/new",
                 f"/d/{director}", f"/d/{director}/qr", f"/b/{board}", f"/b/{board}/standings", f"/t/{table}",
                 "/variants/australian"):
        page.goto(live_server + path)
        page.wait_for_load_state("networkidle") if path.startswith("/g/") else None
        assert page.evaluate("typeof htmx") == "object", path
        assert violations(page) == [], path
    # a tap through htmx on the table phone: the preview comes back and is swapped in
    page.goto(live_server + f"/t/{table}")
    page.get_by_role("button", name="7 tricks", exact=True).click()
    page.get_by_text("Flags at this table").first.wait_for()
    assert violations(page) == []
    assert page.evaluate("document.styleSheets[0].cssRules.length") > 50  # app.css loaded under the policy
    context.close()
