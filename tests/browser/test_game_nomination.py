"""A whole Nomination Whist game in a real browser at phone width, tapped in as a scorer would.

Set-up: four players (Add/Remove player keeps what was typed, a repeated name is refused beside
its field), the sequence changed to my own list 1, 2, 3, 4, 5, Bob dealing first. Each hand: tap
the turned-up trump, tap the bids in bidding order (the hook rule disables one value for the last
bidder in rounds of 4+ cards, with the reason shown), count the tricks with the steppers, save.
Along the way: a bid taken back, a hand undone and re-entered, hand 1 corrected from the sheet.
At the end: the winner, the totals against `scorepad score` and the hand-computed values, a rematch.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.taps import tap_one, tap_tricks, tricks_shown

PLAYERS = ("Ann", "Bob", "Cat", "Dan")  # seat order; Bob deals first, so Cat bids first in hand 1
WIDTH = PHONE["viewport"]["width"]
TRUMP_CHIPS = {"H": "♥ Hearts", "D": "♦ Diamonds", "C": "♣ Clubs", "S": "♠ Spades", "NT": "No trumps"}


@dataclass(frozen=True)
class HandData:
    cards: int
    dealer: str
    trump: str
    bids: tuple[tuple[str, int], ...]  # in bidding order, as tapped
    tricks: tuple[int, ...]  # seat order


# The game as played (custom sequence 1..5, first dealer Bob). Points: 1 a trick, +10 for an exact bid.
HANDS = (
    #        cards dealer trump  bids in bidding order                          tricks Ann Bob Cat Dan
    HandData(1, "Bob", "H", (("Cat", 1), ("Dan", 0), ("Ann", 0), ("Bob", 0)), (1, 0, 0, 0)),
    HandData(2, "Cat", "S", (("Dan", 1), ("Ann", 1), ("Bob", 0), ("Cat", 1)), (1, 0, 0, 1)),
    # 3 cards: no hook yet, so Dan, bidding last, may make the bids add up to 3.
    HandData(3, "Dan", "NT", (("Ann", 1), ("Bob", 1), ("Cat", 0), ("Dan", 1)), (1, 2, 0, 0)),
    # 4 cards: the hook binds: Ann may not bid 1 (2 + 1 + 0 + 1 = 4).
    HandData(4, "Ann", "D", (("Bob", 2), ("Cat", 1), ("Dan", 0), ("Ann", 2)), (2, 1, 1, 0)),
    # 5 cards: Bob may not bid 1 (2 + 1 + 1 + 1 = 5).
    HandData(5, "Bob", "C", (("Cat", 2), ("Dan", 1), ("Ann", 1), ("Bob", 0)), (1, 1, 2, 1)),
)
HAND_1_AS_FIRST_ENTERED = (0, 0, 1, 0)  # the scorer's slip: Cat's trick given to... Cat; Ann took it

# Running totals worked out by hand (Ann, Bob, Cat, Dan).
#  hand 1 as first entered: Ann 0/0 +10, Bob 0/0 +10, Cat 1/1 +11, Dan 0/0 +10
AFTER_WRONG_1 = {"Ann": 10, "Bob": 10, "Cat": 11, "Dan": 10}
#  hand 2: Ann 1/1 +11, Bob 0/0 +10, Cat 1/0 +0, Dan 1/1 +11
AFTER_WRONG_2 = {"Ann": 21, "Bob": 20, "Cat": 11, "Dan": 21}
#  hand 3: Ann 1/1 +11, Bob 1/2 +2, Cat 0/0 +10, Dan 1/0 +0
AFTER_WRONG_3 = {"Ann": 32, "Bob": 22, "Cat": 21, "Dan": 21}
#  hand 1 corrected to Ann 0/1 +1, Bob +10, Cat 1/0 +0, Dan +10: Ann -9, Cat -11
AFTER_3 = {"Ann": 23, "Bob": 22, "Cat": 10, "Dan": 21}
#  hand 4: Ann 2/2 +12, Bob 2/1 +1, Cat 1/1 +11, Dan 0/0 +10
AFTER_4 = {"Ann": 35, "Bob": 23, "Cat": 21, "Dan": 31}
#  hand 5: Ann 1/1 +11, Bob 0/1 +1, Cat 2/2 +12, Dan 1/1 +11
FINAL = {"Ann": 46, "Bob": 24, "Cat": 33, "Dan": 42}
FINAL_ORDER = ["Ann", "Dan", "Cat", "Bob"]
BIDS_MADE = {"Ann": "4 bids made", "Bob": "2 bids made", "Cat": "3 bids made", "Dan": "4 bids made"}


def totals(page: Page, scope: str = "section.totals") -> dict[str, int]:
    """Name -> total as the standings list shows them."""
    rows = page.locator(f"{scope} .standings li")
    return {
        rows.nth(i).locator(".name").inner_text(): int(rows.nth(i).locator(".total").inner_text())
        for i in range(rows.count())
    }


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, "the page scrolls sideways"


def shot(page: Page, directory: Path, step: str) -> None:
    page.screenshot(path=str(directory / f"nomination-{step}.png"), full_page=True)


def tap_bids(page: Page, hand: HandData, check: Callable[[Page], None] | None = None) -> None:
    """Tap each bid in bidding order; at the last bidder check the hook rule's disabled value."""
    choices = page.get_by_role("group", name=re.compile("’s bid$"))
    earlier = 0
    for position, (name, bid) in enumerate(hand.bids):
        expect(choices).to_have_accessible_name(f"{name}’s bid")
        last = position == len(hand.bids) - 1
        if last and hand.cards >= 4:
            forbidden = hand.cards - earlier
            refused = page.get_by_role("button", name=f"{forbidden} (not allowed)")
            expect(refused).to_be_disabled()
            reason = (
                f"{name} bids last and may not bid {forbidden}: the bids would add up to "
                f"{hand.cards}, the number of tricks."
            )
            expect(page.locator("#forbidden-reason")).to_have_text(reason)
            expect(refused).to_have_accessible_description(reason)
            expect(choices.get_by_role("button", disabled=False)).to_have_count(hand.cards)
            if check:
                check(page)
        else:
            expect(choices.get_by_role("button", disabled=False)).to_have_count(hand.cards + 1)
            expect(page.locator("#forbidden-reason")).to_have_count(0)
        page.get_by_role("button", name=f"{name} bids {bid}", exact=True).click()
        earlier += bid


def play_hand(
    page: Page,
    number: int,
    hand: HandData,
    tricks: tuple[int, ...],
    check_hook: Callable[[Page], None] | None = None,
    check_tricks: Callable[[Page], None] | None = None,
) -> None:
    """Enter one hand from the trump to the saved result."""
    expect(page.get_by_role("heading", name=f"Hand {number} of 5")).to_be_visible()
    facts = page.locator("#hand-panel .facts")
    expect(facts).to_contain_text(f"Cards {hand.cards}")
    expect(facts).to_contain_text(f"Dealer {hand.dealer}")
    expect(facts).to_contain_text(f"Bids first {hand.bids[0][0]}")
    expect(facts).to_contain_text("Trump turned up")
    page.get_by_role("group", name="Which trump was turned up?").get_by_role(
        "button", name=TRUMP_CHIPS[hand.trump], exact=True
    ).click()
    expect(facts).to_contain_text(f"Trump {TRUMP_CHIPS[hand.trump]}")
    tap_bids(page, hand, check_hook)
    # the bids' answers send no facts (they did not change them): the page keeps its own
    expect(facts).to_contain_text(f"Dealer {hand.dealer}")
    expect(facts).to_contain_text(f"Trump {TRUMP_CHIPS[hand.trump]}")
    first = hand.bids[0][0]
    expect(page.get_by_role("group", name=f"{first}’s tricks (bid {hand.bids[0][1]})")).to_be_visible()
    seat_bids = dict(hand.bids)
    expect(page.locator(".bids-so-far").first).to_contain_text(f"(total {sum(seat_bids.values())} of {hand.cards})")
    expect(page.get_by_text(f"{hand.cards} of {hand.cards} tricks left to share out")).to_be_visible()
    tap_tricks(page, [name for name, _ in hand.bids], dict(zip(PLAYERS, tricks)))
    expect(facts).to_contain_text(f"Cards {hand.cards}")
    if check_tricks:
        check_tricks(page)
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.get_by_role("status")).to_have_text(f"Hand {number} saved.")


def test_a_whole_nomination_game_with_a_custom_sequence(
    live_server: str, browser: Browser, tmp_path: Path, screenshot_dir: Path, no_axe_violations: Callable[[Any], None]
) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()

    # ---- set-up: pick the variant, type the players
    page.goto(live_server + "/new")
    page.get_by_role("link", name=re.compile(r"^Nomination Whist")).click()
    expect(page.get_by_role("heading", name="Nomination Whist", level=1)).to_be_visible()
    for seat, name in enumerate(PLAYERS):
        page.get_by_role("textbox", name=f"Player {seat + 1}", exact=True).fill(name)

    # Add a fifth player, then remove them: what was typed stays.
    page.get_by_role("button", name="+ Add a player").click()
    expect(page.get_by_role("textbox", name="Player 5", exact=True)).to_have_value("")
    page.get_by_role("textbox", name="Player 5", exact=True).fill("Eve")
    for seat, name in enumerate(PLAYERS):
        expect(page.get_by_role("textbox", name=f"Player {seat + 1}", exact=True)).to_have_value(name)
    dealer_choice = page.get_by_role("group", name="Who deals first?")
    expect(dealer_choice.get_by_role("radio")).to_have_count(5)
    page.get_by_role("button", name="Remove player 5").click()
    expect(page.get_by_role("textbox", name="Player 5", exact=True)).to_have_count(0)
    for seat, name in enumerate(PLAYERS):
        expect(page.get_by_role("textbox", name=f"Player {seat + 1}", exact=True)).to_have_value(name)
    # The first-dealer chips are now named after the players.
    expect(dealer_choice.get_by_role("radio")).to_have_count(4)
    dealer_choice.get_by_role("radio", name="Bob").check()
    expect(dealer_choice.get_by_role("radio", name="Bob")).to_be_checked()

    # ---- options: in plain words, changed to my own list 1..5
    options = page.locator("details.options")
    summary = options.locator("summary")
    expect(summary).to_have_text("Options: the usual rules (tap to change)")
    summary.click()
    sequence = page.get_by_role("group", name="Cards per round", exact=True)
    expect(sequence).to_be_visible()
    expect(sequence.locator("label")).to_have_text(
        ["1 up to 13", "13 down to 1", "7 down to 1 and back up to 7", "10 down to 1 and back up to 10", "My own list"]
    )
    expect(page.get_by_role("group", name="Hook rule").locator("label")).to_have_text(
        ["Rounds of 4 or more cards", "Every round"]
    )
    expect(page.get_by_role("group", name="Trumps").locator("label")).to_have_text(
        ["Entered each round (turned-up card)", "Rotate: hearts, diamonds, clubs, spades, no trumps"]
    )
    custom = page.get_by_label("Custom list of cards per round")
    expect(custom).to_have_value("1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13")
    expect(page.get_by_label("Times through the sequence")).to_have_value("1")
    sequence.get_by_role("radio", name="My own list").check()
    custom.fill("1, 2, 3, 4, 5")
    fits(page)
    shot(page, screenshot_dir, "1-setup")
    no_axe_violations(page)

    # ---- a repeated name is refused beside its field (422), nothing else is lost
    page.get_by_role("textbox", name="Player 4", exact=True).fill("ann")
    with page.expect_response(lambda r: r.request.method == "POST" and "/new/nomination" in r.url) as posted:
        page.get_by_role("button", name="Start the game").click()
    assert posted.value.status == 422
    fourth = page.get_by_role("textbox", name="Player 4", exact=True)
    error = page.locator("#err-players-3")
    expect(error).to_have_text("Two players are called 'ann'; give each their own name")
    expect(fourth).to_have_attribute("aria-invalid", "true")
    expect(fourth).to_have_accessible_description("Two players are called 'ann'; give each their own name")
    # the message sits right under the field it is about
    field_box, error_box = fourth.bounding_box(), error.bounding_box()
    assert field_box and error_box and 0 <= error_box["y"] - (field_box["y"] + field_box["height"]) < 40
    expect(page.get_by_role("alert").first).to_have_text("Please check the fields marked below.")
    expect(page.get_by_role("textbox", name="Player 1", exact=True)).to_have_value("Ann")
    expect(page.locator('input[name="opt.sequence"][value="custom"]')).to_be_checked()  # the options folded
    expect(page.get_by_label("Custom list of cards per round")).to_have_value("1, 2, 3, 4, 5")
    expect(page.get_by_role("group", name="Who deals first?").get_by_role("radio", name="Bob")).to_be_checked()
    expect(page.locator("details.options summary")).to_have_text(
        "Options: changed: Cards per round: My own list; Custom list of cards per round: 1, 2, 3, 4, 5"
    )
    fits(page)
    shot(page, screenshot_dir, "2-setup-error")
    no_axe_violations(page)
    fourth.fill("Dan")
    page.get_by_role("button", name="Start the game").click()

    # ---- hand 1: trump first, then bids (entered with a slip in the tricks, corrected later)
    expect(page).to_have_url(re.compile(r"/g/[\w-]+$"))
    scorer_url = page.url
    expect(page.get_by_role("heading", name="Hand 1 of 5")).to_be_visible()
    expect(page.get_by_role("group", name="Which trump was turned up?").get_by_role("button")).to_have_count(5)
    expect(page.get_by_text("No hands yet. Totals appear here after the first hand.")).to_be_visible()
    fits(page)
    shot(page, screenshot_dir, "3-trump")
    no_axe_violations(page)
    play_hand(page, 1, HANDS[0], HAND_1_AS_FIRST_ENTERED)
    assert totals(page) == AFTER_WRONG_1

    # ---- hand 2, then "Undo last entry" takes back its last tap (the save), one more its last
    # player's tricks; Redo twice puts both back
    play_hand(page, 2, HANDS[1], HANDS[1].tricks)
    assert totals(page) == AFTER_WRONG_2
    page.get_by_role("button", name="↶ Undo last entry: saving hand 2").click()
    expect(page.get_by_role("status")).to_have_text("Undone: saving hand 2.")
    expect(page.get_by_role("heading", name="Hand 2 of 5")).to_be_visible()
    assert totals(page) == AFTER_WRONG_1
    expect(page.locator("#hand-2")).to_have_count(0)
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()  # the bids and tricks are still there
    page.get_by_role("button", name=re.compile("^↶ Undo last entry: .*’?s tricks")).click()
    expect(page.get_by_role("status")).to_contain_text("Undone: ")
    expect(page.get_by_role("group", name=re.compile("’s tricks"))).to_be_visible()
    page.get_by_role("button", name=re.compile("^↷ Redo: .*tricks")).click()
    page.get_by_role("button", name="↷ Redo: saving hand 2").click()
    expect(page.get_by_role("status")).to_have_text("Redone: saving hand 2.")
    expect(page.get_by_role("heading", name="Hand 3 of 5")).to_be_visible()
    assert totals(page) == AFTER_WRONG_2

    # ---- hand 3: no hook under 4 cards (every bid open to the last bidder)
    play_hand(page, 3, HANDS[2], HANDS[2].tricks)
    assert totals(page) == AFTER_WRONG_3

    # ---- correct hand 1 from the sheet: Ann took the trick, not Cat
    page.get_by_role("link", name="Edit hand 1").click()
    expect(page.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    expect(page.get_by_text("1 card ♥. Every hand after it is scored again with the correction.")).to_be_visible()
    expect(page.get_by_role("radio", name="♥ Hearts")).to_be_checked()
    bids_group, tricks_group = page.get_by_role("group", name="Bids"), page.get_by_role("group", name="Tricks won")
    for name, bid in HANDS[0].bids:
        expect(bids_group.get_by_role("spinbutton", name=name, exact=True)).to_have_value(str(bid))
    for name, count in zip(PLAYERS, HAND_1_AS_FIRST_ENTERED):
        expect(tricks_group.get_by_role("spinbutton", name=name, exact=True)).to_have_value(str(count))
    fits(page)
    shot(page, screenshot_dir, "4-correction")
    no_axe_violations(page)
    tricks_group.get_by_role("button", name="One more for Ann").click()
    tricks_group.get_by_role("button", name="One fewer for Cat").click()
    page.get_by_role("button", name="Save the correction").click()
    expect(page).to_have_url(scorer_url + "#hand-1")
    expect(page.get_by_role("heading", name="Hand 4 of 5")).to_be_visible()
    assert totals(page) == AFTER_3
    expect(page.locator("#hand-1 td").first).to_contain_text("bid 0 · took 1")

    # ---- hand 4: a wrong bid taken back; the hook rule refuses Ann's 1
    expect(page.get_by_role("heading", name="Hand 4 of 5")).to_be_visible()
    page.get_by_role("group", name="Which trump was turned up?").get_by_role("button", name="♦ Diamonds").click()
    page.get_by_role("button", name="Bob bids 3", exact=True).click()
    expect(page.locator(".bids-so-far")).to_contain_text("Bob 3")
    page.get_by_role("button", name="↶ Undo last entry: Bob's bid of 3").click()
    expect(page.get_by_role("status")).to_have_text("Undone: Bob's bid of 3.")
    expect(page.get_by_role("group", name="Bob’s bid")).to_be_visible()
    expect(page.locator(".bids-so-far")).to_have_count(0)
    # the trump stays chosen; the hand is then entered from the bids on
    facts = page.locator("#hand-panel .facts")
    expect(facts).to_contain_text("Trump ♦ Diamonds")

    def look_at_hook(p: Page) -> None:
        fits(p)
        shot(p, screenshot_dir, "5-bidding-hook")
        no_axe_violations(p)

    def look_at_tricks(p: Page) -> None:
        fits(p)
        shot(p, screenshot_dir, "6-tricks")
        no_axe_violations(p)

    tap_bids(page, HANDS[3], look_at_hook)
    order = [name for name, _ in HANDS[3].bids]
    tricks = dict(zip(PLAYERS, HANDS[3].tricks))
    tap_one(page, order[0], tricks[order[0]])  # the page with some tricks tapped, for the screenshot
    look_at_tricks(page)
    for name in order[1:-1]:
        tap_one(page, name, tricks[name])
    assert tricks_shown(page) == tricks
    page.get_by_role("button", name="Save hand 4").click()
    expect(page.get_by_role("status")).to_have_text("Hand 4 saved.")
    assert totals(page) == AFTER_4

    # ---- hand 5 (the hook refuses Bob's 1) ends the game
    play_hand(page, 5, HANDS[4], HANDS[4].tricks)
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.locator(".finished .result")).to_have_text("Ann wins with 46")
    expect(page.locator(".finished .standings li.winner .name")).to_have_text(["Ann"])
    expect(page.get_by_role("heading", name="Final totals")).to_be_visible()
    final = totals(page)
    assert final == FINAL
    assert list(final) == FINAL_ORDER
    expect(page.locator("section.totals .standings li small")).to_have_text([BIDS_MADE[n] for n in FINAL_ORDER])
    expect(page.get_by_role("button", name="↶ Undo last entry")).to_be_visible()
    fits(page)
    shot(page, screenshot_dir, "7-game-over")
    no_axe_violations(page)

    # ---- the exported record, scored by the command line
    href = page.get_by_role("link", name="Export game (JSON)").get_attribute("href")
    assert href and re.fullmatch(r"/w/[\w-]+/game\.json", href)
    download = page.request.get(live_server + href)
    assert download.ok
    record = download.json()
    assert record["variant"] == "nomination" and record["players"] == list(PLAYERS)
    assert record["first_dealer"] == 1
    assert record["options"]["sequence"] == "custom" and record["options"]["custom_sequence"] == [1, 2, 3, 4, 5]
    assert [h["trump"] for h in record["hands"]] == [h.trump for h in HANDS]
    assert [h["tricks"] for h in record["hands"]] == [list(h.tricks) for h in HANDS]
    assert [h["bids"] for h in record["hands"]] == [[dict(h.bids)[p] for p in PLAYERS] for h in HANDS]
    path = tmp_path / "nomination.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    scorepad = Path(sys.executable).with_name("scorepad")
    done = subprocess.run([str(scorepad), "score", "--json", str(path)], capture_output=True, text=True, check=True)
    scored = json.loads(done.stdout)
    assert scored["finished"] is True and scored["winner_names"] == ["Ann"]
    assert {s["name"]: s["total"] for s in scored["standings"]} == final == FINAL

    # ---- rematch: same players and options, the next dealer (Cat) deals the first hand
    page.get_by_role("button", name="Rematch: same players, next dealer").click()
    expect(page.get_by_role("heading", name="Hand 1 of 5")).to_be_visible()
    assert page.url != scorer_url and re.search(r"/g/[\w-]+$", page.url)
    facts = page.locator("#hand-panel .facts")
    expect(facts).to_contain_text("Dealer Cat")
    expect(facts).to_contain_text("Bids first Dan")
    expect(page.locator("section.totals .standings .name")).to_have_text(list(PLAYERS))
    expect(page.locator("section.totals .standings .total")).to_have_text(["0"] * 4)
    fits(page)
    shot(page, screenshot_dir, "8-rematch")
    context.close()
