"""Issue 15, groups, in a real browser on a 320 px phone: a family finishes a game and keeps it in a
new group in one tap; starts the next game from the group with the same players in one tap (and a
player's chip); renames a player; merges two spellings of Gran after a confirmation. Each page fits
the width and axe-core finds nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import NARROW_PHONE
from tests.browser.taps import tap_tricks

WIDTH = NARROW_PHONE["viewport"]["width"]


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, "the page scrolls sideways"


def shot(page: Page, directory: Path, step: str) -> None:
    page.screenshot(path=str(directory / f"groups-{step}.png"), full_page=True)


def one_card_nomination(page: Page, names: tuple[str, ...] | None) -> None:
    """Set up a Nomination game of one hand of one card (names typed unless None: already filled)."""
    if names:
        for seat, name in enumerate(names):
            page.locator(f"#name-{seat}").fill(name)
    page.locator("details.options summary").click()
    page.get_by_role("group", name="Cards per round", exact=True).get_by_role("radio", name="My own list").check()
    page.get_by_label("Custom list of cards per round").fill("1")


def play_the_hand(page: Page, seats: tuple[str, ...]) -> None:
    """Hearts; bids from the dealer's left (the first seat deals): the second seat bids 1 and takes it."""
    page.get_by_role("group", name="Which trump was turned up?").get_by_role("button", name="♥ Hearts").click()
    order = [*seats[1:], seats[0]]
    for name in order:
        page.get_by_role("button", name=f"{name} bids {1 if name == seats[1] else 0}", exact=True).click()
    tap_tricks(page, order, {name: 1 if name == seats[1] else 0 for name in seats})
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()


def player_card(page: Page, name: str) -> Any:
    return page.locator(".group-players li").filter(has=page.get_by_role("strong").get_by_text(name, exact=True))


def test_a_family_keeps_its_games_and_players_in_a_group(
    live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Callable[[Any], None]
) -> None:
    context = browser.new_context(**NARROW_PHONE)
    page = context.new_page()

    # ---- a game, finished, kept in a new group in one tap
    page.goto(live_server + "/new/nomination")
    one_card_nomination(page, ("Ann", "Bob", "Gran", "Dan"))
    page.get_by_role("button", name="Start the game").click()
    play_the_hand(page, ("Ann", "Bob", "Gran", "Dan"))
    expect(page.locator("#hand-panel .result")).to_have_text("Bob wins with 11")
    keep = page.get_by_role("button", name="Keep this game in a group")
    expect(keep).to_be_visible()
    fits(page)
    shot(page, screenshot_dir, "1-finished-game")
    keep.click()

    expect(page.get_by_role("heading", name="Ann, Bob, Gran & Dan", level=1)).to_be_visible()
    group_url = page.url
    assert re.search(r"/group/[\w-]{32}$", group_url)
    expect(page.get_by_role("status")).to_contain_text("keeps this game and its players")
    games = page.get_by_role("region", name="Games")
    expect(games.get_by_role("listitem")).to_have_count(1)
    expect(games).to_contain_text("Ann, Bob, Gran, Dan")
    expect(games).to_contain_text("Won by Bob")
    expect(
        page.get_by_role("region", name="Share this group").get_by_role("img", name=re.compile("^QR code for http"))
    ).to_be_visible()
    fits(page)
    shot(page, screenshot_dir, "2-group-page")
    no_axe_violations(page)

    # ---- the next game from the group: the same players in one tap, a chip for one of them
    page.get_by_role("link", name="New game in this group").click()
    expect(page.get_by_text("Which game are you playing?")).to_be_visible()
    page.get_by_role("link", name=re.compile(r"^Nomination Whist")).click()
    same = page.get_by_role("button", name="Same players as last time: Ann, Bob, Gran, Dan")
    expect(same).to_be_visible()
    expect(page.locator("[data-fill-name]")).to_have_text(["Ann", "Bob", "Dan", "Gran"])
    same.click()
    for seat, name in enumerate(("Ann", "Bob", "Gran", "Dan")):
        expect(page.locator(f"#name-{seat}")).to_have_value(name)
    page.locator("#name-2").fill("Granny")  # typed another way this time
    page.locator("#name-3").fill("")
    page.locator("[data-fill-name='Dan']").click()  # a chip fills the empty seat
    expect(page.locator("#name-3")).to_have_value("Dan")
    one_card_nomination(page, None)
    fits(page)
    shot(page, screenshot_dir, "3-new-game-in-group")
    no_axe_violations(page)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Hand 1 of 1")).to_be_visible()
    in_group = page.get_by_role("link", name=re.compile("^In the group Ann, Bob, Gran & Dan"))
    expect(in_group).to_be_visible()

    # ---- the game's own "Keep in a group" page says where it is kept, and can take it out
    in_group.click()
    expect(page.get_by_role("heading", name="Keep this game in a group")).to_be_visible()
    expect(page.get_by_role("button", name="Take it out of Ann, Bob, Gran & Dan")).to_be_visible()
    fits(page)
    shot(page, screenshot_dir, "4-game-in-group")
    no_axe_violations(page)

    # ---- the group: two games, a player renamed everywhere
    page.goto(group_url)
    expect(games.get_by_role("listitem")).to_have_count(2)
    expect(games.get_by_role("listitem").first).to_contain_text("Ann, Bob, Granny, Dan")
    expect(games.get_by_role("listitem").first).to_contain_text("In progress")
    dan = player_card(page, "Dan")
    expect(dan).to_contain_text("2 games")
    dan.locator("summary").click()
    dan.get_by_role("textbox", name="New name for Dan").fill("Daniel")
    dan.get_by_role("button", name="Rename Dan").click()
    expect(page.get_by_role("status")).to_have_text("Dan is now called Daniel in all the group's games.")
    expect(games).not_to_contain_text("Dan,")
    expect(games.get_by_role("listitem").nth(1)).to_contain_text("Ann, Bob, Gran, Daniel")

    # ---- Gran and Granny are one person: merged after a confirmation
    granny = player_card(page, "Granny")
    granny.locator("summary").click()
    granny.get_by_role("link", name="Granny is someone else's other spelling…").click()
    expect(page.get_by_role("heading", name="Granny is the same person as…")).to_be_visible()
    page.get_by_role("button", name="Next: check and confirm").click()  # nobody chosen: said beside the choice
    expect(page.locator("#err-into")).to_have_text("Choose the player Granny is the same person as.")
    fits(page)
    shot(page, screenshot_dir, "5-merge-choose")
    no_axe_violations(page)
    page.get_by_role("group", name="Merge Granny into").get_by_text("Gran", exact=True).click()
    page.get_by_role("button", name="Next: check and confirm").click()
    expect(page.get_by_role("heading", name="Merge Granny into Gran?")).to_be_visible()
    expect(page.get_by_text("Granny's 1 game counts for Gran (who has 1 now)")).to_be_visible()
    fits(page)
    shot(page, screenshot_dir, "6-merge-confirm")
    no_axe_violations(page)
    page.get_by_role("button", name="Yes, merge Granny into Gran").click()
    expect(page.get_by_role("status")).to_contain_text("Granny and Gran are one player now: Gran.")
    expect(page.locator(".group-players li")).to_have_count(4)
    gran = player_card(page, "Gran")
    expect(gran).to_contain_text("2 games")
    expect(gran).to_contain_text("Also typed as: Granny")
    expect(games.get_by_role("listitem").first).to_contain_text("Ann, Bob, Gran, Daniel")
    fits(page)
    shot(page, screenshot_dir, "7-group-after-merge")
    no_axe_violations(page)

    # ---- the home page lists the group on this phone
    page.goto(live_server + "/")
    mine = page.get_by_role("region", name="Your groups")
    expect(mine.get_by_role("link", name="Ann, Bob, Gran & Dan", exact=True)).to_have_attribute(
        "href", re.compile("/group/")
    )
    fits(page)
    shot(page, screenshot_dir, "8-home")
    no_axe_violations(page)
    context.close()
