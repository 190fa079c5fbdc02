"""One rule for the outbox at an event (issue 32, items 1 and 5): a tap that the server did not
record is never reported as recorded, on the table page of any format; and a table phone that comes
back online shows the event as it is now, without waiting for the next push or a reload.

Every phone here reaches the app over plain HTTP at a LAN name (not a secure context, no service
worker: the venue case, as in tests/browser/test_outbox.py) and goes offline with Playwright's
`context.set_offline` just before a tap.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from scorepad.events import club, core, drive, military
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import Event, EventMatch, EventTable, Game, ReportedResult
from tests.browser.conftest import PHONE
from tests.browser.test_outbox import lan, sent_once
from tests.slowness import scaled_ms

TEAMS = ["Aces", "Kings", "Queens", "Jacks"]


def not_recorded_yet(label: str) -> re.Pattern[str]:
    """What the bar says when the tap that waited was a preview: sent, and nothing recorded yet."""
    return re.compile(
        rf'^Back online: your entry "{re.escape(label)}" \(tapped at \d\d:\d\d\) was sent, but it is not '
        r"recorded yet: check it below and confirm it\.$"
    )


@pytest.fixture
def phone(lan_browser: Browser) -> Iterator[BrowserContext]:
    context = lan_browser.new_context(**PHONE)
    yield context
    context.close()


def military_event(app: Flask) -> list[str]:
    """A Military day of 10 hands for four teams: its tables' tokens."""
    with app.app_context():
        event = military.create_event("Club night", TEAMS, [10])
        return [t.token for t in event.tables]


def results(app: Flask, hand: int = 1) -> dict[int, int]:
    """The tricks recorded for `hand`, by table."""
    with app.app_context():
        rows = db.session.scalars(db.select(ReportedResult).where(ReportedResult.hand == hand)).all()
        return {r.table: r.tricks for r in rows}


def open_table(context: BrowserContext, live_server: str, token: str) -> Page:
    page = context.new_page()
    page.goto(f"{lan(live_server)}/t/{token}")
    assert page.evaluate("window.isSecureContext") is False  # plain HTTP at a LAN name: the venue case
    page.wait_for_load_state("load")  # the scripts are in: a tap is an htmx request, not a plain form post
    page.wait_for_timeout(300)  # its live stream is open
    return page


def in_the_event(app: Flask, token: str, act: Callable[[Event], object]) -> None:
    """Run `act(event)` on the event of the table `token`, as another phone or the director would,
    with the push it makes."""
    with app.app_context(), app.test_request_context():
        table = core.table_by_token(token)
        assert table is not None
        act(table.event)


# --------------------------------------------------------------------------- item 1: Military


def test_a_military_keypad_tap_made_offline_comes_back_as_its_preview_not_as_recorded(
    app: Flask, live_server: str, phone: BrowserContext, screenshot_dir: Path
) -> None:
    """The keypad's "8 tricks" only asks what 8 tricks would mean: sent from the outbox once the
    phone is back, the bar does not say "recorded"; the preview with its Confirm is on screen again,
    and only Confirm records the hand (and then the bar says so)."""
    tokens = military_event(app)
    page = open_table(phone, live_server, tokens[0])

    phone.set_offline(True)
    page.get_by_role("button", name="8 tricks", exact=True).click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: 8 tricks (tapped at ")

    phone.set_offline(False)
    bar = page.locator(".outbox-bar")
    expect(bar).to_have_text(not_recorded_yet("8 tricks"), timeout=scaled_ms(15000))
    confirm = page.locator("form.confirm")
    expect(confirm).to_contain_text("Visitors took 8 tricks")
    page.wait_for_timeout(1500)  # a reconnection's refresh does not take the preview away
    expect(confirm.get_by_role("button", name="Confirm hand 1")).to_be_visible()
    expect(bar).not_to_contain_text("recorded once")
    page.screenshot(path=str(screenshot_dir / "outbox-military-preview-back.png"), full_page=True)
    assert results(app) == {}  # nothing recorded by the keypad

    page.get_by_role("button", name="Confirm hand 1").click()
    expect(page.get_by_role("heading", name="Hand 1 is recorded")).to_be_visible()
    expect(bar).to_be_hidden()  # a new entry: what was said before is old news
    assert results(app) == {1: 8}


def test_a_military_confirm_made_offline_is_recorded_once_and_said_so(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    tokens = military_event(app)
    page = open_table(phone, live_server, tokens[0])
    page.get_by_role("button", name="8 tricks", exact=True).click()
    expect(page.locator("form.confirm")).to_contain_text("Visitors took 8 tricks")

    phone.set_offline(True)
    page.get_by_role("button", name="Confirm hand 1").click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: Confirm hand 1 (tapped at ")
    assert results(app) == {}

    phone.set_offline(False)
    expect(page.locator(".outbox-bar")).to_have_text(sent_once("Confirm hand 1"), timeout=scaled_ms(15000))
    expect(page.get_by_role("heading", name="Hand 1 is recorded")).to_be_visible()
    assert results(app) == {1: 8}


def test_a_military_keypad_tap_sent_by_another_page_is_not_said_recorded(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    """The tap waits on the phone, the page is closed, and another page of the app on the phone
    sends it: nothing is recorded, and that page says to tap again (it has no preview to show)."""
    tokens = military_event(app)
    page = open_table(phone, live_server, tokens[0])
    phone.set_offline(True)
    page.get_by_role("button", name="8 tricks", exact=True).click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: 8 tricks")
    page.close()

    phone.set_offline(False)
    other = phone.new_page()
    other.goto(f"{lan(live_server)}/")
    expect(other.locator(".outbox-bar")).to_have_text(
        re.compile(
            r'^Back online: your entry "8 tricks" \(tapped at \d\d:\d\d\) was sent, but nothing was recorded: '
            r"tap it again\.$"
        ),
        timeout=scaled_ms(15000),
    )
    assert results(app) == {}


# --------------------------------------------------------------------------- item 5: back online


def table_one_last_in(app: Flask, live_server: str, phone: BrowserContext) -> tuple[list[str], Page]:
    """A Military event's hand 1 with every other table in, then table 1's phone confirming its own."""
    tokens = military_event(app)
    for table, token in enumerate(tokens[1:], start=2):
        in_the_event(app, token, lambda ev, t=table: military.enter_result(ev, t, 1, 7, None, f"table {t}"))
    page = open_table(phone, live_server, tokens[0])
    page.get_by_role("button", name="8 tricks", exact=True).click()
    page.get_by_role("button", name="Confirm hand 1").click()
    expect(page.get_by_role("heading", name="Hand 1 is recorded")).to_be_visible()
    return tokens, page


def test_a_military_table_back_online_shows_the_hand_the_director_opened_meanwhile(
    app: Flask, live_server: str, phone: BrowserContext, screenshot_dir: Path
) -> None:
    """Every table is in; the phone goes offline and the director opens hand 2: the push is lost (the
    phone's live stream outlives the drop without an error, so it is never reopened). Back online,
    the phone shows hand 2 at once, with no reload and no other table's entry to wake it."""
    tokens, page = table_one_last_in(app, live_server, phone)
    expect(page.locator(".recorded")).to_contain_text("Every table is in")

    phone.set_offline(True)
    page.wait_for_timeout(500)
    in_the_event(app, tokens[0], lambda ev: military.advance(ev, hand=1))  # the director opens hand 2
    page.wait_for_timeout(1500)  # its push does not reach the phone
    expect(page.get_by_role("heading", name="Hand 1 is recorded")).to_be_visible()

    phone.set_offline(False)
    expect(page.get_by_role("heading", name=re.compile("^Hand 2 of 10"))).to_be_visible(timeout=scaled_ms(5000))
    expect(page.get_by_role("button", name="8 tricks", exact=True)).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "outbox-military-back-online-next-hand.png"), full_page=True)


def test_a_table_back_online_before_the_server_can_be_reached_catches_up_once_it_can(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    """The Wi-Fi is back a moment before the server can be reached: the first fetch of the table's
    panel fails, and it is tried again by itself."""
    tokens, page = table_one_last_in(app, live_server, phone)

    phone.set_offline(True)
    page.wait_for_timeout(500)
    in_the_event(app, tokens[0], lambda ev: military.advance(ev, hand=1))
    failed: list[str] = []

    def fail_first(route: Route) -> None:
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.abort("addressunreachable")

    page.route(lambda url: urlsplit(url).path.endswith("/panel"), fail_first)  # ?since= or not
    phone.set_offline(False)
    expect(page.get_by_role("heading", name=re.compile("^Hand 2 of 10"))).to_be_visible(timeout=scaled_ms(8000))
    assert len(failed) == 1


def test_a_military_table_whose_stream_reopens_shows_the_hand_opened_while_it_was_down(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    """The other way back: the live stream itself breaks (the server restarted, a proxy cut it) and
    the hand is opened before it is open again: once it is, the phone shows the new hand."""
    tokens = military_event(app)
    for table, token in enumerate(tokens[1:], start=2):
        in_the_event(app, token, lambda ev, t=table: military.enter_result(ev, t, 1, 7, None, f"table {t}"))
    streams: list[Route] = []

    def break_then_hold(route: Route) -> None:
        if not streams:  # the first stream ends at once: the page hears an error and opens it again ...
            streams.append(route)
            route.fulfill(status=200, content_type="text/event-stream", body="retry: 200\n\n")
        else:  # ... and that one is held until the hand is opened
            streams.append(route)

    page = phone.new_page()
    page.route("**/events?only=orders,changed,timer&since=*", break_then_hold)
    page.goto(f"{lan(live_server)}/t/{tokens[0]}")
    page.wait_for_load_state("load")
    page.get_by_role("button", name="8 tricks", exact=True).click()
    page.get_by_role("button", name="Confirm hand 1").click()
    expect(page.locator(".recorded")).to_contain_text("Every table is in")
    for _ in range(100):
        if len(streams) == 2:
            break
        page.wait_for_timeout(50)
    assert len(streams) == 2, "the page did not open its stream again"

    in_the_event(app, tokens[0], lambda ev: military.advance(ev, hand=1))  # no stream to hear it
    page.wait_for_timeout(500)
    expect(page.get_by_role("heading", name="Hand 1 is recorded")).to_be_visible()
    streams[1].continue_()  # the stream is back
    expect(page.get_by_role("heading", name=re.compile("^Hand 2 of 10"))).to_be_visible(timeout=scaled_ms(5000))


# --------------------------------------------------------------------------- the other formats' tables


@contextmanager
def set_up_without_csrf(app: Flask) -> Iterator[FlaskClient]:
    """A test client for setting an event up through its forms (the live server checks CSRF tokens,
    which the test client does not send); the browsers' own requests come after it, checked."""
    app.config["WTF_CSRF_ENABLED"] = False
    try:
        yield app.test_client()
    finally:
        app.config["WTF_CSRF_ENABLED"] = True


def test_a_whist_drive_deal_recorded_offline_is_sent_once_and_said_recorded(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    with app.app_context():
        event = drive.create("Village hall drive", [f"P{n}" for n in range(1, 13)], deals=6)
        tokens = [t.token for t in event.tables]
    page = open_table(phone, live_server, tokens[0])

    # the keypad's tap only asks for the preview: back online, the preview, and not "recorded"
    phone.set_offline(True)
    page.get_by_role("button", name="8 tricks", exact=True).click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: 8 tricks (tapped at ")
    phone.set_offline(False)
    expect(page.locator(".outbox-bar")).to_have_text(not_recorded_yet("8 tricks"), timeout=scaled_ms(15000))
    expect(page.locator("form.confirm")).to_contain_text("North-South took 8, East-West 5.")
    with app.app_context():
        assert db.session.scalars(db.select(ReportedResult)).all() == []
    # its Confirm, tapped offline, is recorded once back online
    phone.set_offline(True)
    page.get_by_role("button", name="Confirm deal 1").click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: Confirm deal 1 (tapped at ")

    phone.set_offline(False)
    expect(page.locator(".outbox-bar")).to_have_text(sent_once("Confirm deal 1"), timeout=scaled_ms(15000))
    expect(page.get_by_role("heading", name="Deal 1 is recorded")).to_be_visible()
    with app.app_context():
        assert {(r.hand, r.table, r.tricks) for r in db.session.scalars(db.select(ReportedResult))} == {(1, 1, 8)}


def test_a_whist_drive_table_back_online_shows_the_deal_that_moved_on_meanwhile(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    """Item 5 at a drive: the last table's entry moves every table on to deal 2 while this phone is
    offline; back online, it shows deal 2 by itself."""
    with app.app_context():
        event = drive.create("Village hall drive", [f"P{n}" for n in range(1, 13)], deals=6)
        tokens = [t.token for t in event.tables]
    page = open_table(phone, live_server, tokens[0])
    page.get_by_role("button", name="8 tricks", exact=True).click()
    page.get_by_role("button", name="Confirm deal 1").click()
    expect(page.get_by_role("heading", name="Deal 1 is recorded")).to_be_visible()

    phone.set_offline(True)
    page.wait_for_timeout(500)
    for table, token in ((2, tokens[1]), (3, tokens[2])):
        in_the_event(app, token, lambda ev, t=table: drive.enter(ev, t, 1, 7, f"table {t}"))
    page.wait_for_timeout(1500)
    expect(page.get_by_role("heading", name="Deal 1 is recorded")).to_be_visible()

    phone.set_offline(False)
    expect(page.get_by_role("heading", name=re.compile("^Deal 2 of 6"))).to_be_visible(timeout=scaled_ms(5000))
    expect(page.get_by_role("button", name="8 tricks", exact=True)).to_be_visible()


def bid_whist_match(app: Flask, hands: int = 0) -> dict[str, Any]:
    """A one-round Bid Whist tournament of four teams, started; its first match (`hands` of its four
    hands entered), with its scorer token, teams and their codes."""
    from tests.web.test_tournament import hand
    from tests.web.test_tournament_director import round_matches, started

    with set_up_without_csrf(app) as client:
        token = started(client, app, 4, rounds="1")
    m = round_matches(app, token, 1)[0]
    with app.app_context():
        game = games.by_scorer_token(m["scorer"])
        assert game is not None
        for n in range(1, hands + 1):
            games.enter_hand(game, n, hand(n, 0))
        m["table_token"] = db.session.scalars(
            db.select(EventTable.token).where(EventTable.event_id == game.event_id, EventTable.number == m["table"])
        ).one()
    return m


def test_bid_whist_table_taps_made_offline_are_each_sent_once_and_said_recorded(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    """A call, the undo of a call and a whole hand, on the match's scoring page (the table's card
    opens it)."""
    m = bid_whist_match(app)
    page = open_table(phone, live_server, m["table_token"])
    calls = page.locator("fieldset.calls")
    expect(calls).to_be_visible()
    bar = page.locator(".outbox-bar")

    phone.set_offline(True)
    calls.get_by_role("button", name="4", exact=True).click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: 4 (tapped at ")
    phone.set_offline(False)
    expect(bar).to_have_text(sent_once("4"), timeout=scaled_ms(15000))
    expect(page.locator(".bids-so-far .bid-tag")).to_have_count(1)

    phone.set_offline(True)
    undo = page.get_by_role("button", name=re.compile("^↶ Undo last entry"))
    label = " ".join(undo.inner_text().split())
    undo.click()
    expect(page.locator(".outbox-note")).to_contain_text(f"Waiting to send: {label}")
    phone.set_offline(False)
    expect(bar).to_have_text(sent_once(label), timeout=scaled_ms(15000))
    expect(page.locator(".bids-so-far .bid-tag")).to_have_count(0)
    with app.app_context():
        game = games.by_scorer_token(m["scorer"])
        assert game is not None and not (game.pending or {}).get("auction")

    for i, words in enumerate(("4", "Pass", "Pass", "Pass")):  # and the whole hand, saved offline
        calls.get_by_role("button", name=words, exact=True).click()
        expect(page.locator(".bids-so-far .bid-tag")).to_have_count(i + 1)
    page.get_by_role("group", name="Trumps named").get_by_role("radio", name="♠ Spades", exact=True).check()
    page.get_by_role("group", name=re.compile("^Books taken by")).get_by_role("radio", name="10", exact=True).check()
    phone.set_offline(True)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: Save hand 1")
    phone.set_offline(False)
    expect(bar).to_have_text(sent_once("Save hand 1"), timeout=scaled_ms(15000))
    expect(page.locator("#hand-panel h2")).to_have_text(re.compile(r"^Hand 2\b"))
    with app.app_context():
        game = games.by_scorer_token(m["scorer"])
        assert game is not None and [h.number for h in game.hands] == [1]


def test_a_bid_whist_sheet_signed_and_disputed_offline_is_sent_once_and_said_recorded(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    m = bid_whist_match(app, hands=4)
    page = open_table(phone, live_server, m["table_token"])
    event_bar = page.locator("#event-bar")
    expect(event_bar).to_contain_text("The round is over.")

    phone.set_offline(True)
    event_bar.get_by_label(re.compile(rf"^Team code for \({m['home']}\) ")).fill(m["codes"][0])
    sign = event_bar.get_by_role("button", name=re.compile(rf"^Sign for \({m['home']}\)"))
    label = " ".join(sign.inner_text().split())
    sign.click()
    expect(page.locator(".outbox-note")).to_contain_text(f"Waiting to send: {label}")
    phone.set_offline(False)
    expect(page.locator(".outbox-bar")).to_have_text(sent_once(label), timeout=scaled_ms(15000))
    expect(event_bar.locator(".signed")).to_have_count(1)
    with app.app_context():
        match = db.session.get(EventMatch, m["id"])
        assert match is not None and match.signed_home_at is not None and match.signed_away_at is None

    event_bar.get_by_text("Something is wrong with the sheet?").click()  # the other team disputes it
    event_bar.get_by_role("radio", name=re.compile(rf"^\({m['away']}\)")).check()
    event_bar.get_by_label("What is wrong").fill("hand 3 was 9 books")
    phone.set_offline(True)
    event_bar.get_by_role("button", name="Call the director").click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: Call the director")
    phone.set_offline(False)
    expect(page.locator(".outbox-bar")).to_have_text(sent_once("Call the director"), timeout=scaled_ms(15000))
    expect(event_bar.get_by_role("alert")).to_contain_text(re.compile(r"^Disputed \(.*hand 3 was 9 books\)"))


def test_a_club_table_set_up_offline_says_what_was_recorded_and_what_was_not(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    """A club night's table sets up its own game: "Add a player" only redraws the form (nothing is
    recorded, so the bar says to tap it again); "Start the game" makes the game (recorded once); the
    trump tapped on the game's page, too."""
    with app.app_context():
        event = club.create("Tuesday Nomination", "nomination", 1)
        token = event.tables[0].token
    page = open_table(phone, live_server, token)
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    bar = page.locator(".outbox-bar")

    phone.set_offline(True)
    page.get_by_role("button", name=re.compile("Add a player")).click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: + Add a player")
    phone.set_offline(False)
    expect(bar).to_have_text(
        re.compile(
            r'^Back online: your entry "\+ Add a player" \(tapped at \d\d:\d\d\) was sent, but nothing was '
            r"recorded: tap it again\.$"
        ),
        timeout=scaled_ms(15000),
    )
    with app.app_context():
        assert db.session.scalars(db.select(Game)).all() == []

    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        page.fill(f"#name-{i}", name)
    phone.set_offline(True)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: Start the game")
    phone.set_offline(False)
    expect(bar).to_have_text(sent_once("Start the game"), timeout=scaled_ms(15000))
    expect(page.locator("#hand-panel h2")).to_contain_text("Hand 1")
    with app.app_context():
        (game,) = db.session.scalars(db.select(Game)).all()
        scorer = game.scorer_token

    trump = page.get_by_role("button", name="♠ Spades")  # the game's first tap: the trump turned up
    label = trump.get_attribute("aria-label") or " ".join(trump.inner_text().split())
    phone.set_offline(True)
    trump.click()
    expect(page.locator(".outbox-note")).to_contain_text(f"Waiting to send: {label}")
    phone.set_offline(False)
    expect(bar).to_have_text(sent_once(label), timeout=scaled_ms(15000))
    with app.app_context():
        game = games.by_scorer_token(scorer)
        assert game is not None and (game.pending or {}).get("trump") == "S"
