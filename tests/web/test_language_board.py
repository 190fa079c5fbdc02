"""Issue 15: an event's leaderboard pushes are drawn outside the readers' requests, so each is drawn
once per language of the leaderboards watching (the language each stream's page asked in): a French
projector and an English phone standings page of one event each get their own board, and their own
patches, made from their own language's versions. Control rooms and table phones, told only a hand
number, do not make a language's board be drawn."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import ChoiceLoader, DictLoader

from scorepad import live
from scorepad.pushes.boards import BOARD_EVENTS
from tests.web.test_events import HX, create, enter, snapshot, table_tokens

ROOT = '<div id="board" class="board">'
VERSION = re.compile(r'data-version="([0-9a-f]+)"')


@pytest.fixture
def said_board(app: Flask) -> None:
    """Military's board with a translated word and a number on it: the boards' own words are another
    part of issue 15, and this test must not depend on them."""
    source = app.jinja_env.loader.get_source(app.jinja_env, "military/_board.html")[0]  # type: ignore[union-attr]
    assert ROOT in source
    said = source.replace(ROOT, ROOT + '<p id="bp-said">{{ _("Large text") }} {{ format_number(1234.5) }}</p>', 1)
    app.jinja_env.loader = ChoiceLoader([DictLoader({"military/_board.html": said}), app.jinja_env.loader])  # type: ignore[list-item]


def _stream(app: Flask, url: str, language: str | None) -> tuple[object, Iterator[bytes]]:
    headers = {"Accept-Language": language} if language else {}
    response = app.test_client().get(url, headers=headers)
    stream: Iterator[bytes] = iter(response.response)  # type: ignore[arg-type]
    assert next(stream) == b": connected\n\n"
    return response, stream


def _next(stream: Iterator[bytes]) -> tuple[str, str]:
    """The next message's name and data (its lines joined), heartbeats skipped."""
    for _ in range(60):
        chunk = next(stream).decode()
        if not chunk.startswith(": ping"):
            name, _, body = chunk.partition("\n")
            return name.removeprefix("event: "), "\n".join(
                line.removeprefix("data: ") for line in body.splitlines() if line
            )
    raise AssertionError("no message came")


@pytest.mark.usefixtures("said_board")
def test_each_leaderboard_gets_the_board_and_patches_in_its_page_s_language(app: Flask, client: FlaskClient) -> None:
    director = create(client)
    public, tables = snapshot(app, director)["public_id"], table_tokens(app, director)
    app.config["SCOREPAD_HEARTBEAT"] = 0.05
    url = f"/b/{public}/events?only=board,patch"
    streams = {"fr": _stream(app, url, "fr-FR,fr;q=0.9"), "en": _stream(app, url, None)}
    room = _stream(app, f"/b/{public}/events?only=changed", "es")  # a Spanish control room: no Spanish board
    with app.app_context():
        assert live.broker().languages(f"event:{public}") == {"fr", "en", "es"}
        assert live.broker().languages(f"event:{public}", BOARD_EVENTS) == {"fr", "en"}

    client.set_cookie("lang", "es")  # the table's phone reads Spanish: the push is drawn off its request
    assert enter(client, tables[0], 1, 10)[0] == 200
    boards = {language: _next(stream) for language, (_response, stream) in streams.items()}
    assert boards["fr"][0] == boards["en"][0] == "board"
    assert "Grand texte 1\u202f234,5" in boards["fr"][1] and "Large text" not in boards["fr"][1]
    assert "Large text 1,234.5" in boards["en"][1] and "Grand texte" not in boards["en"][1]
    assert "Más grande" not in boards["fr"][1] + boards["en"][1]
    assert _next(room[1]) == ("changed", "1")

    assert enter(client, tables[1], 1, 3)[0] == 200
    patches = {language: _next(stream) for language, (_response, stream) in streams.items()}
    for response, _ in (room, *reversed(streams.values())):  # the last opened first: each holds its context
        response.close()  # type: ignore[attr-defined]
    versions: dict[str, str] = {}
    for language, (name, data) in patches.items():
        assert name == "patch", data[:80]
        base, versions[language] = data.partition("\n")[0].split(" ")
        assert VERSION.findall(boards[language][1]) == [base]  # made from the board this page shows
        fresh = app.test_client().get(f"/b/{public}", headers={**HX, "Accept-Language": language})
        assert VERSION.findall(fresh.get_data(as_text=True)) == [versions[language]]  # a page drawn now in it
    assert versions["fr"] != versions["en"]  # each language's board has its own versions
