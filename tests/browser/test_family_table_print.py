"""Issue 31, item 10: the printed sheet of the family's table. The made-bid underline is explained
under the sheet, a Whist note row keeps clear of its rules, and seven players' names and cells stay
readable on one page."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, expect

from tests.browser.test_print import PRINT_WIDTH, on_one_page, read_json, shot, store

LONG_NAMES = ["Christopher", "Bartholomew", "Gwendolyn", "Maximilian", "Henrietta", "Alexandra", "Rosalind"]
PT = 96 / 72  # CSS px in a point


def test_seven_players_print_whole_names_readable_cells_and_a_legend_for_the_underline(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    record = read_json("australian-seven-players.json")
    token, columns, _ = store(app, {**record, "players": LONG_NAMES})
    assert columns == LONG_NAMES
    page = browser.new_context(**PRINT_WIDTH).new_page()
    page.goto(f"{live_server}/g/{token}")
    page.emulate_media(media="print")
    shot(page, screenshot_dir, "family-seven-long-names")
    # each name on one line: not broken inside the word
    lines = page.locator(".sheet-table thead th").evaluate_all(
        "(ths) => ths.slice(1).map(th => { const r = document.createRange(); r.selectNodeContents(th.firstChild);"
        " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; })"
    )
    assert lines == [1] * 7, f"names broken over lines: {dict(zip(LONG_NAMES, lines, strict=True))}"
    detail = page.locator(".sheet-table td.num small").first.evaluate(
        "(el) => parseFloat(getComputedStyle(el).fontSize)"
    )
    assert detail >= 7 * PT - 0.01, f"a cell's detail is {detail / PT:.1f} pt"
    legend = page.locator(".made-legend")
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("Underlined: the bid was made.")
    text = on_one_page(page)
    assert "Underlined: the bid was made." in text
    page.context.close()


def test_a_whist_note_row_keeps_clear_of_its_rules_and_says_nothing_of_bids(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    record = read_json("whist-rubber-default.json")
    token, _, _ = store(app, record)
    page = browser.new_context(**PRINT_WIDTH).new_page()
    page.goto(f"{live_server}/g/{token}")
    page.emulate_media(media="print")
    shot(page, screenshot_dir, "family-whist-notes")
    notes = page.locator(".sheet-table .note-row:not(.says-result) td")
    assert notes.count() > 0
    gaps = notes.evaluate_all(
        "(tds) => tds.map(td => { const r = document.createRange(); r.selectNodeContents(td);"
        " const box = td.getBoundingClientRect(), text = r.getBoundingClientRect();"
        " return Math.min(text.top - box.top, box.bottom - text.bottom); })"
    )
    assert min(gaps) >= 2, f"a note's text {min(gaps):.1f} px from its rule"
    expect(page.locator(".made-legend")).to_have_count(0)  # Whist has no bids to make
    on_one_page(page)
    page.context.close()
