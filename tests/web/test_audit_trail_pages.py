"""Issue 32 item 3: the control room's "What happened" showed the latest 12 of 85 entries with no
way to see the rest. The room links to the whole trail: every entry, newest first, a page of 50
at a time ("Older entries", "Newer entries"), or one table's entries alone."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import core
from tests.web.test_events import text
from tests.web.test_tournament_director import started


def entries(page: str) -> list[str]:
    """The audit list's lines as words, in the order shown."""
    found = re.search(r'<ol class="audit[^"]*"[^>]*>(.*?)</ol>', page, re.S)
    assert found, page
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", li)).strip() for li in re.findall(r"<li>(.*?)</li>", found[1], re.S)
    ]


def many_entries(client: FlaskClient, app: Flask) -> tuple[str, int]:
    """A tournament of four teams (two tables) started, then table 1's and table 2's QR codes
    replaced 30 times each: more than one page of entries. Returns the token and the count."""
    token = started(client, app, 4, rounds="1")
    for _ in range(30):
        for table in (1, 2):
            assert client.post(f"/d/{token}/tables/{table}/token").status_code == 302
    with app.app_context():
        event = core.by_director_token(token)
        assert event is not None
        return token, len(event.audit)


def test_the_whole_trail_is_a_page_away_from_the_room_and_paged(client: FlaskClient, app: Flask) -> None:
    token, count = many_entries(client, app)
    assert count > core.AUDIT_PAGE + 12
    room = text(client.get(f"/d/{token}"))
    assert len(entries(room)) == 12
    more = re.search(rf'<a href="(/d/{token}/audit)">The latest 12 of {count} entries: see them all</a>', room)
    assert more, room

    first = client.get(more[1])
    assert first.status_code == 200
    page = text(first)
    shown = entries(page)
    assert len(shown) == core.AUDIT_PAGE and shown[0].endswith("table 2's QR code replaced")
    assert f"Every entry: {count}" in page and "Page 1 of 2" in page and "Newer entries" not in page
    older = re.search(r'<a href="([^"]+)" rel="next">Older entries</a>', page)
    assert older, page
    last = text(client.get(older[1].replace("&amp;", "&")))
    rest = entries(last)
    assert len(rest) == count - core.AUDIT_PAGE and "Page 2 of 2" in last and "Older entries" not in last
    assert "director: registered" in rest[-1] and "T1" in rest[-1]  # the very first entry
    assert f'start="{count - core.AUDIT_PAGE}"' in last  # numbered as in the room: the oldest is 1


def test_the_trail_filtered_by_table_shows_that_table_s_entries_alone(client: FlaskClient, app: Flask) -> None:
    token, _count = many_entries(client, app)
    page = text(client.get(f"/d/{token}/audit?table=2"))
    shown = entries(page)
    assert len(shown) == 30 and all("table 2's QR code replaced" in line for line in shown)
    assert "Table 2: 30 entries" in page and '<option value="2" selected>' in page
    assert "Older entries" not in page


def test_a_page_or_table_the_trail_has_not_is_a_404_with_words(client: FlaskClient, app: Flask) -> None:
    token, _count = many_entries(client, app)
    for query in ("page=3", "page=0", "page=x", "table=9", "table=two", "page=-1"):
        response = client.get(f"/d/{token}/audit?{query}")
        assert response.status_code == 404, query
        assert "The audit trail has no such page" in text(response)
    assert client.get("/d/not-a-token/audit").status_code == 404
