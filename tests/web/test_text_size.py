"""Issue 15: large text for seniors' clubs. A toggle in every phone page's header (a form that works
without script) sets a cookie, read by the server to put `large-text` on <html> from the first
paint; it goes back only to a page of the app; the projector is sized by its screen and has none."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import military

TOGGLE = re.compile(r'<form class="text-size" method="post" action="/settings/text-size">(.*?)</form>', re.S)


def toggle(page: str) -> str:
    found = TOGGLE.search(page)
    assert found, page[:2000]
    return found.group(1)


@pytest.mark.parametrize("path", ["/", "/new", "/new/nomination", "/variants/whist", "/events/restore", "/g/no-such"])
def test_every_phone_page_has_the_toggle(client: FlaskClient, path: str) -> None:
    page = client.get(path).get_data(as_text=True)
    form = toggle(page)
    assert 'name="csrf_token"' in form
    assert (
        '<button type="submit" class="text-size-toggle" aria-pressed="false" data-text-size>Large text</button>' in form
    )
    assert '<html lang="en">' in page


def test_the_toggle_sets_a_cookie_and_goes_back(client: FlaskClient) -> None:
    page = client.get("/new/nomination?x=1").get_data(as_text=True)
    assert 'name="next" value="/new/nomination?x=1"' in toggle(page)
    response = client.post("/settings/text-size", data={"large": "1", "next": "/new/nomination?x=1"})
    assert response.status_code == 303 and response.headers["Location"] == "/new/nomination?x=1"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("text_size=large;") and "Path=/" in cookie and "SameSite=Lax" in cookie
    assert "HttpOnly" not in cookie  # app.js writes the same cookie
    page = client.get("/new/nomination").get_data(as_text=True)
    assert page.startswith('<!doctype html>\n<html lang="en" class="large-text">')
    form = toggle(page)
    assert 'aria-pressed="true"' in form and 'name="large" value="0"' in form
    response = client.post("/settings/text-size", data={"large": "0", "next": "/"})
    assert response.status_code == 303 and "text_size=;" in response.headers["Set-Cookie"]
    assert 'class="large-text"' not in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/x",
        "/\\evil.example",
        "javascript:alert(1)",
        "",
        "/a b",
        "/x" + "y" * 3000,
        "/\x07",
    ],
)
def test_it_goes_back_only_to_a_page_of_the_app(client: FlaskClient, target: str) -> None:
    response = client.post("/settings/text-size", data={"large": "1", "next": target})
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_the_projector_has_no_toggle(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        public = military.create_event("Big screen", ["Aces", "Kings"], [30]).public_id
    client.set_cookie("text_size", "large")
    page = client.get(f"/b/{public}").get_data(as_text=True)
    assert 'class="text-size"' not in page


def test_what_is_drawn_outside_a_request_does_not_ask_for_the_cookie(app: Flask) -> None:
    """The live fragments are drawn in the background, with no request (a board's trailing push)."""
    from flask import render_template_string

    with app.app_context():
        assert render_template_string("{{ large_text }}") == "False"
