"""`scorepad run` as Windows runs it (issue 29, item 1): gevent's own WSGI server in one process,
forced here on Linux (SCOREPAD_SERVER=gevent). The whole browser flow of a home game (set-up, the
trump, bids and tricks tapped, saved, the spectators' page following live) and of an event (a
table's phone entering its result, the projector's live stream showing it) goes through it, with
CSRF protection on as in production."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, expect

from tests.browser import taps
from tests.browser.conftest import PHONE, PROJECTOR
from tests.serving import ScorepadRun

PLAYERS = ("Ann", "Bob", "Cat", "Dan")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ScorepadRun]:
    running = ScorepadRun(tmp_path, SCOREPAD_SERVER="gevent")
    yield running
    running.stop()


def test_a_game_and_a_projector_through_gevents_own_server(server: ScorepadRun, browser: Browser) -> None:
    printed = server.start()
    assert "Served by gevent's WSGI server, in one process." in printed
    assert server.workers() == []  # one process, no gunicorn worker under it
    assert "server" not in server.get("/healthz")[1]  # gunicorn would name itself
    base = f"http://127.0.0.1:{server.port}"

    # ---------------------------------------------------------------- a home game, and its spectator
    scorer = browser.new_context(**PHONE).new_page()
    scorer.goto(base + "/new")
    scorer.get_by_role("link", name=re.compile(r"^Nomination Whist")).click()
    for seat, name in enumerate(PLAYERS):
        scorer.get_by_role("textbox", name=f"Player {seat + 1}", exact=True).fill(name)
    scorer.locator("details.options summary").click()
    scorer.get_by_role("group", name="Cards per round", exact=True).get_by_role("radio", name="My own list").check()
    scorer.get_by_label("Custom list of cards per round").fill("1, 2")
    scorer.get_by_role("group", name="Who deals first?").get_by_role("radio", name="Ann").check()
    scorer.get_by_role("button", name="Start the game").click()
    expect(scorer.get_by_role("heading", name="Hand 1 of 2")).to_be_visible()

    scorer.get_by_role("link", name="Share live view").click()
    short = urlsplit(scorer.locator("figure.qr figcaption").get_by_role("link").inner_text()).path
    spectator = browser.new_context(**PHONE).new_page()
    spectator.goto(base + short)
    expect(spectator.get_by_text("Live: updates by itself")).to_be_visible()
    spectator.evaluate("window.__marker = 1")  # never reloaded: what it shows comes down its stream
    scorer.get_by_role("link", name="← Back to the game").click()

    # hand 1 (1 card, ♥, Bob bids first): Bob 1, Cat 0, Dan 0, Ann 0; Ann takes the trick
    scorer.get_by_role("group", name="Which trump was turned up?").get_by_role(
        "button", name="♥ Hearts", exact=True
    ).click()
    for name, bid in (("Bob", 1), ("Cat", 0), ("Dan", 0), ("Ann", 0)):
        scorer.get_by_role("button", name=f"{name} bids {bid}", exact=True).click()
    taps.tap_tricks(scorer, ["Bob", "Cat", "Dan", "Ann"], {"Ann": 1, "Bob": 0, "Cat": 0, "Dan": 0})
    scorer.get_by_role("button", name="Save hand 1").click()
    expect(scorer.get_by_role("status")).to_have_text("Hand 1 saved.")
    want = {"Ann": 1, "Bob": 0, "Cat": 10, "Dan": 10}
    rows = spectator.locator("section.totals .standings li")
    for name, total in want.items():
        row = rows.filter(has=spectator.locator(".name", has_text=re.compile(f"^{name}$")))
        expect(row.locator(".total")).to_have_text(str(total))
    assert spectator.evaluate("window.__marker") == 1

    # ---------------------------------------------------------------- the demo event's projector
    director_url = re.search(r"director (http://\S+)", printed)
    projector_url = re.search(r"projector (http://\S+)", printed)
    assert director_url and projector_url, printed
    director = browser.new_context(**PHONE).new_page()
    director.goto(director_url.group(1) + "/qr")
    table = list(dict.fromkeys(re.findall(r"/t/[\w-]{20,}", director.content())))[0]
    projector = browser.new_context(**PROJECTOR).new_page()
    projector.goto(projector_url.group(1))
    projector.evaluate("window.__noReload = true")
    expect(projector.locator(".board-status")).to_contain_text("4 tables still playing")

    phone = browser.new_context(**PHONE).new_page()
    phone.goto(base + table)
    phone.get_by_role("button", name="7 tricks", exact=True).click()
    phone.get_by_role("button", name="Confirm hand 6").click()
    expect(phone.get_by_role("heading", name="Hand 6 is recorded")).to_be_visible()
    expect(projector.locator(".board-status")).to_contain_text("3 tables still playing")
    assert projector.evaluate("window.__noReload") is True  # the stream brought it, not a reload
