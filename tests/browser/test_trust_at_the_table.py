"""Issue 14, "Trust at the table": what the screen says must be true. One test per reported bug,
each set up through the services (quick) and then looked at, and tapped, in a real browser."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, expect

from scorepad.events import drive, military
from scorepad.events.bid_whist import registration, writes
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import Event
from tests.browser import taps
from tests.browser.conftest import PHONE

FOUR = ["Ann", "Bob", "Cat", "Dan"]


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(**PHONE)
    yield context
    context.close()


def nomination(app: Flask, cards: list[int], players: list[str] = FOUR, first_dealer: int = 1) -> str:
    """A Nomination game of `cards` per round (trumps tapped in); returns the scorer's token."""
    with app.app_context():
        game = games.create(
            {
                "variant": "nomination",
                "players": players,
                "first_dealer": first_dealer,
                "options": {"sequence": "custom", "custom_sequence": cards, "trumps": "entered"},
            }
        )
        return game.scorer_token


def bid_whist(app: Flask, options: dict[str, object] | None = None) -> str:
    with app.app_context():
        game = games.create(
            {
                "variant": "bid_whist",
                "first_dealer": 0,
                "options": options or {},
                "teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}],
            }
        )
        return game.scorer_token


def plain_four(number: int, books: int) -> dict[str, object]:
    """Bid Whist hand `number` (first dealer seat 0): the first bidder bids 4 plain, the rest pass."""
    bidder = number % 4
    return {
        "auction": [{"bid": 4, "kind": "plain"}, None, None, None],
        "bidder": bidder,
        "bid": 4,
        "kind": "plain",
        "trump": "S",
        "books": books,
    }


def enter(app: Flask, token: str, hands: list[dict[str, object]]) -> None:
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        for entry in hands:
            games.enter_hand(game, len(game.hands) + 1, entry)


# --------------------------------------------------------------------------- 1. events by their format


def test_home_page_names_each_event_by_its_format(app: Flask, live_server: str, phone: BrowserContext) -> None:
    with app.app_context():
        tokens = [
            drive.create("Village hall drive", [f"P{n}" for n in range(1, 9)]).director_token,
            writes.create("Senior Olympics Bid Whist").director_token,
            military.create_event("Club day", ["Aces", "Kings", "Queens", "Jacks"], [4]).director_token,
        ]
    page = phone.new_page()
    for token in tokens:  # opened by their director's links: this phone's own events (issue 32, item 12)
        page.goto(f"{live_server}/d/{token}")
    page.goto(live_server + "/")
    cards = page.get_by_role("region", name="Your events", exact=True).get_by_role("listitem")
    expect(cards.filter(has_text="Village hall drive")).to_contain_text("Whist drive · 2 tables")
    expect(cards.filter(has_text="Senior Olympics Bid Whist")).to_contain_text("Bid Whist tournament")
    expect(cards.filter(has_text="Club day")).to_contain_text("Military Whist · 4 tables")
    expect(cards.filter(has_text="Military Whist")).to_have_count(1)


# --------------------------------------------------------------------------- 4. undo one tap, and redo


def test_undo_takes_back_exactly_the_last_tap_and_offers_to_redo_it(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    """It used to clear all 3 bids and the trump in one tap, and at the start of a hand delete the
    whole previous hand, with no word of what went and no way back."""
    token = nomination(app, [4, 4])  # Bob deals: Cat, Dan, Ann, Bob bid
    page = phone.new_page()
    page.goto(f"{live_server}/g/{token}")
    page.get_by_role("group", name="Which trump was turned up?").get_by_role("button", name="♠ Spades").click()
    for name, bid in (("Cat", 1), ("Dan", 2), ("Ann", 0)):
        page.get_by_role("button", name=f"{name} bids {bid}", exact=True).click()
        expect(page.locator(".bids-so-far")).to_contain_text(f"{name} {bid}")
    page.get_by_role("button", name="↶ Undo last entry: Ann's bid of 0").click()
    expect(page.locator(".notice")).to_have_text("Undone: Ann's bid of 0.")
    expect(page.locator(".bids-so-far .bid-tag")).to_have_text(["Cat 1", "Dan 2"])
    expect(page.locator("#hand-panel .facts")).to_contain_text("Trump ♠ Spades")
    expect(page.get_by_role("group", name="Ann’s bid")).to_be_visible()
    page.get_by_role("button", name="↷ Redo: Ann's bid of 0").click()
    expect(page.locator(".notice")).to_have_text("Redone: Ann's bid of 0.")
    expect(page.locator(".bids-so-far .bid-tag")).to_have_text(["Cat 1", "Dan 2", "Ann 0"])
    expect(page.get_by_role("button", name=re.compile("Redo"))).to_have_count(0)

    page.get_by_role("button", name="Bob bids 0", exact=True).click()
    taps.tap_tricks(page, ["Cat", "Dan", "Ann", "Bob"], {"Cat": 1, "Dan": 2, "Ann": 0, "Bob": 1})
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("heading", name="Hand 2 of 2")).to_be_visible()
    # at the start of the next hand, Undo takes back the save, not the hand's bids and tricks
    page.get_by_role("button", name="↶ Undo last entry: saving hand 1").click()
    expect(page.locator(".notice")).to_have_text("Undone: saving hand 1.")
    expect(page.get_by_role("heading", name="Hand 1 of 2")).to_be_visible()
    assert taps.tricks_shown(page) == {"Cat": 1, "Dan": 2, "Ann": 0, "Bob": 1}
    expect(page.locator(".bids-so-far .bid-tag").filter(has_text="Bob 0")).to_have_count(1)
    page.reload()  # nothing of it is lost on a reload, the redo included
    page.get_by_role("button", name="↷ Redo: saving hand 1").click()
    expect(page.get_by_role("heading", name="Hand 2 of 2")).to_be_visible()
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        assert [h.entry for h in game.hands] == [{"trump": "S", "bids": [0, 0, 1, 2], "tricks": [0, 1, 1, 2]}]


def test_a_four_player_hand_takes_one_tap_per_bid_and_per_trick_count(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    """Counted as the phone sees them: every tap on a button of the page, from the trump to Save."""
    token = nomination(app, [7, 7])
    page = phone.new_page()
    page.goto(f"{live_server}/g/{token}")
    page.evaluate("""() => { window.taps = 0;
        document.addEventListener('click', e => { if (e.target.closest('button')) window.taps++; }, true); }""")
    page.get_by_role("group", name="Which trump was turned up?").get_by_role("button", name="♥ Hearts").click()
    for name, bid in (("Cat", 2), ("Dan", 1), ("Ann", 3), ("Bob", 0)):
        page.get_by_role("button", name=f"{name} bids {bid}", exact=True).click()
        expect(page.locator(".bids-so-far")).to_contain_text(f"{name} {bid}")
    taps.tap_tricks(page, ["Cat", "Dan", "Ann", "Bob"], {"Cat": 2, "Dan": 2, "Ann": 3, "Bob": 0})
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".notice")).to_have_text("Hand 1 saved.")
    counted = page.evaluate("() => window.taps")
    assert counted <= 1 + 4 + 4, f"{counted} taps"  # trump, 4 bids, 3 trick counts and Save
    assert counted == 9


# --------------------------------------------------------------------------- 5. a stale bid


def test_a_stale_bid_says_what_is_recorded_and_what_was_refused(app: Flask, live_server: str, browser: Browser) -> None:
    token = nomination(app, [4, 1])  # Bob deals: Cat bids first
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        games.set_pending(game, {"trump": "S"})
    first, second = (browser.new_context(**PHONE).new_page() for _ in range(2))
    for page in (first, second):
        page.goto(f"{live_server}/g/{token}")
        expect(page.get_by_role("group", name="Cat’s bid")).to_be_visible()
    first.get_by_role("button", name="Cat bids 1", exact=True).click()
    expect(first.locator(".bids-so-far")).to_contain_text("Cat 1")

    second.get_by_role("button", name="Cat bids 2", exact=True).click()  # its screen still asks for Cat's bid
    notice = second.locator("#play-body > .notice")
    expect(notice).to_contain_text("Cat's bid of 1 is recorded")
    expect(notice).to_contain_text("your bid of 2 for Cat was not applied")
    expect(notice).not_to_contain_text("already recorded; it was not applied twice")
    expect(second.locator(".bids-so-far")).to_contain_text("Cat 1")  # the screen now shows the truth
    expect(second.get_by_role("group", name="Dan’s bid")).to_be_visible()
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None and game.pending == {"trump": "S", "bids": [None, None, 1, None]}

    # the same tap sent twice (a double tap) is still told as such, with the bid it kept
    first.get_by_role("button", name="Dan bids 0", exact=True).click()
    expect(first.locator(".bids-so-far")).to_contain_text("Dan 0")
    second.get_by_role("button", name="Dan bids 0", exact=True).click()
    expect(notice).to_contain_text("Dan's bid of 0 was already recorded; it was not applied twice")
    for page in (first, second):
        page.context.close()


# --------------------------------------------------------------------------- 6. no internal names


def test_a_no_bid_saved_without_its_direction_asks_in_players_words(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    token = bid_whist(app)
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        games.set_pending(
            game, {"auction": [{"bid": 4, "kind": "no"}, None, None, None], "bidder": 1, "bid": 4, "kind": "no"}
        )
    page = phone.new_page()
    page.goto(f"{live_server}/g/{token}")
    page.get_by_role("group", name=re.compile("^Books taken by")).get_by_role("radio", name="10", exact=True).check()
    page.get_by_role("button", name="Save hand 1").click()
    error = page.locator("#hand-panel .field-error")
    expect(error).to_have_count(1)
    expect(error).to_have_text(
        "The winner of a No bid declares uptown (high cards win) or downtown (low cards win): choose which"
    )
    assert "'" not in error.inner_text() and "direction" not in error.inner_text()


# --------------------------------------------------------------------------- 7. recent names


def test_recent_name_buttons_name_the_first_dealer_choice(app: Flask, live_server: str, phone: BrowserContext) -> None:
    nomination(app, [1], ["Zoe", "Yan", "Xia", "Wim"])
    page = phone.new_page()
    page.goto(live_server + "/new/nomination")
    for name in ("Zoe", "Yan", "Xia"):
        page.locator(".recent").get_by_role("button", name=name, exact=True).click()
    dealer = page.get_by_role("group", name="Who deals first?")
    expect(dealer.locator("label")).to_have_text(["Zoe", "Yan", "Xia", "Player 4"])


# --------------------------------------------------------------------------- 8. a tie's places


def test_a_tie_shows_the_same_places_in_the_game_over_box_and_the_final_totals(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    token = nomination(app, [2], ["Ann", "Bob", "Cat"], first_dealer=2)  # Ann bids first
    enter(app, token, [{"trump": "S", "bids": [1, 1, 0], "tricks": [1, 1, 0]}])  # Ann 11, Bob 11, Cat 10
    page = phone.new_page()
    page.goto(f"{live_server}/g/{token}")
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.locator(".finished .standings .place")).to_have_text(["1=", "1=", "3"])
    expect(page.get_by_role("heading", name="Final totals")).to_be_visible()
    expect(page.locator("section.totals .standings .place")).to_have_text(["1=", "1=", "3"])


# --------------------------------------------------------------------------- 9. a fixed error goes


def test_the_trick_total_error_goes_once_the_tricks_are_changed(
    app: Flask, live_server: str, phone: BrowserContext
) -> None:
    """The counters are left only in remote play (tricks and shared tricks); elsewhere tricks are
    tapped in turn, offered only up to the tricks left, so they cannot fail to add up."""
    with app.app_context():
        game = games.create({"variant": "australian", "players": FOUR, "first_dealer": 3, "options": {"remote": True}})
        games.set_pending(game, {"bids": [1, 0, 1, 0]})
        token = game.scorer_token
    page = phone.new_page()
    page.goto(f"{live_server}/g/{token}")
    page.get_by_role("button", name="Save hand 1").click()  # every count still 0
    error = page.get_by_text(re.compile("The tricks add up to 0"))
    expect(error).to_be_visible()
    result = page.get_by_role("group", name="Tricks won")
    result.get_by_role("button", name=re.compile("^One more for Dan ")).click()
    expect(error).to_have_count(0)
    expect(page.locator("#hand-panel [aria-invalid]")).to_have_count(0)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("status")).to_have_text("Hand 1 saved.")


def test_tricks_tapped_in_turn_cannot_add_up_wrong(app: Flask, live_server: str, phone: BrowserContext) -> None:
    token = nomination(app, [4, 1])
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        games.set_pending(game, {"trump": "S", "bids": [0, 0, 1, 1]})
    page = phone.new_page()
    page.goto(f"{live_server}/g/{token}")
    taps.tap_one(page, "Cat", 3)
    row = page.get_by_role("group", name=re.compile("^Dan’s tricks"))  # Dan is offered only what is left
    expect(row.get_by_role("button")).to_have_text(["0", "1"])
    taps.tap_one(page, "Dan", 1)  # no trick left: Ann's and Bob's 0 are filled in
    expect(page.get_by_role("group", name=re.compile("’s tricks"))).to_have_count(0)
    expect(page.locator(".field-error")).to_have_count(0)
    assert taps.tricks_shown(page) == {"Ann": 0, "Bob": 0, "Cat": 3, "Dan": 1}
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("status")).to_have_text("Hand 1 saved.")


# --------------------------------------------------------------------------- 10. the tie-break hand


def test_a_tied_round_in_round_two_of_a_tournament(app: Flask, live_server: str, phone: BrowserContext) -> None:
    with app.app_context():
        event = writes.create("Cup", rounds=2)
        for n in range(1, 5):
            registration.register_team(event, f"T{n}", [f"P{n}a", f"P{n}b"])
        event.options = {**event.options, "seed": "s1"}
        db.session.commit()
        writes.start(event)
        for match in list(event.matches):
            assert match.game is not None
            for n in range(1, 5):
                games.enter_hand(match.game, n, plain_four(n, 10 if n % 2 == 0 else 5))  # N/S win 16-0
            writes.close_match(event, match)
        writes.advance(event)
        match = next(m for m in db.session.get(Event, event.id).matches if m.number == 2 and m.table == 1)
        assert match.game is not None
        scorer = match.game.scorer_token
        table = next(t for t in event.tables if t.number == 1).token
    enter(app, scorer, [plain_four(n, 10) for n in range(1, 5)])  # 8-8: the round is tied
    page = phone.new_page()
    page.goto(f"{live_server}/t/{table}")
    expect(page.locator("#event-bar")).to_contain_text("Round 2 of 2")
    panel = page.locator("#hand-panel")
    expect(panel.get_by_role("heading")).to_have_text("Hand 5: the tie-break")
    expect(panel.locator(".round-note")).to_contain_text("The round is tied 8-8: one extra hand")
    expect(panel).not_to_contain_text("Round 1")


def test_hands_after_a_tie_break_count_it(app: Flask, live_server: str, phone: BrowserContext) -> None:
    token = bid_whist(app, {"play_to": "rounds", "rounds": 2})
    enter(app, token, [plain_four(n, 10) for n in range(1, 5)])  # round 1 tied 8-8
    page = phone.new_page()
    page.goto(f"{live_server}/g/{token}")
    panel = page.locator("#hand-panel")
    expect(panel.get_by_role("heading")).to_have_text("Hand 5: the tie-break")
    expect(panel.locator(".round-note")).to_contain_text("Round 1 is tied 8-8: one extra hand")
    enter(app, token, [plain_four(5, 10)])
    page.reload()
    expect(panel.get_by_role("heading")).to_have_text("Hand 6 of 9")
    expect(panel.locator(".round-note")).to_have_text("Round 2, hand 1 of 4.")


def test_the_military_table_phone_counts_its_flags_one_way(app: Flask, live_server: str, phone: BrowserContext) -> None:
    """Bug 2: in the demo event, tables 1 and 2 enter 8 and 10, then table 3 taps 7. The header
    said 15, the preview "13 → 12", and after confirming the header said 14."""
    with app.app_context():
        event = military.load_demo_event()
        assert event is not None
        hand = event.current_hand
        for table, tricks in ((1, 8), (2, 10)):
            military.enter_result(event, table, hand, tricks, None, f"table {table}")
        token = event.tables[2].token
    page = phone.new_page()
    page.goto(f"{live_server}/t/{token}")
    header = page.locator(".table-flags strong").first
    before = int(header.inner_text())
    page.get_by_role("button", name="7 tricks", exact=True).click()
    preview = page.get_by_text(re.compile(r"^Flags held: "))
    expect(preview).to_contain_text(f"Flags held: {before} → ")
    after = int(preview.locator("strong").inner_text())
    page.get_by_role("button", name=f"Confirm hand {hand}").click()
    expect(page.get_by_role("heading", name=f"Hand {hand} is recorded")).to_be_visible()
    expect(header).to_have_text(str(after))
