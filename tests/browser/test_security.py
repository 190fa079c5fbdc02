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
    for path in (
        "/",
        "/new",
        "/new/whist",
        f"/g/{scorer}",
        f"/w/{public}",
        f"/g/{scorer}/share",
        "/events/new",
        f"/d/{director}",
        f"/d/{director}/qr",
        f"/b/{board}",
        f"/b/{board}/standings",
        f"/t/{table}",
        "/variants/australian",
    ):
        page.goto(live_server + path)
        page.wait_for_load_state("networkidle") if path.startswith("/g/") else None
        assert page.evaluate("typeof htmx") == "object", path
        assert violations(page) == [], path
    # a tap through htmx on the table phone: the preview comes back and is swapped in
    page.goto(live_server + f"/t/{table}")
    page.get_by_role("button", name="7 tricks", exact=True).click()
    page.get_by_text("Flags held").first.wait_for()
    assert violations(page) == []
    assert page.evaluate("document.styleSheets[0].cssRules.length") > 50  # app.css loaded under the policy
    context.close()


def test_a_printed_qr_sheet_does_not_carry_the_directors_link(app: Flask, live_server: str, browser: Browser) -> None:
    """Issue 16, item 6: the director opens the QR cards from the control room and prints them with
    the browser's header and footer (which print the page's title and address): the PDF names the
    sheet's own address, never the director's secret link."""
    import io

    from pypdf import PdfReader

    with app.app_context():
        event = military.create_event("Print day", ["Aces", "Kings", "Queens", "Jacks"], [30])
        director_token = event.director_token
    context = browser.new_context(**PHONE)
    room = context.new_page()
    room.goto(f"{live_server}/d/{director_token}")
    room.get_by_role("link", name="Print the QR cards").click()
    room.wait_for_url("**/qr/**")
    sheet = room
    assert "/qr/" in sheet.url and director_token not in sheet.url
    pdf = sheet.pdf(
        format="A4",
        display_header_footer=True,
        margin={"top": "15mm", "bottom": "15mm"},
        header_template='<span class="title" style="font-size:8px"></span>',
        footer_template='<span class="url" style="font-size:8px"></span>',
    )
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "/qr/" in text.replace("\n", "")
    assert director_token not in text.replace("\n", "") and "/d/" not in text
    assert "Table 4" in text
    # what the footer prints, typed on a stranger's phone, opens nothing (issue 33, item 2)
    stranger = browser.new_context(**PHONE).new_page()
    answer = stranger.goto(sheet.url)
    assert answer is not None and answer.status == 403
    assert "opens only on the director's own device" in stranger.content()
    assert "/t/" not in stranger.content() and "Team code" not in stranger.content()
    stranger.context.close()
    context.close()


def test_the_director_signs_a_borrowed_phone_out(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: object
) -> None:
    """Item 8: after "Sign this browser out" the control room asks for the PIN again."""
    from playwright.sync_api import expect

    with app.app_context():
        token = military.create_event("PIN day", ["Aces", "Kings"], [30], pin="2468").director_token
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server}/d/{token}")
    page.get_by_label("Director's PIN").fill("2468")
    page.get_by_role("button", name="Open the control room").click()
    expect(page.get_by_role("button", name="Sign this browser out")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "director-sign-out.png"))  # type: ignore[operator]
    page.get_by_role("button", name="Sign this browser out").click()
    expect(page.get_by_label("Director's PIN")).to_be_visible()
    page.reload()
    expect(page.get_by_label("Director's PIN")).to_be_visible()
    page.context.close()


def test_a_phone_on_a_lan_address_over_plain_http_enters_a_result(
    app: Flask, live_server: str, browser_type: object, browser_type_launch_args: dict[str, object]
) -> None:
    """As at a venue: the phone opens http://scorepad.lan:PORT (the browser maps the name to this
    machine's loopback, so no traffic leaves it), which is not a secure context. The same-origin check
    (Origin "http://scorepad.lan:PORT" against that Host) and the CSP let a tapped result through."""
    from urllib.parse import urlsplit

    from playwright.sync_api import expect

    with app.app_context():
        event = military.create_event("LAN day", ["Aces", "Kings", "Queens", "Jacks"], [30])
        table = event.tables[0].token
    args = [*browser_type_launch_args["args"], "--host-resolver-rules=MAP scorepad.lan 127.0.0.1"]  # type: ignore[misc]
    lan_browser = browser_type.launch(**{**browser_type_launch_args, "args": args})  # type: ignore[attr-defined]
    context = lan_browser.new_context(**PHONE)
    context.add_init_script(WATCH)
    page = context.new_page()
    base = f"http://scorepad.lan:{urlsplit(live_server).port}"
    page.goto(f"{base}/t/{table}")
    assert page.evaluate("window.isSecureContext") is False
    page.get_by_role("button", name="7 tricks", exact=True).click()
    page.get_by_role("button", name="Confirm hand 1").click()
    expect(page.get_by_text("Hand 1 recorded.")).to_be_visible()
    assert violations(page) == []
    with app.app_context():
        assert [(r.hand, r.table, r.tricks) for r in db.session.query(military.ReportedResult)] == [(1, 1, 7)]
    lan_browser.close()


def test_the_director_gets_in_with_the_recovery_code_while_the_pin_is_locked(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: object
) -> None:
    """Item 8: an attacker's wrong PINs hold the lock; the director on a new phone is not locked out."""
    import re

    from playwright.sync_api import expect

    director = browser.new_context(**PHONE).new_page()
    director.goto(f"{live_server}/events/new")
    director.get_by_label("Event name").fill("Locked day")
    director.get_by_text("More options: loans, advancing, PIN").click()
    director.get_by_label(re.compile("^Director's PIN")).fill("2468")
    director.get_by_role("button", name=re.compile("^Create")).click()
    box = director.get_by_role("region", name="Your recovery code")
    expect(box).to_contain_text("It is shown only this once")
    code = box.locator("code").inner_text()
    assert re.fullmatch(r"([A-Z2-9]{4}-){3}[A-Z2-9]{4}", code), code
    director.screenshot(path=str(screenshot_dir / "director-recovery-code.png"))  # type: ignore[operator]
    link = director.url
    director.reload()
    expect(director.get_by_role("region", name="Your recovery code")).to_have_count(0)  # once only
    director.context.close()

    attacker = browser.new_context(**PHONE).new_page()
    attacker.goto(link)
    for n in range(11):  # ten wrong PINs are checked; the eleventh finds the lock
        attacker.get_by_label("Director's PIN").fill(f"{1000 + n}")
        attacker.get_by_role("button", name="Open the control room").click()
        expect(attacker.locator("#err-pin")).to_contain_text("Too many wrong PINs" if n == 10 else "not the PIN")
    attacker.context.close()

    phone = browser.new_context(**PHONE).new_page()  # the director's new phone
    phone.goto(link)
    phone.get_by_label("Director's PIN").fill("2468")
    phone.get_by_role("button", name="Open the control room").click()
    expect(phone.locator("#err-pin")).to_have_text(
        "Too many wrong PINs: try again in 10 minutes, or open it with the recovery code."
    )
    phone.get_by_label(re.compile("^Recovery code")).fill(code.lower())
    phone.screenshot(path=str(screenshot_dir / "director-recovery-locked.png"))  # type: ignore[operator]
    phone.get_by_role("button", name="Open with the recovery code").click()
    expect(phone.get_by_role("button", name="Sign this browser out")).to_be_visible()
    fresh = phone.get_by_role("region", name="Your recovery code").locator("code").inner_text()
    assert fresh != code
    phone.context.close()
