"""Behind a reverse proxy that terminates HTTPS (issue 13, item 5; docs/https.md): with
SCOREPAD_PROXY_HOPS set, the proxy's X-Forwarded-Proto, -Host and -For headers are believed, so
the links and QR codes other phones open say https://the.host/, the session cookie is Secure, HSTS
is sent and each phone is counted as itself; by default (a LAN over plain HTTP) the same headers,
which anyone can send, change nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad import create_app, live
from scorepad.config import proxy_hops
from tests.conftest import config_for, migrate, release
from tests.web.test_games import PARTNERS
from tests.web.test_security import session_cookie

FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "whist.club.example", "X-Forwarded-For": "10.1.2.3"}
LAN = "http://scorepad.lan:5000"  # how a phone on the LAN reaches the app (not localhost: see share_url)


@pytest.fixture
def proxied(database: str) -> Iterator[Flask]:
    """The app as `scorepad run --behind-proxy` serves it: one proxy's headers believed."""
    app = create_app(config_for(database, SCOREPAD_PROXY_HOPS=1))
    migrate(app)
    yield app
    release(app)


def start_whist(client: FlaskClient, **headers: str) -> tuple[str, list[str]]:
    """A Whist game started through the proxy (or not): its scorer token, and the cookies set."""
    response = client.post("/new/whist", data=PARTNERS, headers=headers, base_url=LAN)
    assert response.status_code == 303, response.get_data(as_text=True)
    assert not response.headers["Location"].startswith("http:")  # relative: it stays on https behind the proxy
    return response.headers["Location"].rsplit("/", 1)[1], response.headers.getlist("Set-Cookie")


def share_link(client: FlaskClient, token: str, **headers: str) -> str:
    page = client.get(f"/g/{token}/share", headers=headers, base_url=LAN).get_data(as_text=True)
    found = re.search(r"(https?://[^\s<\"]+/s/[\w-]+)", page)
    assert found, page
    return found.group(1)


def test_behind_the_proxy_links_and_qr_codes_say_https_and_the_public_host(proxied: Flask) -> None:
    client = proxied.test_client()
    token, cookies = start_whist(client, **FORWARDED)
    assert share_link(client, token, **FORWARDED).startswith("https://whist.club.example/s/")
    assert "Secure" in session_cookie(cookies)  # the phone's cookie never travels over plain HTTP
    response = client.get(f"/g/{token}", headers=FORWARDED, base_url=LAN)
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "includeSubDomains" not in response.headers["Strict-Transport-Security"]  # the club's other sites


def test_behind_the_proxy_a_plain_http_request_gets_no_hsts(proxied: Flask) -> None:
    """The proxy may also serve plain HTTP (to redirect it): no HSTS there, no Secure cookie."""
    client = proxied.test_client()
    token, cookies = start_whist(client, **{**FORWARDED, "X-Forwarded-Proto": "http"})
    assert "Secure" not in session_cookie(cookies)
    response = client.get(f"/g/{token}", headers={**FORWARDED, "X-Forwarded-Proto": "http"}, base_url=LAN)
    assert "Strict-Transport-Security" not in response.headers
    assert share_link(client, token, **{**FORWARDED, "X-Forwarded-Proto": "http"}).startswith(
        "http://whist.club.example/s/"
    )


def test_by_default_forwarded_headers_are_not_believed(app: Flask, client: FlaskClient) -> None:
    """On a LAN anyone can send these headers: they must not change a link, the cookie or HSTS."""
    token, cookies = start_whist(client, **FORWARDED)
    assert share_link(client, token, **FORWARDED).startswith("http://scorepad.lan:5000/s/")
    assert "Secure" not in session_cookie(cookies)
    response = client.get(f"/g/{token}", headers=FORWARDED, base_url=LAN)
    assert "Strict-Transport-Security" not in response.headers


def test_behind_the_proxy_only_its_own_hop_of_each_header_is_believed(proxied: Flask) -> None:
    """A phone may send its own X-Forwarded-* headers; the proxy appends its value (For) or replaces
    them (Proto, Host): only the last value, the proxy's, counts. X-Forwarded-Port is never read."""
    client = proxied.test_client()
    token, _ = start_whist(client, **FORWARDED)
    spoofed = {
        "X-Forwarded-Proto": "http, https",
        "X-Forwarded-Host": "evil.example, whist.club.example",
        "X-Forwarded-Port": "8443",
    }
    assert share_link(client, token, **spoofed).startswith("https://whist.club.example/s/")


def test_director_qr_cards_say_https_behind_the_proxy(proxied: Flask) -> None:
    client = proxied.test_client()
    response = client.post(
        "/events/new", data={"name": "Zone 3", "preset": "area", "tables": "2"}, headers=FORWARDED, base_url=LAN
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    sheet = client.get(response.headers["Location"] + "/qr", headers=FORWARDED, base_url=LAN, follow_redirects=True)
    page = sheet.get_data(as_text=True)
    assert page.count("https://whist.club.example/t/") == 2, page
    assert "http://scorepad.lan" not in page


def test_behind_the_proxy_each_phone_counts_as_itself_for_the_stream_cap(proxied: Flask) -> None:
    """Every request reaches the app from the proxy's address: without X-Forwarded-For the cap on
    live pages per device would count the whole hall as one phone."""
    proxied.extensions["scorepad.live"] = live.Broker(most=50, most_per_client=1)
    client = proxied.test_client()
    token, _ = start_whist(client, **FORWARDED)
    public = re.search(r"/w/([\w-]+)", client.get(f"/g/{token}", base_url=LAN).get_data(as_text=True))
    assert public
    url = f"/w/{public.group(1)}/events"
    phones = [client.get(url, headers={"X-Forwarded-For": f"10.1.2.{n}"}, base_url=LAN) for n in (1, 2, 3)]
    assert [r.status_code for r in phones] == [200, 200, 200]
    again = client.get(url, headers={"X-Forwarded-For": "10.1.2.1"}, base_url=LAN)
    assert again.status_code == 429
    for response in reversed(phones):
        response.close()


def test_the_number_of_hops_is_checked_at_start_up() -> None:
    assert proxy_hops("") == 0 and proxy_hops("1") == 1 and proxy_hops(" 2 ") == 2
    for wrong in ("yes", "-1", "9"):
        with pytest.raises(ValueError, match="SCOREPAD_PROXY_HOPS must be the number of reverse proxies"):
            proxy_hops(wrong)
