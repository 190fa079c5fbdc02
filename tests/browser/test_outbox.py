"""No tap is lost on flaky Wi-Fi (issue 13, item 1), tried as at a venue: the phone reaches the app
over plain HTTP at a LAN name (http://scorepad.lan:PORT, mapped by the browser to this machine, so
not a secure context and no service worker), goes offline mid-hand, loses an answer after the
server committed, reloads with a tap still waiting, and meets another phone's entry."""

from __future__ import annotations

import re
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError

from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import IdempotentRequest
from tests.browser.conftest import LAN, PHONE
from tests.slowness import scaled, scaled_ms


def sent_once(label: str) -> re.Pattern[str]:
    """What the bar says once the entry that waited was sent (and the server recorded it)."""
    return re.compile(
        rf'^Back online: your entry "{re.escape(label)}" \(tapped at \d\d:\d\d\) was sent and recorded once\.$'
    )


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
    # The scripts run before the load event: a tap before then is a plain form post (the fallback of a
    # phone without scripts), which these tests' cut connection would turn into the browser's error page.
    page.wait_for_load_state("load")
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
        return [
            (r.key, r.status) for r in db.session.scalars(db.select(IdempotentRequest).order_by(IdempotentRequest.id))
        ]


def test_a_bid_tapped_offline_waits_and_is_sent_once_when_the_connection_is_back(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
    context = lan_browser.new_context(**PHONE)
    page = context.new_page()
    token = new_game(page, lan(live_server))
    before = len(keys(app))

    context.set_offline(True)
    page.get_by_role("button", name="Bob bids 0").click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: Bob bids 0 (tapped at ")
    bar = page.locator(".outbox-bar")
    expect(bar).to_contain_text(re.compile(r"Offline since \d\d:\d\d · 1 entry waiting to send \(first: Bob bids 0"))
    # the hand goes on on the phone (issue 31, item 3): Bob's bid shown as waiting, Cat's asked
    expect(page.locator(".offline-hand .bid-tag.waiting")).to_have_text("Bob 0 · waiting")
    expect(page.locator(".offline-hand").get_by_role("button", name="Cat bids 1")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "outbox-waiting.png"), full_page=True)
    assert bids(app, token) is None

    context.set_offline(False)  # the Wi-Fi comes back: the waiting bid goes by itself
    expect(page.locator(".bids-so-far")).to_contain_text("Bob 0")
    expect(bar).to_have_text(sent_once("Bob bids 0"))  # and the page says so
    assert bids(app, token) == [0]
    sent = keys(app)[before:]
    assert len(sent) == 1 and sent[0][0].startswith("tap-") and sent[0][1] == 200
    page.get_by_role("button", name="Cat bids 1").click()  # and play goes on
    expect(page.locator(".bids-so-far")).to_contain_text("Cat 1")
    expect(bar).to_be_hidden()  # a new entry: what was sent before is old news
    context.close()


def test_an_answer_lost_after_the_server_recorded_it_is_resent_and_counted_once(
    app: Flask, live_server: str, lan_browser: Browser
) -> None:
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
    expect(page.locator(".bids-so-far")).to_contain_text("Bob 0", timeout=scaled_ms(15000))  # resent, same key
    expect(page.locator(".outbox-bar")).to_have_text(sent_once("Bob bids 0"))
    assert lost and lost[0].startswith("tap-")
    assert (lost[0], 200) in keys(app)  # the resend was answered from the stored answer
    assert bids(app, token) == [0]  # once, not twice
    context.close()


def test_a_resent_tap_undone_meanwhile_is_said_as_it_stands_now(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
    """Issue 33, item 8: the answer to a bid is lost, another phone takes the bid back, then the
    phone's outbox sends the bid again with its key: the server does not run it twice, and it no longer
    answers "recorded once" as if the bid stood: the page says the game changed since, and redraws."""
    context = lan_browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_server + "/")
    token = new_game(page, live_server, secure=True)
    lost: list[str] = []

    def drop_the_answer_and_undo(route: Route) -> None:
        if route.request.method == "POST" and not lost:
            route.fetch()  # the server records the bid ...
            lost.append(route.request.headers.get("idempotency-key", ""))
            with app.app_context():  # ... another phone takes it back ...
                game = games.by_scorer_token(token)
                assert game is not None
                games.undo(game)
            route.abort()  # ... and the answer never reached this phone
        else:
            route.continue_()

    page.route("**/entry", drop_the_answer_and_undo)
    page.get_by_role("button", name="Bob bids 0").click()
    error = page.locator(".request-error")
    expect(error).to_contain_text(
        re.compile(
            r'Your entry "Bob bids 0" \(tapped at \d\d:\d\d\): This entry was recorded when it first arrived, and the '
            r"game has changed since \(an undo, a correction or another phone's entry\): 0 hands are recorded now"
        ),
        timeout=scaled_ms(15000),
    )
    expect(page.locator(".outbox-bar")).not_to_contain_text("recorded once")
    expect(page.locator(".offline-banner")).to_be_hidden()  # the server answered: not "You are offline"
    page.screenshot(path=str(screenshot_dir / "outbox-changed-since.png"), full_page=True)
    assert bids(app, token) is None or bids(app, token) == []  # the bid stays taken back: not run again
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
    expect(page.locator(".bids-so-far")).to_contain_text("Bob 0", timeout=scaled_ms(20000))
    expect(page.locator(".outbox-bar")).to_have_text(sent_once("Bob bids 0"))
    context.close()


def test_a_waiting_tap_meets_another_phones_entry_and_the_player_sees_both(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
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
    box = page.locator('#hand-panel [data-kind="refused"]')  # said beside the hand (issue 31, item 3)
    expect(box).to_contain_text('your entry "Bob bids 0" (tapped at ')
    expect(box).to_contain_text("Bob's bid of 1 is recorded; your bid of 0 for Bob was not applied.")
    expect(page.locator(".bids-so-far")).to_contain_text("Bob 1")  # redrawn from what the server kept
    page.screenshot(path=str(screenshot_dir / "outbox-conflict.png"), full_page=True)
    assert bids(app, token) == [1]
    context.close()


# --------------------------------------------------------------------------- a whole hand, and a reload

WHIST_TEAMS, WHIST_SEATS = ("Robins", "Wrens"), ("Ann", "Bea", "Cal", "Dan")
TRUMPS = {"H": "♥ Hearts", "D": "♦ Diamonds", "C": "♣ Clubs", "S": "♠ Spades"}


def new_whist(page: Page, base: str) -> str:
    """A classic Whist game (honours off, the trump turned up): Robins against Wrens. Its scorer token."""
    page.goto(base + "/new/whist")
    page.get_by_label("Team 1 name").fill(WHIST_TEAMS[0])
    page.get_by_label("Team 2 name").fill(WHIST_TEAMS[1])
    for seat, name in enumerate(WHIST_SEATS):
        page.locator(f"#name-{seat}").fill(name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 1")
    return page.url.rstrip("/").rsplit("/", 1)[1]


def fill_hand(page: Page, trump: str, robins: int) -> None:
    """The whole hand on one form: the trump turned up and the tricks Robins took (Wrens took the rest)."""
    page.get_by_role("group", name="Trump turned up").get_by_role("radio", name=TRUMPS[trump], exact=True).check()
    page.get_by_role("group", name="Tricks taken by Robins").get_by_role("radio", name=str(robins), exact=True).check()


def hands(app: Flask, token: str) -> list[tuple[int, dict[str, object]]]:
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        return [(h.number, dict(h.entry)) for h in game.hands]


def test_a_whole_hand_saved_offline_is_recorded_once_when_the_connection_is_back(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
    """Issue 13: go offline, tap a whole hand, reload, come back online: the hand is recorded exactly
    once and the page says so. Over plain HTTP at a LAN name there is no service worker, so the
    reload offline gets the browser's own error page (what the README says); the hand waits on the
    phone all the same and is sent by the page once it loads again."""
    context = lan_browser.new_context(**PHONE)
    page = context.new_page()
    token = new_whist(page, lan(live_server))
    assert page.evaluate("window.isSecureContext") is False and page.evaluate("'serviceWorker' in navigator") is False
    before = len(keys(app))

    context.set_offline(True)
    # Chromium's offline emulation lets a request out that a page starts as it unloads (the outbox's
    # retry, firing during the reload below): no phone without a network could, so the writes are
    # also refused for the whole browser while "offline"
    context.route("**/entry", lambda route: route.abort("internetdisconnected"))
    fill_hand(page, "H", 8)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: Save hand 1 (tapped at ")
    bar = page.locator(".outbox-bar")
    expect(bar).to_contain_text(
        re.compile(r"^Offline since \d\d:\d\d · 1 entry waiting to send \(first: Save hand 1, tapped at")
    )
    assert hands(app, token) == []

    with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED"):
        page.reload()  # plain HTTP: no service worker to answer, the browser shows its own error page
    assert hands(app, token) == []

    context.set_offline(False)
    context.unroute("**/entry")
    page.goto(f"{lan(live_server)}/g/{token}")  # the player reloads once the Wi-Fi is back
    expect(bar).to_have_text(sent_once("Save hand 1"), timeout=scaled_ms(15000))
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 2")
    expect(page.locator("#hand-1 td.num .total")).to_have_text(["2", "0"])  # 8 tricks: 2 odd to Robins
    page.screenshot(path=str(screenshot_dir / "outbox-whole-hand-sent.png"), full_page=True)
    recorded = hands(app, token)
    assert [n for n, _ in recorded] == [1] and recorded[0][1]["tricks"] == [8, 5] and recorded[0][1]["trump"] == "H"
    sent = keys(app)[before:]
    assert len(sent) == 1 and sent[0][1] == 200  # one request, recorded once

    page.reload()  # nothing waits any more: a reload sends nothing again
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 2")
    expect(bar).to_be_hidden()
    assert len(hands(app, token)) == 1 and len(keys(app)) == before + 1
    context.close()


def cached_copy_holds(page: Page, marker: str, timeout: float = scaled(10.0)) -> None:
    """Wait until the service worker's copy of this page holds `marker` (copies are sent after a swap)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(
        """async (marker) => {
                 const cache = await caches.open("scorepad-pages");
                 const hit = await cache.match(location.href, { ignoreVary: true });
                 return !!hit && (await hit.text()).includes(marker);
               }""",
        marker,
    ):
        assert time.monotonic() < deadline, f"the service worker's copy of {page.url} never held {marker!r}"
        page.wait_for_timeout(100)


def test_a_reload_with_no_connection_shows_the_last_scores_and_what_waits(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    """Issue 13, item 2, where there is a service worker (here localhost, a secure context; at a
    club, HTTPS: tests/browser/test_https.py): the scoring page and the spectators' page are
    fetched fresh while the network is there, and a reload with none shows the last copy seen,
    with the bar saying since when the phone is offline and what waits; once back, the waiting
    hand is sent once and the page is the server's again."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_server + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    token = new_whist(page, live_server)
    page.on("console", lambda m: print("CONSOLE", m.text) if "DBG" in m.text else None)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    fill_hand(page, "S", 9)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible()
    cached_copy_holds(page, 'id="hand-1"')  # the page as seen after the hand, not as first loaded

    with app.app_context():
        public_id = games.by_scorer_token(token).public_id  # type: ignore[union-attr]
    watcher = context.new_page()  # a spectator's page, on the same phone for the test's sake
    watcher.goto(f"{live_server}/w/{public_id}")
    expect(watcher.locator("#hand-1")).to_be_visible()
    with app.app_context():  # and an event's table page, and its director's room (which is not kept)
        from scorepad.events import military

        event = military.create_event("Club night", ["Aces", "Kings"], [30])
        table_token, director_token = event.tables[0].token, event.director_token
    table = context.new_page()
    table.goto(f"{live_server}/t/{table_token}")
    expect(table.get_by_role("heading", name="Table 1 Aces")).to_be_visible()
    cached_copy_holds(table, "Table 1")
    director = context.new_page()
    director.goto(f"{live_server}/d/{director_token}")

    context.set_offline(True)
    context.route("**/entry", lambda route: route.abort("internetdisconnected"))  # see the test above
    fill_hand(page, "D", 5)
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.locator(".outbox-note")).to_contain_text("Waiting to send: Save hand 2")
    page.reload()  # the service worker answers with the last copy seen
    bar = page.locator(".outbox-bar")
    expect(bar).to_contain_text(
        re.compile(r"^Offline since \d\d:\d\d · 1 entry waiting to send \(first: Save hand 2, tapped at")
    )
    expect(bar).to_contain_text(re.compile(r"This page is as it was last seen, at \d\d:\d\d"))
    # nothing went while offline; checked at once: the outbox retries with backoff, and a retry made
    # through the service worker may not be held by the browser's offline emulation (CI, at load)
    assert len(hands(app, token)) == 1
    expect(page.locator("#hand-1 td.num .total")).to_have_text(["3", "0"])  # the last scores: 9 tricks, 3 odd
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 2")
    page.screenshot(path=str(screenshot_dir / "offline-reload-last-copy.png"), full_page=True)
    watcher.reload()
    expect(watcher.locator("#hand-1")).to_be_visible()
    expect(watcher.locator(".outbox-bar")).to_contain_text(re.compile(r"^Offline since \d\d:\d\d · 1 entry waiting"))
    table.reload()
    expect(table.get_by_role("heading", name="Table 1 Aces")).to_be_visible()
    expect(table.locator(".outbox-bar")).to_contain_text("This page is as it was last seen, at ")
    director.reload()  # a shared phone keeps no copy of the director's room
    expect(director.get_by_role("heading", name="You are offline")).to_be_visible()
    # (closed: over HTTP/1.1 a browser holds 6 connections to a host, and each page's live streams
    # take some of them as they come back; 4 pages of live streams would leave none for the rest)
    table.close()
    director.close()

    context.set_offline(False)  # the Wi-Fi is back: the waiting hand goes by itself, once
    context.unroute("**/entry")
    expect(bar).to_have_text(sent_once("Save hand 2"), timeout=scaled_ms(15000))
    expect(page.locator("#hand-2 td.num .total")).to_have_text(["3", "2"])  # Wrens took 8: 2 odd
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 3")
    assert [n for n, _ in hands(app, token)] == [1, 2]
    expect(watcher.locator("#hand-2")).to_be_visible(
        timeout=scaled_ms(15000)
    )  # the spectators' copy is brought up to date
    context.close()


def test_a_plain_form_sent_with_no_connection_says_it_was_not_sent(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
    """Issue 13, item 5: a correction is a plain form (no outbox). Offline, it is not sent and the
    page says so beside it, as filled; once back, sending it again corrects the hand."""
    context = lan_browser.new_context(**PHONE)
    page = context.new_page()
    token = new_whist(page, lan(live_server))
    fill_hand(page, "H", 8)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 2")
    page.goto(f"{lan(live_server)}/g/{token}/hands/1")

    context.set_offline(True)
    tricks = page.get_by_role("group", name=re.compile("^Tricks taken by Robins")).get_by_role(
        "radio", name="9", exact=True
    )
    tricks.check()
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator('.outbox-note[data-kind="not-sent"]')).to_have_text(
        "Not sent: this phone is offline, so nothing was saved. What you entered is still here: send it again once "
        "the connection is back."
    )
    expect(tricks).to_be_checked()
    page.screenshot(path=str(screenshot_dir / "outbox-plain-form-not-sent.png"), full_page=True)
    assert hands(app, token)[0][1]["tricks"] == [8, 5]

    context.set_offline(False)
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("#hand-1 td.num .total")).to_have_text(["3", "0"])
    assert hands(app, token)[0][1]["tricks"] == [9, 4]
    context.close()


def test_with_the_server_gone_the_service_worker_says_what_was_not_sent(
    browser: Browser, tmp_path: Path, screenshot_dir: Path
) -> None:
    """The phone's Wi-Fi is up but the server is not (the laptop at the venue was shut): the browser
    says it is online, so the page cannot know before sending. Where there is a service worker
    (localhost here, HTTPS at a club), a reload shows the last copy, and a plain form sent gets the
    offline page saying that nothing was saved instead of the browser's error page."""
    from tests.serving import ScorepadRun

    server = ScorepadRun(tmp_path, SCOREPAD_DEMO="0")
    server.start()
    base = f"http://127.0.0.1:{server.port}"
    try:
        context = browser.new_context(**PHONE)
        page = context.new_page()
        page.goto(base + "/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        token = new_whist(page, base)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        fill_hand(page, "S", 7)
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator("#hand-panel h2")).to_have_text("Hand 2")
        cached_copy_holds(page, 'id="hand-1"')
        page.goto(f"{base}/g/{token}/hands/1")

        server.kill()  # kill -9: connections refused from now on
        page.get_by_role("group", name=re.compile("^Tricks taken by Robins")).get_by_role(
            "radio", name="9", exact=True
        ).check()
        page.get_by_role("button", name="Save the correction").click()
        expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
        expect(page.locator(".not-sent-note")).to_be_visible()
        expect(page.locator(".not-sent-note")).to_contain_text(
            "What you just sent did not reach the server: nothing was saved."
        )
        page.screenshot(path=str(screenshot_dir / "offline-plain-form-not-sent.png"), full_page=True)

        page.goto(f"{base}/g/{token}")  # the scoring page: the last copy, and the bar says so
        expect(page.locator("#hand-1 td.num .total")).to_have_text(["1", "0"])
        expect(page.locator(".outbox-bar")).to_contain_text(
            re.compile(r"^Offline since \d\d:\d\d\. This page is as it was last seen")
        )

        server.start()  # back on the same port: the copy is replaced by the server's page by itself
        expect(page.locator(".outbox-bar")).to_be_hidden(timeout=scaled_ms(20000))
        expect(page.locator("#hand-panel h2")).to_have_text("Hand 2")
        context.close()
    finally:
        server.stop()
