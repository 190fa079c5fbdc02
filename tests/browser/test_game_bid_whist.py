"""Bid Whist in a real browser at phone width: a home game to 7 points, played through to the end.

Two named partnerships sit Ruth (Aces), Sam (Kings), Lou (Aces), Joy (Kings); Ruth deals first.
Every hand is entered as at the table: the auction tapped call by call, then the trumps (or the
No bidder's direction), the books the bidders took (kitty included) and any renege.

The game, with the slips the scorer makes and puts right on the way:

1. Sam 4, Lou 5 (taken back: "Take back the last call") then 4 No, Joy 5, Ruth passes:
   Joy (Kings) plays 5 spades. Entered as 12 books (Kings made, +6), then corrected from the
   sheet's Edit link to the 10 books they really took: set (they needed 11), Aces score the bid 5.
   Totals Aces 5, Kings 0.
2. Lou passes, Joy 4 Special, Ruth and Sam pass: Joy (Kings) plays 4 Special, hearts, and takes
   9 of the 10 books needed, but Joy calls a renege on the Aces and it is upheld: the defenders
   reneged, so the bidders score their bid, 4 (more than the 3 books they took above six).
   It is first entered with the renege on the wrong team (the Kings, the bidders: upheld, so
   they are set and the Aces score 4, reaching 9 = game over); Undo takes the hand back.
   Totals Aces 5, Kings 4.
3. Joy, Ruth and Sam pass; Lou, the dealer, may not pass and bids 5 No, declares downtown and
   the Aces take 11 books: 5 above six, doubled on a No bid = 10. Aces 15, Kings 4: game to Aces.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE

WIDTH = PHONE["viewport"]["width"]
TEAMS = {"Aces": ("Ruth", "Lou"), "Kings": ("Sam", "Joy")}


@dataclass(frozen=True)
class Renege:
    offender: str  # the team that reneged
    called_by: str  # a player of the other team
    upheld: bool = True


@dataclass(frozen=True)
class HandData:
    calls: tuple[str, ...]  # in bidding order, "Pass" or the button's words ("4", "4 No", ...)
    books: int  # the bidders' books, kitty included
    trump: str | None = None  # the trump chip's words for a trump bid
    direction: str | None = None  # the direction chip's words for a No bid
    renege: Renege | None = None
    expected: dict[str, int] = field(default_factory=dict)  # running totals after the hand


# The game as finally recorded (hand 1 after its correction, hand 2 after the undo and re-entry).
HANDS = (
    HandData(("4", "4 No", "5", "Pass"), books=10, trump="♠ Spades", expected={"Aces": 5, "Kings": 0}),
    HandData(
        ("Pass", "4 Special", "Pass", "Pass"),
        books=9,
        trump="♥ Hearts",
        renege=Renege("Aces", "Joy"),
        expected={"Aces": 5, "Kings": 4},
    ),
    HandData(
        ("Pass", "Pass", "Pass", "5 No"), books=11, direction="Downtown (low wins)", expected={"Aces": 15, "Kings": 4}
    ),
)
FINAL = {"Aces": 15, "Kings": 4}  # by hand: Aces 5 (hand 1 set) + 10 (5 No made by 5, doubled); Kings 4 (hand 2)


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH


def shot(page: Page, screenshot_dir: Path, step: str) -> None:
    page.screenshot(path=str(screenshot_dir / f"bid_whist-{step}.png"), full_page=True)


def totals(page: Page) -> dict[str, int]:
    """The running (or final) totals list, name -> total."""
    items = page.locator("section.totals ol.standings li")
    expect(items).to_have_count(2)
    return {
        items.nth(i).locator(".name").inner_text(): int(items.nth(i).locator(".total").inner_text()) for i in range(2)
    }


def expect_totals(page: Page, want: dict[str, int]) -> None:
    for name, total in want.items():
        row = page.locator("section.totals ol.standings li").filter(has=page.locator(".name", has_text=name))
        expect(row.locator(".total")).to_have_text(str(total))


def call(page: Page, words: str) -> None:
    """Tap one call of the auction and wait for the next bidder (or the result form)."""
    said = page.locator(".bids-so-far .bid-tag")
    before = said.count()
    page.locator("fieldset.calls").get_by_role("button", name=words, exact=True).click()
    expect(said).to_have_count(before + 1)


def pick(page: Page, group: str, words: str) -> None:
    """Choose a chip (a radio button) in the group whose legend starts with `group`."""
    page.get_by_role("group", name=group).get_by_role("radio", name=words, exact=True).check()


def enter_result(page: Page, hand: HandData, team: str, books: int | None = None, renege: Renege | None = None) -> None:
    if hand.direction:
        pick(page, "The bidder declares", hand.direction)
    if hand.trump:
        pick(page, "Trumps named", hand.trump)
    pick(page, f"Books taken by {team}, kitty included", str(books or hand.books))
    if renege:
        page.get_by_text("A renege was called? Tap to record it").click()
        pick(page, "Team that reneged", renege.offender)
        pick(page, "Called by", renege.called_by)
        rule(page, renege)


def rule(page: Page, renege: Renege) -> None:
    words = "Upheld: the team that reneged loses the hand" if renege.upheld else "Not upheld: scored as played"
    pick(page, "The ruling", words)


def save(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.get_by_role("status")).to_have_text(f"Hand {number} saved.")


def test_bid_whist_home_game_to_seven(
    app: Flask,
    live_server: str,
    browser: Browser,
    screenshot_dir: Path,
    no_axe_violations: Callable[[Any], None],
    tmp_path: Path,
) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()

    # ---------------------------------------------------------------- set-up
    page.goto(live_server + "/new")
    page.get_by_role("link", name="Bid Whist").click()
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    page.get_by_label("Team 1 name").fill("Aces")
    page.get_by_label("Team 2 name").fill("Kings")
    for seat, name in enumerate(("Ruth", "Sam", "Lou", "Joy")):
        page.locator(f"#name-{seat}").fill(name)
    page.get_by_text("Options:").click()
    # issue 14: the kitchen table's game to 7 is the default here (the tournament's rounds are an event's)
    to_points = page.get_by_role("group", name="Play", exact=True).get_by_role(
        "radio", name="To a points target (home game)"
    )
    expect(to_points).to_be_checked()
    to_points.check()
    expect(page.get_by_label("Points for game")).to_have_value("7")
    page.get_by_label("Name this game").fill("Kitchen table")
    dealer = page.get_by_role("group", name="Who deals first?")
    expect(dealer.get_by_role("radio", name="Ruth")).to_be_checked()
    fits(page)
    shot(page, screenshot_dir, "setup")
    no_axe_violations(page)
    page.get_by_role("button", name="Start the game").click()

    heading = page.locator("#hand-panel h2")
    expect(heading).to_have_text("Hand 1")
    expect(page.locator("#hand-panel .facts")).to_contain_text("Ruth")
    expect(page.locator("#hand-panel .facts")).to_contain_text("Trump named by the winning bidder")
    expect(page.locator("fieldset.calls legend")).to_have_text("Sam’s call")
    fits(page)
    shot(page, screenshot_dir, "bidding-start")
    no_axe_violations(page)

    # ---------------------------------------------------------------- hand 1: the auction
    calls = page.locator("fieldset.calls")
    call(page, "4")
    # after "4" only a No takes out a bid of the same number: no "4 Special", no "4"; "4 No" is offered
    expect(calls.get_by_role("button", name="4 No", exact=True)).to_be_visible()
    expect(calls.get_by_role("button", name="4 Special", exact=True)).to_have_count(0)
    expect(calls.get_by_role("button", name="4", exact=True)).to_have_count(0)
    expect(calls.get_by_role("button", name="Pass", exact=True)).to_be_visible()
    call(page, "5")  # a slip: Lou said 4 No
    expect(page.locator(".bids-so-far")).to_contain_text("Lou 5")
    fits(page)
    shot(page, screenshot_dir, "bidding-mid")
    no_axe_violations(page)
    page.get_by_role("button", name="↶ Undo last entry: Lou's bid of 5").click()
    expect(page.get_by_role("status")).to_have_text("Undone: Lou's bid of 5.")
    expect(page.locator(".bids-so-far .bid-tag")).to_have_count(1)
    expect(page.locator("fieldset.calls legend")).to_have_text("Lou’s call")
    for words in HANDS[0].calls[1:]:
        call(page, words)
    # after 5 (plain) the No of the same number still outranks it, 5 Special does not
    expect(page.locator("fieldset.calls")).to_have_count(0)
    expect(page.locator(".callout")).to_contain_text("Joy won the bid: 5.")
    expect(page.locator(".callout")).to_contain_text("Kings need 11 books")

    # entered with the wrong books first: 12 (Kings made 5 with 6 over)
    enter_result(page, HANDS[0], "Kings", books=12)
    fits(page)
    shot(page, screenshot_dir, "result")
    no_axe_violations(page)
    save(page, 1)
    expect(heading).to_have_text("Hand 2")
    expect_totals(page, {"Aces": 0, "Kings": 6})

    # ---------------------------------------------------------------- correct hand 1 from the sheet
    page.locator("#hand-1").get_by_role("link", name="hand 1").click()  # the sheet's Edit link
    expect(page.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    form = page.locator("form.edit-form")
    expect(form.get_by_role("group", name="Won the bid").get_by_role("radio", name="Joy")).to_be_checked()
    expect(form.get_by_role("group", name="Bid", exact=True).get_by_role("radio", name="5")).to_be_checked()
    expect(form.get_by_role("group", name="Kind").get_by_role("radio", name="Plain (uptown)")).to_be_checked()
    books = form.get_by_role("group", name="Books taken by the bidders (kitty included)")
    expect(books.get_by_role("radio", name="12", exact=True)).to_be_checked()
    expect(form.get_by_role("group", name="Trumps named").get_by_role("radio", name="♠ Spades")).to_be_checked()
    fits(page)
    shot(page, screenshot_dir, "correction")
    no_axe_violations(page)
    books.get_by_role("radio", name="10", exact=True).check()
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("#hand-1")).to_contain_text("took 10")
    expect_totals(page, HANDS[0].expected)
    expect(page.locator("#hand-1 + tr.note-row")).to_have_text(
        "Set: Kings took 10 of the 11 books 5 ♠ needs; Aces score 5"
    )
    expect(heading).to_have_text("Hand 2")

    # ---------------------------------------------------------------- hand 2, first with the renege on the wrong team
    for words in HANDS[1].calls:
        call(page, words)
    expect(page.locator(".callout")).to_contain_text("Joy won the bid: 4 Special.")
    enter_result(page, HANDS[1], "Kings", renege=Renege("Kings", "Ruth"))
    fits(page)
    shot(page, screenshot_dir, "renege")
    no_axe_violations(page)
    save(page, 2)
    # the bidders reneged and it was upheld: they are set, the Aces score the bid (4) and reach 9
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.locator("#hand-2 + tr.note-row")).to_have_text(
        "Renege by Kings, called by Ruth and upheld: Aces score 4 on 4 Special ♥; game to Aces, 9-0"
    )
    expect_totals(page, {"Aces": 9, "Kings": 0})

    # Undo takes back one tap at a time: the save, then each call, newest first
    page.get_by_role("button", name="↶ Undo last entry: saving hand 2").click()
    expect(page.get_by_role("status")).to_have_text("Undone: saving hand 2.")
    expect(heading).to_have_text("Hand 2")
    expect_totals(page, HANDS[0].expected)
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()
    for left in (3, 2, 1, 0):
        page.get_by_role("button", name=re.compile("^↶ Undo last entry: ")).click()
        expect(page.locator(".bids-so-far .bid-tag")).to_have_count(left)

    # ---------------------------------------------------------------- hand 2 as it was, hand 3
    for words in HANDS[1].calls:
        call(page, words)
    enter_result(page, HANDS[1], "Kings")
    # the renege's team and caller chosen but not the ruling: refused, not quietly dropped
    renege = HANDS[1].renege
    assert renege is not None
    page.get_by_text("A renege was called? Tap to record it").click()
    pick(page, "Team that reneged", renege.offender)
    pick(page, "Called by", renege.called_by)
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.locator("details.renege .field-error")).to_have_text(
        "Say whether the renege was upheld or not (or choose No renege)"
    )
    expect(page.get_by_role("group", name="Called by").get_by_role("radio", name="Joy")).to_be_checked()
    expect(
        page.get_by_role("group", name="Books taken by Kings, kitty included").get_by_role(
            "radio", name="9", exact=True
        )
    ).to_be_checked()
    rule(page, renege)
    save(page, 2)
    expect_totals(page, HANDS[1].expected)
    # the defenders reneged and it was upheld: the bidders score their bid though they took 9 of 10
    expect(page.locator("#hand-2 + tr.note-row")).to_have_text(
        "Renege by Aces, called by Joy and upheld: Kings score 4 on 4 Special ♥"
    )

    expect(heading).to_have_text("Hand 3")
    for words in HANDS[2].calls[:3]:
        call(page, words)
    # three passes: Lou deals and must bid
    expect(page.locator("fieldset.calls legend")).to_have_text("Lou’s call")
    expect(calls.get_by_role("button", name="Pass", exact=True)).to_have_count(0)
    expect(calls.get_by_role("button", name="4", exact=True)).to_be_visible()
    call(page, HANDS[2].calls[3])
    expect(page.locator(".callout")).to_contain_text("Lou won the bid: 5 No.")
    enter_result(page, HANDS[2], "Aces")
    fits(page)
    shot(page, screenshot_dir, "no-trump")
    no_axe_violations(page)
    page.get_by_role("button", name="Save hand 3").click()

    # ---------------------------------------------------------------- game over
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.locator(".result")).to_have_text("Aces win (Aces v Kings 15-4)")
    expect(page.locator("#hand-3 + tr.note-row")).to_have_text(
        "Aces made 5 No downtown with 11 books: Aces score 10 (No bid, doubled); game to Aces, 15-4"
    )
    expect(page.get_by_role("heading", name="Final totals")).to_be_visible()
    ui_totals = totals(page)
    fits(page)
    shot(page, screenshot_dir, "game-over")
    no_axe_violations(page)

    href = page.get_by_role("link", name="Export game (JSON)").get_attribute("href")
    assert href is not None
    response = page.request.get(live_server + href)
    assert response.ok
    record = response.json()
    assert [h["books"] for h in record["hands"]] == [h.books for h in HANDS]
    assert record["hands"][1]["renege"] == {"offender": 0, "called_by": 3, "upheld": True}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    scorepad = Path(sys.executable).with_name("scorepad")
    out = subprocess.run([str(scorepad), "score", "--json", str(path)], capture_output=True, text=True, check=True)
    scored = json.loads(out.stdout)
    assert scored["finished"] is True and scored["winner_names"] == ["Aces"]
    cli_totals = {s["name"]: s["total"] for s in scored["standings"]}
    assert ui_totals == cli_totals == FINAL
    context.close()
