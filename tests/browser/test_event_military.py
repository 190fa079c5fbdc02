"""A Military Whist event in real browsers: a director, four table phones and a projector at once.

Four teams (Aces, Kings, Queens, Jacks at tables 1-4) play a day of 10 hands. Each table's phone
taps the tricks its visitors took, sees the flag result before confirming, and gets the next hand's
orders by itself when the director opens it; the projector shows every result without a reload.
Along the way: hand 2 at table 1 is entered as 9 and corrected by the director to 10; a revoke by
the visitors at table 2 in hand 4; hand 5 is NT Low (giveaway); the Jacks run out of flags after
hand 6, the director lends them 2 in hand 7 and hand 8 lends 1 more by itself.

The sheet, worked out by hand (moves: visitors of table t go to t + s, s = 1, 2, 3, 1, ...):

hand s  tricks at tables 1-4      flags after (Aces, Kings, Queens, Jacks)   owed by Jacks
 1   1  4   7   6  10              13 11 14 10
 2   2  10  5   8  10              12 13 15  8     (table 1 first as 9: Aces 13, Queens 14)
 3   3  6   7   3  12              14 12 16  6
 4   1  6   8r  9  10              14 13 17  4     (revoke: Aces count 6, keep nothing)
 5   2  5   9   7   2  (NT Low)    13 15 18  2     (counts are 13 - tricks)
 6   3  7  11   2  10              14 14 20  0
 7   1  5   6  10  11              14 16 20  0     2 (lent by the director first)
 8   2  3   7   9   8              15 16 19  1     3 (1 lent automatically)
 9   3  8  10   6   5              14 15 21  1     3
10   1  7   4  13   6  (NT High)   13 17 19  2     3
Final flags (held - owed): Queens 19, Kings 17, Aces 13, Jacks -1 (48 = 12 x 4 in all).
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.events import military as events
from tests.browser.conftest import PHONE, PROJECTOR

TEAMS = ("Aces", "Kings", "Queens", "Jacks")
TRICKS = (
    (4, 7, 6, 10),
    (10, 5, 8, 10),
    (6, 7, 3, 12),
    (6, 8, 9, 10),
    (5, 9, 7, 2),
    (7, 11, 2, 10),
    (5, 6, 10, 11),
    (3, 7, 9, 8),
    (8, 10, 6, 5),
    (7, 4, 13, 6),
)
FIRST_ENTRY = {(2, 1): 9}  # the slip the director corrects
REVOKES = {(4, 2): "The visitors"}
FLAGS_AFTER = (
    (13, 11, 14, 10),
    (12, 13, 15, 8),
    (14, 12, 16, 6),
    (14, 13, 17, 4),
    (13, 15, 18, 2),
    (14, 14, 20, 0),
    (14, 16, 20, -2),
    (15, 16, 19, -2),
    (14, 15, 21, -2),
    (13, 17, 19, -1),
)
# Until the correction, table 1's 9 in hand 2 gives the Queens' visitors 1 flag there, not 2.
BEFORE_CORRECTION = {2: (13, 13, 14, 8), 3: (15, 12, 15, 6)}
FINAL = {"Queens": 19, "Kings": 17, "Aces": 13, "Jacks": -1}
FLAG_WORDS = {  # what the phone says before confirming (count = tricks, or 13 - tricks in NT Low)
    (1, 1): "home pair keeps its flags",
    (1, 2): "visitors take 1 flag",
    (1, 4): "visitors take 2 flags",
    (4, 2): "home pair keeps its flags",
    (5, 4): "visitors take 2 flags",
    (5, 1): "visitors take 1 flag",
    (5, 3): "home pair keeps its flags",
}


def board_flags(page: Page) -> dict[str, int]:
    rows = page.locator("#board .board-rows tr")
    names = rows.locator("th.team").evaluate_all("els => els.map(e => e.childNodes[1].textContent.trim())")
    totals = rows.locator("td.total").all_inner_texts()
    return dict(zip(names, (int(t) for t in totals)))


def expect_board(page: Page, flags: tuple[int, ...]) -> None:
    for team, total in zip(TEAMS, flags):
        row = page.locator("#board .board-rows tr").filter(has_text=team)
        expect(row.locator("td.total")).to_have_text(str(total))


def tap(phone: Page, hand: int, table: int, tricks: int) -> None:
    """Tap the tricks on a table's phone and check the preview (the confirm screen)."""
    expect(phone.get_by_role("heading", name=re.compile(f"^Hand {hand} of 10"))).to_be_visible()
    if (hand, table) in REVOKES:
        phone.get_by_text("A revoke? Tap here first").click()
        phone.get_by_role("radio", name=REVOKES[(hand, table)]).check()
    phone.get_by_role("button", name=f"{tricks} trick{'s' if tricks != 1 else ''}", exact=True).click()
    words = FLAG_WORDS.get((hand, table))
    confirm = phone.locator("form.confirm")
    expect(confirm).to_contain_text(f"Visitors took {tricks} tricks")
    if words:
        expect(confirm.locator(".big strong")).to_have_text(words)


def confirm(phone: Page, hand: int) -> None:
    phone.get_by_role("button", name=f"Confirm hand {hand}").click()
    expect(phone.get_by_role("heading", name=f"Hand {hand} is recorded")).to_be_visible()


def enter(phone: Page, hand: int, table: int, tricks: int) -> None:
    """Tap the tricks on a table's phone, check the preview, confirm."""
    tap(phone, hand, table, tricks)
    confirm(phone, hand)


def test_a_day_of_military_whist(
    live_server: str, browser: Browser, screenshot_dir: Path, tmp_path: Path, no_axe_violations: Callable[[Any], None]
) -> None:
    director = browser.new_context(**PHONE).new_page()

    # ---- the director sets up the event
    director.goto(live_server + "/events/new")
    director.get_by_label("Event name").fill("Club night")
    director.get_by_role("radio", name="My own: hands per day below").check()
    director.get_by_label(re.compile("^Hands per day")).fill("10")
    director.get_by_label(re.compile("^Number of tables")).fill("4")
    director.get_by_label(re.compile("^Team names")).fill("\n".join(TEAMS))
    no_axe_violations(director)
    director.get_by_role("button", name="Create the event").click()
    expect(director.get_by_role("heading", name="Hand 1 of 10")).to_be_visible()
    control_url = director.url

    # ---- the QR sheet gives each table its own link
    director.get_by_role("link", name="Print the QR cards").click()
    cards = director.locator(".qr-card")
    expect(cards).to_have_count(4)
    expect(cards.nth(3)).to_contain_text("Table 4")
    expect(cards.nth(3)).to_contain_text("Jacks")
    director.screenshot(path=str(screenshot_dir / "event-qr-sheet.png"), full_page=True)
    no_axe_violations(director)
    links = re.findall(r'aria-label="QR code for [^"]*?(/t/[\w-]+)"', director.content())  # not the short links
    assert len(set(links)) == 4
    director.goto(control_url)
    board_link = director.get_by_role("link", name="Projector").get_attribute("href")
    assert board_link

    # ---- four phones and a projector
    phones = []
    for link in links:
        page = browser.new_context(**PHONE).new_page()
        page.goto(live_server + link)
        phones.append(page)
    expect(phones[0].get_by_role("heading", name="Table 1 Aces")).to_be_visible()
    orders = phones[0].locator(".orders-list")
    expect(orders).to_contain_text("A&B go to table 2")
    expect(orders).to_contain_text("X&Y stay here")
    expect(orders).to_contain_text("A&B of Jacks (table 4)")
    expect(orders).to_contain_text("Hearts")
    expect(orders).to_contain_text("B of Jacks (a visitor)")
    phones[0].screenshot(path=str(screenshot_dir / "event-table-phone.png"), full_page=True)
    no_axe_violations(phones[0])
    projector = browser.new_context(**PROJECTOR).new_page()
    projector.goto(live_server + board_link)
    projector.evaluate("window.__noReload = true")
    no_axe_violations(projector)

    for hand in range(1, 11):
        flags = FLAGS_AFTER[hand - 1]
        if hand == 7:  # the Jacks hold no flags: the director lends 2 before the hand is scored
            director.get_by_label("Table", exact=True).select_option("4")
            director.get_by_label("Flags", exact=True).fill("2")
            director.get_by_role("button", name="Lend").click()
            expect(director.get_by_role("status").first).to_have_text("Table 4 was lent 2 flags.")
        tricks = [FIRST_ENTRY.get((hand, t), TRICKS[hand - 1][t - 1]) for t in range(1, 5)]
        if hand == 2:  # table 2 is on its confirm screen while table 1 reports: the push must not wipe it
            tap(phones[1], 2, 2, tricks[1])
            enter(phones[0], 2, 1, tricks[0])
            expect(projector.locator(".board-status")).to_contain_text("3 tables still playing")
            phones[1].wait_for_timeout(700)  # the refresh (0.3 s after the push) would have landed by now
            expect(phones[1].locator("form.confirm")).to_be_visible()
            confirm(phones[1], 2)
            order = [3, 4]
        else:
            order = [1, 2, 3, 4]
        for table in order:
            enter(phones[table - 1], hand, table, tricks[table - 1])
            if hand == 5 and table == 1:
                expect(phones[0].locator(".recorded")).to_contain_text("visitors take 1 flag")
        # every phone's figures follow the other tables' results, not only the director's moves
        expect(phones[0].locator(".recorded")).to_contain_text("Every table is in")
        expect(phones[0].locator(".table-flags strong").first).to_have_text(str(BEFORE_CORRECTION.get(hand, flags)[0]))
        expect_board(projector, BEFORE_CORRECTION.get(hand, flags))
        expect(projector.locator(".board-status")).to_contain_text("all tables in")
        if hand == 5:
            expect(projector.locator(".board-status")).to_contain_text("NT Low: giveaway")
            projector.screenshot(path=str(screenshot_dir / "event-projector.png"))
        if hand == 3:  # the director corrects hand 2 at table 1: 10 tricks, not 9
            director.get_by_role("link", name="Correct hand 2 at table 1: 9 tricks").click()
            director.get_by_role("radio", name="10", exact=True).check()
            no_axe_violations(director)
            director.get_by_role("button", name="Save the correction").click()
            expect(director.get_by_role("status").first).to_contain_text("Hand 2 at table 1 corrected")
            expect(director.locator(".audit")).to_contain_text("correction · hand 2 · table 1: 9 tricks → 10 tricks")
            expect_board(projector, flags)
        open_next = director.get_by_role("button", name=re.compile(r"^(Open hand|Finish the last hand)"))
        expect(open_next).to_be_enabled()
        if hand == 1:
            director.screenshot(path=str(screenshot_dir / "event-control-room.png"), full_page=True)
            no_axe_violations(director)
        if hand == 10:  # the last hand cannot be taken back: the director is asked first
            director.once("dialog", lambda dialog: dialog.accept())
        open_next.click()
        # the director's own answer is in before anything else is tapped in the control room
        expect(director.get_by_role("status").first).to_have_text(
            f"Hand {hand + 1} is open." if hand < 10 else re.compile("schedule is complete")
        )

    # ---- the end: the projector never reloaded, the flags match the sheet and the command line
    assert projector.evaluate("window.__noReload") is True
    expect(projector.locator(".board-status")).to_contain_text("Queens wins with 19 flags")
    assert board_flags(projector) == FINAL
    assert list(board_flags(projector)) == list(FINAL)
    loans = projector.locator("#board .board-rows tr").filter(has_text="Jacks").locator("td.num").nth(2)
    expect(loans).to_have_text("3")
    expect(phones[3].get_by_role("heading", name="The schedule is over")).to_be_visible()
    projector.screenshot(path=str(screenshot_dir / "event-projector-final.png"))

    record = projector.request.get(live_server + board_link + "/event.json").json()
    path = tmp_path / "event.json"
    path.write_text(json.dumps(record))
    scorepad = Path(sys.executable).with_name("scorepad")
    scored = json.loads(
        subprocess.run([str(scorepad), "score", "--json", str(path)], capture_output=True, text=True, check=True).stdout
    )
    assert {s["name"]: s["total"] for s in scored["standings"]} == FINAL
    assert scored["finished"] is True and scored["winner_names"] == ["Queens"]
    for page in (director, projector, *phones):
        page.context.close()


def test_the_qr_sheet_prints_four_cards_a_page_and_the_pin_and_standings_pages_pass_axe(
    app: Flask, live_server: str, browser: Browser, no_axe_violations: Callable[[Any], None]
) -> None:
    """Two rows of two cards fit the printable height of A4 (273 mm) and of Letter (255.4 mm) with the
    12 mm margins; a PDF page is counted by its "/Type /Page" objects."""
    tables = 10
    with app.app_context():
        event = events.create_event("County finals", [f"Team {t + 1}" for t in range(tables)], [30], pin="2468")
        token, public = event.director_token, event.public_id
    director = browser.new_context(**PHONE).new_page()
    director.goto(f"{live_server}/d/{token}")
    expect(director.get_by_label("Director's PIN")).to_be_visible()
    no_axe_violations(director)
    director.get_by_label("Director's PIN").fill("1111")
    director.get_by_role("button", name="Open the control room").click()
    expect(director.get_by_text("That is not the PIN. Try again.")).to_be_visible()
    no_axe_violations(director)  # the page with its error
    director.get_by_label("Director's PIN").fill("2468")
    director.get_by_role("button", name="Open the control room").click()
    expect(director.get_by_role("heading", name="Hand 1 of 30")).to_be_visible()
    director.goto(f"{live_server}/d/{token}/qr")
    expect(director.locator(".qr-card")).to_have_count(tables)
    margin = dict.fromkeys(("top", "right", "bottom", "left"), "12mm")
    for paper in ("A4", "Letter"):
        pdf = director.pdf(format=paper, margin=margin)
        pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
        assert pages == math.ceil(tables / 4), (paper, pages)
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{live_server}/b/{public}/standings")
    expect(phone.locator("#board .board-rows tr")).to_have_count(tables)
    no_axe_violations(phone)
    for page in (director, phone):
        page.context.close()
