"""Issue 17, item 4: a saved hand's answer carries the totals, the chart and the new row alone (htmx
out-of-band swaps into the live area the page keeps), and the page then shows exactly what a reload
shows. Where the page's sheet is not the one the hand was saved on, the whole live area comes."""

from __future__ import annotations

from flask import Flask
from playwright.sync_api import BrowserContext, Page, expect

from scorepad.games import service as games
from tests.browser import taps
from tests.browser.test_trust_at_the_table import FOUR, phone  # noqa: F401 (phone: the fixture)


def two_hands_played(app: Flask) -> str:
    """A Nomination game of 3-card rounds (trumps tapped in), two hands recorded; Bob deals hand 3."""
    with app.app_context():
        game = games.create(
            {
                "variant": "nomination",
                "players": FOUR,
                "first_dealer": 3,
                "options": {"sequence": "custom", "custom_sequence": [3, 3, 3, 3], "trumps": "entered"},
            }
        )
        games.enter_hand(game, 1, {"trump": "H", "bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]})
        games.enter_hand(game, 2, {"trump": "S", "bids": [0, 2, 0, 0], "tricks": [0, 2, 0, 1]})
        return game.scorer_token


def play_hand_three(page: Page) -> str:
    """Tap hand 3 in (Cat bids first) and Save; returns the body of Save's answer."""
    page.get_by_role("group", name="Which trump was turned up?").get_by_role("button", name="♣ Clubs").click()
    for name, bid in (("Cat", 1), ("Dan", 0), ("Ann", 1), ("Bob", 0)):
        page.get_by_role("button", name=f"{name} bids {bid}", exact=True).click()
        expect(page.locator(".bids-so-far")).to_contain_text(f"{name} {bid}")
    taps.tap_tricks(page, ["Cat", "Dan", "Ann", "Bob"], {"Cat": 1, "Dan": 0, "Ann": 2, "Bob": 0})
    with page.expect_response(lambda r: r.url.endswith("/entry") and r.request.method == "POST") as saved:
        page.get_by_role("button", name="Save hand 3").click()
    expect(page.locator(".notice")).to_have_text("Hand 3 saved.")
    return saved.value.text()


def live_text(page: Page) -> str:
    return page.locator("#live").inner_text()


def test_a_saved_hand_swaps_in_the_totals_chart_and_new_row_and_matches_a_reload(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    token = two_hands_played(app)
    page = phone.new_page()
    page.goto(f"{live_server}/g/{token}")
    page.evaluate("() => { document.getElementById('live').dataset.kept = 'yes'; }")

    answer = play_hand_three(page)
    assert 'hx-swap-oob="beforeend:#sheet-rows"' in answer and 'id="totals"' in answer
    assert 'id="hand-1"' not in answer and 'id="hand-2"' not in answer, "the rows already shown came again"
    assert page.locator("#live").get_attribute("data-kept") == "yes", "the live area was replaced, not kept"
    expect(page.locator("#sheet-rows > tr[id^=hand-]")).to_have_count(3)
    expect(page.locator("#hand-3")).to_contain_text("bid 1")
    expect(page.locator("#totals .standings li.leader .name")).to_have_text("Bob")
    expect(page.locator("#totals .standings li.leader .total")).to_have_text("33")  # 23 + 10 for a bid of 0 made
    shown = live_text(page)

    page.reload()
    assert live_text(page) == shown, "the page after the swaps differs from the page reloaded"


def test_a_page_showing_an_older_sheet_is_given_the_whole_live_area(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    """Hand 1 corrected on another phone while this one shows the old sheet: the next tap's answer
    brings the whole live area (the corrected row 1), and the page ends as a reload shows it."""
    token = two_hands_played(app)
    page = phone.new_page()
    page.goto(f"{live_server}/g/{token}")
    expect(page.locator("#hand-1")).to_contain_text("took 1")
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        games.correct_hand(game, 1, {"trump": "H", "bids": [1, 1, 0, 0], "tricks": [0, 1, 1, 1]})

    with page.expect_response(lambda r: r.url.endswith("/entry")) as tapped:
        page.get_by_role("group", name="Which trump was turned up?").get_by_role("button", name="♣ Clubs").click()
    answer = tapped.value.text()
    assert 'id="hand-1"' in answer and "hx-preserve" not in answer, "a page with an old sheet kept it"
    expect(page.locator("#hand-1 td").first).to_contain_text("took 0")  # Ann's corrected tricks

    page.goto(f"{live_server}/g/{token}")
    page.get_by_role("button", name="↶ Undo last entry: the trump").click()  # start hand 3 afresh
    expect(page.locator(".notice")).to_contain_text("Undone")
    play_hand_three(page)
    shown = live_text(page)
    page.reload()
    assert live_text(page) == shown
