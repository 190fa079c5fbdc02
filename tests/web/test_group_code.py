"""Issue 31, item 17: a group was shared by its 32-character link only; it has a short code like a
game's, shown under its QR code, and "Watch a game" on the home page opens the group with it."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorepad.games import groups
from tests.web.test_groups import make_group, text


def test_a_groups_code_is_shown_and_typed_under_watch_a_game_opens_it(app: Flask, client: FlaskClient) -> None:
    token = make_group(client, "The family")
    page = text(client.get(f"/group/{token}"))
    shown = re.search(
        r'Or type its code on Scorepad\'s home page, under "Watch a game":\s*'
        r'<strong class="typed-code">(\w{5}) (\w{5})</strong>',
        page,
    )
    assert shown, "the group's page shows its code"
    code = f"{shown.group(1)}{shown.group(2)}"
    with app.app_context():
        group = groups.by_token(token)
        assert group is not None and group.short_code == code.lower()
    for typed in (f"{shown.group(1)}-{shown.group(2)}", code.lower(), f" {shown.group(1)} {shown.group(2)} "):
        response = client.get("/watch", query_string={"code": typed})
        assert response.status_code == 303 and response.headers["Location"].endswith(f"/group/{token}"), typed
    other = make_group(client, "The club")  # each group its own code
    with app.app_context():
        assert groups.by_token(other).short_code not in (None, code.lower())  # type: ignore[union-attr]
    assert client.get("/watch", query_string={"code": code[:-1] + ("2" if code[-1] != "2" else "3")}).status_code == 404
