"""No tap is lost on flaky Wi-Fi (issue 13, item 1), tried as at a venue: the phone reaches the app
over plain HTTP at a LAN name (http://scorepad.lan:PORT, mapped by the browser to this machine, so
not a secure context and no service worker), goes offline mid-hand, loses an answer after the
server committed, reloads with a tap still waiting, and meets another phone's entry."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserType, Page, Route, expect

from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import IdempotentRequest
from tests.browser.conftest import PHONE

LAN = "scorepad.lan"


@pytest.fixture
def lan_browser(browser_type: BrowserType, browser_type_launch_args: dict[str, Any]) -> Iterator[Browser]:
    args = [*browser_type_launch_args["args"], f"--host-resolver-rules=MAP {LAN} 127.0.0.1"]
    browser = browser_type.launch(**{**browser_type_launch_args, "args": args})
    yield browser
    browser.close()


def lan(live_server: str) -> str:
    return f"http://{LAN}:{urlsplit(live_server).port}"


def new_game(page: Page, base: str, secure: bool = False) -> str:
    """An Australian Whist game for Ann, Bob and Cat; Bob bids first. Returns its scorer token."""
    page.goto(base + "/new/australian")
    assert page.evaluate("window.isSecureContext") is secure  # plain HTTP at a LAN name: the venue case
    for i, name in enumerate(["Ann", "Bob", "Cat"]):
        page.fill(f"#name-{i}", name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Hand 1 of 23")).to_be_visible()
    return page.url.rstrip("/").rsplit("/", 1)[1]


def bids(app: Flask, token: str) -> list[int] | None:
    """The bids recorded so far in the hand in play (None before the first)."""
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        found = (game.pending or {}).get("bids")
        return None if found is None else [b for b in found if b is not None]


def keys(app: Flask) -> list[tuple[str, int | None]]:
    """The keys the server holds, oldest first (the game's set-up was sent with one too)."""
    with app.app_context():
        return [(r.key, r.status) for r in db.session.scalars(db.select(IdempotentRequest).order_by(IdempotentRequest.id))]


def test_a_bid_tapped_offline_waits_and_is_sent_once_when_the_connection_is_back(
        app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path) -> None:
    context = lan_browser.new_context(**PHONE)
    page = context.new_page()
    token = new_game(page, lan(live_server))
    before = len(keys(app))

    context.set_offline(True)
    page.get_by_role("button", name="Bob bids 0").click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: Bob bids 0 (tapped at ")
    bar = page.locator(".outbox-bar")
    expect(bar).to_contain_text(re.compile(r"Offline since \d\d:\d\d · 1 entry waiting to send \(first: Bob bids 0"))
    # any other write depends on this one: the page says why it must wait, and sends nothing
    page.get_by_role("button", name="Bob bids 1").click()
    expect(page.locator('.outbox-note[data-kind="wait"]')).to_contain_text(
        "Not sent yet: your entry \"Bob bids 0\" is still waiting")
    expect(page.locator('.outbox-note[data-kind="waiting"]')).to_contain_text("Waiting to send: Bob bids 0")
    page.screenshot(path=str(screenshot_dir / "outbox-waiting.png"), full_page=True)
    assert bids(app, token) is None

    context.set_offline(False)  # the Wi-Fi comes back: the waiting bid goes by itself
    expect(page.locator(".bids-so-far")).to_contain_text("Bob 0")
    expect(bar).to_be_hidden()
    assert bids(app, token) == [0]
    sent = keys(app)[before:]
    assert len(sent) == 1 and sent[0][0].startswith("tap-") and sent[0][1] == 200
    page.get_by_role("button", name="Cat bids 1").click()  # and play goes on
    expect(page.locator(".bids-so-far")).to_contain_text("Cat 1")
    context.close()


def test_an_answer_lost_after_the_server_recorded_it_is_resent_and_counted_once(
        app: Flask, live_server: str, lan_browser: Browser) -> None:
    # at the loopback address here: Playwright's own fetch (which lets the test drop only the
    # answer) does not go through the browser's LAN name mapping
    context = lan_browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_server + "/")
    token = new_game(page, live_server, secure=True)
    lost: list[str] = []

    def drop_the_answer(route: Route) -> None:
        if route.request.method == "POST" and not lost:
            route.fetch()  # the server gets it and records it ...
            lost.append(route.request.headers.get("idempotency-key", ""))
            route.abort()  # ... and the answer never reaches the phone
        else:
            route.continue_()

    page.route("**/entry", drop_the_answer)
    page.get_by_role("button", name="Bob bids 0").click()
    expect(page.locator(".bids-so-far")).to_contain_text("Bob 0", timeout=15000)  # resent, same key
    expect(page.locator(".outbox-bar")).to_be_hidden()
    assert lost and lost[0].startswith("tap-")
    assert (lost[0], 200) in keys(app)  # the resend was answered from the stored answer
    assert bids(app, token) == [0]  # once, not twice
    context.close()


def test_a_waiting_tap_survives_a_reload(app: Flask, live_server: str, lan_browser: Browser) -> None:
    context = lan_browser.new_context(**PHONE)
    page = context.new_page()
    token = new_game(page, lan(live_server))
    page.route("**/entry", lambda route: route.abort())  # the server cannot be reached for writes
    page.get_by_role("button", name="Bob bids 0").click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: Bob bids 0")
    page.reload()  # the phone slept, or the player reloaded: the page comes back from the server ...
    expect(page.locator(".outbox-bar")).to_contain_text("1 entry waiting to send (first: Bob bids 0")
    assert bids(app, token) is None
    page.unroute("**/entry")  # ... and once writes get through again, the waiting bid is sent
    expect(page.locator(".bids-so-far")).to_contain_text("Bob 0", timeout=20000)
    expect(page.locator(".outbox-bar")).to_be_hidden()
    context.close()


def test_a_waiting_tap_meets_another_phones_entry_and_the_player_sees_both(
        app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path) -> None:
    context = lan_browser.new_context(**PHONE)
    page = context.new_page()
    token = new_game(page, lan(live_server))
    context.set_offline(True)
    page.get_by_role("button", name="Bob bids 0").click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send")

    other = lan_browser.new_context(**PHONE).new_page()  # a second phone on the same game enters Bob's bid
    other.goto(f"{lan(live_server)}/g/{token}")
    other.get_by_role("button", name="Bob bids 1").click()
    expect(other.locator(".bids-so-far")).to_contain_text("Bob 1")

    context.set_offline(False)
    box = page.locator(".request-error")
    expect(box).to_contain_text("Your entry \"Bob bids 0\" (tapped at ")
    expect(box).to_contain_text("was not applied")
    expect(box).to_contain_text("1")  # what is recorded, beside what was refused
    expect(page.locator(".bids-so-far")).to_contain_text("Bob 1")  # redrawn from what the server kept
    page.screenshot(path=str(screenshot_dir / "outbox-conflict.png"), full_page=True)
    assert bids(app, token) == [1]
    context.close()
