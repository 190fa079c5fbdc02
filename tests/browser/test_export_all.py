"""Issue 30, item 5, in a real browser: a family's phone exports all its games in one file, another
phone (in French, at 320 px) imports it and finds every game as its own, to continue; a file with a
bad game is refused beside the field, naming the game, nothing stored; a group's page exports the
group's games. Screenshots: test-output/screenshots/export-all-*.png."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorepad.games import groups, records
from tests.browser.conftest import NARROW_PHONE, PHONE
from tests.browser.test_home_forms import game_count
from tests.browser.test_large_text import overflow
from tests.conftest import EXAMPLES

FAMILY = json.loads((EXAMPLES / "nomination-family-four.json").read_text())
RUBBER = json.loads((EXAMPLES / "whist-rubber-default.json").read_text())


def looked_at(page: Page, name: str, screenshot_dir: Path, no_axe_violations: Any) -> None:
    page.screenshot(path=str(screenshot_dir / f"export-all-{name}.png"), full_page=True)
    assert overflow(page) == 0, f"{name}: the page is wider than the screen"
    no_axe_violations(page)


def downloaded(page: Page, link: str, to: Path) -> list[dict[str, Any]]:
    with page.expect_download() as waiting:
        page.get_by_role("link", name=link, exact=True).click()
    waiting.value.save_as(to)
    found = json.loads(to.read_text())
    assert isinstance(found, list)
    return found


def test_all_of_a_phones_games_move_to_a_phone_in_french(
    app: Flask, live_server: str, browser: Browser, tmp_path: Path, screenshot_dir: Path, no_axe_violations: Any
) -> None:
    family = browser.new_context(**PHONE).new_page()
    family.goto(live_server + "/")
    expect(family.get_by_role("link", name="Export all your games (JSON)")).to_have_count(0)  # nothing yet
    for record in ({**FAMILY, "hands": FAMILY["hands"][:3]}, RUBBER):
        family.goto(live_server + "/")
        family.get_by_label("Or paste the record").fill(json.dumps(record))
        family.get_by_role("button", name="Import", exact=True).click()
        expect(family.get_by_role("link", name="Export game (JSON)")).to_be_visible()  # its scoring page
    family.goto(live_server + "/")
    games = downloaded(family, "Export all your games (JSON)", tmp_path / "scorepad-games.json")
    assert [g["title"] for g in games] == [RUBBER["title"], FAMILY["title"]]  # as the home page lists them

    page = browser.new_context(**NARROW_PHONE, locale="fr-FR").new_page()
    page.goto(live_server + "/")
    page.get_by_label("Fichier du relevé").set_input_files(str(tmp_path / "scorepad-games.json"))
    page.get_by_role("button", name="Importer", exact=True).click()
    expect(page.get_by_role("status").filter(has_text="importées")).to_have_text(
        "2 parties importées : elles sont listées ci-dessous."
    )
    in_progress = page.locator("section", has=page.get_by_role("heading", name="Vos parties en cours"))
    expect(in_progress.get_by_role("link", name=FAMILY["title"])).to_be_visible()
    expect(
        page.locator("section", has=page.get_by_role("heading", name="Vos parties terminées")).get_by_role(
            "link", name=RUBBER["title"]
        )
    ).to_be_visible()
    expect(page.get_by_role("link", name="Exporter toutes vos parties (JSON)")).to_be_visible()
    looked_at(page, "fr-imported", screenshot_dir, no_axe_violations)
    in_progress.get_by_role("link", name=FAMILY["title"]).click()
    expect(page.get_by_role("heading", name="Donne 4 sur 13")).to_be_visible()  # continued where the file stops
    assert game_count(app) == 4

    # a file holding a bad game: refused beside the field, the game named, nothing stored
    bad = [games[0], {**FAMILY, "hands": [{**FAMILY["hands"][0], "tricks": [1, 1, 1, 1]}]}]
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    page.goto(live_server + "/")
    page.get_by_label("Fichier du relevé").set_input_files(str(tmp_path / "bad.json"))
    page.get_by_role("button", name="Importer", exact=True).click()
    error = page.locator("#err-record")
    expect(error).to_contain_text("Cet enregistrement ne peut pas être importé ; rien n’a été enregistré")
    expect(error.locator("li").first).to_contain_text("partie 2 : donne 1, tricks :")
    looked_at(page, "fr-refused", screenshot_dir, no_axe_violations)
    assert game_count(app) == 4


def test_a_groups_games_are_exported_from_its_page(
    app: Flask, live_server: str, browser: Browser, tmp_path: Path, screenshot_dir: Path, no_axe_violations: Any
) -> None:
    with app.app_context():
        group = groups.create("Sunday at Gran's")
        for record in (FAMILY, RUBBER):
            groups.keep(group, records.import_record(record))
        token = group.token
    for locale, link in (
        ("en-GB", "Export all the group's games (JSON)"),
        ("fr-FR", "Exporter toutes les parties du groupe (JSON)"),
    ):
        page = browser.new_context(**PHONE, locale=locale).new_page()
        page.goto(f"{live_server}/group/{token}")
        games = downloaded(page, link, tmp_path / f"group-{locale}.json")
        assert sorted(g["title"] for g in games) == sorted([FAMILY["title"], RUBBER["title"]])
        page.get_by_role("link", name=link, exact=True).scroll_into_view_if_needed()
        looked_at(page, f"{locale[:2]}-group", screenshot_dir, no_axe_violations)
        page.context.close()
