"""A Military event's complete hands are replayed only when they change (issue 17: a table's
preview replayed every hand of the event, so its cost grew with the hands played). Each table's
result for the hand in play, and each preview, leaves the complete hands as they were and reuses
their derivation; the director correcting an earlier result changes them, and the board follows."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.events import core, military
from scorepad.rules import military as rules

HX = {"HX-Request": "true"}


@pytest.fixture
def app_config() -> dict[str, object]:
    """These tests count the work a request does (hands read, replays): the suite's check of every
    kept value against a fresh derivation (which derives afresh on purpose) is off here; every other
    test keeps it."""
    return {"SCOREPAD_CHECK_KEPT_VIEWS": False}


@pytest.fixture
def hands_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The numbers of the scheduled hands the rules read (a replay reads every complete hand)."""
    seen: list[int] = []
    read_hand = rules.read_hand

    def counted(setup: Any, number: int, *args: Any, **kwargs: Any) -> Any:
        seen.append(number)
        return read_hand(setup, number, *args, **kwargs)

    monkeypatch.setattr(rules, "read_hand", counted)
    return seen


def test_previews_and_results_of_the_hand_in_play_do_not_replay_the_hands_before_it(
    app: Flask, client: FlaskClient, hands_read: list[int]
) -> None:
    with app.app_context():
        event = military.create_event("Replays", ["Aces", "Kings", "Queens", "Jacks"], [4])
        for table in range(1, 5):
            military.enter_result(event, table, 1, 6 + table, None, f"table {table}")
        military.advance(event, hand=1)
        public_id, tokens = event.public_id, [t.token for t in event.tables]
    assert client.get(f"/b/{public_id}", headers=HX).status_code == 200
    assert 1 in hands_read  # hand 1 is complete now: replayed once
    hands_read.clear()
    for token in tokens:
        preview = client.post(f"/t/{token}/preview", data={"hand": "2", "tricks": "7", "revoke": "none"}, headers=HX)
        assert preview.status_code == 200 and "Confirm" in preview.get_data(as_text=True)
        entry = client.post(f"/t/{token}/result", data={"hand": "2", "tricks": "7", "revoke": "none"}, headers=HX)
        assert entry.status_code == 200
    assert hands_read and 1 not in hands_read  # hand 2 read over and over, hand 1 never again
    before = client.get(f"/b/{public_id}", headers=HX).get_data(as_text=True)
    with app.app_context():
        event = core.by_public_id(public_id)
        assert event is not None
        military.correct_result(event, 1, 2, 3, None)  # an earlier hand changed: replayed
    after = client.get(f"/b/{public_id}", headers=HX).get_data(as_text=True)
    assert 1 in hands_read and before != after
