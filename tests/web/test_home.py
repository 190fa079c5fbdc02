"""The home page and variant pages: every variant listed, summaries shown, errors are 4xx pages."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from scorepad.games import records
from scorepad.rules import all_variants

NAMES = ["Whist", "Military Whist", "Bid Whist", "Nomination Whist", "Australian Whist"]


def test_home_lists_the_five_variants_with_their_summaries(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    for name in NAMES:
        assert f">{name}</a>" in page
    for variant in all_variants():
        assert str(escape(variant.summary)) in page


def test_home_says_it_varies_on_htmx(client: FlaskClient) -> None:
    assert "HX-Request" in client.get("/").headers["Vary"]


def test_variant_page_shows_options_with_defaults(client: FlaskClient) -> None:
    page = client.get("/variants/whist").get_data(as_text=True)
    spec = next(s for s in all_variants()[0].option_specs if s.key == "target")
    assert spec.label in page and ">5<" in page


def test_unknown_variant_is_a_404_page_not_a_crash(client: FlaskClient) -> None:
    response = client.get("/variants/bridge")
    assert response.status_code == 404
    assert "no variant called" in response.get_data(as_text=True)


def test_variant_page_renders_a_demo_sheet_from_the_database(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        assert records.load_demo_games() > 0
        assert records.load_demo_games() == 0  # loading twice adds nothing
    for variant in all_variants():
        page = client.get(f"/variants/{variant.key}").get_data(as_text=True)
        assert "Final totals" in page, variant.key
