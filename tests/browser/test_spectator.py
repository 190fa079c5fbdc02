"""A spectator follows a home game live on a second phone, fed by server-sent events.

The scorer's phone starts a short Nomination Whist game (Ann, Bob, Cat, Dan; my own list of
1, 2, 3 cards; Ann deals first, so Bob bids first in hand 1) and opens "Share live view": a QR
code with an accessible name and the link to the read-only page (`/w/<public id>`, not the
scorer's `/g/<token>`), offered as a short link (`/s/<code>`) that leads there. A second browser
context, another phone, opens that link and is never reloaded: a marker set on its window must
still be there at the end. What it must see, each within a second and without any navigation:

1. Hand 1 (1 card, ♥): bids Bob 1, Cat 0, Dan 0, Ann 0; entered as Ann taking the trick.
   Ann 0/1 +1, Bob 1/0 +0, Cat 0/0 +10, Dan 0/0 +10 -> Ann 1, Bob 0, Cat 10, Dan 10.
2. Hand 2 (2 cards, ♠, Bob deals, Cat bids first): Cat 2, Dan 0, Ann 1, Bob 0;
   tricks Ann 1, Bob 0, Cat 1, Dan 0. Ann 1/1 +11, Bob 0/0 +10, Cat 2/1 +1, Dan 0/0 +10
   -> Ann 12, Bob 10, Cat 11, Dan 20. The scorer then undoes it (back to hand 1's totals, the
   sheet's row 2 gone) and enters it again.
3. A correction of hand 1 from the sheet: Bob took the trick, not Ann. Hand 1 becomes
   Ann 0/0 +10, Bob 1/1 +11, Cat +10, Dan +10, so after hand 2: Ann 21, Bob 21, Cat 11, Dan 20.
4. The spectator's phone tries the scorer's endpoints with the public id: every POST is refused
   with a 4xx and nothing changes.
5. The live stream is dropped (the EventSource closed and its error fired, as when the phone loses
   the server) and the next attempt is refused outright: the htmx SSE extension opens a new
   stream, the browser retries the refused one, and the page keeps updating.
6. Hand 3 (3 cards, no trumps, Cat deals, Dan bids first; no hook under 4 cards): Dan 1, Ann 1,
   Bob 1, Cat 0; tricks Ann 0, Bob 1, Cat 0, Dan 2. Ann 1/0 +0, Bob 1/1 +11, Cat 0/0 +10,
   Dan 1/2 +2 -> Ann 21, Bob 32, Cat 21, Dan 22: the game is over and Bob wins with 32. The
   spectator sees the final totals; its exported record scores the same with `scorepad score`.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser import taps
from tests.browser.conftest import PHONE
from tests.slowness import scaled, scaled_ms

PLAYERS = ("Ann", "Bob", "Cat", "Dan")
WIDTH = PHONE["viewport"]["width"]
TRUMP_CHIPS = {"H": "♥ Hearts", "D": "♦ Diamonds", "C": "♣ Clubs", "S": "♠ Spades", "NT": "No trumps"}
LIVE_SECONDS = 1  # the issue: the spectator's page updates within a second


@dataclass(frozen=True)
class HandData:
    trump: str
    bids: tuple[tuple[str, int], ...]  # in bidding order
    tricks: tuple[int, ...]  # seat order: Ann, Bob, Cat, Dan


HANDS = (
    HandData("H", (("Bob", 1), ("Cat", 0), ("Dan", 0), ("Ann", 0)), (0, 1, 0, 0)),  # as corrected
    HandData("S", (("Cat", 2), ("Dan", 0), ("Ann", 1), ("Bob", 0)), (1, 0, 1, 0)),
    HandData("NT", (("Dan", 1), ("Ann", 1), ("Bob", 1), ("Cat", 0)), (0, 1, 0, 2)),
)
HAND_1_AS_FIRST_ENTERED = (1, 0, 0, 0)  # the slip: Ann given the trick Bob took

# Totals worked out by hand from the rules (1 a trick, +10 for an exact bid); see the docstring.
START = {"Ann": 0, "Bob": 0, "Cat": 0, "Dan": 0}
AFTER_WRONG_1 = {"Ann": 1, "Bob": 0, "Cat": 10, "Dan": 10}
AFTER_WRONG_2 = {"Ann": 12, "Bob": 10, "Cat": 11, "Dan": 20}
AFTER_2 = {"Ann": 21, "Bob": 21, "Cat": 11, "Dan": 20}
FINAL = {"Ann": 21, "Bob": 32, "Cat": 21, "Dan": 22}

# Counts the live stream's openings and keeps every EventSource made, before any page script runs.
SPY = """
window.__sseOpens = 0;
document.addEventListener("htmx:sseOpen", function () { window.__sseOpens += 1; });
(function () {
  var Native = window.EventSource;
  window.__sources = [];
  class Recorded extends Native {
    constructor(url, options) { super(url, options); window.__sources.push(this); }
  }
  window.EventSource = Recorded;
})();
"""


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, "the page scrolls sideways"


def shot(page: Page, directory: Path, step: str) -> None:
    page.screenshot(path=str(directory / f"spectator-{step}.png"), full_page=True)


def totals(page: Page) -> dict[str, int]:
    rows = page.locator("section.totals .standings li")
    return {
        rows.nth(i).locator(".name").inner_text(): int(rows.nth(i).locator(".total").inner_text())
        for i in range(rows.count())
    }


def expect_live_totals(page: Page, want: dict[str, int]) -> None:
    """Each total on the spectator's page becomes `want` within a second, by itself."""
    rows = page.locator("section.totals .standings li")
    for name, total in want.items():
        row = rows.filter(has=page.locator(".name", has_text=re.compile(f"^{name}$")))
        expect(row.locator(".total")).to_have_text(str(total), timeout=scaled_ms(LIVE_SECONDS * 1000))
    assert totals(page) == want


def play_hand(page: Page, number: int, hand: HandData, tricks: tuple[int, ...]) -> None:
    """The scorer taps one hand in: trump, bids in turn, tricks in turn, save."""
    expect(page.get_by_role("heading", name=f"Hand {number} of 3")).to_be_visible()
    page.get_by_role("group", name="Which trump was turned up?").get_by_role(
        "button", name=TRUMP_CHIPS[hand.trump], exact=True
    ).click()
    for name, bid in hand.bids:
        expect(page.get_by_role("group", name=f"{name}’s bid")).to_be_visible()
        page.get_by_role("button", name=f"{name} bids {bid}", exact=True).click()
    taps.tap_tricks(page, [name for name, _ in hand.bids], dict(zip(PLAYERS, tricks)))
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.get_by_role("status")).to_have_text(f"Hand {number} saved.")


def test_a_spectator_follows_a_nomination_game_live(
    app: Flask,
    live_server: str,
    browser: Browser,
    screenshot_dir: Path,
    tmp_path: Path,
    no_axe_violations: Callable[[Any], None],
) -> None:
    scorer_context = browser.new_context(**PHONE)
    scorer = scorer_context.new_page()

    # ---------------------------------------------------------------- the scorer starts a short game
    scorer.goto(live_server + "/new")
    scorer.get_by_role("link", name=re.compile(r"^Nomination Whist")).click()
    for seat, name in enumerate(PLAYERS):
        scorer.get_by_role("textbox", name=f"Player {seat + 1}", exact=True).fill(name)
    scorer.locator("details.options summary").click()
    scorer.get_by_role("group", name="Cards per round", exact=True).get_by_role("radio", name="My own list").check()
    scorer.get_by_label("Custom list of cards per round").fill("1, 2, 3")
    scorer.get_by_role("group", name="Who deals first?").get_by_role("radio", name="Ann").check()
    scorer.get_by_label("Name this game").fill("Friday cards")
    scorer.get_by_role("button", name="Start the game").click()
    expect(scorer.get_by_role("heading", name="Hand 1 of 3")).to_be_visible()
    expect(scorer).to_have_url(re.compile(r"/g/[\w-]+$"))
    scorer_url = scorer.url
    scorer_token = urlsplit(scorer_url).path.rsplit("/", 1)[1]

    # ---------------------------------------------------------------- the Share screen
    scorer.get_by_role("link", name="Share live view").click()
    expect(scorer.get_by_role("heading", name="Follow this game on another phone", level=1)).to_be_visible()
    link = scorer.locator("figure.qr figcaption").get_by_role("link")
    share_link = link.inner_text()
    assert link.get_attribute("href") == share_link
    parts = urlsplit(share_link)
    assert parts.scheme == "http" and parts.port == urlsplit(live_server).port
    assert re.fullmatch(r"/s/[a-z0-9]{8}", parts.path), share_link  # short enough to type in
    short = scorer.request.get(live_server + parts.path, max_redirects=0)
    assert short.status == 302
    match = re.fullmatch(r"/w/([\w-]+)", short.headers["location"])
    assert match, short.headers["location"]
    public_id = match.group(1)
    # the spectators' link is another address altogether, and gives nothing of the scorer's away
    assert public_id != scorer_token and scorer_token not in share_link
    assert "/g/" not in share_link and parts.path != urlsplit(scorer_url).path
    expect(link).to_be_visible()  # shown in full under the code, for typing in if it will not scan
    qr = scorer.get_by_role("img", name=f"QR code for {share_link}")
    expect(qr).to_be_visible()
    assert qr.evaluate("e => e.tagName.toLowerCase()") == "svg"
    box = qr.bounding_box()
    assert box and box["width"] >= 150 and box["width"] <= WIDTH, "a code a phone's camera can read"
    expect(scorer.get_by_role("link", name="← Back to the game")).to_have_attribute("href", urlsplit(scorer_url).path)
    fits(scorer)
    shot(scorer, screenshot_dir, "1-share")
    no_axe_violations(scorer)

    # ---------------------------------------------------------------- a second phone opens the link
    # The test server listens on loopback only: the shared link names the LAN address when there is
    # one, so the second phone opens the same path on the address it can reach.
    spectator_context = browser.new_context(**PHONE)
    spectator_context.add_init_script(SPY)
    spectator = spectator_context.new_page()
    navigations: list[str] = []
    spectator.on(
        "framenavigated", lambda frame: navigations.append(frame.url) if frame == spectator.main_frame else None
    )
    watch_url = live_server + f"/w/{public_id}"
    spectator.goto(live_server + parts.path)  # the short link, on to the live page
    expect(spectator.get_by_role("heading", name="Friday cards", level=1)).to_be_visible()
    expect(spectator.get_by_text("Live: updates by itself")).to_be_visible()
    expect(spectator.get_by_text("No hands yet. Totals appear here after the first hand.")).to_be_visible()
    assert totals(spectator) == START
    spectator.wait_for_function("() => window.__sseOpens >= 1")
    channel = f"game:{public_id}"
    broker = app.extensions["scorepad.live"]
    deadline = time.monotonic() + scaled(5)
    while broker.count(channel) < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert broker.count(channel) == 1, "the server has the spectator's stream"
    spectator.evaluate("window.__marker = 1")

    # read-only: no forms, buttons or Edit links, and the scorer's token appears nowhere (the header's
    # "Large text" and language switch are this phone's own settings, not the game's)
    def read_only() -> None:
        expect(spectator.locator("main form")).to_have_count(0)
        expect(spectator.locator("main").get_by_role("button")).to_have_count(0)
        assert sorted(spectator.locator("form").evaluate_all("fs => fs.map(f => f.getAttribute('action'))")) == [
            "/settings/language",
            "/settings/text-size",
        ]
        expect(spectator.get_by_role("link", name=re.compile(r"edit|correct|undo|delete", re.I))).to_have_count(0)
        expect(spectator.locator('a[href^="/g/"]')).to_have_count(0)
        assert scorer_token not in spectator.content()

    read_only()
    fits(spectator)
    shot(spectator, screenshot_dir, "2-watch-empty")
    no_axe_violations(spectator)

    # ---------------------------------------------------------------- hand 1 saved: the spectator sees it
    scorer.get_by_role("link", name="← Back to the game").click()
    play_hand(scorer, 1, HANDS[0], HAND_1_AS_FIRST_ENTERED)
    expect_live_totals(spectator, AFTER_WRONG_1)
    expect(spectator.locator("#hand-1 td").nth(0)).to_contain_text("bid 0 · took 1")
    expect(spectator.get_by_role("heading", name="Running totals")).to_be_visible()
    expect(spectator.get_by_text("No hands yet.")).to_have_count(0)
    read_only()
    fits(spectator)
    shot(spectator, screenshot_dir, "3-watch-hand-1")
    no_axe_violations(spectator)

    # ---------------------------------------------------------------- hand 2, then Undo
    play_hand(scorer, 2, HANDS[1], HANDS[1].tricks)
    expect_live_totals(spectator, AFTER_WRONG_2)
    expect(spectator.locator("#hand-2")).to_be_visible()
    scorer.get_by_role("button", name="↶ Undo last entry: saving hand 2").click()
    expect(scorer.get_by_role("status")).to_have_text("Undone: saving hand 2.")
    expect_live_totals(spectator, AFTER_WRONG_1)
    expect(spectator.locator("#hand-2")).to_have_count(0, timeout=scaled_ms(LIVE_SECONDS * 1000))
    scorer.get_by_role("button", name="↷ Redo: saving hand 2").click()  # and back again
    expect(scorer.get_by_role("status")).to_have_text("Redone: saving hand 2.")
    expect_live_totals(spectator, AFTER_WRONG_2)

    # ---------------------------------------------------------------- a correction from the sheet
    scorer.get_by_role("link", name="Edit hand 1").click()
    expect(scorer.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    tricks_group = scorer.get_by_role("group", name="Tricks won")
    tricks_group.get_by_role("button", name="One fewer for Ann").click()
    tricks_group.get_by_role("button", name="One more for Bob").click()
    scorer.get_by_role("button", name="Save the correction").click()
    expect(scorer).to_have_url(scorer_url + "#hand-1")
    expect_live_totals(spectator, AFTER_2)
    expect(spectator.locator("#hand-1 td").nth(0)).to_contain_text("bid 0 · took 0")
    expect(spectator.locator("#hand-1 td").nth(1)).to_contain_text("bid 1 · took 1")
    read_only()
    shot(spectator, screenshot_dir, "4-watch-corrected")

    # ---------------------------------------------------------------- the spectator cannot write
    refused: dict[str, dict[str, str | float | bool]] = {
        f"/g/{public_id}/entry": {"action": "trump", "trump": "H"},
        f"/g/{public_id}/undo": {},
        f"/g/{public_id}/hands/1": {"trump": "H", "bids.0": "1", "tricks.0": "1"},
        f"/g/{public_id}/delete": {},
        f"/g/{public_id}/rematch": {},
        f"/w/{public_id}": {"action": "undo"},
        f"/w/{public_id}/events": {"action": "undo"},
        f"/w/{public_id}/game.json": {"action": "undo"},
    }
    for endpoint, form in refused.items():
        response = spectator.request.post(live_server + endpoint, form=form)
        assert 400 <= response.status < 500, f"POST {endpoint} answered {response.status}"
    record = spectator.request.get(live_server + f"/w/{public_id}/game.json").json()
    assert len(record["hands"]) == 2 and record["hands"][0]["tricks"] == list(HANDS[0].tricks)
    assert scorer.request.get(scorer_url).ok, "the game is still there"
    assert totals(spectator) == AFTER_2

    # ---------------------------------------------------------------- the stream drops; the page reconnects
    # The next connection attempt fails outright (the server out of reach), later ones go through.
    attempts: list[str] = []

    def flaky(route: Route) -> None:
        attempts.append(route.request.url)
        if len(attempts) == 1:
            route.abort("connectionrefused")
        else:
            route.continue_()

    spectator.route(re.compile(rf"/w/{public_id}/events\?since=\d+$"), flaky)
    assert spectator.evaluate("window.__sources.length") == 1
    # the phone loses the server: the browser closes the stream and reports the error
    spectator.evaluate("""() => {
        const source = window.__sources[window.__sources.length - 1];
        source.close();
        source.dispatchEvent(new Event("error"));
    }""")
    spectator.wait_for_function("() => window.__sseOpens >= 2", timeout=scaled_ms(10_000))
    # the extension made a new EventSource half a second after the error; its first try was
    # refused, and the browser itself tried again (Chromium waits about 3 s) and got through
    assert len(attempts) >= 2, attempts
    states = spectator.evaluate("window.__sources.map(s => s.readyState)")
    assert len(states) >= 2 and states[-1] == 1 and set(states[:-1]) == {2}, states  # OPEN; the rest CLOSED

    # ---------------------------------------------------------------- hand 3 ends the game
    play_hand(scorer, 3, HANDS[2], HANDS[2].tricks)
    expect(scorer.get_by_role("heading", name="Game over")).to_be_visible()
    expect(scorer.locator(".finished .result")).to_have_text("Bob wins with 32")
    expect(spectator.get_by_role("heading", name="Final totals")).to_be_visible(timeout=scaled_ms(LIVE_SECONDS * 1000))
    expect_live_totals(spectator, FINAL)
    expect(spectator.locator("section.totals .summary")).to_have_text("Bob wins with 32")
    expect(spectator.locator("section.totals .standings li .name")).to_have_text(["Bob", "Dan", "Ann", "Cat"])
    expect(spectator.locator("#hand-3")).to_be_visible()
    read_only()  # no Rematch for the spectator either
    fits(spectator)
    shot(spectator, screenshot_dir, "5-watch-game-over")
    no_axe_violations(spectator)

    # never reloaded: the marker survived, and the only navigation was the first load
    assert spectator.evaluate("window.__marker") == 1
    assert navigations == [watch_url]
    assert spectator.url == watch_url

    # ---------------------------------------------------------------- what the spectator can take home
    response = spectator.request.get(live_server + f"/w/{public_id}/game.json")
    assert response.ok
    record = response.json()
    assert record["players"] == list(PLAYERS) and record["first_dealer"] == 0
    assert [h["trump"] for h in record["hands"]] == [h.trump for h in HANDS]
    assert [h["bids"] for h in record["hands"]] == [[dict(h.bids)[p] for p in PLAYERS] for h in HANDS]
    assert [h["tricks"] for h in record["hands"]] == [list(h.tricks) for h in HANDS]
    path = tmp_path / "spectator.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    scorepad = Path(sys.executable).with_name("scorepad")
    done = subprocess.run([str(scorepad), "score", "--json", str(path)], capture_output=True, text=True, check=True)
    scored = json.loads(done.stdout)
    assert scored["finished"] is True and scored["winner_names"] == ["Bob"]
    assert {s["name"]: s["total"] for s in scored["standings"]} == totals(spectator) == FINAL

    spectator_context.close()
    scorer_context.close()
