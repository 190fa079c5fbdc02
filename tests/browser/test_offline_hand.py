"""Issue 31, item 3: a whole hand entered on a phone with no connection, over plain HTTP at a LAN name
(no service worker). The taps after the first are kept on the phone in order, shown as chosen and
marked waiting, and sent in order once the connection is back, each recorded once; a tap the server
refuses (another phone entered that bid meanwhile) is said beside the hand, with the taps kept
behind it, never sent, until the scorer drops them."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.games import service as games
from tests.browser.conftest import PHONE
from tests.browser.test_outbox import keys, lan
from tests.slowness import scaled_ms

FOUR = ["Ann", "Bob", "Cat", "Dan"]


def nomination(app: Flask) -> str:
    """Hand 1 of 2 has 4 cards (the hook binds), Ann deals, Bob bids first; the trump is entered."""
    with app.app_context():
        return games.create(
            {
                "variant": "nomination",
                "players": FOUR,
                "first_dealer": 0,
                "options": {"sequence": "custom", "custom_sequence": [4, 1], "cycles": 1, "trumps": "entered"},
            }
        ).scorer_token


def recorded(app: Flask, token: str) -> tuple[list[dict[str, object]], dict[str, object] | None]:
    """The hands recorded, and the hand in hand as the server keeps it."""
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        return [h.entry for h in game.hands], game.pending


def open_game(page: Page, base: str, token: str) -> None:
    page.goto(f"{base}/g/{token}")
    page.wait_for_load_state("load")  # the scripts are in: a tap is an htmx request, not a plain post


def test_a_whole_nomination_hand_entered_offline_is_sent_in_order_once(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
    token = nomination(app)
    context = lan_browser.new_context(**PHONE)
    page = context.new_page()
    open_game(page, lan(live_server), token)
    before = len(keys(app))

    context.set_offline(True)
    page.get_by_role("button", name="♠ Spades").click()  # the first tap: it cannot be sent
    hand = page.locator(".offline-hand")
    expect(page.locator("#hand-facts")).to_contain_text("Trump ♠ Spades · waiting")  # in the hand's facts too
    for name, bid in (("Bob", 1), ("Cat", 1), ("Dan", 0)):  # the hand goes on, on the phone
        hand.get_by_role("button", name=f"{name} bids {bid}", exact=True).click()
    # the hook binds Ann, last to bid: 4 - (1 + 1 + 0) = 2 is refused her, with the reason
    expect(hand.get_by_role("button", name="2 (not allowed)")).to_be_disabled()
    expect(hand).to_contain_text("Ann bids last and may not bid 2: the bids would add up to 4")
    hand.get_by_role("button", name="Ann bids 1", exact=True).click()
    hand.get_by_role("button", name="Bob took 2", exact=True).click()
    hand.get_by_role("button", name="Cat took 1", exact=True).click()
    hand.get_by_role("button", name="Dan took 1", exact=True).click()  # a slip: Dan took none, Ann 1
    expect(hand.locator(".offline-so-far").filter(has_text="Tricks:")).to_contain_text("Ann 0")
    hand.get_by_role("button", name="Take back the last tap still waiting").click()
    hand.get_by_role("button", name="Dan took 0", exact=True).click()
    bids = hand.locator(".offline-so-far").filter(has_text="Bids:")
    expect(bids.locator(".bid-tag.waiting")).to_have_text(
        ["Bob 1 · waiting", "Cat 1 · waiting", "Dan 0 · waiting", "Ann 1 · waiting"]
    )
    tricks = hand.locator(".offline-so-far").filter(has_text="Tricks:")
    expect(tricks.locator(".bid-tag.waiting")).to_have_text(
        ["Bob 2 · waiting", "Cat 1 · waiting", "Dan 0 · waiting", "Ann 1 · waiting"]
    )
    hand.get_by_role("button", name="Save hand 1").click()
    expect(hand.locator('[data-kind="waiting"]')).to_have_text(
        re.compile(
            r"^Waiting to send, in order: ♠ Spades, Bob bids 1, Cat bids 1, Dan bids 0, Ann bids 1, Bob took 2, "
            r"Cat took 1, Dan took 0, Save hand 1 \(the first tapped at \d\d:\d\d\)\. They are sent by themselves "
            r"when the connection is back: go on with the hand\.$"
        )
    )
    expect(hand).to_contain_text("The next hand can be entered once this one has been sent.")
    expect(page.locator(".outbox-bar")).to_contain_text("9 entries waiting to send (first: ♠ Spades")
    page.screenshot(path=str(screenshot_dir / "offline-hand-waiting.png"), full_page=True)
    assert recorded(app, token) == ([], None)  # nothing reached the server

    context.set_offline(False)  # the Wi-Fi is back: the taps go in order, by themselves
    expect(page.get_by_role("heading", name="Hand 2 of 2")).to_be_visible(timeout=scaled_ms(15000))
    expect(page.locator(".outbox-bar")).to_contain_text(
        re.compile(r"^Back online: 9 entries .* were sent and recorded once\.")
    )
    expect(page.locator(".offline-hand")).to_have_count(0)
    expect(page.locator("#hand-1")).to_contain_text("+2 · bid 1 · took 2")  # Bob's, in the sheet
    hands, pending = recorded(app, token)
    assert hands == [{"trump": "S", "bids": [1, 1, 1, 0], "tricks": [1, 2, 1, 0]}] and pending is None
    sent = keys(app)[before:]
    assert len(sent) == 9 and all(status == 200 for _key, status in sent)  # each once
    context.close()


def test_a_tap_refused_when_the_connection_is_back_is_said_beside_the_hand_and_the_rest_kept(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
    token = nomination(app)
    context = lan_browser.new_context(**PHONE)
    page = context.new_page()
    open_game(page, lan(live_server), token)
    page.get_by_role("button", name="♠ Spades").click()
    expect(page.get_by_role("button", name="Bob bids 1", exact=True)).to_be_visible()

    context.set_offline(True)
    page.get_by_role("button", name="Bob bids 1", exact=True).click()
    hand = page.locator(".offline-hand")
    hand.get_by_role("button", name="Cat bids 1", exact=True).click()
    hand.get_by_role("button", name="Dan bids 0", exact=True).click()
    other = lan_browser.new_context(**PHONE).new_page()  # meanwhile, another phone enters Bob's bid
    open_game(other, lan(live_server), token)
    other.get_by_role("button", name="Bob bids 2", exact=True).click()
    expect(other.locator(".bids-so-far")).to_contain_text("Bob 2")

    context.set_offline(False)
    refused = page.locator('.offline-hand [data-kind="refused"]')
    expect(refused).to_have_text(
        re.compile(
            r'^Not applied: your entry "Bob bids 1" \(tapped at \d\d:\d\d\): Bob\'s bid of 2 is recorded; your bid '
            r"of 1 for Bob was not applied\."
        ),
        timeout=scaled_ms(15000),
    )
    expect(page.locator(".offline-hand")).to_contain_text(
        "It is followed by 2 taps kept on this phone and not sent, as they depend on it: Cat bids 1, Dan bids 0."
    )
    page.screenshot(path=str(screenshot_dir / "offline-hand-refused.png"), full_page=True)
    assert recorded(app, token)[1] == {"trump": "S", "bids": [None, 2, None, None]}  # the kept taps not sent

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Drop these taps and go on from the hand as recorded").click()
    expect(page.locator(".offline-hand")).to_have_count(0)
    expect(page.locator(".bids-so-far")).to_contain_text("Bob 2")  # the hand as recorded, and play goes on
    page.get_by_role("button", name="Cat bids 1", exact=True).click()
    expect(page.locator(".bids-so-far")).to_contain_text("Cat 1")
    assert recorded(app, token)[1] == {"trump": "S", "bids": [None, 2, 1, None]}
    context.close()


def test_a_whist_hand_saved_offline_is_shown_waiting_then_recorded_once(
    app: Flask, live_server: str, lan_browser: Browser
) -> None:
    with app.app_context():
        token = games.create(
            {
                "variant": "whist",
                "first_dealer": 0,
                "teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}],
            }
        ).scorer_token
    context = lan_browser.new_context(**PHONE)
    page = context.new_page()
    open_game(page, lan(live_server), token)
    context.set_offline(True)
    page.get_by_text("♥ Hearts").click()
    page.get_by_role("group", name="Tricks taken by Us", exact=True).get_by_role("radio", name="8", exact=True).check()
    page.get_by_role("button", name="Save hand 1").click()
    form = page.locator("form.whist-form")
    expect(page.locator('#hand-panel [data-kind="waiting"]')).to_have_text(
        re.compile(
            r"^Waiting to send: Save hand 1 \(tapped at \d\d:\d\d\)\. It is sent by itself when the connection is "
            r"back\. The next hand can be entered once this one has been sent\.$"
        )
    )
    expect(form).to_have_class(re.compile(r"\bwaiting\b"))
    expect(form.get_by_role("radio", name="8", exact=True)).to_be_checked()  # the hand as chosen
    expect(form.get_by_role("button", name="Save hand 1")).to_be_disabled()
    assert recorded(app, token) == ([], None)

    context.set_offline(False)
    expect(page.get_by_role("heading", name=re.compile("^Hand 2"))).to_be_visible(timeout=scaled_ms(15000))
    expect(page.locator(".outbox-bar")).to_contain_text('your entry "Save hand 1"')
    assert recorded(app, token)[0] == [{"tricks": [8, 5], "trump": "H"}]
    context.close()


def test_a_whole_bid_whist_hand_entered_offline_with_undo_is_sent_in_order_once(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
    """The auction call by call (only calls that outrank the last offered), the winner's trump shown in
    the hand's facts, the books and Save, all waiting; Undo takes back the last tap still waiting, not
    the server's last step, and Redo waits for the taps."""
    with app.app_context():
        token = games.create(
            {
                "variant": "bid_whist",
                "first_dealer": 0,  # Ann deals: Bob, Cat, Dan, Ann call in that order
                "options": {"play_to": "points"},
                "teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}],
            }
        ).scorer_token
    context = lan_browser.new_context(**PHONE)
    page = context.new_page()
    open_game(page, lan(live_server), token)
    calls = page.locator("fieldset.calls")
    for tap, said in (("4", "Bob 4"), ("Pass", "Cat Pass")):  # online: Bob's 4 and Cat's pass, then Undo
        calls.get_by_role("button", name=tap, exact=True).click()
        expect(page.locator(".bids-so-far")).to_contain_text(said)
    page.get_by_role("button", name="↶ Undo last entry: Cat's pass").click()
    redo = page.get_by_role("button", name="↷ Redo: Cat's pass")
    expect(redo).to_be_enabled()
    before = len(keys(app))

    context.set_offline(True)
    calls.get_by_role("button", name="Pass", exact=True).click()  # Cat's pass again: it cannot be sent
    hand = page.locator(".offline-hand")
    expect(hand.get_by_role("group", name="Dan’s call")).to_be_visible()
    expect(hand.get_by_role("button", name="4 Special", exact=True)).to_have_count(0)  # does not take out a 4
    expect(page.locator(".bids-so-far")).to_be_hidden()  # the phone's own calls so far stand in its place
    hand.get_by_role("button", name="5", exact=True).click()
    hand.get_by_role("button", name="6", exact=True).click()  # a slip: Ann passes
    undo = page.get_by_role("button", name="↶ Undo the last tap still waiting: Ann's bid of 6")
    expect(redo).to_be_disabled()
    expect(page.locator("#play-body")).to_contain_text(
        "Redo comes back once the taps waiting on this phone have been sent."
    )
    undo.click()
    expect(page.locator("#play-body")).to_contain_text('Taken back: "Ann\'s bid of 6", which had not been sent.')
    hand.get_by_role("group", name="Ann’s call").get_by_role("button", name="Pass", exact=True).click()
    expect(hand).to_contain_text("Dan won the bid: 5. Them need 11 books (the kitty counts as one).")
    hand.get_by_role("button", name="♥ Hearts").click()
    facts = page.locator("#hand-facts")
    expect(facts).to_contain_text("Trump ♥ Hearts · waiting")  # the trump chosen, in the hand's facts
    hand.get_by_role("group", name="Books taken by Them, kitty included").get_by_role("button", name="11").click()
    hand.get_by_role("button", name="Save hand 1").click()
    expect(hand.locator(".offline-so-far .bid-tag")).to_have_text(
        ["Bob 4", "Cat Pass · waiting", "Dan 5 · waiting", "Ann Pass · waiting", "♥ Hearts · waiting"]
        + ["Them took 11 books · waiting"]  # the calls, then what the Save sends
    )
    expect(hand).to_contain_text("The next hand can be entered once this one has been sent.")
    expect(page.get_by_role("button", name="↶ Undo the last tap still waiting: Save hand 1")).to_be_visible()
    expect(page.locator(".outbox-bar")).to_contain_text("4 entries waiting to send (first: Pass")
    page.screenshot(path=str(screenshot_dir / "offline-hand-bid-whist.png"), full_page=True)
    assert recorded(app, token) == ([], {"auction": [{"bid": 4, "kind": "plain"}]})  # nothing more reached the server

    context.set_offline(False)
    expect(page.get_by_role("heading", name=re.compile("^Hand 2"))).to_be_visible(timeout=scaled_ms(15000))
    expect(page.locator(".outbox-bar")).to_contain_text(re.compile(r"^Back online: 4 entries .* recorded once\."))
    expect(facts).not_to_contain_text("waiting")
    play = {"bid": 4, "kind": "plain"}, None, {"bid": 5, "kind": "plain"}, None
    hands, pending = recorded(app, token)
    assert pending is None
    assert hands == [{"auction": list(play), "bidder": 3, "bid": 5, "kind": "plain", "trump": "H", "books": 11}]
    sent = keys(app)[before:]
    assert len(sent) == 4 and all(status == 200 for _key, status in sent)  # each once
    context.close()
