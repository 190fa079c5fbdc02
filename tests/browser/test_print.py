"""Printing (issue 15): a game's score sheet and an event's results on paper, A4 and Letter alike.

Each page is printed to PDF by Chromium (`page.pdf`, which lays the page out for print media) on
A4 and on Letter with the 12 mm margins of static/css/print.css, and its pages are counted:

- a Nomination Whist game of 25 hands (four players) on one page, like a paper score sheet: the
  title and variant, the names heading the columns, a row per hand with its number and round and
  each cell's running total, points, bid and tricks, the final totals and the options in force;
- a classic Whist rubber (two sides) and an Australian Whist game of seven players, one page each;
- a Military Whist event's standings (30 tables) on one page;
- a Bid Whist tournament of 20 teams whose bracket of 16 is played out: the bracket and medals
  whole on the first page (portrait), the standings with them;
- a Bid Whist field of 64 teams: its standings table, set tighter, on one page (and kept whole on a
  page of its own after a bracket of 32).

The options printed are those in force that matter for the game (a rubber says nothing of whist-drive
scoring), and the game's result is printed once (the last hand's note that says it is left to the
summary under the totals).

The PDF's own text carries the names and the totals. Under print media the screen's parts (the
entry panel, Undo, the buttons, the chart, the site's header and footer, the offline bars, the
links to share and export) are hidden. Screenshots of the print rendering, at the printable width
of A4 (186 mm), go to test-output/screenshots/print-*.png.
"""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

from scorepad.games import records
from scorepad.games import service as games
from tests.browser.test_projector import bid_whist, military
from tests.conftest import EXAMPLES

PAPERS = ("A4", "Letter")
MARGIN = dict.fromkeys(("top", "right", "bottom", "left"), "12mm")
PRINT_WIDTH = {"viewport": {"width": 703, "height": 1000}}  # 186 mm at 96 px an inch: A4 less its margins
PLAYERS = ("Ann", "Bob", "Cat", "Dan")
# what is for the screen only, on the scorer's page of a game
SCREEN_ONLY = (
    "#hand-panel",
    ".undo-redo",
    ".chart-box",
    ".site-header",
    ".site-footer",
    ".game-menu",
    ".head-actions",
    ".edit-hand",
    ".offline-banner",
    ".outbox-bar",
    ".request-error",
)


def printed(page: Page) -> dict[str, tuple[int, str]]:
    """Paper size -> (pages, text) of the page printed to PDF."""
    out = {}
    page.emulate_media(media="print")  # as page.pdf does unless told otherwise: the screen's emulation would win
    for paper in PAPERS:
        pdf = page.pdf(format=paper, margin=MARGIN)
        reader = PdfReader(io.BytesIO(pdf))
        assert len(reader.pages) == len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
        out[paper] = (len(reader.pages), "\n".join(p.extract_text() for p in reader.pages))
    return out


def on_one_page(page: Page) -> str:
    """Print on A4 and Letter; each must be one page. The text printed (A4's)."""
    result = printed(page)
    assert {paper: pages for paper, (pages, _) in result.items()} == dict.fromkeys(PAPERS, 1)
    return result["A4"][1]


def shot(page: Page, directory: Path, name: str) -> None:
    """The print rendering, as a screenshot (the PDF itself is not an image the tests can look at)."""
    page.emulate_media(media="print")
    page.screenshot(path=str(directory / f"print-{name}.png"), full_page=True)


def nomination_record() -> dict[str, Any]:
    """A Nomination game of 25 hands: my own list, 1 up to 13 and down again to 1. Bids and tricks vary
    hand by hand; the dealer (seat h % 4, bidding last) never makes the bids add up (the hook rule)."""
    cards = list(range(1, 14)) + list(range(12, 0, -1))
    hands = []
    for h, c in enumerate(cards):
        bids = [(c + i + h) % 3 * c // 4 for i in range(4)]
        dealer = h % 4
        if c >= 4 and sum(bids) == c:
            bids[dealer] += 1 if bids[dealer] < c else -1
        tricks = [c // 4] * 4
        for i in range(c % 4):
            tricks[(h + i) % 4] += 1
        hands.append({"trump": "HDCS"[h % 4] if h % 5 != 4 else "NT", "bids": bids, "tricks": tricks})
    return {
        "scorepad": 1,
        "variant": "nomination",
        "title": "Sunday at Gran's: up and down",
        "options": {"sequence": "custom", "custom_sequence": cards},
        "players": list(PLAYERS),
        "first_dealer": 0,
        "hands": hands,
    }


def store(app: Flask, record: dict[str, Any]) -> tuple[str, list[str], dict[str, int]]:
    """Store a game record as a game: its scorer's token, its columns and its final totals by name."""
    with app.app_context():
        game = records.import_record(record)
        view = games.view(game)
        return game.scorer_token, list(view.sheet.columns), {s.name: s.total for s in view.sheet.standings}


def read_json(name: str) -> dict[str, Any]:
    import json

    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text())
    return data


def check_sheet(
    page: Page, columns: list[str], totals: dict[str, int], hands: int, pairs: tuple[str, ...] = ()
) -> None:
    """Under print media: the screen's parts hidden; the sheet, its names (a side's with the pair
    playing for it, under its name), rows, totals and options shown."""
    page.emulate_media(media="print")
    for selector in SCREEN_ONLY:
        for i in range(page.locator(selector).count()):
            expect(page.locator(selector).nth(i)).to_be_hidden()
    buttons = page.locator("main button")
    for i in range(buttons.count()):
        expect(buttons.nth(i)).to_be_hidden()
    sheet = page.locator(".sheet-table")
    expect(sheet).to_be_visible()
    expect(sheet.locator("thead th")).to_have_text(
        ["#", *(c + p for c, p in zip(columns, pairs or [""] * len(columns)))]
    )
    expect(sheet.locator("tbody tr[id^=hand-]")).to_have_count(hands)
    expect(page.locator("section.totals")).to_be_visible()
    expect(page.locator(".rules-in-force")).to_be_visible()
    for name, total in totals.items():
        row = page.locator(
            "section.totals .standings li", has=page.locator(".name", has_text=re.compile(f"^{re.escape(name)}$"))
        )
        expect(row.locator(".total")).to_have_text(str(total))
    page.emulate_media(media="screen")
    expect(page.locator("#hand-panel")).to_be_visible()  # the screen is as it was


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text))  # "ﬁ", a ligature in the PDF, is "fi"


def check_text(text: str, words: list[str]) -> None:
    missing = [w for w in words if w not in flat(text)]
    assert not missing, (missing, flat(text)[:2000])


def said_once(app: Flask, token: str, text: str) -> None:
    """The game's result (its summary) is printed once, however many places say it on the screen."""
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        summary = games.view(game).sheet.summary
    assert summary and flat(text).count(summary) == 1, (summary, flat(text).count(summary))


def test_a_nomination_game_of_25_hands_prints_on_one_page(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    token, columns, totals = store(app, nomination_record())
    assert columns == list(PLAYERS)
    page = browser.new_context(**PRINT_WIDTH).new_page()
    page.goto(f"{live_server}/g/{token}")
    expect(page.get_by_role("button", name="Print the score sheet")).to_be_visible()
    check_sheet(page, columns, totals, 25)
    shot(page, screenshot_dir, "nomination-25-hands")
    # room to spare on Letter, the shorter paper: 255.4 mm high less its margins, 96 px an inch
    page.set_viewport_size({"width": round(191.9 / 25.4 * 96), "height": 600})
    page.emulate_media(media="print")
    height = page.evaluate("document.querySelector('main').getBoundingClientRect().bottom") / 96 * 25.4
    assert height < 0.95 * 255.4, f"the sheet of 25 hands is {height:.0f} mm high on Letter"
    text = on_one_page(page)
    check_text(
        text,
        [
            "Sunday at Gran's: up and down",
            "Nomination Whist",
            *PLAYERS,
            "Final totals",
            "Options in force",
            "Cards per round",
            "My own list",
            "Hook rule",
        ]
        + [f"{name} {total}" for name, total in totals.items()],
    )
    for absent in (
        "Undo",
        "Rematch",
        "Share live view",
        "Print the score sheet",
        "Export",
        "Edit",
        "Chart",
        "Result card",
        "Share the result",
    ):
        assert absent not in text, absent
    said_once(app, token, text)
    page.context.close()


def test_the_print_button_opens_the_print_dialog(app: Flask, live_server: str, browser: Browser) -> None:
    token, _, _ = store(app, read_json("nomination-family-four.json"))
    page = browser.new_context(**PRINT_WIDTH).new_page()
    page.goto(f"{live_server}/g/{token}")
    page.evaluate("window.print = () => { document.body.dataset.printed = '1'; }")
    page.get_by_role("button", name="Print the score sheet").click()
    expect(page.locator("body")).to_have_attribute("data-printed", "1")
    page.context.close()


def test_a_classic_whist_rubber_prints_on_one_page(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    record = read_json("whist-rubber-honours.json")
    token, columns, totals = store(app, record)
    page = browser.new_context(**PRINT_WIDTH).new_page()
    page.goto(f"{live_server}/g/{token}")
    check_sheet(page, columns, totals, len(record["hands"]), ("Alice & Carol", "Bob & Dave"))
    shot(page, screenshot_dir, "whist-rubber")
    text = on_one_page(page)
    check_text(
        text, [*columns, "Score honours", "Points for game"] + [f"{name} {total}" for name, total in totals.items()]
    )
    for absent in ("Whist drive scoring", "Fixed number of deals", "No trumps every fifth deal"):  # not in a rubber
        assert absent not in text, absent
    said_once(app, token, text)
    page.context.close()


def test_an_australian_game_of_seven_players_prints_on_one_page(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    record = read_json("australian-seven-players.json")
    token, columns, totals = store(app, record)
    assert len(columns) == 7
    page = browser.new_context(**PRINT_WIDTH).new_page()
    page.goto(f"{live_server}/g/{token}")
    check_sheet(page, columns, totals, len(record["hands"]))
    shot(page, screenshot_dir, "australian-seven")
    text = on_one_page(page)
    check_text(
        text, [*columns, "Remote play with several packs"] + [f"{name} {total}" for name, total in totals.items()]
    )
    said_once(app, token, text)
    # the spectators' page prints the same sheet
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        public = game.public_id
    page.goto(f"{live_server}/w/{public}")
    expect(page.locator(".sheet-table")).to_be_visible()
    on_one_page(page)
    page.context.close()


def results_page(browser: Browser, live_server: str, public: str) -> Page:
    page = browser.new_context(**PRINT_WIDTH).new_page()
    page.goto(f"{live_server}/b/{public}/standings")
    expect(page.locator("#board .board-rows tr").first).to_be_visible()
    expect(page.get_by_role("button", name="Print the results")).to_be_visible()
    page.emulate_media(media="print")
    for selector in (".site-header", ".site-footer", ".live-note", ".movement", "main button"):
        for i in range(page.locator(selector).count()):
            expect(page.locator(selector).nth(i)).to_be_hidden()
    expect(page.locator("#board .board-table")).to_be_visible()
    page.emulate_media(media="screen")
    return page


def test_an_events_results_print_on_one_page(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    public = military(app, 30)
    page = results_page(browser, live_server, public)
    teams = page.locator("#board .board-rows th.team").all_inner_texts()
    assert len(teams) == 30
    shot(page, screenshot_dir, "military-results")
    text = on_one_page(page)
    check_text(text, ["County finals", "Flags", *(re.sub(r"\s+", " ", t) for t in teams)])
    page.context.close()


def test_a_bid_whist_bracket_of_16_prints_on_one_page(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    public = bid_whist(app, teams=20, played=16)
    page = results_page(browser, live_server, public)
    expect(page.locator(".bracket-level h3")).to_have_text(
        ["Sweet 16", "Elite 8", "Final Four", "Final", "Third place"]
    )
    expect(page.locator(".medal")).to_have_count(3)
    names = page.locator(".bracket-level").first.locator(".bracket-match .name").all_inner_texts()
    assert len(names) == 16
    shot(page, screenshot_dir, "bid-whist-bracket")
    text = on_one_page(page)
    check_text(text, ["County Bid Whist", "Sweet 16", "Elite 8", "Final Four", "Third place", "Gold", *names])
    page.context.close()


FIELD_OF_64 = [
    f"{first} {second}"
    for first in ("Card", "Trump", "Spade", "Book", "Kitty", "Club", "Heart", "Joker")
    for second in ("Sharks", "Aces", "Keepers", "Bidders", "Cats", "Closers", "Talkers", "Jacks")
]


def test_the_standings_of_64_bid_whist_teams_print_on_one_page(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    public = bid_whist(app, teams=64, names=FIELD_OF_64, bracket=False)
    page = results_page(browser, live_server, public)
    expect(page.locator("#board .board-rows tr")).to_have_count(64)
    shot(page, screenshot_dir, "bid-whist-64-standings")
    text = on_one_page(page)
    check_text(text, ["County Bid Whist", "Rounds won", *FIELD_OF_64])
    page.context.close()


def test_after_a_bracket_of_32_the_standings_of_64_teams_are_whole_on_one_page(
    app: Flask, live_server: str, browser: Browser
) -> None:
    public = bid_whist(app, teams=64, played=64, names=FIELD_OF_64)
    page = results_page(browser, live_server, public)
    expect(page.locator(".bracket-level h3").first).to_have_text("Round of 32")
    page.emulate_media(media="print")
    for paper in PAPERS:
        pages = [flat(p.extract_text()) for p in PdfReader(io.BytesIO(page.pdf(format=paper, margin=MARGIN))).pages]
        table = [i for i, t in enumerate(pages) if "Rank Team Rounds won Points" in t]
        assert len(table) == 1, (paper, table)
        rows = re.findall(r"(?<!seed )\b\d+=? No\. (\d+) ", pages[table[0]])  # a rank, not a bracket's seed
        assert sorted(map(int, rows)) == list(range(1, 65)), (paper, rows)
        assert all(not re.search(r"\b33= No\. ", t) for i, t in enumerate(pages) if i != table[0]), paper
    page.context.close()
