"""Issue 30, item 4: a home game scored from two phones.

The owner's phone (English) starts a Nomination Whist game (Ann, Bob, Cat, Dan; my own list of 1,
2, 3 cards; Ann deals, so Bob bids first) and adds a scorer from the share page: a scorer's link
with its QR code. A second phone, read in French, opens that link and enters hand 1 (♥; Bob bids
1, the others 0; Bob takes the trick): the owner's page, never reloaded, shows it by itself. Both
phones then save hand 2 at the same moment: it is recorded once, one phone says it saved it, the
other that it was already saved, and both show hand 3. The owner takes the link back (after a
confirmation): the second phone's page says by itself that scoring was handed back.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from playwright.sync_api import APIResponse, Browser, Page, Route, expect

from scorepad.games import service as games
from tests.browser.conftest import PHONE
from tests.slowness import scaled
from tests.web.test_games import start

WIDTH = PHONE["viewport"]["width"]
FORM = {
    "name.0": "Ann",
    "name.1": "Bob",
    "name.2": "Cat",
    "name.3": "Dan",
    "first_dealer": "0",
    "opt.sequence": "custom",
    "opt.custom_sequence": "1, 2, 3",
    "opt.cycles": "1",
    "opt.hook": "four_plus",
    "opt.trumps": "entered",
    "action": "start",
}


def fits(page: Page, width: int = WIDTH) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"


def shot(page: Page, directory: Path, step: str) -> None:
    page.screenshot(path=str(directory / f"second-scorer-{step}.png"), full_page=True)


def bid_hand(page: Page, trump: str, bids: list[tuple[str, int]], bid_words: str) -> None:
    """Tap a trump (its suit's chip) and the bids in turn; `bid_words` is "%s bids %s" in the page's language."""
    page.locator(f"button.chip.suit-{trump}").click()
    for name, bid in bids:
        page.get_by_role("button", name=bid_words % (name, bid), exact=True).click()


def caught(page: Page, held: dict[str, tuple[Route, APIResponse]], key: str) -> tuple[Route, APIResponse]:
    """The request a route handler holds under `key`, once the handler has run (Playwright runs it
    while the test waits on the page)."""
    deadline = time.monotonic() + scaled(10)
    while key not in held:
        assert time.monotonic() < deadline, f"no {key} request was made"
        page.wait_for_timeout(20)
    return held[key]


def test_two_phones_score_one_game(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Callable[[Any], None]
) -> None:
    app.config["WTF_CSRF_ENABLED"] = (
        False  # the game is set up as the home game tests do; the phones then tap with tokens
    )
    token = start(app.test_client(), form=FORM)
    app.config["WTF_CSRF_ENABLED"] = True
    owner = browser.new_context(**PHONE).new_page()
    owner.goto(f"{live_server}/g/{token}")

    # ------------------------------------------------------------ the owner adds a scorer
    owner.get_by_role("link", name="Share live view or add a scorer").click()
    expect(owner.get_by_role("heading", name="Score from another phone")).to_be_visible()
    expect(owner.get_by_text("only it can share the game")).to_be_visible()  # what each link can do
    owner.get_by_role("button", name="Add a scorer: make a scorer's link").click()
    section = owner.locator("#scorer-1")
    expect(section.get_by_role("heading", name="Scorer's link 1")).to_be_visible()
    link = section.locator("figcaption a").inner_text()
    expect(section.get_by_role("img", name=f"QR code for {link}")).to_be_visible()
    path = urlsplit(link).path
    assert re.fullmatch(r"/g/[\w-]+", path) and token not in link
    fits(owner)
    shot(owner, screenshot_dir, "1-share")
    no_axe_violations(owner)
    owner.set_viewport_size({"width": 320, "height": 640})  # the link's long token wraps on the smallest phone
    fits(owner, 320)
    owner.set_viewport_size(PHONE["viewport"])
    owner.get_by_role("link", name="← Back to the game").click()
    expect(owner.get_by_role("heading", name="Hand 1 of 3")).to_be_visible()
    owner.evaluate("window.__notReloaded = true")

    # ------------------------------------------------------------ the second phone, in French, enters hand 1
    phone = browser.new_context(**PHONE, locale="fr-FR", extra_http_headers={"Accept-Language": "fr"}).new_page()
    phone.goto(live_server + path)
    expect(phone.locator("html")).to_have_attribute("lang", "fr")
    expect(phone.get_by_text("Vous marquez avec un lien de marqueur")).to_be_visible()
    expect(phone.get_by_role("heading", name="Donne 1 sur 3")).to_be_visible()
    expect(phone.get_by_role("link", name=re.compile("Partager"))).to_have_count(0)  # the owner's alone
    bid_hand(phone, "H", [("Bob", 1), ("Cat", 0), ("Dan", 0), ("Ann", 0)], "%s annonce %s")
    phone.get_by_role("button", name="Bob a fait 1", exact=True).click()
    phone.get_by_role("button", name="Enregistrer la donne 1").click()
    expect(phone.get_by_role("status")).to_have_text("Donne 1 enregistrée.")
    fits(phone)
    shot(phone, screenshot_dir, "2-second-phone")

    # the owner's page shows it by itself
    expect(owner.get_by_role("heading", name="Hand 2 of 3")).to_be_visible()
    expect(owner.locator("#hand-1")).to_be_visible()
    assert owner.evaluate("window.__notReloaded") is True

    # ------------------------------------------------------------ both save hand 2 at the same moment
    bid_hand(owner, "S", [("Cat", 2), ("Dan", 0), ("Ann", 1), ("Bob", 0)], "%s bids %s")
    for name, took in (("Cat", 1), ("Dan", 0), ("Ann", 1)):
        owner.get_by_role("button", name=f"{name} took {took}", exact=True).click()
        expect(owner.locator(".bids-so-far").filter(has_text="Tricks:")).to_contain_text(f"{name} {took}")
    phone.reload()  # the hand in hand is kept on the server: the same Save on both phones
    save_owner = owner.get_by_role("button", name="Save hand 2")
    save_phone = phone.get_by_role("button", name="Enregistrer la donne 2")
    expect(save_phone).to_be_visible()
    expect(save_owner).to_be_visible()
    tap_phone, tap_owner = save_phone.element_handle(), save_owner.element_handle()
    tap_phone.evaluate("b => b.click()")  # the two taps a few milliseconds apart, well inside the moment
    tap_owner.evaluate("b => b.click()")  # before either page hears of the other's save
    expect(owner.get_by_role("heading", name="Hand 3 of 3")).to_be_visible()
    expect(phone.get_by_role("heading", name="Donne 3 sur 3")).to_be_visible()
    said = (
        owner.locator("#play-body > .notice").inner_text() + " | " + phone.locator("#play-body > .notice").inner_text()
    )
    owner_saved, phone_saved = "Hand 2 saved." in said, "Donne 2 enregistrée." in said
    assert owner_saved != phone_saved, said  # one write wins
    refused = "this entry was not counted" if phone_saved else "cette saisie n’a pas été comptée"
    assert refused in said, said
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None and [h.number for h in game.hands] == [1, 2]
    shot(phone if owner_saved else owner, screenshot_dir, "3-refused")

    # ------------------------------------------------------------ the owner takes the link back
    owner.get_by_role("link", name="Share live view or add a scorer").click()
    owner.get_by_role("link", name="Take back scorer's link 1…").click()
    expect(owner.get_by_role("heading", name="Take back scorer's link 1?")).to_be_visible()
    owner.get_by_role("button", name="Yes, take the link back").click()
    expect(owner.get_by_role("status")).to_contain_text("Scorer's link 1 was taken back")
    expect(owner.locator("#scorer-1")).to_have_count(0)
    # the second phone's page says so by itself
    expect(phone.get_by_role("heading", name="La marque a été reprise")).to_be_visible()
    expect(phone.get_by_role("link", name="Suivre la partie en direct (lecture seule)")).to_be_visible()
    fits(phone)
    shot(phone, screenshot_dir, "4-handed-back")
    no_axe_violations(phone)


def test_the_other_phones_push_never_wipes_the_notice_of_this_phones_own_save(
    app: Flask, live_server: str, page: Page
) -> None:
    """The owner taps Save on hand 1 as the scorer's save of it commits, on a slow network: the push of
    that save sends the owner's page its refresh while its own answer ("already saved, not counted")
    is on the way, and that refresh's answer comes last. It shows no newer hands than the page shows,
    so it is not drawn over the notice."""
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    token = start(client, form=FORM)
    for step in ({"action": "trump", "trump": "H"}, *({"action": "bid", "bid": b} for b in "1000")):
        assert client.post(f"/g/{token}/entry", data=step).status_code in (200, 303)
    assert client.post(f"/g/{token}/entry", data={"action": "tricks", "seat": "1", "tricks": "1"}).status_code == 303
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        games.add_scorer(game)
    app.config["WTF_CSRF_ENABLED"] = True
    page.goto(f"{live_server}/g/{token}")
    save = page.get_by_role("button", name="Save hand 1")
    expect(save).to_be_visible()

    held: dict[str, tuple[Route, APIResponse]] = {}

    def scorer_saves_first(route: Route) -> None:  # the scorer's save commits before the owner's arrives
        with app.app_context():
            scored = games.by_scorer_token(token)
            assert scored is not None
            games.enter_hand(scored, 1, {})
        held["save"] = (route, route.fetch())

    page.route(f"**/g/{token}/entry", scorer_saves_first)
    page.route(re.compile(rf"/g/{token}\?sheet="), lambda route: held.setdefault("refresh", (route, route.fetch())))
    save.click()
    held_save, saved = caught(page, held, "save")
    held_refresh, refreshed = caught(page, held, "refresh")  # the push's refresh left before the answer came
    assert saved.status == 409 and held_refresh.request.url.endswith("?sheet=0")
    held_save.fulfill(response=saved)
    notice = page.locator("#play-body > .notice")
    expect(notice).to_contain_text("Hand 1 was already saved, from another phone")
    expect(page.get_by_role("heading", name="Hand 2 of 3")).to_be_visible()
    page.evaluate(
        """() => { window.refreshed = new Promise(done => document.body.addEventListener("htmx:afterRequest",
             e => { if (e.detail.requestConfig.verb === "get") done(); })); }"""
    )
    held_refresh.fulfill(response=refreshed)
    page.evaluate("() => window.refreshed")  # its answer is in: drawn or not
    assert notice.count() == 1 and "Hand 1 was already saved" in notice.inner_text()  # not wiped
    expect(page.get_by_role("heading", name="Hand 2 of 3")).to_be_visible()
