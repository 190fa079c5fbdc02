"""The app is installable: manifest with icons, a service worker with a fetch handler, an offline page."""

from __future__ import annotations

from flask.testing import FlaskClient


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
