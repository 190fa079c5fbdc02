"""A tap whose request is refused with nothing to swap in (an old link, an expired form) says so."""

from __future__ import annotations

from flask import Flask
from playwright.sync_api import Browser, expect

from scorepad.extensions import db
from scorepad.games import service as games
from tests.browser.conftest import PHONE


def start_game(page: object, live_server: str) -> None:
    page.goto(live_server + "/new/australian")  # type: ignore[attr-defined]
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        page.fill(f"#name-{i}", name)  # type: ignore[attr-defined]
    page.get_by_role("button", name="Start the game").click()  # type: ignore[attr-defined]
    expect(page.get_by_role("heading", name="Hand 1 of 23")).to_be_visible()  # type: ignore[arg-type]
    # a tap before the scripts ran would be a plain form post, answered with a whole error page (CI saw it)
    page.wait_for_load_state("load")  # type: ignore[attr-defined]


def test_a_tap_on_a_deleted_game_shows_the_servers_message(app: Flask, live_server: str, browser: Browser) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    start_game(page, live_server)
    alert = page.locator(".request-error")
    expect(alert).to_be_hidden()
    token = page.url.rsplit("/", 1)[1]
    with app.app_context():  # the game is deleted elsewhere (another phone) while this one is open
        game = games.by_scorer_token(token)
        assert game is not None
        db.session.delete(game)
        db.session.commit()
    page.get_by_role("button", name="Bob bids 0").click()
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("not found", ignore_case=True)
    page.get_by_role("button", name="Close").click()
    expect(alert).to_be_hidden()
    context.close()


def test_an_expired_form_says_to_reload(live_server: str, browser: Browser) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    start_game(page, live_server)
    page.evaluate("""() => {
        document.querySelector('meta[name="csrf-token"]').content = 'stale';
        document.querySelectorAll('input[name="csrf_token"]').forEach(i => { i.value = 'stale'; });
    }""")
    page.get_by_role("button", name="Bob bids 0").click()
    alert = page.locator(".request-error")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("This form has expired")
    expect(page.get_by_role("button", name="Bob bids 0")).to_be_visible()  # still Bob's turn: nothing saved
    context.close()
