"""A request holds at most one of the pool's database connections at a time (issue 17, the burst on
four workers). A request that kept its session's connection while taking a second one (to store its
Idempotency-Key answer, or to NOTIFY the other workers) waits for the pool; when every connection is
held by such a request, none is ever given back: under a hall's burst of entries the whole worker
stood still until the pool's timeout (bench/events_load.py --workers 4: 325 errors, "QueuePool limit
of size 5 overflow 10 reached").

Here the pool has a single connection, so a second one taken by the same request fails at once
(pool_timeout) instead of under load: each path a phone takes must still be answered, and its
change still reach the other workers."""

from __future__ import annotations

import logging

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import military
from tests.web.test_games import start

HX = {"HX-Request": "true"}
ONE_CONNECTION = {"pool_size": 1, "max_overflow": 0, "pool_timeout": 1}


@pytest.fixture
def app_config() -> dict[str, object]:
    return {"SQLALCHEMY_ENGINE_OPTIONS": dict(ONE_CONNECTION)}


@pytest.mark.postgresql
def test_a_tap_sent_with_its_idempotency_key_is_answered_and_its_answer_kept(
    client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    token = start(client)
    caplog.set_level(logging.WARNING)
    key = {"Idempotency-Key": "one-connection-0001", **HX}
    first = client.post(f"/g/{token}/entry", data={"action": "trump", "trump": "H"}, headers=key)
    assert first.status_code == 200, first.get_data(as_text=True)[:300]
    again = client.post(f"/g/{token}/entry", data={"action": "trump", "trump": "H"}, headers=key)
    assert again.status_code == 200 and again.headers.get("Idempotent-Replayed") == "true"
    assert "TimeoutError" not in caplog.text and "QueuePool" not in caplog.text


@pytest.mark.postgresql
def test_an_event_entry_is_answered_and_announced_to_every_worker(
    app: Flask, client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    with app.app_context():
        event = military.create_event("One connection", ["Aces", "Kings"], [4])
        public_id, tokens = event.public_id, [t.token for t in event.tables]
    caplog.set_level(logging.WARNING, logger="scorepad.live")
    for number, token in enumerate(tokens, 1):
        key = {"Idempotency-Key": f"one-connection-entry-{number}", **HX}
        response = client.post(
            f"/t/{token}/result", data={"hand": "1", "tricks": str(6 + number), "revoke": "none"}, headers=key
        )
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert "not sent to the other workers" not in caplog.text
    board = client.get(f"/b/{public_id}", headers=HX).get_data(as_text=True)
    assert 'data-waiting=""' in board  # both tables' entries are in
