"""Issue 14, "Trust at the table": a phone that cannot scan types its way in, and a director sends
the control room to another device of theirs.

- The QR cards print a short link to type under each QR code (`/t/<code>`, `/team/<code>`): at least
  40 random bits, no confusable characters, any case; it goes on to the full secret link; a wrong
  code is a plain 404 that tells nothing; a table's new QR code retires its short link too.
- The director's link to self: a QR code and a short link in the control room, with a warning; the
  PIN still applies.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from sqlalchemy import text as sql

from scorepad.events import core, military
from scorepad.extensions import db
from scorepad.models import CARD_CODE_LENGTH, DIRECTOR_CODE_LENGTH, SHORT_ALPHABET, Event, EventEntrant, EventTable
from tests.conftest import config_for, release
from tests.web.test_events import create, table_tokens, text
from tests.web.test_tournament_registration import create as create_tournament

CONFUSABLE = set("0o1liI")
TABLE_LINK = re.compile(r'<span class="qr-url">(https?://[^<]+)<wbr>(/t/[a-z0-9]+)</span>')
TEAM_LINK = re.compile(r'<span class="qr-url">(https?://[^<]+)<wbr>(/team/[a-z0-9]+)</span>')
DIRECTOR_SHORT = re.compile(r'class="short-link" href="https?://[^/"]+(/d/[a-z0-9]+)"')


def qr_sheet(client: FlaskClient, token: str) -> str:
    response = client.get(f"/d/{token}/qr", follow_redirects=True)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def main_of(response: object) -> str:
    """What the page says (its <main>: the rest carries the session's CSRF token)."""
    found = re.search(r"<main.*?</main>", text(response), re.S)
    assert found
    return found.group(0)


def bits(length: int) -> float:
    return length * math.log2(len(SHORT_ALPHABET))


def event_row(app: Flask, token: str) -> Event:
    with app.app_context():
        event = db.session.scalars(db.select(Event).where(Event.director_token == token)).one()
        db.session.expunge_all()
        return event


# --------------------------------------------------------------------------- the director's link to self


def test_the_control_room_offers_its_own_link_with_a_warning(app: Flask, client: FlaskClient) -> None:
    token = create(client)
    room = client.get(f"/d/{token}").get_data(as_text=True)
    section = re.search(r'<section aria-labelledby="to-self-title".*?</section>', room, re.S)
    assert section
    words = text_of(section.group(0))
    assert "Open this control room on another device" in words
    assert "Whoever has this link can run the event" in words
    assert "There is no PIN yet: the link alone opens the event." in words
    assert re.search(rf'<svg role="img" aria-label="QR code for https?://[^"]+/d/{re.escape(token)}"', section.group(0))
    short = DIRECTOR_SHORT.search(section.group(0))
    assert short, section.group(0)[-600:]
    code = short.group(1).removeprefix("/d/")
    assert len(code) == DIRECTOR_CODE_LENGTH and set(code) <= set(SHORT_ALPHABET) and not set(code) & CONFUSABLE
    assert bits(len(code)) >= 40
    assert code == event_row(app, token).director_code

    # typed on another device, in capitals, even with a hyphen: on to the full link
    for typed in (code, code.upper(), f"{code[:6]}-{code[6:]}"):
        response = app.test_client().get(f"/d/{typed}")
        assert response.status_code == 302 and response.headers["Location"] == f"/d/{token}"
        assert response.headers["Cache-Control"] == "no-store"


def text_of(markup: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", markup))


def test_the_directors_short_link_still_asks_the_pin(app: Flask, client: FlaskClient) -> None:
    token = create(client, pin="2468")
    room = client.get(f"/d/{token}").get_data(as_text=True)
    assert "The PIN is still asked on the other device." in text_of(room)
    short = DIRECTOR_SHORT.search(room)
    assert short
    phone = app.test_client()
    response = phone.get(short.group(1), follow_redirects=True)
    assert response.status_code == 403 and "PIN" in text(response)
    assert "Whoever has this link" not in text(response) and "Audit trail" not in text(response)  # not the room


def test_a_wrong_directors_short_link_is_the_wrong_links_404(app: Flask, client: FlaskClient) -> None:
    token = create(client)
    code = event_row(app, token).director_code
    assert code and client.get(f"/d/{code}").status_code == 302
    unknown = client.get("/d/no-such-event")
    for wrong in (one_off(code), code[:-1], code + "2", "2" * DIRECTOR_CODE_LENGTH):
        response = client.get(f"/d/{wrong}")
        assert response.status_code == unknown.status_code == 404
        assert "There is no event at this link. Its director may have deleted it" in text(response)
        assert main_of(response) == main_of(unknown)  # nothing tells a near miss from a wild guess


def one_off(code: str) -> str:
    """`code` with its last character changed for another of the alphabet."""
    return code[:-1] + ("2" if code[-1] != "2" else "3")


def test_a_short_link_opens_only_the_control_room_page(app: Flask, client: FlaskClient) -> None:
    """The short link is for typing into a browser: it is not a second director's token for actions."""
    token = create(client)
    code = event_row(app, token).director_code
    assert client.post(f"/d/{code}/pin", data={"pin": "1234"}).status_code == 404
    assert client.get(f"/d/{code}/qr").status_code == 404
    assert event_row(app, token).director_pin is None


# --------------------------------------------------------------------------- short links on the QR cards


def test_each_table_card_prints_a_short_link_that_goes_to_its_table(app: Flask, client: FlaskClient) -> None:
    token = create(client)
    sheet = qr_sheet(client, token)
    links = TABLE_LINK.findall(sheet)
    assert len(links) == 4
    assert "A phone that cannot scan can type the short link printed under the code." in sheet
    full = table_tokens(app, token)
    for (origin, path), table_token in zip(links, full):
        code = path.removeprefix("/t/")
        assert len(code) == CARD_CODE_LENGTH and bits(len(code)) >= 40
        assert set(code) <= set(SHORT_ALPHABET) and not set(code) & CONFUSABLE
        assert re.fullmatch(r"https?://[^/]+", origin)  # the address another phone can reach
        phone = app.test_client()
        for typed in (code, code.upper(), f"{code[:5]}-{code[5:]}"):
            response = phone.get(f"/t/{typed}")
            assert response.status_code == 302 and response.headers["Location"] == f"/t/{table_token}"
            assert response.headers["Cache-Control"] == "no-store"
        page = phone.get(f"/t/{code}", follow_redirects=True)
        assert page.status_code == 200 and "Table" in text(page)


def test_a_teams_card_prints_a_short_link_to_its_team_page(app: Flask, client: FlaskClient) -> None:
    token = create_tournament(client)
    for team, one, two in (("Aces", "Ann", "Bob"), ("Kings", "Cat", "Dan")):
        assert (
            client.post(f"/d/{token}/register", data={"team": team, "player1": one, "player2": two}).status_code == 200
        )
    assert client.post(f"/d/{token}/start", data={"rounds": "1"}).status_code == 200
    sheet = qr_sheet(client, token)
    assert len(TABLE_LINK.findall(sheet)) == 1
    teams = TEAM_LINK.findall(sheet)
    assert len(teams) == 2
    with app.app_context():
        entrants = {e.short_code: e.token for e in db.session.scalars(db.select(EventEntrant))}
    for _, path in teams:
        code = path.removeprefix("/team/")
        assert len(code) == CARD_CODE_LENGTH and code in entrants
        response = app.test_client().get(f"/team/{code.upper()}")
        assert response.status_code == 302 and response.headers["Location"] == f"/team/{entrants[code]}"
    wrong = app.test_client().get("/team/" + "2" * CARD_CODE_LENGTH)
    assert wrong.status_code == 404 and "This team link is not valid." in text(wrong)


@pytest.mark.parametrize("path", ["/events/new/whist-drive", "/events/new/club"])
def test_the_other_formats_table_cards_print_short_links_too(app: Flask, client: FlaskClient, path: str) -> None:
    form = (
        {
            "name": "Drive",
            "players": "\n".join("ABCDEFGH"),
            "deals": "6",
            "per_change": "1",
            "scoring": "odd",
            "movement": "progressive",
            "top": "stay",
        }
        if "drive" in path
        else {"name": "Club", "variant": "whist", "tables": "2"}
    )
    response = client.post(path, data=form)
    assert response.status_code == 302
    token = response.headers["Location"].removeprefix("/d/")
    links = TABLE_LINK.findall(qr_sheet(client, token))
    assert len(links) == 2
    for (_, short), full in zip(links, table_tokens(app, token)):
        assert client.get(short).headers["Location"] == f"/t/{full}"


def test_a_new_qr_code_retires_the_tables_short_link(app: Flask, client: FlaskClient) -> None:
    token = create(client)
    (_, old), *_ = TABLE_LINK.findall(qr_sheet(client, token))
    assert client.post(f"/d/{token}/tables/1/token").status_code == 302
    assert client.get(old).status_code == 404
    (_, new), *_ = TABLE_LINK.findall(qr_sheet(client, token))
    assert new != old and client.get(new).headers["Location"] == f"/t/{table_tokens(app, token)[0]}"


@pytest.mark.parametrize(
    "wrong",
    [
        one_off,  # one character off a real code
        lambda code: code[:-1],
        lambda code: code + "2",  # one short, one long
        lambda code: code[:5] + "o0l1i",  # characters never used
        lambda code: code[:8],  # a game's length
        lambda code: code * 500,  # far too long
        lambda code: "2" * CARD_CODE_LENGTH,  # a wild guess
    ],
)
def test_a_wrong_table_code_is_the_same_plain_404(client: FlaskClient, wrong: Callable[[str], str]) -> None:
    token = create(client)
    (_, path), *_ = TABLE_LINK.findall(qr_sheet(client, token))
    assert client.get(path).status_code == 302  # the real code works
    response = client.get(f"/t/{wrong(path.removeprefix('/t/'))}")
    assert response.status_code == 404
    assert response.headers["Cache-Control"] == "no-store"
    assert "This table link is not valid any more" in text(response)
    assert main_of(response) == main_of(client.get("/t/no-such-table"))  # the same page, whatever was typed


def test_nothing_is_looked_up_for_what_cannot_be_a_code() -> None:
    """Limits before the database: a string of the wrong length or letters is not a code at all."""
    assert core.typed_code("K7M2-X9QP-AB", CARD_CODE_LENGTH) == "k7m2x9qpab"
    for raw in ("", "k7m2x9qpa", "k7m2x9qpabc", "k7m2x9qpa0", "k7m2x9qpa\u0430", "-" * 10 + "k7m2x9qpab" * 9):
        assert core.typed_code(raw, CARD_CODE_LENGTH) is None, raw


def test_the_migration_gives_older_rows_their_short_links(tmp_path: Path) -> None:
    app = create_app_at(tmp_path)
    directory = app.extensions["migrate"].directory
    with app.app_context():
        upgrade(directory=directory, revision="0007")
        db.session.execute(
            sql(
                "INSERT INTO event (id, public_id, director_token, name, format, options, auto_advance, "
                "late_minutes, current_hand, revision, is_demo, created_at, updated_at, pin_tries) "
                "VALUES (1, 'pub', 'dir', 'Old day', 'military', '{}', 0, 12, 1, 0, 0, "
                "'2026-01-01 00:00:00', '2026-01-01 00:00:00', 0)"
            )
        )
        for n in (1, 2):
            db.session.execute(
                sql(
                    "INSERT INTO event_table (event_id, number, team, players, token, token_issued_at) "
                    f"VALUES (1, {n}, 'T{n}', '[]', 'tok{n}', '2026-01-01 00:00:00')"
                )
            )
        db.session.execute(
            sql(
                "INSERT INTO event_entrant (event_id, number, name, players, token, registered_at) "
                "VALUES (1, 1, 'Aces', '[]', 'ent1', '2026-01-01 00:00:00')"
            )
        )
        db.session.commit()
        upgrade(directory=directory)
        codes = [
            *db.session.execute(sql("SELECT director_code FROM event")).scalars(),
            *db.session.execute(sql("SELECT short_code FROM event_table")).scalars(),
            *db.session.execute(sql("SELECT short_code FROM event_entrant")).scalars(),
        ]
        db.session.remove()
    assert [len(c) for c in codes] == [DIRECTOR_CODE_LENGTH, CARD_CODE_LENGTH, CARD_CODE_LENGTH, CARD_CODE_LENGTH]
    assert len(set(codes)) == 4 and all(set(c) <= set(SHORT_ALPHABET) for c in codes)
    release(app)


def create_app_at(tmp_path: Path) -> Flask:
    from scorepad import create_app

    return create_app(config_for(f"sqlite:///{tmp_path / 'old.sqlite3'}"))


def test_new_rows_get_their_codes_from_the_models(app: Flask) -> None:
    with app.app_context():
        event = military.create_event("Day", ["Aces", "Kings"], [2])
        assert event.director_code and len(event.director_code) == DIRECTOR_CODE_LENGTH
        assert all(t.short_code and len(t.short_code) == CARD_CODE_LENGTH for t in event.tables)
        assert len({t.short_code for t in db.session.scalars(db.select(EventTable))}) == 2


def test_a_restored_event_gets_short_links_of_its_own(app: Flask, client: FlaskClient) -> None:
    """A backup holds no secret link, short ones included: the restored event's cards and director's
    short link are new, and the old ones still open the old event only."""
    from tests.web.test_backup import download, upload

    token = create(client)
    old_cards = [path for _, path in TABLE_LINK.findall(qr_sheet(client, token))]
    old_director = event_row(app, token).director_code
    assert old_director
    data = download(client, token)
    assert old_director.encode() not in data and not any(p.removeprefix("/t/").encode() in data for p in old_cards)
    response = upload(client, data)
    assert response.status_code == 303
    restored = response.headers["Location"].removeprefix("/d/")
    new_cards = [path for _, path in TABLE_LINK.findall(qr_sheet(client, restored))]
    assert len(new_cards) == 4 and not set(new_cards) & set(old_cards)
    assert event_row(app, restored).director_code not in (None, old_director)
    for path, table in zip(old_cards, table_tokens(app, token)):
        assert client.get(path).headers["Location"] == f"/t/{table}"
