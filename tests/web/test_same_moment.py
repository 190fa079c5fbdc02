"""Issue 17, item 3: two phones tapping from the same screen state at the same moment. The check
that the screen is current is made in the process; the write is conditional on the game's revision
in the database, so whichever of several workers serves each, the second is refused, never applied
over the first and told "saved"."""

from __future__ import annotations

import html
import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.games import service as games
from tests.slowness import scaled
from tests.web.test_games import HX, bid_round_one, game_of, start, state_of


def at_once(
    app: Flask, monkeypatch: pytest.MonkeyPatch, token: str, posts: list[tuple[str, dict[str, str]]]
) -> list[tuple[int, str]]:
    """Send `posts` (path under the game, form) from separate browsers, each held after the
    in-process check until all have passed it (as requests on several workers would be), then let
    go together."""
    passed = threading.Barrier(len(posts), timeout=scaled(10))
    check = games.refuse_if_stale

    def held(game: games.Game, seen: str) -> None:
        check(game, seen)
        passed.wait()

    monkeypatch.setattr(games, "refuse_if_stale", held)
    answers: list[tuple[int, str]] = [(0, "")] * len(posts)

    def send(i: int) -> None:
        path, form = posts[i]
        response = app.test_client().post(f"/g/{token}/{path}", data=form, headers=HX)
        answers[i] = response.status_code, html.unescape(response.get_data(as_text=True))

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(posts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    monkeypatch.setattr(games, "refuse_if_stale", check)
    return answers


@pytest.mark.postgresql
def test_two_different_bids_from_the_same_screen_one_is_kept_and_the_other_told(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = start(client)
    bid_round_one(client, token, (1,))  # Bob bid 1: Cat is next
    state = state_of(client.get(f"/g/{token}").get_data(as_text=True))
    answers = at_once(
        app,
        monkeypatch,
        token,
        [
            ("entry", {"action": "bid", "bid": "0", "seat": "2", "state": state}),
            ("entry", {"action": "bid", "bid": "2", "seat": "2", "state": state}),
        ],
    )
    assert sorted(status for status, _ in answers) == [200, 409], answers
    kept = game_of(app, token).pending["bids"][2]
    refused = next(page for status, page in answers if status == 409)
    other = 2 if kept == 0 else 0
    assert f"Cat's bid of {kept} is recorded; your bid of {other} for Cat was not applied." in refused
    assert len(game_of(app, token).undo_log or []) == 3  # trump, Bob's bid, one of Cat's: not both


@pytest.mark.postgresql
def test_an_undo_and_a_bid_at_the_same_moment_do_not_both_happen(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = start(client)
    bid_round_one(client, token, (1,))
    state = state_of(client.get(f"/g/{token}").get_data(as_text=True))
    (bid, _), (undo, _) = at_once(
        app,
        monkeypatch,
        token,
        [("entry", {"action": "bid", "bid": "0", "seat": "2", "state": state}), ("undo", {"state": state})],
    )
    assert sorted([bid, undo]) == [200, 409]
    pending = game_of(app, token).pending
    if undo == 200:  # Bob's bid went, Cat's was refused
        assert pending == {"trump": "S"}
    else:
        assert pending == {"trump": "S", "bids": [None, 1, 0, None]}
