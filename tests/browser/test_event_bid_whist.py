"""An 8-team Bid Whist tournament in real browsers: a director, four table phones, a projector.

The director sets the tournament up and registers the teams in the control room, starts it,
prints the QR cards; each table's phone opens its card and scores its match hand by hand with
the home-game screens, then both teams sign on the phone. Three preliminary rounds (round 1 on the
phones; rounds 2 and 3 entered through the service, which the suite's web tests cover call by
call), then a bracket of 4 (the director's choice for a small field) on the phones: semi-finals,
the final and the match for third place. The projector follows every step without a reload and
ends on the medals.

Every match is played the same way: the first bidder bids 4 (spades) and the others pass; the
N/S team wins every hand (made with 10 books when it bids, set with 5 when E/W bids), 16-0. The
draw is fixed by the seed "b0"; the standings below are counted by hand from the pairings the
phones show (home wins), not taken from the app.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.extensions import db
from scorepad.models import Event
from tests.browser.conftest import PHONE, PROJECTOR

TEAMS = [(f"Team {c}", f"{c}1", f"{c}2") for c in "ABCDEFGH"]


def play_hand(page: Page, number: int) -> None:
    """The first bidder bids 4, the others pass; N/S win the hand."""
    calls = page.locator("fieldset.calls")
    expect(page.locator("#hand-panel h2")).to_have_text(re.compile(rf"^Hand {number}\b"))
    for i, words in enumerate(("4", "Pass", "Pass", "Pass")):
        calls.get_by_role("button", name=words, exact=True).click()
        expect(page.locator(".bids-so-far .bid-tag")).to_have_count(i + 1)
    # the calls' answers leave the event bar out: the page keeps its own (hx-preserve)
    expect(page.locator("#event-bar h2")).to_have_text(re.compile(r"· table \d+$"))
    page.get_by_role("group", name="Trumps named").get_by_role("radio", name="♠ Spades", exact=True).check()
    bidder_ns = number % 4 in (0, 2)  # first dealer seat 0: hand n's auction starts at seat n % 4
    legend = page.get_by_role("group", name=re.compile("^Books taken by"))
    legend.get_by_role("radio", name="10" if bidder_ns else "5", exact=True).check()
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.locator("#play-body > .notice")).to_have_text(f"Hand {number} saved.")


def team_codes(page: Page) -> dict[int, str]:
    """Each team's code, as printed on its team card (the QR sheet the page shows)."""
    found = re.findall(r'<p class="qr-table">Team (\d+)</p>.*?Team code <strong>(\d{4})</strong>', page.content(), re.S)
    return {int(n): code for n, code in found}


def play_match(page: Page, codes: dict[int, str]) -> tuple[int, int]:
    """Score a whole match on this table's phone; each team signs with the code on its own card.
    Returns the (N/S, E/W) team numbers."""
    sides = page.locator("#event-bar .sides").inner_text()
    home, away = (int(n) for n in re.findall(r"\((\d+)\)", sides))
    for n in range(1, 5):
        play_hand(page, n)
    bar = page.locator("#event-bar")
    expect(bar).to_contain_text("The round is over.")
    bar.get_by_label(re.compile(rf"^Team code for \({home}\) ")).fill(codes[home])
    bar.get_by_role("button", name=re.compile(rf"^Sign for \({home}\)")).click()
    expect(bar.locator(".signed")).to_have_count(1)
    bar.get_by_label(re.compile(rf"^Team code for \({away}\) ")).fill(codes[away])
    bar.get_by_role("button", name=re.compile(rf"^Sign for \({away}\)")).click()
    expect(bar).to_contain_text("Sheet final.")
    return home, away


def play_round_in_process(app: Flask, public: str, rnd: int) -> list[int]:
    """Round `rnd`'s matches entered and closed through the service as the phones play them (N/S, the
    home team, wins every hand); the teams that won."""
    from scorepad.events.bid_whist import writes
    from scorepad.games import service as games
    from tests.web.test_tournament import hand

    with app.app_context():
        event = db.session.query(Event).filter_by(public_id=public).one()
        won = []
        for m in [m for m in event.matches if m.stage == "round" and m.number == rnd]:
            assert m.game is not None
            for n in range(1, 5):
                games.enter_hand(m.game, n, hand(n, 0))
            writes.close_match(event, m)
            won.append(m.home)
        return won


def test_an_eight_team_tournament_from_registration_to_medals(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Callable[[Any], None]
) -> None:
    director = browser.new_context(**PHONE).new_page()
    director.on("dialog", lambda d: d.accept())
    director.goto(live_server + "/events/new/bid-whist")
    director.get_by_label("Event name").fill("Senior Olympics Bid Whist")
    director.get_by_role("radio", name="Top 4").check()
    director.get_by_role("button", name="Create the tournament and open registration").click()
    expect(director.get_by_role("heading", name="Registration · 0 teams")).to_be_visible()
    for name, one, two in TEAMS:
        director.get_by_label("Team name").fill(name)
        director.get_by_label("Player 1").fill(one)
        director.get_by_label("Player 2").fill(two)
        director.get_by_role("button", name="Register the team").click()
        expect(director.get_by_role("cell", name=two.replace("2", "1") + " & " + two)).to_be_visible()
    no_axe_violations(director)
    with app.app_context():  # a fixed draw for a reproducible test (the seed is random otherwise)
        event = db.session.query(Event).one()
        event.options = {**event.options, "seed": "b0"}
        db.session.commit()
        public = event.public_id
    director.get_by_role("button", name="Close registration and draw round 1").click()
    expect(director.get_by_role("heading", name="Round 1 of 3")).to_be_visible()
    director.screenshot(path=str(screenshot_dir / "bid_whist_event-director-round1.png"), full_page=True)
    no_axe_violations(director)

    projector = browser.new_context(**PROJECTOR).new_page()
    projector.goto(f"{live_server}/b/{public}")
    projector.evaluate("window.__noReload = true")
    expect(projector.locator(".board-status")).to_contain_text("Round 1 of 3")

    director.get_by_role("link", name="Print the QR cards").click()
    director.wait_for_url("**/qr/**")  # the sheet, not the room it was clicked from, is read next
    links = list(dict.fromkeys(re.findall(r"/t/[\w-]{20,}", director.content())))
    assert len(links) == 4
    codes = team_codes(director)
    assert sorted(codes) == list(range(1, 9))
    director.go_back()
    phones = []
    for link in links:
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(live_server + link)  # the table's card opens the match in play there
        expect(phone.locator("#event-bar")).to_contain_text("Round 1 of 3")
        phones.append(phone)
    no_axe_violations(phones[0])

    wins: Counter[int] = Counter()
    for rnd in (1, 2, 3):
        if rnd == 1:  # round 1 on the phones, signed with the team cards' codes
            for i, phone in enumerate(phones):
                home, _ = play_match(phone, codes)
                wins[home] += 1
                if i == 0:
                    phone.screenshot(path=str(screenshot_dir / "bid_whist_event-signed.png"), full_page=True)
        else:  # rounds 2 and 3 the same way through the service (the phones' screens are round 1's)
            wins.update(play_round_in_process(app, public, rnd))
            director.reload()
        expect(projector.locator(".board-status")).to_contain_text("every sheet is final")
        button = "Set the bracket" if rnd == 3 else f"Draw round {rnd + 1}"
        director.get_by_role("button", name=button).click()
        if rnd < 3:
            expect(projector.locator(".board-status")).to_contain_text(f"Round {rnd + 1} of 3")
    # standings by hand: rounds won, then points (16 a win); the top 4 are seeded into the bracket
    order = sorted(range(1, 9), key=lambda n: (-wins[n], n))
    rows = projector.locator("table.standings-table tbody tr")
    expect(rows).to_have_count(8)
    for i, n in enumerate(order):
        expect(rows.nth(i).locator(".total")).to_have_text(str(wins[n]))
    expect(projector.locator(".bracket-level h3").first).to_have_text("Final Four")
    projector.screenshot(path=str(screenshot_dir / "bid_whist_event-projector-bracket.png"))

    # the bracket: semi-finals at tables 1 and 2, then the final and the match for third place
    for _ in range(2):
        for phone in phones[:2]:
            phone.get_by_role("link", name="This table's next match").click()
            expect(phone.locator("#event-bar")).to_contain_text(re.compile("Final Four|Final|Third place"))
            play_match(phone, codes)
    expect(projector.locator(".medals")).to_be_visible()
    expect(projector.locator(".board-status")).to_contain_text("Final results")
    medals = projector.locator(".medals li")
    expect(medals).to_have_count(3)
    assert projector.evaluate("window.__noReload") is True
    projector.screenshot(path=str(screenshot_dir / "bid_whist_event-projector-medals.png"))
    no_axe_violations(projector)


def test_the_control_room_folds_a_finished_round_and_keeps_a_tapped_fold_open(
    app: Flask, live_server: str, browser: Browser
) -> None:
    """Eight teams, two rounds played, on a 390 px phone: the finished round's sheets, the seats and
    the draw are folded (the page about half as tall as unfolded), the button that draws round 3 in
    view; the draw opened by a tap stays open when the room is drawn again, and the new round's
    sheets come open. In French too."""
    from scorepad.events.bid_whist import registration, writes
    from scorepad.games import service as games
    from tests.web.test_tournament import hand

    with app.app_context():
        event = writes.create("Senior Olympics Bid Whist", rounds=3)
        for name, one, two in TEAMS:
            registration.register_team(event, name, [one, two])
        event.options = {**event.options, "seed": "b0"}
        db.session.commit()
        writes.start(event)
        for number in (1, 2):
            for m in [m for m in event.matches if m.stage == "round" and m.number == number]:
                assert m.game is not None
                for n in range(1, 5):
                    games.enter_hand(m.game, n, hand(n, 0 if m.home < m.away else 1))
                writes.close_match(event, m)
            if number == 1:
                writes.advance(event)
        token = event.director_token
    director = browser.new_context(**PHONE).new_page()
    director.goto(f"{live_server}/d/{token}")
    tables = director.locator("#tables-title + details")
    expect(tables.locator("summary")).to_have_text("Round 2: all sheets final")
    expect(tables).not_to_have_attribute("open", "")
    expect(tables.locator("tr")).to_have_count(1 + 4)  # folded, not gone
    expect(director.get_by_role("button", name="Draw round 3")).to_be_visible()
    # 4,913 px unfolded; 3,310 folded once the round timer and "Archive or delete" joined the room
    assert director.evaluate("document.documentElement.scrollHeight") < 3600
    draw = director.locator("details:has(#draw-title)")
    draw.locator("summary").click()
    expect(draw.get_by_text("Round 2 drawn in this order")).to_be_visible()
    director.get_by_role("button", name="Draw round 3").click()
    expect(draw.get_by_text("Round 3 drawn in this order")).to_be_visible()  # still open, drawn again
    expect(tables.locator("summary")).to_have_text("Round 3: 4 sheets open")
    expect(tables.get_by_role("row").nth(1)).to_be_visible()
    director.get_by_role("button", name="Français").click()
    expect(tables.locator("summary")).to_have_text("Tour 3 : 4 feuilles ouvertes")
