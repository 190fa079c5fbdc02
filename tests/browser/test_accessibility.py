"""axe-core over the screens the game tests pass by without checking, in light and dark mode, at
320 px: the home page, the variant pages, the set-up screens, share, delete, a correction, the
offline page, an error page and the alert bar of a refused request."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import NARROW_PHONE


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_screen_of_the_flow_passes_axe(live_server: str, browser: Browser, no_axe_violations: Any,
                                             scheme: str) -> None:
    context = browser.new_context(**NARROW_PHONE, color_scheme=scheme)
    page = context.new_page()
    for path in ("/", "/new", "/new/australian", "/new/whist", "/new/bid_whist", "/variants/military",
                 "/offline", "/g/no-such-game"):
        page.goto(live_server + path)
        no_axe_violations(page)

    page.goto(live_server + "/new/australian")
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        page.fill(f"#name-{i}", name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Hand 1 of 23")).to_be_visible()
    scorer = page.url
    for name in ("Bob", "Cat", "Dan", "Ann"):
        page.get_by_role("button", name=f"{name} bids 0").click()
    page.get_by_role("button", name="One more for Ann").click()
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("heading", name="Hand 2 of 23")).to_be_visible()
    for suffix in ("/share", "/delete", "/hands/1"):
        page.goto(scorer + suffix)
        no_axe_violations(page)

    page.goto(scorer)
    page.evaluate("""() => {
        document.querySelector('meta[name="csrf-token"]').content = 'stale';
        document.querySelectorAll('input[name="csrf_token"]').forEach(i => { i.value = 'stale'; });
    }""")
    page.get_by_role("button", name="Cat bids 0").click()
    expect(page.locator(".request-error")).to_be_visible()
    no_axe_violations(page)
    context.close()
