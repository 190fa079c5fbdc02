"""Issue 31, "Done means": the four home variants played through by taps on phones reaching the app
by its LAN name, at 390 and 320 px, with Large text and in dark mode. Each case starts a game from
its record (docs/examples, no hands yet) and taps in two whole hands; after each: no sideways
scroll, the next hand's first control on the first screen, the totals as worked by hand below.
Screenshots: test-output/screenshots/home-variant-<case>.png (the whole page after hand 2).

The hands, worked by hand (RULES-NOTES.md; the rules engine agrees, `score_record`):
- Whist, Us and Them, Them 2 dealing: hearts, Us 8 tricks (2 odd: Us 2); clubs, Us 4 (Them 9, 3
  odd: Them 3). Game 1 stands Us 2, Them 3; no game won yet.
- Nomination, Ann dealing: 1 card, hearts, Bob bids 1 and takes it (11), the rest bid 0 and take
  0 (10 each); 2 cards, spades, Cat 1, Dan 0, Ann 1, Bob 0, tricks Ann 1, Dan 1: Ann 21, Bob 21,
  Dan 11 (bid 0, took 1: 1), Cat 10 (bid 1, took 0: 0).
- Australian, seven players, Olu dealing: 1 card, everyone bids 0 and Tom takes the trick (0 for
  Tom, 10 for the others); 2 cards, Ken, Tom and Megan bid 1, Tom takes both: Priya, Olu, Hamish
  and Rosa 20, Megan 10, Ken 10, Tom 0.
- Bid Whist to 7, Ruth dealing: Sam 4, Lou 4 No, Joy 5, Ruth passes: Joy's 5 in spades, the Kings
  take 10 books of the 11 needed: set, the Aces score 5; then Lou passes, Joy 4 Special, Ruth and
  Sam pass: hearts, 10 books, made: Kings 4. Aces 5, Kings 4.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.games import records
from tests.browser.conftest import LAN, NARROW_PHONE, PHONE
from tests.browser.taps import tap_tricks
from tests.conftest import EXAMPLES


def chip(page: Page, group: str, words: str) -> None:
    """Tap a chip (a radio button) in the group whose legend starts with `group`."""
    page.get_by_role("group", name=group).get_by_role("radio", name=words, exact=True).check()


def save(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Save hand {number}", exact=True).click()
    expect(page.locator(".notice[role=status]")).to_have_text(f"Hand {number} saved.")


def bids(page: Page, said: list[tuple[str, int]]) -> None:
    """Tap each bid in bidding order."""
    for name, bid in said:
        asked = page.get_by_role("group", name=re.compile("’s bid$"))
        expect(asked).to_have_accessible_name(f"{name}’s bid")
        asked.get_by_role("button", name=f"{name} bids {bid}", exact=True).click()


def whist(page: Page, number: int) -> None:
    trump, us = (("♥ Hearts", 8), ("♣ Clubs", 4))[number - 1]
    chip(page, "Trump turned up", trump)
    chip(page, "Tricks taken by Us", str(us))


NOMINATION = (
    ("♥ Hearts", [("Bob", 1), ("Cat", 0), ("Dan", 0), ("Ann", 0)], {"Ann": 0, "Bob": 1, "Cat": 0, "Dan": 0}),
    ("♠ Spades", [("Cat", 1), ("Dan", 0), ("Ann", 1), ("Bob", 0)], {"Ann": 1, "Bob": 0, "Cat": 0, "Dan": 1}),
)


def nomination(page: Page, number: int) -> None:
    trump, said, took = NOMINATION[number - 1]
    page.get_by_role("group", name="Which trump was turned up?").get_by_role("button", name=trump, exact=True).click()
    bids(page, said)
    tap_tricks(page, [name for name, _ in said], took)


SEVEN = ("Priya", "Tom", "Olu", "Megan", "Hamish", "Rosa", "Ken")
AUSTRALIAN = (
    (3, dict.fromkeys(SEVEN, 0), {**dict.fromkeys(SEVEN, 0), "Tom": 1}),
    (4, {**dict.fromkeys(SEVEN, 0), "Ken": 1, "Tom": 1, "Megan": 1}, {**dict.fromkeys(SEVEN, 0), "Tom": 2}),
)


def australian(page: Page, number: int) -> None:
    first, bid, took = AUSTRALIAN[number - 1]
    order = [SEVEN[(first + i) % 7] for i in range(7)]
    bids(page, [(name, bid[name]) for name in order])
    tap_tricks(page, order, took)


BID_WHIST = (("4", "4 No", "5", "Pass"), "♠ Spades"), (("Pass", "4 Special", "Pass", "Pass"), "♥ Hearts")


def bid_whist(page: Page, number: int) -> None:
    calls, trump = BID_WHIST[number - 1]
    for words in calls:
        said = page.locator(".bids-so-far .bid-tag")
        before = said.count()
        page.locator("fieldset.calls").get_by_role("button", name=words, exact=True).click()
        expect(said).to_have_count(before + 1)
    chip(page, "Trumps named", trump)
    chip(page, "Books taken by Kings, kitty included", "10")


@dataclass(frozen=True)
class Case:
    record: str  # docs/examples/<record>.json, without its hands
    size: dict[str, Any]
    large: bool
    dark: bool
    hand: Callable[[Page, int], None]  # taps hand n in
    totals: dict[str, int]  # the standings after hand 2
    scoreboard: tuple[str, str] = ("", "")  # the big score's two lines, where the variant has one


CASES = {
    "whist-320-large": Case(
        "whist-rubber-default",
        NARROW_PHONE,
        True,
        False,
        whist,
        {"Us": 0, "Them": 0},  # games won
        ("Us 2 points 0 games won", "Them 3 points 0 games won"),
    ),
    "nomination-390-dark": Case(
        "nomination-family-four", PHONE, False, True, nomination, {"Ann": 21, "Bob": 21, "Dan": 11, "Cat": 10}
    ),
    "australian-7-320-dark-large": Case(
        "australian-seven-players",
        NARROW_PHONE,
        True,
        True,
        australian,
        {"Priya": 20, "Olu": 20, "Hamish": 20, "Rosa": 20, "Megan": 10, "Ken": 10, "Tom": 0},
    ),
    "bid-whist-390-large": Case(
        "bid_whist-home-to-seven", PHONE, True, False, bid_whist, {"Aces": 5, "Kings": 4}, ("Aces 5", "Kings 4")
    ),
}
BID_WHIST_SEATS = {
    "teams": [{"name": "Aces", "players": ["Ruth", "Lou"]}, {"name": "Kings", "players": ["Sam", "Joy"]}]
}


# Each visible button's or button-like link's lines of text, as widths in px (visually hidden words left out)
LINES = """() => Array.from(document.querySelectorAll("main button, main a.button")).filter((b) => b.offsetParent).map((b) => {
  const lines = {}, walk = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    if (node.parentElement.closest(".visually-hidden")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) {
      if (rect.width > 2) lines[Math.round(rect.bottom)] = (lines[Math.round(rect.bottom)] || 0) + rect.width;
    }
  }
  return [b.textContent.trim().replace(/\\s+/g, " "), Object.keys(lines).sort((x, y) => x - y).map((k) => lines[k])];
})"""


def stranded(page: Page) -> list[tuple[str, list[float]]]:
    """The buttons whose last line is a word left alone (under a quarter of their longest line)."""
    return [(text, widths) for text, widths in page.evaluate(LINES) if len(widths) > 1 and widths[-1] < max(widths) / 4]


def first_control_on_first_screen(page: Page, height: int, where: str) -> None:
    first = page.locator("#hand-panel").locator("button, label.chip, select, input[type=number]").filter(visible=True)
    box = first.first.bounding_box()
    assert box is not None and box["y"] + box["height"] <= height, (where, box)


@pytest.mark.parametrize("name", list(CASES))
def test_a_home_variant_played_by_taps_on_a_phone(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path, name: str
) -> None:
    case = CASES[name]
    record = {**json.loads((EXAMPLES / f"{case.record}.json").read_text()), "hands": []}
    if case.hand is bid_whist:  # Ruth deals first, the Kings (Sam, Joy) bid after her
        record = {**record, **BID_WHIST_SEATS, "first_dealer": 0}
    with app.app_context():
        token = records.import_record(record).scorer_token
    base = live_server.replace("127.0.0.1", LAN)
    context = lan_browser.new_context(**case.size, color_scheme="dark" if case.dark else "light")
    if case.large:
        context.add_cookies([{"name": "text_size", "value": "large", "url": base}])
    page = context.new_page()
    width, height = case.size["viewport"]["width"], case.size["viewport"]["height"]
    for number in (1, 2):
        page.goto(f"{base}/g/{token}")  # as the scorer opens the game, hand by hand
        assert ("large-text" in (page.locator("html").get_attribute("class") or "")) is case.large
        expect(page.locator("#hand-panel h2")).to_contain_text(f"Hand {number}")
        first_control_on_first_screen(page, height, f"hand {number}")
        case.hand(page, number)
        save(page, number)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"sideways scroll after hand {number}"
        assert stranded(page) == [], f"a word alone on a button's last line after hand {number}"
    rows = page.locator("section.totals ol.standings li")
    expect(rows).to_have_count(len(case.totals))
    shown = {
        rows.nth(i).locator(".name").inner_text(): int(rows.nth(i).locator(".total").inner_text())
        for i in range(rows.count())
    }
    assert shown == case.totals
    if case.scoreboard[0]:
        expect(page.locator("#scoreboard li")).to_have_text(
            [re.compile(r"\s+".join(s.split())) for s in case.scoreboard]
        )
    page.screenshot(path=str(screenshot_dir / f"home-variant-{name}.png"), full_page=True)
    context.close()
