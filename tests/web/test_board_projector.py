"""The projector's page as served (issue 14): its own sized stylesheet and pager, a QR code of the
phones' standings instead of a printed address, and a bracket whose seeds and team numbers are apart.
The layout itself is measured in a real browser: tests/browser/test_projector.py."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import military
from scorepad.games.presenters import qr_svg
from tests.browser.test_projector import bid_whist


def test_the_projector_shows_a_qr_code_of_the_phone_standings(client: FlaskClient, app: Flask) -> None:
    with app.app_context():
        public = military.create_event("County finals", ["Aces", "Kings"], [12]).public_id
    page = client.get(f"/b/{public}").get_data(as_text=True)
    link = re.search(r'<figure class="board-qr">\s*<a href="([^"]+)">(<svg .*?</svg>)</a>', page, re.S)
    assert link is not None
    href, svg = link.groups()
    assert href.endswith(f"/b/{public}/standings")
    with app.test_request_context():
        assert svg == str(qr_svg(href))  # the code is the address it links to
    assert 'role="img" aria-label="QR code for' in svg
    words = re.sub(r"<[^>]*>", " ", page[page.index("<main") : page.index("</main>")])
    assert "http" not in words and "Scan for the standings on your phone" in " ".join(words.split())
    assert "css/projector.css" in page and "js/projector.js" in page
    phone = client.get(f"/b/{public}/standings").get_data(as_text=True)
    assert "projector.css" not in phone and "board-qr" not in phone


def test_the_bracket_keeps_the_seed_and_the_team_number_apart(client: FlaskClient, app: Flask) -> None:
    public = bid_whist(app, teams=16, played=0)
    for url in (f"/b/{public}", f"/b/{public}/standings"):
        page = client.get(url).get_data(as_text=True)
        sides = re.findall(r'<p class="side[^"]*">(.*?)</p>', page, re.S)
        assert len(sides) == 16 + 8 + 4 + 2 + 2  # every side of every match, the unknown ones too
        known = [s for s in sides if "team-no" in s]
        assert len(known) == 16
        for side in known:
            found = re.search(
                r'<span class="seed"><span class="seed-word">seed</span> (\d+)</span>\s*'
                r'<span class="team-no">No\. (\d+)</span></span>\s*<span class="name">([^<]+)</span>',
                side,
            )
            assert found is not None, side
            assert not re.search(r"\(\d+\)", found.group(3))  # the plain name: never "1 (3) Card Sharks"
        assert 'data-page="wide"' in page


def test_a_bracket_match_has_one_name_on_every_page(client: FlaskClient, app: Flask) -> None:
    """ "winner of Elite 8 · match 1" names the match the control room, the table and the bracket
    call "Elite 8 · match 1" (the bracket said "winner of Elite 8 9", its running number)."""
    from html import unescape

    from scorepad.extensions import db
    from scorepad.models import Event, EventMatch

    public = bid_whist(app, teams=16, played=0)
    with app.app_context():
        event = db.session.query(Event).filter_by(public_id=public).one()
        director = event.director_token
        first = db.session.query(EventMatch).filter_by(event_id=event.id, stage="bracket", number=1).one()
        sheet = first.game.scorer_token if first.game else ""
    for url in (f"/b/{public}", f"/b/{public}/standings"):  # the projector; the phones' page, which prints
        board = unescape(client.get(url).get_data(as_text=True))
        names = re.findall(r'<p class="match-name muted">([^<]+)</p>', board)
        assert names == [
            *(f"Sweet 16 · match {n}" for n in range(1, 9)),
            *(f"Elite 8 · match {n}" for n in range(1, 5)),
            "Final Four · match 1",
            "Final Four · match 2",
        ]  # the final and the match for third place are alone at their level: their level names them
        pointed = re.findall(r"(?:winner|loser) of ([^<]+)</span>", board)
        assert pointed == names[:8] + names[8:12] + names[12:] * 2  # Elite 8, Final Four, final, third place
    assert "Sweet 16 · match 1" in unescape(client.get(f"/g/{sheet}").get_data(as_text=True))
    room = unescape(client.get(f"/d/{director}").get_data(as_text=True))
    assert "Sweet 16 · match 1: " in room and "winner of Sweet 16 · match 1" in room
