"""Signing a Bid Whist sheet in real browsers: each team with its own code or its own page, and a
sheet corrected after one team signed loses that signature where both teams see it.

Issue 16 item 7 (one phone pressed both teams' sign buttons) and issue 14 bug 3 (after one team
signed, a hand was changed and "✓ signed" stayed).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, expect

from scorepad.events import core
from scorepad.events.bid_whist import matches, registration, writes
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import Event, EventEntrant, EventMatch
from tests.browser.conftest import PHONE
from tests.web.test_tournament import hand


def played_match() -> tuple[Event, EventMatch, EventEntrant, EventEntrant]:
    """A one-round tournament of four teams, table 1's match played to the end (to sign): the event,
    the match and its home and away teams."""
    event = writes.create("Club cup", rounds=1)
    for n in range(4):
        registration.register_team(event, f"Team {'ABCD'[n]}", [f"{'ABCD'[n]}1", f"{'ABCD'[n]}2"])
    writes.start(event)
    match = next(m for m in event.matches if m.table == 1)
    assert match.game is not None
    for n in range(1, 5):
        games.enter_hand(match.game, n, hand(n, 0))
    teams = {e.number: e for e in event.entrants}
    return event, match, teams[match.home], teams[match.away]


def test_one_team_signs_then_a_correction_withdraws_it_before_everyone(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path, no_axe_violations: Callable[[Any], None]
) -> None:
    with app.app_context():
        event, match, home, away = played_match()
        assert match.game is not None
        scorer, codes = match.game.scorer_token, (matches.team_code(home), matches.team_code(away))
        away_page = f"/team/{away.token}"
        db.session.remove()

    table = browser.new_context(**PHONE).new_page()
    table.goto(f"{live_server}/g/{scorer}")
    bar = table.locator("#event-bar")
    expect(bar).to_contain_text("The round is over.")
    home_name, away_name = f"({home.number}) {home.name}", f"({away.number}) {away.name}"

    # one phone, no code: refused beside the field, nothing signed
    bar.get_by_role("button", name=f"Sign for {home_name}").click()
    expect(bar.locator("#err-code-0")).to_have_text(
        f"Enter the team code for {home.name}: the four digits on that team's card"
    )
    expect(bar.locator(".signed")).to_have_count(0)
    # the other team's code is no better
    bar.get_by_label(f"Team code for {home_name}").fill(codes[1])
    bar.get_by_role("button", name=f"Sign for {home_name}").click()
    expect(bar.locator("#err-code-0")).to_have_text(
        f"That is not the team code for {home.name}: it is on that team's card"
    )
    bar.get_by_label(f"Team code for {home_name}").fill(codes[0])
    bar.get_by_role("button", name=f"Sign for {home_name}").click()
    expect(bar.locator(".signed")).to_have_text(f"✓ {home_name} signed")
    no_axe_violations(table)

    # the away team watches its own page; someone at the table corrects hand 2
    away_phone = browser.new_context(**PHONE).new_page()
    away_phone.goto(live_server + away_page)
    expect(away_phone.get_by_role("button", name="Sign our sheet: the scores are right")).to_be_visible()
    table.get_by_role("link", name="Edit hand 2").click()
    table.get_by_role("group", name=re.compile("^Books taken by")).get_by_role("radio", name="9", exact=True).check()
    table.get_by_role("button", name="Save the correction").click()
    note = (
        f"Hand 2 was corrected after {home.name} signed: the signature is withdrawn. "
        f"Both teams check the sheet and sign again."
    )
    expect(bar.locator(".callout")).to_have_text(note)
    expect(bar.locator(".signed")).to_have_count(0)
    expect(away_phone.locator("#team-panel .callout")).to_have_text(note)  # pushed to the team's page
    table.screenshot(path=str(screenshot_dir / "signing-withdrawn.png"), full_page=True)
    away_phone.screenshot(path=str(screenshot_dir / "signing-withdrawn-team-page.png"), full_page=True)

    # both sign again: the away team from its own page, the home team with its code
    away_phone.get_by_role("button", name="Sign our sheet: the scores are right").click()
    expect(away_phone.get_by_text("Your team has signed this round's sheet.")).to_be_visible()
    expect(bar.locator(".signed")).to_have_text(f"✓ {away_name} signed")  # the table's bar hears it
    bar.get_by_label(f"Team code for {home_name}").fill(codes[0])
    bar.get_by_role("button", name=f"Sign for {home_name}").click()
    expect(bar).to_contain_text("Sheet final.")
    expect(table.get_by_role("link", name=re.compile("^Edit hand"))).to_have_count(0)  # a final sheet offers no edit
    with app.app_context():
        row = db.session.get(type(match), match.id)
        assert row is not None and row.sign_note == ""
        assert row.signed_away_by and row.signed_away_by.startswith("team page · device ")
        assert row.signed_home_by and row.signed_home_by.startswith("table phone, team code · device ")
        assert row.signed_home_by.split()[-1] != row.signed_away_by.split()[-1]


def test_a_push_while_the_second_team_types_its_code_keeps_the_code(
    app: Flask, live_server: str, browser: Browser
) -> None:
    """The first signature is pushed to every page of the event, this phone's bar too; its refresh
    must not wipe the code the second team is typing (CI once saw the click then sign with no code)."""
    with app.app_context():
        event, match, home, away = played_match()
        assert match.game is not None
        scorer, codes = match.game.scorer_token, (matches.team_code(home), matches.team_code(away))
        event_id = event.id
        db.session.remove()
    table = browser.new_context(**PHONE).new_page()
    table.goto(f"{live_server}/g/{scorer}")
    bar = table.locator("#event-bar")
    expect(bar).to_contain_text("The round is over.")
    table.wait_for_timeout(300)  # its live stream is open
    held: list[Any] = []
    table.route(re.compile(r"/g/[\w-]+/event$"), lambda route: held.append(route))  # the bar's refreshes

    home_name, away_name = f"({home.number}) {home.name}", f"({away.number}) {away.name}"
    bar.get_by_label(f"Team code for {home_name}").fill(codes[0])
    bar.get_by_role("button", name=f"Sign for {home_name}").click()
    expect(bar.locator(".signed")).to_have_text(f"✓ {home_name} signed")
    table.wait_for_timeout(300)  # the signature's own push has come: let its refresh through
    while held:
        held.pop().continue_()
    table.wait_for_timeout(300)
    with app.test_request_context():  # a push after the answer (another page's change), as CI saw it
        event = db.session.get(Event, event_id)
        assert event is not None
        core.announce(event, core.Signals(orders=True))
    for _ in range(100):
        if held:
            break
        table.wait_for_timeout(50)
    assert held, "the push did not refresh the bar"
    bar.get_by_label(f"Team code for {away_name}").fill(codes[1])
    for route in held:  # the refresh lands while the code is in the field
        route.continue_()
    table.wait_for_timeout(500)
    expect(bar.get_by_label(f"Team code for {away_name}")).to_have_value(codes[1])
    table.unroute(re.compile(r"/g/[\w-]+/event$"))
    bar.get_by_role("button", name=f"Sign for {away_name}").click()
    expect(bar).to_contain_text("Sheet final.")
    table.context.close()
