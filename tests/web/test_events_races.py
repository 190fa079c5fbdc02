"""Two writers at once on a Military Whist event: two director devices advancing the same hand, or the
automatic advance racing the director. One hand opens; the loser hears "already advanced" (409), and a
table whose result was saved never hears an error.

Each race is played out in one thread: the other writer runs in its own app context, which gives it
its own database session, exactly as a second request would have.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import core
from scorepad.events import military as events
from tests.web.test_events import advance, create, enter, errors_in, play, snapshot, table_tokens

pytestmark = pytest.mark.postgresql


def advances(app: Flask, token: str) -> list[tuple[Any, ...]]:
    return [a for a in snapshot(app, token)["audit"] if a[1] == "advance"]


def test_an_advance_from_a_stale_session_is_a_conflict_not_a_500(client: FlaskClient, app: Flask) -> None:
    token = create(client)
    play(client, app, token, 1, (7, 10, 3, 5), then_advance=False)
    stale = app.app_context()
    stale.push()
    try:
        event = core.by_director_token(token)
        assert event is not None and event.current_hand == 1
        assert events.view(event).all_in  # this device saw hand 1 complete, then waited
        with app.app_context():  # the other director device advances first, in its own session
            assert advance(client, token, 1)[0] == 200
        with pytest.raises(core.Conflict, match="Hand 1 was already advanced: hand 2 is in play now."):
            events.advance(event, hand=1)
    finally:
        stale.pop()
    stored = snapshot(app, token)
    assert stored["current_hand"] == 2
    assert len(advances(app, token)) == 1


def test_two_directors_advancing_at_once_open_one_hand_and_the_second_gets_409(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = create(client, preset="custom", days="2, 2")
    play(client, app, token, 1, (7, 10, 3, 5))
    play(client, app, token, 2, (6, 8, 6, 6), then_advance=False)  # hand 2 closes day 1
    real = events.advance

    def other_device_first(event: Any, actor: str = "director", hand: int | None = None) -> None:
        with app.app_context():  # the other device's request lands between this one's check and its write
            other = core.by_director_token(token)
            real(other, actor, hand)
        real(event, actor, hand)

    monkeypatch.setattr(events, "advance", other_device_first)
    status, page = advance(client, token, 2)
    assert status == 409
    assert "Hand 2 was already advanced: hand 3 is in play now." in errors_in(page)
    stored = snapshot(app, token)
    assert stored["current_hand"] == 3
    assert [d[0] for d in stored["days"]] == [1]  # the day closed once
    assert len(advances(app, token)) == 2  # hands 2 and 3 opened, once each
    assert len([a for a in stored["audit"] if a[1] == "day closed"]) == 1


def test_auto_advance_losing_the_race_to_the_director_still_answers_the_table(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = create(client, auto_advance="on")
    tokens = table_tokens(app, token)
    for table_token, tricks in zip(tokens[:3], (7, 10, 3)):
        assert enter(client, table_token, 1, tricks)[0] == 200
    real = events.advance

    def director_first(event: Any, actor: str = "director", hand: int | None = None) -> None:
        if actor == "automatic":  # the director saw every table in and tapped just before
            with app.app_context():
                real(core.by_director_token(token), "director", hand)
        real(event, actor, hand)

    monkeypatch.setattr(events, "advance", director_first)
    status, page = enter(client, tokens[3], 1, 5)
    assert status == 200, page
    assert "Hand 1 recorded." in page
    stored = snapshot(app, token)
    assert (1, 4, 5, None) in stored["results"] and stored["current_hand"] == 2
    assert [a[0] for a in advances(app, token)] == ["director"]
