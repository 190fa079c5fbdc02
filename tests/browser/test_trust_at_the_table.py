"""Issue 14, "Trust at the table": what the screen says must be true. One test per reported bug,
each set up through the services (quick) and then looked at, and tapped, in a real browser."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, expect

from scorepad.events import drive, military
from scorepad.events.bid_whist import tournament
from scorepad.games import service as games
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
        game = games.create({"variant": "nomination", "players": players, "first_dealer": first_dealer,
                             "options": {"sequence": "custom", "custom_sequence": cards, "trumps": "entered"}})
        return game.scorer_token


def bid_whist(app: Flask, options: dict[str, object] | None = None) -> str:
    with app.app_context():
        game = games.create({"variant": "bid_whist", "first_dealer": 0, "options": options or {},
                             "teams": [{"name": "Us", "players": ["Ann", "Cat"]},
                                       {"name": "Them", "players": ["Bob", "Dan"]}]})
        return game.scorer_token


def plain_four(number: int, books: int) -> dict[str, object]:
    """Bid Whist hand `number` (first dealer seat 0): the first bidder bids 4 plain, the rest pass."""
    bidder = number % 4
    return {"auction": [{"bid": 4, "kind": "plain"}, None, None, None], "bidder": bidder, "bid": 4,
            "kind": "plain", "trump": "S", "books": books}


def enter(app: Flask, token: str, hands: list[dict[str, object]]) -> None:
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        for entry in hands:
            games.enter_hand(game, len(game.hands) + 1, entry)


# --------------------------------------------------------------------------- 1. events by their format


def test_home_page_names_each_event_by_its_format(app: Flask, live_server: str, phone: BrowserContext) -> None:
    with app.app_context():
        drive.create("Village hall drive", [f"P{n}" for n in range(1, 9)])
        tournament.create("Senior Olympics Bid Whist")
        military.create_event("Club day", ["Aces", "Kings", "Queens", "Jacks"], [4])
    page = phone.new_page()
    page.goto(live_server + "/")
    cards = page.get_by_role("region", name="Events").get_by_role("listitem")
    expect(cards.filter(has_text="Village hall drive")).to_contain_text("Whist drive · 2 tables")
    expect(cards.filter(has_text="Senior Olympics Bid Whist")).to_contain_text("Bid Whist tournament")
    expect(cards.filter(has_text="Club day")).to_contain_text("Military Whist · 4 tables")
    expect(cards.filter(has_text="Military Whist")).to_have_count(1)
