"""Issue 15: a home game's live pushes are drawn outside the spectators' requests (in the scorer's,
or in none when another worker announces them), so each is drawn once per language of the pages
watching, the language a stream's page asked in when it subscribed: a French spectator's live area
stays French whatever the scorer reads."""

from __future__ import annotations

import threading
from collections.abc import Iterator

from flask import Flask
from flask.testing import FlaskClient

from scorepad import live
from tests.web.test_games import bid_round_one, game_of, post, start


def _stream(client: FlaskClient, url: str, language: str | None) -> tuple[object, Iterator[bytes]]:
    headers = {"Accept-Language": language} if language else {}
    response = client.get(url, headers=headers)
    stream: Iterator[bytes] = iter(response.response)  # type: ignore[arg-type]
    assert next(stream) == b": connected\n\n"
    return response, stream


def _next_update(stream: Iterator[bytes]) -> str:
    for _ in range(40):
        chunk = next(stream).decode()
        if not chunk.startswith(": ping"):
            assert chunk.startswith("event: update\ndata: "), chunk[:100]
            return chunk
    raise AssertionError("no update came")


def test_each_spectator_gets_the_push_in_the_language_of_their_page(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    public_id = game_of(app, token).public_id
    app.config["SCOREPAD_HEARTBEAT"] = 0.05
    url = f"/w/{public_id}/events"
    streams = {
        language: _stream(app.test_client(), url, header)
        for language, header in (("fr", "fr-FR,fr;q=0.9"), ("en", None), ("en-GB", "en-GB"))
    }
    with app.app_context():
        assert live.broker().languages(f"game:{public_id}") == {"fr", "en"}

    client.set_cookie("lang", "es")  # the scorer reads Spanish: the push is drawn in their request
    bid_round_one(client, token, (1, 1, 0, 1))
    post(
        client,
        token,
        action="result",
        number="1",
        **{"tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"},
    )

    french = _next_update(streams["fr"][1])
    assert "Totaux en cours" in french and "Running totals" not in french and "Totales" not in french
    for language in ("en", "en-GB"):
        english = _next_update(streams[language][1])
        assert "Running totals" in english and "Totales" not in english
    assert 'id="hand-1"' in french and 'id="hand-1"' in english
    for response, _ in reversed(streams.values()):  # the last opened first: each holds its context
        response.close()  # type: ignore[attr-defined]
    with app.app_context():
        assert live.broker().languages(f"game:{public_id}") == set()


def test_a_push_drawn_with_no_request_is_in_each_stream_s_language(app: Flask, client: FlaskClient) -> None:
    """Another worker's announcement reaches the handler with no request at all (live_pg)."""
    token = start(client)
    public_id = game_of(app, token).public_id
    app.config["SCOREPAD_HEARTBEAT"] = 0.05
    response, stream = _stream(app.test_client(), f"/w/{public_id}/events", "es")

    def announced_elsewhere() -> None:  # a thread of its own: no request context, as live_pg's listener
        with app.app_context():
            live.relay_of(app).handlers["game"](public_id, {})

    listener = threading.Thread(target=announced_elsewhere)
    listener.start()
    listener.join()
    spanish = _next_update(stream)
    assert "Totales acumulados" in spanish and "0 apuestas cumplidas" in spanish and "Running" not in spanish
    response.close()  # type: ignore[attr-defined]
