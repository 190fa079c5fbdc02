"""Issue 17, item 5: a tap's answer carries only what the tap changed. Beyond the totals and sheet
(test_undo_and_tricks.py): the forms htmx swaps in carry no CSRF token of their own (the page's goes
in a header), and a tap that leaves the hand's facts as they were sends no facts (the page keeps its
own, hx-preserve), and no session cookie unless the session changed."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from scorepad import create_app
from tests.conftest import config_for, migrate, release
from tests.web.test_games import HX, post, start, state_of
from tests.web.test_undo_and_tricks import sheet_seen

KEPT_FACTS = '<ul class="facts" id="hand-facts" role="list" hx-preserve="true"></ul>'
CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')
META = re.compile(r'<meta name="csrf-token" content="([^"]+)"')


def facts(page: str) -> list[str]:
    return re.findall(r'<span class="k">([^<]+)</span> <span class="v">([^<]+)</span>', page)


def test_a_bid_on_a_current_page_sends_no_facts_and_a_trump_sends_them(client: FlaskClient) -> None:
    token = start(client)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert ("Trump", "turned up") in facts(page) and 'id="hand-facts"' in page  # the page has them to keep
    shows = {"sheet": sheet_seen(client, token)}
    status, page = post(client, token, action="trump", trump="S", state=state_of(page), **shows)
    assert status == 200 and KEPT_FACTS not in page and ("Trump", "♠ Spades") in facts(page)  # they changed
    status, page = post(client, token, action="bid", bid="1", state=state_of(page), **shows)
    assert status == 200 and KEPT_FACTS in page and facts(page) == []
    assert "Cat</strong>’s bid" in page  # the next bid is asked for all the same


def test_a_page_not_known_to_show_the_hand_gets_its_facts(client: FlaskClient) -> None:
    token = start(client)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    shows = {"sheet": sheet_seen(client, token)}
    _, page = post(client, token, action="trump", trump="S", state=state_of(page), **shows)
    state = state_of(page)
    status, answer = post(client, token, action="bid", bid="1", **shows)  # no state: which page sent it?
    assert status == 200 and KEPT_FACTS not in answer and ("Dealer", "Ann") in facts(answer)
    status, answer = post(client, token, action="bid", bid="1", state=state, **shows)  # a stale page
    assert status == 409 and KEPT_FACTS not in answer and ("Dealer", "Ann") in facts(answer)
    status, answer = post(client, token, action="bid", bid="1", state=state_of(answer))  # the sheet unknown
    assert status == 200 and KEPT_FACTS not in answer and facts(answer)
    status, answer = post(client, token, action="bid", bid="9", state=state_of(answer), **shows)  # refused
    assert status == 422 and KEPT_FACTS not in answer and facts(answer)


def test_swapped_in_forms_carry_no_token_and_the_page_header_is_enough(tmp_path: Path) -> None:
    """A whole page keeps the token in its forms (a phone without scripts posts them as they are); an
    htmx answer's forms have none, and the header js/app.js sends from the page is what is checked."""
    app: Flask = create_app(config_for(f"sqlite:///{tmp_path / 'csrf.sqlite3'}", WTF_CSRF_ENABLED=True))
    migrate(app)
    try:
        client = app.test_client()
        found = CSRF_FIELD.search(client.get("/new/nomination").get_data(as_text=True))
        assert found, "the set-up form carries its token"
        form = {
            "name.0": "Ann",
            "name.1": "Bob",
            "name.2": "Cat",
            "name.3": "Dan",
            "first_dealer": "0",
            "opt.trumps": "entered",
            "action": "start",
            "csrf_token": found.group(1),
        }
        token = client.post("/new/nomination", data=form).headers["Location"].rsplit("/", 1)[1]
        page = client.get(f"/g/{token}").get_data(as_text=True)
        assert len(CSRF_FIELD.findall(page)) >= 1  # the trump form, for a phone without scripts
        header = {**HX, "X-CSRFToken": META.search(page).group(1)}  # type: ignore[union-attr]
        answer = client.post(
            f"/g/{token}/entry", data={"action": "trump", "trump": "S", "state": state_of(page)}, headers=header
        )
        text = answer.get_data(as_text=True)
        assert answer.status_code == 200 and "Bob</strong>’s bid" in text and "csrf_token" not in text
        refused = client.post(
            f"/g/{token}/entry", data={"action": "bid", "bid": "1", "state": state_of(text)}, headers=HX
        )  # neither header nor field
        assert refused.status_code == 400
        answer = client.post(
            f"/g/{token}/entry", data={"action": "bid", "bid": "1", "state": state_of(text)}, headers=header
        )
        assert answer.status_code == 200 and "Cat</strong>’s bid" in answer.get_data(as_text=True)
    finally:
        release(app)


def test_a_tap_sends_no_cookie_and_opening_the_game_renews_it(client: FlaskClient) -> None:
    token = start(client)
    opened = client.get(f"/g/{token}")  # remembered on this phone's home page: the session changes
    assert "session=" in opened.headers.get("Set-Cookie", "") and "Expires=" in opened.headers["Set-Cookie"]
    status, page = post(client, token, action="trump", trump="S", state=state_of(opened.get_data(as_text=True)))
    tap = client.post(f"/g/{token}/entry", data={"action": "bid", "bid": "1", "state": state_of(page)}, headers=HX)
    assert tap.status_code == 200 and "Set-Cookie" not in tap.headers
    assert "Cat</strong>’s bid" in client.get(f"/g/{token}").get_data(as_text=True)  # the session still holds


def test_the_chart_after_a_save_is_drawn_in_whole_units(client: FlaskClient) -> None:
    token = start(client)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    shows = {"sheet": sheet_seen(client, token)}
    _, page = post(client, token, action="trump", trump="S", state=state_of(page), **shows)
    for bid in ("1", "1", "0", "1"):
        _, page = post(client, token, action="bid", bid=bid, state=state_of(page), **shows)
    status, page = post(
        client,
        token,
        action="result",
        number="1",
        **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
        **shows,
    )
    lines = re.findall(r'<polyline points="([^"]+)"', page)
    assert status == 200 and len(lines) == 4
    assert all(re.fullmatch(r"\d+,\d+( \d+,\d+)*", points) for points in lines), lines
