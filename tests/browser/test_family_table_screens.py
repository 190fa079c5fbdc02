"""Issue 31, the family's table at the narrowest phones: the hand in hand comes first at 320 px with
Large text, and a wide sheet keeps its first column and its header in place."""

from __future__ import annotations

import json
from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, Page

from scorepad.games import records
from tests.browser.conftest import LAN, NARROW_PHONE
from tests.conftest import EXAMPLES

HEIGHT = NARROW_PHONE["viewport"]["height"]


def imported(name: str, hands: int) -> str:
    """A game from docs/examples, its first `hands` hands in: its scorer's token."""
    record = json.loads((EXAMPLES / f"{name}.json").read_text())
    return records.import_record({**record, "hands": record["hands"][:hands]}).scorer_token


def lan_page(lan_browser: Browser, live_server: str, large: bool) -> tuple[Page, str]:
    """A 320 px phone reaching the app by its LAN name, with Large text on or off."""
    base = live_server.replace("127.0.0.1", LAN)
    context = lan_browser.new_context(**NARROW_PHONE)
    if large:
        context.add_cookies([{"name": "text_size", "value": "large", "url": base}])
    return context.new_page(), base


def test_the_hands_controls_are_on_the_first_screen_at_320_px_with_large_text(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
    """Item 8: the title, the players, Share and Print came first; the hand's first control was below
    the first screen of a 320 px phone with Large text, so the scorer scrolled on every page load."""
    with app.app_context():
        tokens = {
            "whist": imported("whist-rubber-default", 2),
            "nomination": imported("nomination-family-four", 3),
            "australian": imported("australian-family-four", 3),
            "australian-7": imported("australian-seven-players", 3),
            "bid-whist": imported("bid_whist-home-to-seven", 1),
        }
    page, base = lan_page(lan_browser, live_server, large=True)
    for name, token in tokens.items():
        page.goto(f"{base}/g/{token}")
        assert "large-text" in (page.locator("html").get_attribute("class") or "")
        page.screenshot(path=str(screenshot_dir / f"family-first-screen-{name}.png"))
        first = (
            page.locator("#hand-panel")
            .locator("button, label.chip, select, input[type=number]")
            .filter(visible=True)
            .first
        )
        box = first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= HEIGHT, (name, box)
        # Share and Print are still on the page, and still a finger's height
        for control in (
            page.get_by_role("link", name="Share live view"),
            page.get_by_role("button", name="Print the score sheet"),
        ):
            seen = control.bounding_box()
            assert seen is not None and seen["height"] >= 44 and seen["x"] + seen["width"] <= 320, (name, seen)
    page.context.close()


def test_a_seven_player_sheet_scrolls_in_its_box_with_its_first_column_and_header_in_place(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
    """Item 9: Australian with 7 players at 320 px: the whole sheet slid sideways, the hands' column
    and the players' names with it, and each row was about 150 px tall. The sheet now scrolls in its
    own box, both ways, with the hands' column and the header kept in place (position: sticky)."""
    with app.app_context():
        token = imported("australian-seven-players", 12)
    for large in (False, True):
        page, base = lan_page(lan_browser, live_server, large=large)
        page.goto(f"{base}/g/{token}")
        box = page.locator(".table-scroll")
        box.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_dir / f"family-seven-sheet-{'large' if large else 'normal'}.png"))
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") == 0
        wide = box.evaluate("(el) => [el.scrollWidth - el.clientWidth, el.scrollHeight - el.clientHeight]")
        assert wide[0] > 0 and wide[1] > 0, f"the sheet does not scroll inside its own box: {wide}"
        outer = box.bounding_box()
        assert outer is not None and outer["height"] <= HEIGHT, outer  # the box fits the screen
        rows = page.locator("#sheet-rows > tr[id]").evaluate_all(
            "(rows) => rows.map(r => r.getBoundingClientRect().height)"
        )
        # a hand two lines high (its number and round, then Edit), three for a long round ("7 cards NT misère")
        assert sorted(rows)[len(rows) // 2] <= 90 and max(rows) <= 120, f"rows of {rows} px"
        hand = page.locator("#hand-1 > th")
        name = page.locator(".sheet-table thead th").nth(1)
        before = hand.bounding_box(), name.bounding_box()
        box.evaluate("(el) => { el.scrollLeft = el.scrollWidth; el.scrollTop = el.scrollHeight; }")
        page.wait_for_timeout(100)
        page.screenshot(path=str(screenshot_dir / f"family-seven-sheet-scrolled-{'large' if large else 'normal'}.png"))
        after = hand.bounding_box(), name.bounding_box()
        assert before[0] is not None and after[0] is not None and before[1] is not None and after[1] is not None
        assert after[0]["x"] == before[0]["x"], "the hands' column slid away with the sheet"
        assert after[1]["y"] == before[1]["y"], "the header slid away with the sheet"
        page.context.close()


def luminance(rgb: str) -> float:
    """The relative luminance (WCAG) of a computed colour, "rgb(r, g, b)"."""
    channels = [int(v) / 255 for v in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_charts_labels_follow_large_text_and_its_lines_stand_out_in_dark_mode(
    app: Flask, live_server: str, lan_browser: Browser, screenshot_dir: Path
) -> None:
    """Item 12: the chart's axis labels stayed 11 of the chart's units (9 px on a 320 px phone) with
    Large text, and its lines were faint on the dark page (the first, blue, 3.7:1; 2 px wide)."""
    with app.app_context():
        token = imported("australian-seven-players", 8)  # seven lines: every colour of the palette
    drawn = {}
    for large in (False, True):
        page, base = lan_page(lan_browser, live_server, large=large)
        page.goto(f"{base}/g/{token}")
        scale = page.locator("svg.chart").evaluate(
            "(svg) => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width"
        )
        sizes = page.locator("svg.chart .tick").evaluate_all(
            "(ts) => ts.map(t => parseFloat(getComputedStyle(t).fontSize))"
        )
        drawn[large] = min(sizes) * scale  # the labels' size on the screen, in px
        page.context.close()
    assert drawn[True] >= 1.2 * drawn[False] and drawn[True] >= 12, drawn

    base = live_server.replace("127.0.0.1", LAN)
    context = lan_browser.new_context(**NARROW_PHONE, color_scheme="dark")
    page = context.new_page()
    page.goto(f"{base}/g/{token}")
    chart = page.locator("#chart")
    chart.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / "family-chart-dark.png"))
    ground = page.evaluate("getComputedStyle(document.body).backgroundColor")
    lines = page.locator("svg.chart polyline").evaluate_all(
        "(ls) => ls.map(l => [getComputedStyle(l).stroke, parseFloat(getComputedStyle(l).strokeWidth)"
        " * l.ownerSVGElement.getBoundingClientRect().width / l.ownerSVGElement.viewBox.baseVal.width])"
    )
    assert len(lines) == 7
    for stroke, width in lines:
        assert contrast(stroke, ground) >= 4.5, (stroke, ground, contrast(stroke, ground))
        assert width >= 2.4, f"a line {width:.2f} px wide"
    swatches = page.locator(".legend .swatch rect").evaluate_all("(rs) => rs.map(r => getComputedStyle(r).fill)")
    assert swatches == [stroke for stroke, _ in lines]  # each name's swatch the colour of its line
    context.close()
