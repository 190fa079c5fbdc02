"""Issue 13, item 4: pages, fragments and assets go out compressed (gzip over plain HTTP, brotli
where the browser offers it), static files under their current hash are cached for a year, and
the live streams are never compressed (each message must arrive the moment it is published)."""

from __future__ import annotations

import gzip
import re

import brotli
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import military

HTTP = {"Accept-Encoding": "gzip, deflate"}  # what Chrome offers over plain HTTP on the LAN
HTTPS = {"Accept-Encoding": "gzip, deflate, br, zstd"}


def without_token(data: bytes) -> bytes:
    """A page without its CSRF tokens (the meta tag's and each form's), which are signed with the time:
    two requests a second apart differ (CI failed once on a form's token when the second turned)."""
    data = re.sub(rb'name="csrf-token" content="[^"]*"', b'name="csrf-token"', data)
    return re.sub(rb'name="csrf_token" value="[^"]*"', b'name="csrf_token"', data)


def test_pages_are_gzipped_over_http_and_brotli_where_offered(client: FlaskClient) -> None:
    plain = client.get("/")
    assert "Content-Encoding" not in plain.headers
    zipped = client.get("/", headers=HTTP)
    assert zipped.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped.headers["Vary"]
    assert without_token(gzip.decompress(zipped.data)) == without_token(plain.data)
    assert len(zipped.data) < len(plain.data) / 2
    br = client.get("/", headers=HTTPS)
    assert br.headers["Content-Encoding"] == "br" and without_token(brotli.decompress(br.data)) == without_token(
        plain.data
    )


def test_static_files_are_compressed_and_cached_under_their_hash(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    css = re.search(r'href="(/static/css/app\.css\?v=\w+)"', page)
    assert css, "the page links its stylesheet under its hash"
    with (
        client.get(css.group(1)) as plain,
        client.get(css.group(1), headers=HTTP) as zipped,
        client.get(css.group(1), headers=HTTPS) as br,
    ):
        assert plain.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert zipped.headers["Content-Encoding"] == "gzip" and gzip.decompress(zipped.data) == plain.data
        assert br.headers["Content-Encoding"] == "br" and without_token(brotli.decompress(br.data)) == without_token(
            plain.data
        )
        assert len(zipped.data) < len(plain.data) / 3
    # without the hash, or with an old one, the file is checked each time
    for url in ("/static/css/app.css", "/static/css/app.css?v=000000000000"):
        with client.get(url) as response:
            assert response.headers["Cache-Control"] == "no-cache", url


def test_live_streams_are_not_compressed(client: FlaskClient, app: Flask) -> None:
    with app.app_context():
        public = military.create_event("Zone day", ["Aces", "Kings", "Queens", "Jacks"], [3, 2]).public_id
    response = client.get(f"/b/{public}/events", headers=HTTPS)
    try:
        assert response.mimetype == "text/event-stream" and "Content-Encoding" not in response.headers
        first = next(iter(response.response))
        assert first.startswith(b":")  # the opening comment, readable as sent
    finally:
        response.close()
