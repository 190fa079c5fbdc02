"""Issue 31, the family's table: what a scorer at home tripped on, tapped as a new user would at
phone width."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE


def chip(page: Page, group: str, words: str) -> None:
    """Tap a chip (a radio button) in the group with that legend."""
    page.get_by_role("group", name=group, exact=True).get_by_role("radio", name=words, exact=True).check()


def start_whist(page: Page, live_server: str) -> None:
    """A Whist game with the set-up form's defaults: Us and Them, a rubber to 5."""
    page.goto(live_server + "/new/whist")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 1")


def test_whists_big_score_and_totals_say_what_each_counts(
    app: Flask, live_server: str, browser: Browser, screenshot_dir: Path
) -> None:
    """Item 1: after hand 1 (Us 8 tricks, 2 odd) the big box's 2 is points in the game in play, and
    the list below counts games won in the rubber: each says so, so they cannot read as one score."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    start_whist(page, live_server)
    chip(page, "Trump turned up", "♥ Hearts")
    chip(page, "Tricks taken by Us", "8")
    page.get_by_role("button", name="Save hand 1", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Hand 1 saved.")

    board = page.locator("#scoreboard li")
    expect(page.locator("#score-h")).to_have_text("Game 1: 5 points win it")
    expect(board).to_have_text(
        [re.compile(r"^Us\s+2 points\s+0 games won$"), re.compile(r"^Them\s+0 points\s+0 games won$")]
    )
    expect(page.locator("#totals-h")).to_have_text("Games won in the rubber (best of three)")
    expect(page.locator("#totals ol.standings .total")).to_have_text(["0", "0"])
    page.screenshot(path=str(screenshot_dir / "family-whist-after-hand-1.png"), full_page=True)
    context.close()


OPTIONS_AS_NEW = {
    "en-GB": "Options: the usual rules (tap to change)",
    "fr-FR": "Options : les règles habituelles (touchez pour changer)",
    "es-ES": "Opciones: las reglas habituales (toca para cambiar)",
}


def test_a_new_bid_whist_games_options_line_reads_as_the_usual_rules(live_server: str, browser: Browser) -> None:
    """Item 13: the home game's own setting (to 7 points) is the usual rule at home, not "changed: Play"."""
    for locale, line in OPTIONS_AS_NEW.items():
        context = browser.new_context(**PHONE, locale=locale)
        page = context.new_page()
        page.goto(live_server + "/new/bid_whist")
        expect(page.locator("details.options summary")).to_have_text(line)
        context.close()


TRUMPS_CHOICES = (
    "Turned up: the dealer's last card, entered each deal",
    "Fixed sequence: hearts, diamonds, spades, clubs",
)


def test_the_whist_forms_trumps_choices_are_read_whole_on_a_phone(live_server: str, browser: Browser) -> None:
    """Item 14: each choice of the Trumps option shows its whole text at 320 and 390 px (a closed
    select showed "… the dealer's last card, entere")."""
    for width in (320, 390):
        context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 700}})
        page = context.new_page()
        page.goto(live_server + "/new/whist")
        page.get_by_text("Options:").click()
        trumps = page.get_by_role("group", name="Trumps", exact=True)
        expect(trumps.get_by_role("radio", name=TRUMPS_CHOICES[0])).to_be_checked()
        for words in TRUMPS_CHOICES:
            label = trumps.locator("label", has_text=words)
            expect(label).to_have_text(words)
            label.scroll_into_view_if_needed()
            box = label.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (width, words, box)
            assert label.evaluate("e => e.scrollWidth <= e.clientWidth"), (width, words)  # nothing cut or hidden
        trumps.get_by_role("radio", name=TRUMPS_CHOICES[1]).check()
        page.get_by_role("button", name="Start the game").click()
        expect(page.locator("#hand-panel h2")).to_have_text("Hand 1")
        expect(page.locator("#hand-panel")).to_contain_text("Trump ♥ Hearts")
        context.close()


def test_saving_a_whist_hand_with_nothing_chosen_says_every_missing_choice_beside_it(
    live_server: str, browser: Browser
) -> None:
    """Item 15: both missing choices at once, each under its own question, the trump in words."""
    missing = {
        "en-GB": (
            "Choose the trump turned up by Us 1, the dealer: hearts, diamonds, clubs or spades",
            "Choose the tricks Us took",
            "Save hand 1",
        ),
        "fr-FR": (
            "Choisissez l’atout retourné par Nous 1, le donneur\u00a0: cœur, carreau, trèfle ou pique",
            "Choisissez le nombre de plis de Nous",
            "Enregistrer la donne 1",
        ),
    }
    for locale, (trump, tricks, save) in missing.items():
        context = browser.new_context(**PHONE, locale=locale)
        page = context.new_page()
        page.goto(live_server + "/new/whist")
        page.locator("#setup-form button[value=start]").click()
        page.get_by_role("button", name=save, exact=True).click()
        form = page.locator("#hand-panel form.whist-form")
        expect(form.locator(".field-error")).to_have_count(2)
        expect(form.locator("#err-trump")).to_have_text(trump)
        expect(form.locator("#err-tricks")).to_have_text(tricks)
        # each right under its own question: the trump's before the tricks' chips, the tricks' after them
        order = form.evaluate(
            "f => Array.from(f.querySelectorAll('fieldset, .field-error')).map(e => e.id || e.querySelector('input').name)"
        )
        assert order == ["trump", "err-trump", "tricks", "err-tricks"], order
        context.close()


def test_deleting_a_game_says_so_on_the_home_page_once(live_server: str, browser: Browser) -> None:
    """Item 16: after "Yes, delete the game" the home page says which game went (it landed on
    `?deleted=1` and said nothing), and a refresh does not say it again."""
    for locale, said in {
        "en-GB": "The game “Sunday at Gran's” with Us, Them is deleted.",
        "es-ES": "La partida «Sunday at Gran's» con Nosotros, Ellos está borrada.",
    }.items():
        context = browser.new_context(**PHONE, locale=locale)
        page = context.new_page()
        page.goto(live_server + "/new/whist")
        page.locator("#title").fill("Sunday at Gran's")
        page.locator("#setup-form button[value=start]").click()
        expect(page.locator("#hand-panel h2")).to_be_visible()
        page.locator("a[href$='/delete']").click()
        page.locator("form.actions button.danger").click()
        notice = page.get_by_role("status")
        expect(notice).to_have_text(said)
        assert re.fullmatch(re.escape(live_server) + "/?", page.url), page.url
        page.reload()
        expect(page.locator("main h1").first).to_be_visible()
        expect(page.get_by_role("status")).to_have_count(0)
        context.close()


def test_a_team_games_players_are_named_with_their_side(live_server: str, browser: Browser) -> None:
    """Item 6: the four names typed at the start show with their side, on the game page, the printed
    sheet and the result card ("★ Them" said nobody); a side whose players were not typed stays "Us"."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_server + "/new/whist")
    for field, name in (("#name-0", "Ann"), ("#name-2", "Cat"), ("#name-1", "Bob"), ("#name-3", "Dan")):
        page.locator(field).fill(name)
    page.get_by_text("Options:").click()
    page.get_by_label("Play a rubber").uncheck()  # one game: hand 1 (Them 13 tricks, 7 odd) ends it
    page.locator("#setup-form button[value=start]").click()
    expect(page.locator(".game-head .muted")).to_have_text("Us (Ann & Cat), Them (Bob & Dan)")
    chip(page, "Trump turned up", "♠ Spades")
    chip(page, "Tricks taken by Us", "0")
    page.get_by_role("button", name="Save hand 1", exact=True).click()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()

    page.emulate_media(media="print")
    expect(page.locator(".sheet-table thead th")).to_have_text(["#", "UsAnn & Cat", "ThemBob & Dan"])
    expect(page.locator(".sheet-table thead th small.pair")).to_have_text(["Ann & Cat", "Bob & Dan"])
    page.emulate_media(media="screen")

    card = page.locator(".result-card a", has_text="SVG").get_attribute("href")
    svg = context.new_page()
    svg.goto(live_server + str(card))
    texts = svg.locator("svg text").all_text_contents()
    assert "★ Them (Bob & Dan)" in texts and "Us (Ann & Cat)" in texts, texts
    assert "Places: 1 Them (Bob & Dan) 1, 2 Us (Ann & Cat) 0" in (svg.locator("svg").get_attribute("aria-label") or "")

    # no names typed for Them: they stay Them
    page.goto(live_server + "/new/whist")
    page.locator("#name-0").fill("Ann")
    page.locator("#name-2").fill("Cat")
    page.locator("#setup-form button[value=start]").click()
    expect(page.locator(".game-head .muted")).to_have_text("Us (Ann & Cat), Them")
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 1")
    context.close()
