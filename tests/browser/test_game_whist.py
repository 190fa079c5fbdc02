"""Classic Whist in a real browser at phone width: a rubber with honours, tapped in deal by deal.

Two named partnerships: Robins (Ann and Cal) and Wrens (Bea and Dan), seated Ann, Bea, Cal, Dan,
Ann dealing first. The options are the defaults (5 points for game, a rubber of best of three
games, the trump turned up each deal) with honours switched on: honours are off by default
(RULES-NOTES.md), so the scorer ticks "Score honours" on the set-up screen.

Each deal is entered as at the table: the trump turned up, the tricks Robins took (Wrens have the
rest of the 13), and who held three or four of A K Q J of trumps. The rules (whist.txt and
RULES-NOTES.md): the side with more tricks scores one point per trick above six; honours score 4
(all four) or 2 (three); a side standing at 4 (game minus one) when the deal begins cannot score
honours; tricks are scored before honours, so when the trick side reaches game the other side's
honours come too late. A game is won at 5; both sides then start the next game at 0.

The rubber as finally recorded (R = Robins, W = Wrens; totals are points in the current game):

  deal dealer trump tricks R-W honours        scoring                                  R  W
  1    Ann    H     7-6      R three          R 1 odd + 2 honours = 3                  3  0
  2    Bea    S     4-9      split            W 3 odd                                  3  3
  3    Cal    D     5-8      W three          W 2 odd + 2 honours = 4 -> 7: game 1 W   3  7
  4    Dan    C     10-3     W three          R 4 odd; W 2 honours                     4  2
  5    Ann    H     6-7      R all four       W 1 odd; R stood at 4: honours barred    4  3
  6    Bea    S     7-6      W three          R 1 odd -> 5: game 2 R; W's honours
                                              (3 + 2 = 5, game too) come too late      5  3
  7    Cal    D     5-8      R three          W 2 odd; R 2 honours                     2  2
  8    Dan    C     7-6      R all four       R 1 odd + 4 honours = 5 -> 7: game 3 R,
                                              and the rubber, 2 games to 1             7  2

The slip put right from the sheet: deal 4 is first entered as Robins 9 tricks (3 odd: R 3, W 2).
Deal 5 is then scored wrongly but by the rules: Robins stood at 3, not 4, so their four honours
count, 3 + 4 = 7, and game 2 goes to Robins 7-3 by honours. Correcting deal 4 to 10 tricks
re-scores deal 5: Robins now stood at 4, so the honours are barred, game 2 is not over (4-3),
and the rubber goes on from there.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE

WIDTH = PHONE["viewport"]["width"]
TEAMS = ("Robins", "Wrens")
SEATS = ("Ann", "Bea", "Cal", "Dan")  # round the table; Robins are Ann and Cal, Wrens Bea and Dan
TRUMP_CHIPS = {"H": "♥ Hearts", "D": "♦ Diamonds", "C": "♣ Clubs", "S": "♠ Spades"}
HONOURS_CHIPS = {
    None: "Split 2-2, or not claimed",
    (4, 0): "Robins: all four",
    (3, 1): "Robins: three",
    (0, 4): "Wrens: all four",
    (1, 3): "Wrens: three",
}


@dataclass(frozen=True)
class Deal:
    dealer: str
    trump: str  # H D C S
    robins: int  # tricks taken by Robins; Wrens took 13 - robins
    honours: tuple[int, int] | None  # honours held (Robins, Wrens) when a side held three or four
    points: tuple[int, int]  # what the deal scores, worked out by hand
    totals: tuple[int, int]  # the line's running totals in the current game (the real total on a game line)
    note: str = ""  # the sheet's note row under the deal


DEALS = (
    Deal("Ann", "H", 7, (3, 1), (3, 0), (3, 0)),  # 1 odd + 2 for three honours
    Deal("Bea", "S", 4, None, (0, 3), (3, 3)),  # Wrens 9 tricks: 3 odd
    Deal(
        "Cal",
        "D",
        5,
        (1, 3),
        (0, 4),
        (3, 7),  # Wrens 2 odd -> 5, three honours +2 counted: 7
        "Game to Wrens, 7-3 (games Robins 0, Wrens 1)",
    ),
    Deal("Dan", "C", 10, (1, 3), (4, 2), (4, 2)),  # game 2: Robins 4 odd; Wrens 2 for three honours
    Deal(
        "Ann",
        "H",
        6,
        (4, 0),
        (0, 1),
        (4, 3),  # Wrens 1 odd; Robins at 4 = 5 - 1: honours barred
        "Robins stood at 4: honours not scored",
    ),
    Deal(
        "Bea",
        "S",
        7,
        (1, 3),
        (1, 0),
        (5, 3),  # Robins 1 odd -> 5 game; Wrens' 3 + 2 comes too late
        "tricks are scored first: honours held by Wrens come too late; Game to Robins, 5-3 (games Robins 1, Wrens 1)",
    ),
    Deal("Cal", "D", 5, (3, 1), (2, 2), (2, 2)),  # game 3: Wrens 8 tricks, 2 odd; Robins 2 honours
    Deal(
        "Dan",
        "C",
        7,
        (4, 0),
        (5, 0),
        (7, 2),  # Robins 1 odd + 4 honours: 2 + 5 = 7, honours win it
        "Game and rubber to Robins, 7-2 (2 games to 1)",
    ),
)
DEAL_4_AS_FIRST_ENTERED = 9  # Robins' tricks: 3 odd, so Robins 3, Wrens 2 after deal 4
# With that slip, deal 5 by the rules: Wrens 1 odd -> 3; Robins stood at 3 (not barred), all four
# honours +4 -> 7: game 2 to Robins, 7-3, and game 3 would start from 0-0.
WRONG_DEAL_5_NOTE = "Game to Robins, 7-3 (games Robins 1, Wrens 1)"
# The standings count games won: Robins 2, Wrens 1.
FINAL_GAMES = {"Robins": 2, "Wrens": 1}
FINAL_SUMMARY = "Robins win the rubber, 2 games to 1"


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, "the page scrolls sideways"


def shot(page: Page, screenshot_dir: Path, step: str) -> None:
    page.screenshot(path=str(screenshot_dir / f"whist-{step}.png"), full_page=True)


def standings(page: Page, scope: str = "section.totals") -> dict[str, tuple[int, str]]:
    """Name -> (total, detail) as a standings list shows them."""
    rows = page.locator(f"{scope} ol.standings li")
    expect(rows).to_have_count(2)
    return {
        rows.nth(i).locator(".name").inner_text(): (
            int(rows.nth(i).locator(".total").inner_text()),
            rows.nth(i).locator("small").inner_text(),
        )
        for i in range(2)
    }


def expect_line(page: Page, number: int, totals: tuple[int, int], note: str = "") -> None:
    """The sheet's row for a deal: each side's running total, then the note row (if any)."""
    cells = page.locator(f"#hand-{number} td.num .total")
    expect(cells).to_have_text([str(totals[0]), str(totals[1])])
    note_row = page.locator(f"#hand-{number} + tr.note-row")
    if note:
        expect(note_row).to_have_text(note)
    else:
        expect(note_row).to_have_count(0)


def chip(page: Page, group: str, words: str) -> None:
    """Tap a chip (a radio button) in the group with that legend."""
    page.get_by_role("group", name=group, exact=True).get_by_role("radio", name=words, exact=True).check()


def enter_deal(page: Page, deal: Deal, robins: int | None = None) -> None:
    chip(page, "Trump turned up", TRUMP_CHIPS[deal.trump])
    chip(page, "Tricks taken by Robins", str(robins if robins is not None else deal.robins))
    chip(page, "Honours (A K Q J of trumps)", HONOURS_CHIPS[deal.honours])


def save(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Save hand {number}", exact=True).click()
    expect(page.get_by_role("status")).to_have_text(f"Hand {number} saved.")


def play(page: Page, number: int, robins: int | None = None) -> None:
    """Enter and save deal `number` (1-based) from the table above."""
    deal = DEALS[number - 1]
    expect(page.locator("#hand-panel h2")).to_have_text(f"Hand {number}")
    dealer = SEATS.index(deal.dealer)
    expect(page.locator("#hand-panel .round-note")).to_have_text(
        f"{deal.dealer} deals, {SEATS[(dealer + 1) % 4]} leads; the dealer's last card is turned up for trumps"
    )
    enter_deal(page, deal, robins)
    save(page, number)


def test_whist_rubber_with_honours(
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
    page.get_by_role("link", name=re.compile(r"^Whist Two partnerships")).click()
    expect(page.get_by_role("heading", name="Whist", exact=True)).to_be_visible()
    page.get_by_label("Team 1 name").fill(TEAMS[0])
    page.get_by_label("Team 2 name").fill(TEAMS[1])
    for seat, name in enumerate(SEATS):
        page.locator(f"#name-{seat}").fill(name)
    dealer = page.get_by_role("group", name="Who deals first?")
    expect(dealer.get_by_role("radio", name="Ann")).to_be_checked()
    page.get_by_text("Options:").click()
    # the defaults: the British game of 5, a rubber, the trump turned up; honours off until ticked
    expect(page.get_by_label("Points for game")).to_have_value("5")
    expect(page.get_by_label("Play a rubber")).to_be_checked()
    trumps = page.get_by_role("group", name="Trumps", exact=True)
    expect(trumps.get_by_role("radio", name="Turned up: the dealer's last card, entered each deal")).to_be_checked()
    expect(page.get_by_label("Fixed number of deals (whist drive)")).to_have_value("0")
    honours = page.get_by_label("Score honours")
    expect(honours).not_to_be_checked()
    honours.check()
    page.get_by_label("Name this game").fill("Rubber at the club")
    fits(page)
    shot(page, screenshot_dir, "setup")
    no_axe_violations(page)
    page.get_by_role("button", name="Start the game").click()

    heading = page.locator("#hand-panel h2")
    expect(heading).to_have_text("Hand 1")
    expect(page.locator("#hand-panel .facts")).to_contain_text("Ann")
    expect(page.locator(".game-head .muted")).to_have_text("Whist · Robins (Ann & Cal), Wrens (Bea & Dan)")
    expect(page.locator("section.totals .summary")).to_have_text("Game 1: Robins 0, Wrens 0 (games 0-0)")

    # ---------------------------------------------------------------- deal 1, first without its trump
    chip(page, "Tricks taken by Robins", "7")
    expect(page.locator("[data-other-side]")).to_have_text("Wrens took 6.")
    chip(page, "Honours (A K Q J of trumps)", HONOURS_CHIPS[(3, 1)])
    fits(page)
    shot(page, screenshot_dir, "deal-entry")
    no_axe_violations(page)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#hand-panel .field-error")).to_contain_text(
        "Choose the trump turned up by Ann, the dealer: hearts, diamonds, clubs or spades"
    )
    # what was tapped is kept
    expect(
        page.get_by_role("group", name="Tricks taken by Robins").get_by_role("radio", name="7", exact=True)
    ).to_be_checked()
    no_axe_violations(page)
    play(page, 1)
    expect_line(page, 1, DEALS[0].totals)
    # each cell: the hand's points, then how they came
    expect(page.locator("#hand-1 td.num small")).to_have_text(["+3 · took 7 · 1 odd · 3 honours +2", "+0 · took 6"])

    # ---------------------------------------------------------------- deals 2-3: game 1 to Wrens
    play(page, 2)
    expect_line(page, 2, DEALS[1].totals)
    expect(page.locator("section.totals .summary")).to_have_text("Game 1: Robins 3, Wrens 3 (games 0-0)")
    play(page, 3)
    expect_line(page, 3, DEALS[2].totals, DEALS[2].note)
    expect(page.locator("section.totals .summary")).to_have_text("Game 2: Robins 0, Wrens 0 (games 0-1)")
    assert standings(page) == {"Wrens": (1, "1 game to 0"), "Robins": (0, "0 games to 1")}

    # ---------------------------------------------------------------- deals 4-5, deal 4 with a slip
    play(page, 4, robins=DEAL_4_AS_FIRST_ENTERED)
    expect_line(page, 4, (3, 2))
    play(page, 5)
    # wrongly entered deal 4 left Robins at 3, so their four honours counted and won game 2
    expect_line(page, 5, (7, 3), WRONG_DEAL_5_NOTE)
    expect(page.locator("section.totals .summary")).to_have_text("Game 3: Robins 0, Wrens 0 (games 1-1)")
    expect(heading).to_have_text("Hand 6")

    # ---------------------------------------------------------------- correct deal 4 from the sheet
    page.locator("#hand-4").get_by_role("link", name="Edit hand 4").click()
    expect(page.get_by_role("heading", name="Correct hand 4")).to_be_visible()
    form = page.locator("form.edit-form")
    expect(form.get_by_role("group", name="Trump").get_by_role("radio", name="♣ Clubs")).to_be_checked()
    tricks = form.get_by_role("group", name="Tricks taken by Robins (Wrens took the rest)")
    expect(tricks.get_by_role("radio", name="9", exact=True)).to_be_checked()
    expect(form.get_by_role("group", name="Honours").get_by_role("radio", name="Wrens: three")).to_be_checked()
    tricks.get_by_role("radio", name="10", exact=True).check()
    fits(page)
    shot(page, screenshot_dir, "correction")
    no_axe_violations(page)
    page.get_by_role("button", name="Save the correction").click()

    # deal 4 now 4 odd (4-2); deal 5 re-scored: Robins stood at 4, so no honours, and game 2 goes on
    expect(heading).to_have_text("Hand 6")
    expect(page.locator("#hand-4 td.num small")).to_have_text(["+4 · took 10 · 4 odd", "+2 · took 3 · 3 honours +2"])
    expect_line(page, 4, DEALS[3].totals)
    expect_line(page, 5, DEALS[4].totals, DEALS[4].note)
    expect(page.locator("#hand-5 td.num small")).to_have_text(
        ["+0 · took 6 · 4 honours, barred at 4", "+1 · took 7 · 1 odd"]
    )
    expect(page.locator("section.totals .summary")).to_have_text("Game 2: Robins 4, Wrens 3 (games 0-1)")
    assert standings(page) == {
        "Wrens": (1, "1 game to 0; 3 in this game"),
        "Robins": (0, "0 games to 1; 4 in this game"),
    }
    fits(page)
    shot(page, screenshot_dir, "after-correction")
    no_axe_violations(page)

    # ---------------------------------------------------------------- deal 6: tricks before honours
    play(page, 6)
    # Wrens' three honours would have taken them from 3 to 5 too: the tricks come first
    expect_line(page, 6, DEALS[5].totals, DEALS[5].note)
    expect(page.locator("#hand-6 td.num small")).to_have_text(
        ["+1 · took 7 · 1 odd", "+0 · took 6 · 3 honours, too late: game already won"]
    )
    expect(page.locator("section.totals .summary")).to_have_text("Game 3: Robins 0, Wrens 0 (games 1-1)")

    # ---------------------------------------------------------------- deals 7-8: game and rubber
    play(page, 7)
    expect_line(page, 7, DEALS[6].totals)
    expect(heading).to_have_text("Hand 8")
    enter_deal(page, DEALS[7])
    fits(page)
    shot(page, screenshot_dir, "deciding-deal")
    no_axe_violations(page)
    save(page, 8)

    # ---------------------------------------------------------------- game over
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.locator(".result")).to_have_text(FINAL_SUMMARY)
    expect_line(page, 8, DEALS[7].totals, DEALS[7].note)
    expect(page.locator("#hand-8 td.num small")).to_have_text(["+5 · took 7 · 1 odd · 4 honours +4", "+0 · took 6"])
    expect(page.get_by_role("heading", name="Games won in the rubber (best of three)")).to_be_visible()
    ui = standings(page)
    assert ui == {"Robins": (2, "2 games to 1"), "Wrens": (1, "1 game to 2")}
    assert standings(page, "#hand-panel") == ui
    expect(page.locator("#hand-panel li.winner .name")).to_have_text("Robins")
    expect(page.get_by_role("button", name="Save hand 9")).to_have_count(0)
    # every deal, after the correction, as worked out by hand
    for number, deal in enumerate(DEALS, 1):
        expect_line(page, number, deal.totals, deal.note)
    fits(page)
    shot(page, screenshot_dir, "game-over")
    no_axe_violations(page)

    # ---------------------------------------------------------------- the record, scored by the CLI
    href = page.get_by_role("link", name="Export game (JSON)").get_attribute("href")
    assert href is not None
    response = page.request.get(live_server + href)
    assert response.ok
    record = response.json()
    assert record["variant"] == "whist"
    assert record["options"]["honours"] is True
    assert record["options"].get("rubber", True) is True and record["options"].get("target", 5) == 5
    assert record["first_dealer"] == 0
    assert [t["name"] for t in record["teams"]] == list(TEAMS)
    assert [t["players"] for t in record["teams"]] == [["Ann", "Cal"], ["Bea", "Dan"]]
    assert [h["tricks"] for h in record["hands"]] == [[d.robins, 13 - d.robins] for d in DEALS]
    assert [h["trump"] for h in record["hands"]] == [d.trump for d in DEALS]
    assert [h.get("honours") for h in record["hands"]] == [list(d.honours) if d.honours else None for d in DEALS]
    path = tmp_path / "whist.json"
    path.write_text(json.dumps(record))
    scorepad = Path(sys.executable).with_name("scorepad")
    out = subprocess.run([str(scorepad), "score", "--json", str(path)], capture_output=True, text=True, check=True)
    scored = json.loads(out.stdout)
    assert scored["finished"] is True
    assert scored["winner_names"] == ["Robins"]
    assert scored["summary"] == FINAL_SUMMARY
    assert [[c["points"] for c in line["cells"]] for line in scored["lines"]] == [list(d.points) for d in DEALS]
    assert [[c["total"] for c in line["cells"]] for line in scored["lines"]] == [list(d.totals) for d in DEALS]
    assert [line["note"] for line in scored["lines"]] == [d.note for d in DEALS]
    cli = {s["name"]: s["total"] for s in scored["standings"]}
    assert cli == {name: total for name, (total, _) in ui.items()} == FINAL_GAMES
    context.close()
