"""Issue 15 on a phone: importing a game record from the home page (a file or pasted; a refusal said
beside the field; a double tap makes one game) and watching a game by typing its code."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, expect

from scorepad.extensions import db
from scorepad.games import records
from scorepad.games import service as games
from scorepad.models import Game
from tests.browser.conftest import PHONE
from tests.conftest import EXAMPLES

FAMILY = json.loads((EXAMPLES / "nomination-family-four.json").read_text())


def game_count(app: Flask) -> int:
    with app.app_context():
        count = len(db.session.scalars(db.select(Game)).all())
        db.session.remove()
        return count


def test_a_record_file_is_imported_once_and_continued(
    app: Flask, live_server: str, browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "sunday.json"
    record.write_text(json.dumps({**FAMILY, "hands": FAMILY["hands"][:3]}))
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_server + "/")
    page.get_by_label("Record file").set_input_files(str(record))
    slow = records.import_games

    def import_slowly(raw: bytes) -> list[Game]:  # a busy server: the second tap comes while the first is served
        time.sleep(0.8)
        return slow(raw)

    monkeypatch.setattr(records, "import_games", import_slowly)
    # two taps 0.3 s apart, the second on the page still shown while the first is served (made in the
    # page: Playwright's own click would wait for the navigation); app.js keeps the second from going
    page.evaluate("""() => {
        const button = document.querySelector('form[action="/games/import"] button[type=submit]');
        button.click();
        setTimeout(() => button.click(), 300);
    }""")
    expect(page.get_by_role("heading", name=re.compile(r"^Hand 4 of"))).to_be_visible()
    assert re.search(r"/g/[\w-]+$", page.url), page.url
    expect(page.get_by_text("Sunday at Gran's: one to thirteen").first).to_be_visible()
    page.wait_for_timeout(1500)  # a second request, if one had gone, would be in by now
    assert game_count(app) == 1
    page.get_by_role("group", name="Which trump was turned up?").get_by_role(
        "button", name="♣ Clubs", exact=True
    ).click()  # hand 4's trump; Dan deals, so Ann bids first
    expect(page.get_by_role("button", name="Ann bids 1")).to_be_visible()
    page.goto(live_server + "/")
    expect(page.get_by_role("link", name="Sunday at Gran's: one to thirteen")).to_have_attribute(
        "href", re.compile(r"^/g/")
    )  # this browser's game: its scorer's link
    context.close()


def test_a_pasted_record_refused_says_why_beside_the_field(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_server + "/")
    record = json.loads(json.dumps(FAMILY))
    record["hands"][1]["tricks"] = [1, 1, 1, 1]
    page.get_by_label("Or paste the record").fill(json.dumps(record))
    page.get_by_role("button", name="Import", exact=True).click()
    error = page.locator("#err-record")
    expect(error).to_contain_text("This record cannot be imported; nothing was saved:")
    expect(error.locator("li").first).to_contain_text("hand 2, tricks:")
    expect(page.get_by_label("Or paste the record")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_label("Or paste the record")).to_have_value(json.dumps(record))  # kept, to be corrected
    expect(page.get_by_role("heading", level=1)).to_have_text("Import a game record")  # the form alone, at the top
    page.screenshot(path=str(screenshot_dir / "home-import-refused.png"))
    assert game_count(app) == 0

    page.get_by_label("Or paste the record").fill("{not json")
    expect(page.locator("#err-record")).to_have_count(0)  # its message goes once the record is changed
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.locator("#err-record li")).to_have_text(re.compile(r"^not valid JSON \(line 1, column 2"))
    context.close()


def test_watching_a_game_by_its_code(app: Flask, live_server: str, browser: Browser, screenshot_dir: Path) -> None:
    with app.app_context():
        game = games.create(
            {
                "variant": "whist",
                "first_dealer": 0,
                "teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}],
            }
        )
        code, public_id = games.short_code(game), game.public_id
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_server + "/")
    field = page.get_by_label("Type its code")
    field.fill("ZZZZ 2222")
    page.get_by_role("button", name="Watch", exact=True).click()
    expect(page.locator("#err-code")).to_contain_text("No game has the code “ZZZZ 2222”.")
    expect(field).to_have_attribute("aria-invalid", "true")
    page.screenshot(path=str(screenshot_dir / "home-watch-not-found.png"))
    field.fill(f"{code[:4].upper()} - {code[4:]}")
    page.get_by_role("button", name="Watch", exact=True).click()
    page.wait_for_url(f"{live_server}/w/{public_id}")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    context.close()
