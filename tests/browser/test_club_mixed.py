"""A club night where each table chooses its game: a Nomination table beside a Whist table, both
played to the end on their phones, ranked together by place score on the projector (issue 32,
item 8), read in English and then in French.

Table 1, Nomination Whist of a single 1-card hand (Ann deals, Bob bids first): bids Bob 1, Cat 1,
Dan 0, Ann 0; Cat takes the trick. Scores (tricks, plus 10 for an exact bid): Bob 0, Cat 11,
Dan 10, Ann 10. Place scores among the 4 (share of the 3 others beaten, a tie counting half):
Cat 3/3 = 100%, Dan and Ann (1 + 1/2)/3 = 50%, Bob 0%.
Table 2, Whist, one game to 5: the Aces take all 13 tricks, 7 odd, game. Aces 100%, Kings 0%.
Screenshots: test-output/screenshots/club-mixed-*.png.
"""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, PROJECTOR
from tests.browser.taps import tap_tricks
from tests.web.test_club_night import public_id, table_tokens

WIDTH = PHONE["viewport"]["width"]


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, "the page scrolls sideways"


def test_a_nomination_table_and_a_whist_table_ranked_by_place_score(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    phone = browser.new_context(**PHONE)
    page = phone.new_page()

    # ---- the director: each table chooses, between Nomination and Whist, ranked by place score
    page.goto(live_server + "/events/new/club")
    page.get_by_label("Event name").fill("Mixed Tuesday")
    ranking = page.get_by_role("group", name=re.compile("how the tables of different games are ranked"))
    expect(ranking).to_be_hidden()  # asked only once the tables choose
    page.get_by_role("radio", name="Each table chooses").check()
    expect(ranking).to_be_visible()
    offered = page.get_by_role("group", name=re.compile("the games it may choose from"))
    offered.get_by_role("checkbox", name="Bid Whist", exact=True).uncheck()
    offered.get_by_role("checkbox", name="Australian Whist", exact=True).uncheck()
    ranking.get_by_role("radio", name=re.compile("^All together by place score")).check()
    page.get_by_label("Number of tables (1 to 64)").fill("2")
    fits(page)
    page.screenshot(path=str(screenshot_dir / "club-mixed-1-new.png"), full_page=True)
    page.get_by_role("button", name="Create the club night").click()
    expect(page).to_have_url(re.compile(r"/d/[\w-]+$"))
    token = page.url.rsplit("/", 1)[1]
    tables = table_tokens(app, token)

    # ---- table 1 chooses Nomination Whist: a game of one 1-card hand
    page.goto(f"{live_server}/t/{tables[1]}")
    expect(page.get_by_role("heading", name="Which game does this table play?")).to_be_visible()
    expect(page.locator(".choose-variant a")).to_have_text(["Whist", "Nomination Whist"])
    fits(page)
    page.screenshot(path=str(screenshot_dir / "club-mixed-2-choose.png"), full_page=True)
    page.get_by_role("link", name="Nomination Whist").click()
    expect(page.get_by_text("Who is playing Nomination Whist at this table?")).to_be_visible()
    for seat, name in enumerate(("Ann", "Bob", "Cat", "Dan")):
        page.get_by_role("textbox", name=f"Player {seat + 1}", exact=True).fill(name)
    page.locator("details.options summary").click()
    page.get_by_role("group", name="Cards per round", exact=True).get_by_role("radio", name="My own list").check()
    page.get_by_label("Custom list of cards per round").fill("1")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Hand 1 of 1")).to_be_visible()
    page.get_by_role("group", name="Which trump was turned up?").get_by_role("button").first.click()
    for name, bid in (("Bob", 1), ("Cat", 1), ("Dan", 0), ("Ann", 0)):
        page.get_by_role("button", name=f"{name} bids {bid}", exact=True).click()
    tap_tricks(page, ["Bob", "Cat"], {"Bob": 0, "Cat": 1, "Dan": 0, "Ann": 0})
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("status")).to_have_text("Hand 1 saved.")

    # ---- table 2 chooses Whist, one game to 5 (no rubber): one deal of 13 tricks ends it
    page.goto(f"{live_server}/t/{tables[2]}")
    page.get_by_role("link", name="Whist", exact=True).click()
    expect(page.get_by_text("Who is playing Whist at this table?")).to_be_visible()
    page.get_by_label("Team 1 name").fill("Aces")
    page.get_by_label("Team 2 name").fill("Kings")
    for seat, name in enumerate(("Ivy", "Jo", "Kim", "Lou")):
        page.locator(f"#name-{seat}").fill(name)
    page.get_by_text("Options:").click()
    page.get_by_label("Play a rubber").uncheck()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 1")
    page.get_by_role("group", name="Trump turned up", exact=True).get_by_role("radio").first.check()
    page.get_by_role("group", name="Tricks taken by Aces", exact=True).get_by_role("radio", name="13").check()
    page.get_by_role("button", name="Save hand 1", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Hand 1 saved.")
    phone.close()

    # ---- the projector: one list by place score, said above it; then the same in French
    screen = browser.new_context(**PROJECTOR)
    board = screen.new_page()
    board.goto(f"{live_server}/b/{public_id(app, token)}")
    expect(board.locator("#board .ranked-by")).to_have_text(
        "Ranked by place score across variants: each player's share of the other players of their own "
        "game they are ahead of, a tie counting half (100% is first of their game, 0% last)."
    )
    rows = board.locator("#board tbody tr")
    expect(rows).to_have_count(6)
    shown = [[c.strip() for c in rows.nth(i).locator("td, th").all_inner_texts()][:5] for i in range(6)]
    assert shown == [
        ["1=", "Cat", "1", "100%", "Nomination Whist"],
        ["1=", "Aces", "2", "100%", "Whist"],
        ["3=", "Ann", "1", "50%", "Nomination Whist"],
        ["3=", "Dan", "1", "50%", "Nomination Whist"],
        ["5=", "Bob", "1", "0%", "Nomination Whist"],
        ["5=", "Kings", "2", "0%", "Whist"],
    ]
    expect(board.locator("#board .board-status")).to_contain_text("Whist and Nomination Whist")
    board.screenshot(path=str(screenshot_dir / "club-mixed-3-projector.png"))

    screen.add_cookies([{"name": "lang", "value": "fr", "url": live_server}])
    board.reload()
    expect(board.locator("html")).to_have_attribute("lang", "fr")
    expect(board.locator("#board .board-status")).to_contain_text("Whist et Nomination Whist")
    expect(board.locator("#board .ranked-by")).to_contain_text(
        "Classement au score de rang, toutes variantes confondues"
    )
    expect(board.locator("#board thead")).to_contain_text("Score de rang")
    expect(rows.nth(2).locator("td.total")).to_have_text(re.compile(r"^50\s%$"))
    board.screenshot(path=str(screenshot_dir / "club-mixed-4-projector-fr.png"))
    screen.close()
