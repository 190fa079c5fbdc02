"""Issue 15: the result card, a finished game's final standings as a picture (PNG, and SVG) that a
phone's share sheet sends to the family chat. It is drawn from the derived sheet; an unfinished or
unknown game has none (409, 404, a message, never a 500); long names, seven players and ties stay
inside the card; text is escaped in the SVG and accented letters are drawn in the PNG."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image, ImageDraw

from scorepad.games import card as cards
from scorepad.games import records
from scorepad.games import service as games
from tests.conftest import EXAMPLES

SVG = "{http://www.w3.org/2000/svg}"
LONG = [
    "Émile Ñúñez Müller-" + "W" * 21,
    "Zoë " + "m" * 36,
    "Olu",
    "Megan Überwald-Lindqvist-Søndergaard",
    "Hamish",
    "Rosa",
    "Ken",
]


def example(name: str, **changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text())
    return {**record, **changes}


def stored(app: Flask, record: dict[str, Any]) -> tuple[str, str]:
    """The game's public id and scorer's token."""
    with app.app_context():
        game = records.import_record(record)
        return game.public_id, game.scorer_token


def card_for(app: Flask, public_id: str) -> cards.Card:
    with app.app_context():
        game = games.by_public_id(public_id)
        assert game is not None
        return cards.card_of(games.view(game))


def svg_texts(body: bytes) -> list[str]:
    root = ET.fromstring(body)  # well-formed, or this raises
    assert root.tag == f"{SVG}svg"
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_a_finished_game_has_a_png_card(app: Flask, client: FlaskClient) -> None:
    public_id, _ = stored(app, example("nomination-family-four"))
    response = client.get(f"/w/{public_id}/result.png")
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    assert response.data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(response.data)) as image:
        assert image.size == (cards.WIDTH, cards.HEIGHT) == (1080, 1080)
        assert image.format == "PNG"
    assert response.headers["Cache-Control"] == "no-cache"  # an undo after the end changes it
    assert re.fullmatch(
        r'inline; filename="scorepad-nomination-\d{4}-\d\d-\d\d-[\w-]{6}-result.png"',
        response.headers["Content-Disposition"],
    )
    etag = response.headers["ETag"]
    again = client.get(f"/w/{public_id}/result.png", headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.data


def test_the_svg_card_is_well_formed_and_says_the_standings(app: Flask, client: FlaskClient) -> None:
    public_id, _ = stored(app, example("nomination-family-four"))
    response = client.get(f"/w/{public_id}/result.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["ETag"] != client.get(f"/w/{public_id}/result.png").headers["ETag"]
    texts = svg_texts(response.data)
    with app.app_context():
        game = games.by_public_id(public_id)
        assert game is not None
        sheet = games.sheet_of(game)
    assert sheet.summary in texts
    for s in sheet.standings:
        assert str(s.total) in texts
        assert any(s.name in t for t in texts)
    assert "Scorepad · score kept at the table" in texts
    assert b"<script" not in response.data and b"@import" not in response.data and b"href" not in response.data


def test_names_and_title_are_escaped_in_the_svg(app: Flask, client: FlaskClient) -> None:
    title = 'Gran\'s <script>alert("x")</script> & Co'
    players = ["<b>Ann</b>", 'Bob "the" Brave', "Cat & Dan", "Ed\x01"]
    public_id, _ = stored(app, example("nomination-family-four", title=title, players=players))
    body = client.get(f"/w/{public_id}/result.svg").data
    texts = svg_texts(body)
    assert b"<script" not in body and b"<b>" not in body
    assert "&lt;script&gt;" in body.decode()
    joined = " ".join(texts)
    for name in ("<b>Ann</b>", 'Bob "the" Brave', "Cat & Dan", "Ed"):
        assert name in joined
    assert "\x01" not in body.decode()  # no XML may hold a control character
    root = ET.fromstring(body)
    assert title in root.attrib["aria-label"]


@pytest.mark.parametrize("kind", ["png", "svg"])
def test_an_unfinished_game_has_no_card_yet(app: Flask, client: FlaskClient, kind: str) -> None:
    record = example("nomination-family-four")
    public_id, _ = stored(app, {**record, "hands": record["hands"][:3]})
    response = client.get(f"/w/{public_id}/result.{kind}")
    assert response.status_code == 409
    assert "not over yet" in response.get_data(as_text=True)
    none_yet, _ = stored(app, {**record, "hands": []})
    assert client.get(f"/w/{none_yet}/result.{kind}").status_code == 409


@pytest.mark.parametrize("kind", ["png", "svg"])
def test_an_unknown_game_has_no_card(client: FlaskClient, kind: str) -> None:
    response = client.get(f"/w/no-such-game/result.{kind}")
    assert response.status_code == 404
    assert "There is no game at this link" in response.get_data(as_text=True)


def inside(card: cards.Card) -> None:
    """Every text of the card within its width, measured with the font the PNG is drawn in."""
    for t in card.texts:
        width = cards.font(t.size, t.bold).getlength(t.text)
        left = {"start": t.x, "middle": t.x - width / 2, "end": t.x - width}[t.anchor]
        assert 0 <= left and left + width <= card.width, t
        assert t.y <= card.height


def test_seven_players_with_long_names_stay_inside_the_card(app: Flask) -> None:
    long_title = "A very long title for a game at the village hall, " * 2
    public_id, _ = stored(app, example("australian-seven-players", players=LONG, title=long_title.strip()))
    card = card_for(app, public_id)
    inside(card)
    names = [t for t in card.texts if t.x == cards.MARGIN + 110 and t.size >= 30]
    assert len(names) == 7
    cut = [t.text for t in names if t.text.endswith(cards.ELLIPSIS)]
    assert len(cut) >= 2  # the 40-character names of wide letters are cut, not overflowing
    assert any(t.text.startswith("Megan Überwald") for t in names)
    totals = [t for t in card.texts if t.anchor == "end"]
    assert len(totals) == 7
    for t, total in zip(names, totals):  # each name clear of its total
        end = t.x + cards.font(t.size, t.bold).getlength(t.text)
        assert end < total.x - cards.font(total.size, True).getlength(total.text), (t, total)
    rows = [b for b in card.boxes if b.y >= 300]
    assert len(rows) == 7 and rows[-1].y + rows[-1].height < card.height - 60  # above the footer


def test_a_tie_highlights_every_winner(app: Flask, client: FlaskClient) -> None:
    public_id, _ = stored(app, example("nomination-three-hook-every-tie"))
    card = card_for(app, public_id)
    winners = [b for b in card.boxes if b.fill == cards.WIN]
    assert len(winners) == 2
    places = [t.text for t in card.texts if t.anchor == "middle" and t.x == cards.MARGIN + 40]
    assert places == ["1=", "1=", "3"]
    assert [t.text for t in card.texts if t.bold and t.text.startswith("★")] == ["★ Bob", "★ Cat"]
    inside(card)


def test_a_military_game_record_has_a_card(app: Flask, client: FlaskClient) -> None:
    public_id, _ = stored(app, example("military-club-day"))
    assert client.get(f"/w/{public_id}/result.png").status_code == 200
    assert "Birch wins with 17 flags" in svg_texts(client.get(f"/w/{public_id}/result.svg").data)


def test_accented_letters_are_drawn_not_boxes() -> None:
    """DejaVu Sans has them (Pillow's own default font draws é as the box of a missing letter)."""
    face = cards.font(40)

    def drawn(letter: str) -> bytes:
        image = Image.new("L", (60, 60))
        ImageDraw.Draw(image).text((5, 5), letter, fill=255, font=face)
        return image.tobytes()

    missing = drawn("\U0010fffd")  # a private-use character of the last plane: no font draws it
    for letter in "éñüÉÑÜøå":
        assert drawn(letter) != missing, letter
        assert drawn(letter) != drawn(letter.swapcase()), letter


def test_the_finished_pages_offer_the_card(app: Flask, client: FlaskClient) -> None:
    public_id, token = stored(app, example("nomination-family-four"))
    for page in (
        client.get(f"/g/{token}").get_data(as_text=True),
        client.get(f"/w/{public_id}").get_data(as_text=True),
    ):
        assert page.count("data-share-card=") == 1
        assert f'href="/w/{public_id}/result.png" download' in page
        assert f'href="/w/{public_id}/result.svg" download' in page
        assert "js/share.js" in page
    record = example("nomination-family-four")
    public_id, token = stored(app, {**record, "hands": record["hands"][:3]})
    for page in (
        client.get(f"/g/{token}").get_data(as_text=True),
        client.get(f"/w/{public_id}").get_data(as_text=True),
    ):
        assert "data-share-card" not in page and "result.png" not in page


def test_the_card_speaks_the_language_of_the_page_that_asked(app: Flask, client: FlaskClient) -> None:
    """Issue 15: the card's words in the reader's language, by the link's `lang` or else the request's."""
    public_id, token = stored(app, example("nomination-family-four"))
    english = svg_texts(client.get(f"/w/{public_id}/result.svg").data)
    client.set_cookie("lang", "fr")
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert f'href="/w/{public_id}/result.png?lang=fr" download' in page  # the page's links carry its language
    assert f'data-share-card="/w/{public_id}/result.png?lang=fr"' in page
    client.delete_cookie("lang")
    body = client.get(f"/w/{public_id}/result.svg?lang=fr").data
    french = svg_texts(body)
    assert "Scorepad · score tenu à la table" in french and "Scorepad · score kept at the table" not in french
    assert len(french) == len(english) and english[2] != french[2]  # the summary, said through the rules' M
    assert "11 annonces réussies" in french and "11 bids made" in english  # a player's detail
    assert "Bob gagne avec 134" in french and [t for t in french if t.isdigit()] == [t for t in english if t.isdigit()]
    assert ET.fromstring(body).attrib["aria-label"].startswith("Carte du résultat\u00a0: ")
    spanish = svg_texts(client.get(f"/w/{public_id}/result.svg", headers={"Accept-Language": "es"}).data)
    assert "Scorepad · tanteo llevado en la mesa" in spanish
    pngs = {lang: client.get(f"/w/{public_id}/result.png?lang={lang}") for lang in ("en", "fr")}
    assert pngs["en"].headers["ETag"] != pngs["fr"].headers["ETag"]  # the French card is not the English one cached
    assert pngs["en"].data != pngs["fr"].data
    assert client.get(f"/w/{public_id}/result.png?lang=xx").headers["ETag"] == pngs["en"].headers["ETag"]


def test_the_card_s_date_in_french(app: Flask, client: FlaskClient) -> None:
    public_id, _ = stored(app, example("nomination-family-four"))
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        game = games.by_public_id(public_id)
        assert game is not None
        card = cards.card_of(games.view(game))
        month = "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split()[
            game.created_at.month - 1
        ]
    assert any(f"{game.created_at.day} {month} {game.created_at.year}" in t.text for t in card.texts)
    assert card.label.startswith("Carte du résultat\u00a0: ")
