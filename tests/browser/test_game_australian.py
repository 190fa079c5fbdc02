"""A whole Australian Whist game for four in a real browser at phone width: all 23 rounds tapped in.

Ivy, Jon, Kim and Leo sit in that order round the table; Jon deals first. The schedule for four
(the rules document and RULES-NOTES): 1, 2, ..., 9 cards, then five special rounds of 10 cards
(round 10 normal, 11 no trumps, 12 blind bid, 13 misère, 14 normal), then 9 down to 1: 23 rounds.
Trumps by round number hearts, clubs, diamonds, spades (round n has suit n of the cycle; the
no-trump round 11 and the misère round 13 simply lose theirs). The deal moves one seat clockwise
a round, so round n is dealt by seat n mod 4 (Jon, Kim, Leo, Ivy, Jon, ...) and the player after
the dealer bids first; the dealer bids last and is bound by the hook: the bids may never add up
to the number of tricks. Misère has no bidding at all.

Each round the test checks what the panel says about it (cards, trump, dealer, who bids first),
taps the bids in bidding order (checking the last bidder's refused value and the reason, or that
nothing is refused when the earlier bids already pass the number of tricks), taps the tricks in
with the steppers watching the count left to share out, saves, and compares the running totals
with the points worked out by hand below. Along the way: the rules document's worked example
(round 4: bids 1, 1, 0 forbid 2 to the fourth player), a trick count that does not add up refused
with the reason (round 2), the blind round's warning and the misère round's one-line explanation.
At the end: the winner, the standings against `scorepad score --json` on the exported record.
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

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.games import service as games
from tests.browser import taps
from tests.browser.conftest import NARROW_PHONE, PHONE

PLAYERS = ("Ivy", "Jon", "Kim", "Leo")  # seat order, clockwise
WIDTH = PHONE["viewport"]["width"]
H, C, D, S, NT = "♥ Hearts", "♣ Clubs", "♦ Diamonds", "♠ Spades", "No trumps"


@dataclass(frozen=True)
class Round:
    cards: int
    trump: str  # as the panel words it
    dealer: str
    bids: tuple[tuple[str, int], ...]  # in bidding order, as tapped; empty in misère
    tricks: tuple[int, ...]  # seat order: Ivy, Jon, Kim, Leo
    points: tuple[int, ...]  # seat order, worked out by hand from the rules document
    note: str = ""  # the panel's one line about a special round


# Scoring (the rules document): exact bid = 10 + 2 per trick won, otherwise 0. Misère: 10 for no
# tricks, else -2 per trick won. The bidding order starts left of the dealer; the dealer bids last
# and may not bring the total to the number of cards. In every bid round exactly one player misses
# (the hook makes that unavoidable), marked "x" below; everyone else makes their bid.
ROUNDS = (
    #     cards trump dealer bids in bidding order                           tricks Ivy Jon Kim Leo    points
    # 1: Kim 0/0 10, Leo 0/0 10, Ivy 1/1 12; Jon (0+0+1 = 1: may not bid 0) bids 1, takes 0: x
    Round(1, H, "Jon", (("Kim", 0), ("Leo", 0), ("Ivy", 1), ("Jon", 1)), (1, 0, 0, 0), (12, 0, 10, 10)),
    # 2: Leo 1/1 12, Ivy 0/0 10, Jon 1/1 12; Kim (may not bid 0) bids 1, takes 0: x
    Round(2, C, "Kim", (("Leo", 1), ("Ivy", 0), ("Jon", 1), ("Kim", 1)), (0, 1, 0, 1), (10, 12, 0, 12)),
    # 3: Ivy 1/1 12, Jon 0 but takes 1: x, Kim 1/1 12; Leo (may not bid 1) bids 0, takes 0: 10
    Round(3, D, "Leo", (("Ivy", 1), ("Jon", 0), ("Kim", 1), ("Leo", 0)), (1, 1, 1, 0), (12, 0, 12, 10)),
    # 4: the document's example: 1, 1, 0 forbid 2 to Ivy; she bids 1 and takes 2: x. Jon, Kim 12, Leo 10
    Round(4, S, "Ivy", (("Jon", 1), ("Kim", 1), ("Leo", 0), ("Ivy", 1)), (2, 1, 1, 0), (0, 12, 12, 10)),
    # 5: Kim 2/2 14, Leo 1/1 12, Ivy 1 takes 2: x; Jon (may not bid 1) 0/0 10
    Round(5, H, "Jon", (("Kim", 2), ("Leo", 1), ("Ivy", 1), ("Jon", 0)), (2, 0, 2, 1), (0, 10, 14, 12)),
    # 6: Leo 2/2 14, Ivy 2/2 14, Jon 1/1 12; Kim (may not bid 1) bids 2, takes 1: x
    Round(6, C, "Kim", (("Leo", 2), ("Ivy", 2), ("Jon", 1), ("Kim", 2)), (2, 1, 1, 2), (14, 12, 0, 14)),
    # 7: Ivy 2 takes 3: x, Jon 2/2 14, Kim 1/1 12; Leo (may not bid 2) 1/1 12
    Round(7, D, "Leo", (("Ivy", 2), ("Jon", 2), ("Kim", 1), ("Leo", 1)), (3, 2, 1, 1), (0, 14, 12, 12)),
    # 8: Jon 3/3 16, Kim 2 takes 3: x, Leo 2/2 14; Ivy (may not bid 1) 0/0 10
    Round(8, S, "Ivy", (("Jon", 3), ("Kim", 2), ("Leo", 2), ("Ivy", 0)), (0, 3, 3, 2), (10, 16, 0, 14)),
    # 9: Kim 3/3 16, Leo 2/2 14, Ivy 3/3 16; Jon (may not bid 1) bids 2, takes 1: x
    Round(9, H, "Jon", (("Kim", 3), ("Leo", 2), ("Ivy", 3), ("Jon", 2)), (3, 1, 3, 2), (16, 0, 16, 14)),
    # 10 (special 1, normal): Leo 3/3 16, Ivy 3/3 16, Jon 2/2 14; Kim (may not bid 2) bids 3, takes 2: x
    Round(
        10,
        C,
        "Kim",
        (("Leo", 3), ("Ivy", 3), ("Jon", 2), ("Kim", 3)),
        (3, 2, 2, 3),
        (16, 14, 0, 16),
        "Special round 1 of 5: 10 cards, played as normal",
    ),
    # 11 (special 2, no trumps): Ivy 4/4 18, Jon 4 takes 3: x, Kim 3/3 16; the bids already make 11,
    # more than 10, so nothing is refused to Leo: 0/0 10
    Round(
        10,
        NT,
        "Leo",
        (("Ivy", 4), ("Jon", 4), ("Kim", 3), ("Leo", 0)),
        (4, 3, 3, 0),
        (18, 0, 16, 10),
        "Special round 2 of 5: no trumps",
    ),
    # 12 (special 3, blind, spades as scheduled): Jon 2/2 14, Kim 3 takes 4: x, Leo 2/2 14;
    # Ivy (may not bid 3) 2/2 14
    Round(
        10,
        S,
        "Ivy",
        (("Jon", 2), ("Kim", 3), ("Leo", 2), ("Ivy", 2)),
        (2, 2, 4, 2),
        (14, 14, 0, 14),
        "Special round 3 of 5: blind bid - everyone bids before the cards are dealt; trumps as scheduled",
    ),
    # 13 (special 4, misère, no bids): Ivy takes 0: +10; Jon 4: -8; Kim 1: -2; Leo 5: -10
    Round(
        10,
        NT,
        "Jon",
        (),
        (0, 4, 1, 5),
        (10, -8, -2, -10),
        "Special round 4 of 5: misère - no trumps, no bidding; -2 per trick won, 10 for winning none",
    ),
    # 14 (special 5, normal): Leo 3/3 16, Ivy 2/2 14, Jon 3 takes 4: x; Kim (may not bid 2) 1/1 12
    Round(
        10,
        C,
        "Kim",
        (("Leo", 3), ("Ivy", 2), ("Jon", 3), ("Kim", 1)),
        (2, 4, 1, 3),
        (14, 0, 12, 16),
        "Special round 5 of 5: 10 cards, played as normal",
    ),
    # 15: Ivy 3/3 16, Jon 2/2 14, Kim 2/2 14; Leo (may not bid 2) bids 1, takes 2: x
    Round(9, D, "Leo", (("Ivy", 3), ("Jon", 2), ("Kim", 2), ("Leo", 1)), (3, 2, 2, 2), (16, 14, 14, 0)),
    # 16: Jon 2/2 14, Kim 2/2 14, Leo 2 takes 1: x; Ivy (may not bid 2) 3/3 16
    Round(8, S, "Ivy", (("Jon", 2), ("Kim", 2), ("Leo", 2), ("Ivy", 3)), (3, 2, 2, 1), (16, 14, 14, 0)),
    # 17: Kim 2/2 14, Leo 2/2 14, Ivy 2 takes 3: x; Jon (may not bid 1) 0/0 10
    Round(7, H, "Jon", (("Kim", 2), ("Leo", 2), ("Ivy", 2), ("Jon", 0)), (3, 0, 2, 2), (0, 10, 14, 14)),
    # 18: Leo 1/1 12, Ivy 2/2 14, Jon 1 takes 2: x; Kim (may not bid 2) 1/1 12
    Round(6, C, "Kim", (("Leo", 1), ("Ivy", 2), ("Jon", 1), ("Kim", 1)), (2, 2, 1, 1), (14, 0, 12, 12)),
    # 19: Ivy 1/1 12, Jon 2/2 14, Kim 1 takes 2: x; Leo (may not bid 1) 0/0 10
    Round(5, D, "Leo", (("Ivy", 1), ("Jon", 2), ("Kim", 1), ("Leo", 0)), (1, 2, 2, 0), (12, 14, 0, 10)),
    # 20: Jon 1/1 12, Kim 1/1 12, Leo 1 takes 2: x; Ivy (may not bid 1) 0/0 10
    Round(4, S, "Ivy", (("Jon", 1), ("Kim", 1), ("Leo", 1), ("Ivy", 0)), (0, 1, 1, 2), (10, 12, 12, 0)),
    # 21: Kim 1/1 12, Leo 1/1 12, Ivy 1/1 12; Jon (may not bid 0) bids 1, takes 0: x
    Round(3, H, "Jon", (("Kim", 1), ("Leo", 1), ("Ivy", 1), ("Jon", 1)), (1, 0, 1, 1), (12, 0, 12, 12)),
    # 22: Leo 0/0 10, Ivy 1/1 12, Jon 0 takes 1: x; Kim (may not bid 1) 0/0 10
    Round(2, C, "Kim", (("Leo", 0), ("Ivy", 1), ("Jon", 0), ("Kim", 0)), (1, 1, 0, 0), (12, 0, 10, 10)),
    # 23: Ivy 0 takes 1: x, Jon 0/0 10, Kim 0/0 10; Leo (may not bid 1) 0/0 10
    Round(1, D, "Leo", (("Ivy", 0), ("Jon", 0), ("Kim", 0), ("Leo", 0)), (1, 0, 0, 0), (0, 10, 10, 10)),
)

# Running totals by hand (Ivy, Jon, Kim, Leo), adding the points column above:
#  after 4:  Ivy 12+10+12+0 = 34, Jon 0+12+0+12 = 24, Kim 10+0+12+12 = 34, Leo 10+12+10+10 = 42
#  after 9:  Ivy 34+0+14+0+10+16 = 74, Jon 24+10+12+14+16+0 = 76, Kim 34+14+0+12+0+16 = 76,
#            Leo 42+12+14+12+14+14 = 108
#  after 13: Ivy 74+16+18+14+10 = 132, Jon 76+14+0+14-8 = 96, Kim 76+0+16+0-2 = 90,
#            Leo 108+16+10+14-10 = 138
#  after 23: Ivy 132+14+16+16+0+14+12+10+12+12+0 = 238, Jon 96+0+14+14+10+0+14+12+0+0+10 = 170,
#            Kim 90+12+14+14+14+12+0+12+12+10+10 = 200, Leo 138+16+0+0+14+12+10+0+12+10+10 = 222
CHECKPOINTS = {
    4: {"Ivy": 34, "Jon": 24, "Kim": 34, "Leo": 42},
    9: {"Ivy": 74, "Jon": 76, "Kim": 76, "Leo": 108},
    13: {"Ivy": 132, "Jon": 96, "Kim": 90, "Leo": 138},
    23: {"Ivy": 238, "Jon": 170, "Kim": 200, "Leo": 222},
}
FINAL = CHECKPOINTS[23]
FINAL_ORDER = ["Ivy", "Leo", "Kim", "Jon"]
# Bids made (22 bid rounds, one miss each): Ivy misses 4, 5, 7, 17, 23; Jon 1, 3, 9, 11, 14, 18, 21, 22;
# Kim 2, 6, 8, 10, 12, 19; Leo 15, 16, 20 (the misère round has no bid to make).
BIDS_MADE = {"Ivy": 17, "Jon": 14, "Kim": 16, "Leo": 19}


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, "the page scrolls sideways"


def shot(page: Page, directory: Path, step: str) -> None:
    page.screenshot(path=str(directory / f"australian-{step}.png"), full_page=True)


def totals(page: Page) -> dict[str, int]:
    """Name -> total as the standings list shows them, best first."""
    rows = page.locator("section.totals .standings li")
    expect(rows).to_have_count(len(PLAYERS))
    return {
        rows.nth(i).locator(".name").inner_text(): int(rows.nth(i).locator(".total").inner_text())
        for i in range(rows.count())
    }


def check_round_facts(page: Page, number: int, rnd: Round) -> None:
    """The panel's account of the round: the schedule as the rules give it."""
    expect(page.get_by_role("heading", name=f"Hand {number} of 23")).to_be_visible()
    facts = [f"Cards {rnd.cards}", f"Trump {rnd.trump}", f"Dealer {rnd.dealer}"]
    if rnd.bids:
        facts.append(f"Bids first {rnd.bids[0][0]}")
    expect(page.locator("#hand-panel .facts li")).to_have_text(facts)
    note = page.locator("#hand-panel .round-note")
    if rnd.note:
        expect(note).to_have_text(rnd.note)
    else:
        expect(note).to_have_count(0)


def tap_bids(page: Page, rnd: Round, at_last: Callable[[Page], None] | None = None) -> None:
    """Tap each bid in bidding order; before the last one check what the hook refuses."""
    choices = page.get_by_role("group", name=re.compile("’s bid$"))
    earlier = 0
    for position, (name, bid) in enumerate(rnd.bids):
        expect(choices).to_have_accessible_name(f"{name}’s bid")
        forbidden = rnd.cards - earlier
        if position == len(rnd.bids) - 1 and 0 <= forbidden <= rnd.cards:
            refused = choices.get_by_role("button", name=f"{forbidden} (not allowed)", exact=True)
            expect(refused).to_be_disabled()
            reason = (
                f"{name} bids last and may not bid {forbidden}: the bids would add up to "
                f"{rnd.cards}, the number of tricks."
            )
            expect(page.locator("#forbidden-reason")).to_have_text(reason)
            expect(refused).to_have_accessible_description(reason)
            expect(choices.get_by_role("button", disabled=False)).to_have_count(rnd.cards)
            if at_last:
                at_last(page)
        else:  # not the last bidder, or the earlier bids already pass the number of tricks
            expect(choices.get_by_role("button", disabled=False)).to_have_count(rnd.cards + 1)
            expect(page.locator("#forbidden-reason")).to_have_count(0)
        choices.get_by_role("button", name=f"{name} bids {bid}", exact=True).click()
        earlier += bid


def tap_tricks(page: Page, rnd: Round, tricks: tuple[int, ...]) -> None:
    """Tap each player's tricks in bidding order (a misère round: from the dealer's left); the last
    player's are filled in."""
    first = (
        PLAYERS.index(rnd.bids[0][0])
        if rnd.bids
        else PLAYERS.index(
            page.get_by_role("group", name=re.compile("’s tricks")).locator("legend strong").inner_text()
        )
    )
    order = [PLAYERS[(first + i) % len(PLAYERS)] for i in range(len(PLAYERS))]
    assert taps.tap_tricks(page, order, dict(zip(PLAYERS, tricks))) <= len(PLAYERS) - 1


def save(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Save hand {number}").click()
    # the notice, not the <output> of the trick count (also a status) when the next round opens on it
    expect(page.get_by_role("status").and_(page.locator(".notice"))).to_have_text(f"Hand {number} saved.")


def test_a_whole_australian_whist_game_for_four(
    live_server: str, browser: Browser, tmp_path: Path, screenshot_dir: Path, no_axe_violations: Callable[[Any], None]
) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()

    def look(step: str) -> None:
        fits(page)
        shot(page, screenshot_dir, step)
        no_axe_violations(page)

    # ---- set-up: four players, Jon deals first, the usual options
    page.goto(live_server + "/new")
    page.get_by_role("link", name=re.compile(r"^Australian Whist")).click()
    expect(page.get_by_role("heading", name="Australian Whist", level=1)).to_be_visible()
    for seat, name in enumerate(PLAYERS):
        page.get_by_role("textbox", name=f"Player {seat + 1}", exact=True).fill(name)
    dealer_choice = page.get_by_role("group", name="Who deals first?")
    dealer_choice.get_by_role("radio", name="Jon").check()
    expect(dealer_choice.get_by_role("radio", name="Jon")).to_be_checked()
    page.locator("details.options summary").click()
    suitless = page.get_by_role("group", name="Trumps after the suitless rounds")
    expect(suitless.get_by_role("radio", checked=True)).to_have_accessible_name(re.compile(r"^Skip"))
    expect(page.get_by_label("Remote play with several packs")).not_to_be_checked()
    look("1-setup")
    page.get_by_role("button", name="Start the game").click()

    running = dict.fromkeys(PLAYERS, 0)
    for number, rnd in enumerate(ROUNDS, start=1):
        check_round_facts(page, number, rnd)
        if number == 1:
            expect(page.get_by_role("group", name="Kim’s bid")).to_be_visible()
            look("2-bidding")

        # ---- the bids (none in misère)
        blind_callout = page.locator(".callout", has_text="Blind round")
        if rnd.note.startswith("Special round 3"):
            expect(blind_callout).to_have_text("Blind round: everyone bids before the cards are dealt.")
            # the blind bids are asked before any trick can be entered
            expect(page.get_by_role("group", name=re.compile("’s tricks"))).to_have_count(0)
            look("5-blind")
        else:
            expect(blind_callout).to_have_count(0)
        if not rnd.bids:  # misère: straight to the tricks, nothing to bid, the round explained in one line
            expect(page.get_by_role("group", name=re.compile("’s bid$"))).to_have_count(0)
            expect(page.locator(".bids-so-far")).to_have_count(0)
            # a fresh hand, not round 12's tricks (2, 2, 4, 2) just saved: every number open to the first player
            asked = page.get_by_role("group", name=re.compile("’s tricks"))
            expect(asked.get_by_role("button")).to_have_count(11)
            expect(page.get_by_text("10 of 10 tricks left to share out")).to_be_visible()
            look("6-misere")
        at_last = (lambda p: look("4-hook")) if number == 4 else None
        if number == 4:  # the rules document's example: 1, 1, 0 in a 4-card round forbid 2 to the fourth
            assert rnd.bids[:3] == (("Jon", 1), ("Kim", 1), ("Leo", 0))
        tap_bids(page, rnd, at_last)

        # ---- the tricks
        expect(page.get_by_role("group", name=re.compile("’s tricks"))).to_be_visible()
        if rnd.bids:
            expect(page.locator(".bids-so-far")).to_contain_text(
                f"(total {sum(b for _, b in rnd.bids)} of {rnd.cards})"
            )
        if number == 2:
            # a slip: both tricks given to the first player; no trick is left, so the others' 0 are
            # filled in, and Undo takes back exactly that tap, with what it filled in
            first = rnd.bids[0][0]
            others = list(PLAYERS[PLAYERS.index(first) + 1 :] + PLAYERS[: PLAYERS.index(first)])
            taps.tap_one(page, first, 2)
            expect(page.get_by_role("group", name=re.compile("’s tricks"))).to_have_count(0)
            assert taps.tricks_shown(page) == {first: 2, **dict.fromkeys(others, 0)}
            look("3-tricks-slip")
            page.get_by_role("button", name=f"↶ Undo last entry: {first}'s tricks: 2").click()
            expect(page.locator(".notice")).to_have_text(
                f"Undone: {first}'s tricks: 2 (so {' and '.join(others)} took 0)."
            )
            expect(page.get_by_text("2 of 2 tricks left to share out")).to_be_visible()
        tap_tricks(page, rnd, rnd.tricks)
        if number == 5:
            look("7-tricks")
        save(page, number)

        # ---- the running totals, from the points worked out by hand
        for name, points in zip(PLAYERS, rnd.points):
            running[name] += points
        if number in CHECKPOINTS:
            assert running == CHECKPOINTS[number]  # the comments' sums agree with the table
        if number < len(ROUNDS):
            assert totals(page) == running, f"after round {number}"

    # ---- game over
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.locator(".finished .result")).to_have_text("Ivy wins with 238")
    expect(page.locator(".finished .standings li.winner .name")).to_have_text(["Ivy"])
    expect(page.get_by_role("heading", name="Final totals")).to_be_visible()
    final = totals(page)
    assert final == running == FINAL
    assert list(final) == FINAL_ORDER
    expect(page.locator("section.totals .standings li small")).to_have_text(
        [f"{BIDS_MADE[n]} bids made" for n in FINAL_ORDER]
    )
    expect(page.locator("#hand-13 th small")).to_have_text("10 cards NT misère")
    expect(page.locator("#hand-12 th small")).to_have_text("10 cards ♠ blind")
    look("8-game-over")

    # ---- the exported record, scored by the command line
    href = page.get_by_role("link", name="Export game (JSON)").get_attribute("href")
    assert href
    download = page.request.get(live_server + href)
    assert download.ok
    record = download.json()
    assert record["variant"] == "australian" and record["players"] == list(PLAYERS)
    assert record["first_dealer"] == 1
    assert [h["tricks"] for h in record["hands"]] == [list(r.tricks) for r in ROUNDS]
    assert [h.get("bids") for h in record["hands"]] == [
        [dict(r.bids)[p] for p in PLAYERS] if r.bids else None for r in ROUNDS
    ]
    path = tmp_path / "australian.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    scorepad = Path(sys.executable).with_name("scorepad")
    done = subprocess.run([str(scorepad), "score", "--json", str(path)], capture_output=True, text=True, check=True)
    scored = json.loads(done.stdout)
    assert scored["finished"] is True and scored["winner_names"] == ["Ivy"]
    assert [[c["points"] for c in line["cells"]] for line in scored["lines"]] == [list(r.points) for r in ROUNDS]
    assert {s["name"]: s["total"] for s in scored["standings"]} == final == FINAL
    context.close()


SEVEN = ("Ivy", "Jon", "Kim", "Leo", "Mia", "Ned", "Ola")


def tap_size(page: Page, locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    return box["width"], box["height"]


def test_seven_players_fit_a_320_px_phone(app: Flask, live_server: str, browser: Browser, screenshot_dir: Path) -> None:
    """The most columns the sheet gets, on the narrowest phone: nothing scrolls sideways but the
    sheet in its own box, and the links tapped on the way are 44 px targets."""
    context = browser.new_context(**NARROW_PHONE)
    page = context.new_page()
    page.goto(live_server + "/new/australian")
    for added in range(4, 7):
        page.get_by_role("button", name="+ Add a player").click()
        expect(page.locator(f"#name-{added}")).to_be_visible()
    for i, name in enumerate(SEVEN):
        page.fill(f"#name-{i}", name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Hand 1 of 17")).to_be_visible()
    token = page.url.rsplit("/", 1)[1]
    with app.app_context():  # two hands entered directly: this test is about the page they make
        game = games.by_scorer_token(token)
        assert game is not None
        games.enter_hand(game, 1, {"bids": [0] * 7, "tricks": [1, 0, 0, 0, 0, 0, 0]})
        games.enter_hand(game, 2, {"bids": [1, 0, 0, 0, 0, 0, 0], "tricks": [1, 1, 0, 0, 0, 0, 0]})
        public_id = game.public_id
    page.reload()
    expect(page.locator("#hand-2")).to_be_visible()
    narrow = NARROW_PHONE["viewport"]["width"]  # a mobile browser widens innerWidth to fit what overflows
    assert page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]") == [narrow, narrow], (
        "the scorer's page scrolls sideways"
    )
    edit = page.get_by_role("link", name="Edit hand 1")
    edit.scroll_into_view_if_needed()
    width, height = tap_size(page, edit)
    assert width >= 44 and height >= 44, (width, height)
    page.screenshot(path=str(screenshot_dir / "australian-seven-320.png"), full_page=True)

    page.goto(f"{live_server}/w/{public_id}")
    assert page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]") == [narrow, narrow]
    width, height = tap_size(page, page.get_by_role("link", name="Download the sheet (CSV)"))
    assert width >= 44 and height >= 44, (width, height)

    page.goto(f"{live_server}/offline")
    width, height = tap_size(page, page.get_by_role("link", name="try again"))
    assert width >= 44 and height >= 44, (width, height)
    context.close()
