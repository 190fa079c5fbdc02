"""Shared taps of the scorer's page: a hand's tricks, one number per player in bidding order."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from playwright.sync_api import Page, expect


def tricks_shown(page: Page) -> dict[str, int]:
    """The tricks tapped so far, as the page lists them ("Tricks: Bob 2 Cat 1")."""
    tags = page.locator(".bids-so-far").filter(has_text="Tricks:").locator(".bid-tag")
    shown = {}
    for text in tags.all_inner_texts():
        name, _, count = text.strip().rpartition(" ")
        shown[name] = int(count)
    return shown


def tap_one(page: Page, name: str, count: int) -> None:
    """Tap `count` in `name`'s row of numbers, and wait for the page to list it."""
    group = page.get_by_role("group", name=re.compile(f"^{re.escape(name)}’s tricks"))
    group.get_by_role("button", name=f"{name} took {count}", exact=True).click()
    expect(page.locator(".bids-so-far").filter(has_text="Tricks:")).to_contain_text(f"{name} {count}")


def tap_tricks(page: Page, order: Sequence[str], tricks: Mapping[str, int]) -> int:
    """Tap each player's tricks in the order the page asks for them (bidding order) but the last,
    whose tricks the page fills in (and all the rest once no trick is left); check every player's
    count is shown, and say how many taps it took."""
    asked = page.get_by_role("group", name=re.compile("’s tricks"))
    expect(asked).to_be_visible()  # the bids are in: the first player's tricks are asked
    taps = 0
    while asked.count():
        name = asked.locator("legend strong").inner_text()
        assert name == order[taps], f"the page asks for {name}'s tricks, not {order[taps]}'s"
        tap_one(page, name, tricks[name])
        taps += 1
    shown = tricks_shown(page)
    assert shown == dict(tricks), f"the page shows {shown}, not {dict(tricks)}"
    return taps
