"""The app is installable: manifest with icons, a service worker with a fetch handler, an offline page."""

from __future__ import annotations

import hashlib
import re
import shutil
import time
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.views import pwa


def test_manifest_names_the_app_and_its_icons(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    data = response.get_json(force=True)
    assert data["name"] == "Scorepad" and data["display"] == "standalone"
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        with client.get(icon["src"]) as image:
            assert image.status_code == 200 and image.mimetype == "image/png"


def test_manifest_has_an_id_and_screenshots_of_their_stated_size(client: FlaskClient) -> None:
    """Issue 29, item 6: `id` keeps the installed app one app; screenshots, a narrow and a wide one,
    fill the install dialog. Each is served, a PNG of the size the manifest states."""
    import struct

    data = client.get("/manifest.webmanifest").get_json(force=True)
    assert data["id"] == "/"
    assert {shot["form_factor"] for shot in data["screenshots"]} == {"narrow", "wide"}
    for shot in data["screenshots"]:
        assert shot["label"] and shot["type"] == "image/png"
        with client.get(shot["src"]) as image:
            assert image.status_code == 200 and image.mimetype == "image/png"
            width, height = struct.unpack(">II", image.get_data()[16:24])
        assert shot["sizes"] == f"{width}x{height}"


def test_service_worker_caches_the_shell_and_handles_fetch(client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    body = response.get_data(as_text=True)
    assert 'addEventListener("fetch"' in body
    assert "/static/vendor/htmx-2.0.11.min.js" in body and "/offline" in body


def test_pages_link_the_manifest_and_the_offline_page_exists(client: FlaskClient) -> None:
    assert 'rel="manifest"' in client.get("/").get_data(as_text=True)
    assert "You are offline" in client.get("/offline").get_data(as_text=True)
    with client.get("/favicon.ico") as icon:
        assert icon.status_code == 200


def test_static_urls_carry_a_hash_of_the_file(app: Flask, client: FlaskClient) -> None:
    """The service worker serves /static/ from its cache first: a changed file needs a new URL."""
    css = Path(app.static_folder or "static") / "css" / "app.css"
    version = hashlib.sha256(css.read_bytes()).hexdigest()[:12]
    assert f'href="/static/css/app.css?v={version}"' in client.get("/").get_data(as_text=True)
    body = client.get("/sw.js").get_data(as_text=True)
    assert f'"/static/css/app.css?v={version}"' in body and "/static/js/app.js?v=" in body
    with client.get(f"/static/css/app.css?v={version}") as response:
        assert response.status_code == 200


def test_a_changed_file_gets_a_new_url_and_a_new_worker_cache(
    app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within a couple of seconds of the change (the file is looked at again every RESTAT_SECONDS)."""
    static = tmp_path / "static"
    shutil.copytree(app.static_folder or "static", static)
    app.static_folder = str(static)
    page, worker = client.get("/").get_data(as_text=True), client.get("/sw.js").get_data(as_text=True)
    (static / "css" / "app.css").write_text("body { color: red; }\n", encoding="utf-8")
    later = time.monotonic() + pwa.RESTAT_SECONDS + 0.1
    monkeypatch.setattr(pwa.time, "monotonic", lambda: later)
    page_after, worker_after = client.get("/").get_data(as_text=True), client.get("/sw.js").get_data(as_text=True)
    url = re.compile(r"/static/css/app\.css\?v=\w+")
    assert url.findall(page) and url.findall(page) != url.findall(page_after)
    cache = re.compile(r'const CACHE = "([^"]+)"')
    assert cache.findall(worker) != cache.findall(worker_after)  # the new worker drops the old cache


def test_the_offline_page_try_again_link_is_a_tap_target(client: FlaskClient) -> None:
    assert 'class="tap" href="/">try again</a>' in client.get("/offline").get_data(as_text=True)
