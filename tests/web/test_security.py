"""Issue 16, items 4 and 5: every response carries the security headers (a Content-Security-Policy
with scripts and styles from the app only, no framing), the session cookie is HttpOnly and
SameSite=Lax (Secure only over HTTPS: phones use plain HTTP on a LAN), an unsafe request from
another origin is refused even with a valid form token, and an oversized request is a 413 that
stores nothing."""

from __future__ import annotations

import io
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.extensions import db
from scorepad.models import Game
from tests.web.test_games import PARTNERS


def games_count(app: Flask) -> int:
    with app.app_context():
        return db.session.query(Game).count()


def test_pages_carry_the_security_headers(client: FlaskClient) -> None:
    for path in ("/", "/new", "/events/new", "/offline", "/manifest.webmanifest", "/nope"):
        response = client.get(path)
        csp = response.headers.get("Content-Security-Policy", "")
        for directive in (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "object-src 'none'",
            "frame-ancestors 'none'",
            "form-action 'self'",
            "base-uri 'self'",
        ):
            assert directive in csp, (path, directive, csp)
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "same-origin"
        assert "Strict-Transport-Security" not in response.headers  # plain HTTP on a LAN must keep working
        assert "HX-Request" in response.headers.get("Vary", "")


def test_no_page_is_redirected_to_https(client: FlaskClient) -> None:
    assert client.get("/").status_code == 200


def session_cookie(response_headers: list[str]) -> str:
    return next(h for h in response_headers if h.startswith("session="))


def test_the_session_cookie_is_httponly_lax_and_secure_only_over_https(app: Flask) -> None:
    plain = app.test_client()
    response = plain.post("/new/whist", data=PARTNERS)  # starting a game remembers it in the session
    assert response.status_code == 303, response.get_data(as_text=True)
    cookie = session_cookie(response.headers.getlist("Set-Cookie"))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    secure = app.test_client()
    response = secure.post("/new/whist", data=PARTNERS, base_url="https://localhost")
    cookie = session_cookie(response.headers.getlist("Set-Cookie"))
    assert "Secure" in cookie and "HttpOnly" in cookie


def test_a_post_from_another_origin_is_refused_and_stores_nothing(client: FlaskClient, app: Flask) -> None:
    for headers in (
        {"Origin": "http://evil.example"},
        {"Origin": "http://localhost:9999"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "null"},
    ):
        response = client.post("/new/whist", data=PARTNERS, headers=headers)
        assert response.status_code == 403, headers
        assert "came from another site" in response.get_data(as_text=True)
    assert games_count(app) == 0


def test_a_post_from_this_origin_or_a_typed_address_is_taken(client: FlaskClient, app: Flask) -> None:
    for headers in ({"Origin": "http://localhost"}, {"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}, {}):
        assert client.post("/new/whist", data=PARTNERS, headers=headers).status_code == 303, headers
    assert games_count(app) == 4


def test_a_safe_request_from_another_site_is_served(client: FlaskClient) -> None:
    """A link from elsewhere (a QR code scanned in another app) opens the page."""
    assert client.get("/", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200


def test_an_oversized_request_is_a_413_with_a_message_and_stores_nothing(client: FlaskClient, app: Flask) -> None:
    limit = app.config["MAX_CONTENT_LENGTH"]
    assert limit == 64 * 1024
    response = client.post("/new/whist", data={**PARTNERS, "name.0": "x" * limit})
    assert response.status_code == 413
    assert "larger than any form of Scorepad sends (at most 64 KB)" in response.get_data(as_text=True)
    assert games_count(app) == 0


def chunked(client: FlaskClient, path: str, body: bytes) -> object:
    """A form sent without a length, as `Transfer-Encoding: chunked` reaches the app (the server
    dechunks it and says the input ends: `wsgi.input_terminated`)."""
    return client.post(
        path,
        input_stream=io.BytesIO(body),
        content_type="application/x-www-form-urlencoded",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )


@pytest.mark.parametrize("size_kb", [65, 980])
def test_a_form_sent_without_a_length_past_the_limit_is_refused_whole(
    client: FlaskClient, app: Flask, size_kb: int
) -> None:
    """Issue 33, item 5: Werkzeug read such a body up to the limit and parsed that much: the form's
    first 64 KB were acted on (a game started, its padding cut off). The same body with a
    Content-Length is a 413; so is this one now, and nothing is stored."""
    form = urlencode({**PARTNERS, "pad": ""}).encode()
    body = form + b"x" * (size_kb * 1024 - len(form))
    response = chunked(client, "/new/whist", body)
    assert response.status_code == 413  # type: ignore[attr-defined]
    assert "larger than any form of Scorepad sends (at most 64 KB)" in response.get_data(as_text=True)  # type: ignore[attr-defined]
    assert games_count(app) == 0
    response = chunked(client, "/new/whist", urlencode(PARTNERS).encode())  # under the limit: taken as sent
    assert response.status_code == 303 and games_count(app) == 1  # type: ignore[attr-defined]


def test_pages_of_secret_links_are_not_stored_by_the_browser(client: FlaskClient, app: Flask) -> None:
    """Issue 16, item 8: the director's, a table's, a scorer's and the QR sheet's pages are no-store."""
    from tests.web.test_format_routes import create_military

    token = create_military(client)
    with app.app_context():
        from scorepad.models import Event

        event = db.session.query(Event).filter_by(director_token=token).one()
        table, board = event.tables[0].token, event.public_id
    scorer = client.post("/new/whist", data=PARTNERS).headers["Location"]
    secret = [
        f"/d/{token}",
        f"/d/{token}/room",
        f"/t/{table}",
        scorer,
        client.get(f"/d/{token}/qr").headers["Location"],
    ]
    group = client.post("/groups/new", data={"name": "The Smiths"}).headers["Location"]  # issue 33, item 6
    assert group.startswith("/group/")
    secret += [group, f"{group}/event", f"{group}/versus"]
    for path in secret:
        response = client.get(path)
        assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store", path
    for path in (f"/b/{board}", f"/b/{board}/standings"):
        assert client.get(path).headers.get("Cache-Control") != "no-store", path
    # the home page: public on a browser with no links of its own; no-store once it lists this
    # browser's events and games, their secret links (issue 14, "Your events")
    assert app.test_client().get("/").headers.get("Cache-Control") != "no-store"
    assert client.get("/").headers["Cache-Control"] == "no-store"


def test_a_browser_unlocked_with_the_pin_can_sign_out(client: FlaskClient) -> None:
    """Issue 16, item 8: a director on a borrowed phone signs it out; the PIN is asked again."""
    response = client.post("/events/new", data={"name": "Locked day", "preset": "area", "tables": "4", "pin": "2468"})
    token = response.headers["Location"].removeprefix("/d/")
    page = client.get(f"/d/{token}")
    assert page.status_code == 200 and "Sign this browser out" in page.get_data(as_text=True)
    signed_out = client.post(f"/d/{token}/lock")
    assert signed_out.status_code == 303 and signed_out.headers["Location"] == f"/d/{token}"
    locked = client.get(f"/d/{token}")
    assert locked.status_code == 403 and "PIN" in locked.get_data(as_text=True)
    assert client.post(f"/d/{token}/unlock", data={"pin": "2468"}).status_code == 302
    assert client.get(f"/d/{token}").status_code == 200


def test_without_a_pin_there_is_nothing_to_sign_out_of(client: FlaskClient) -> None:
    from tests.web.test_format_routes import create_military

    assert "Sign this browser out" not in client.get(f"/d/{create_military(client)}").get_data(as_text=True)
