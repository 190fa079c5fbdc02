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


def test_the_board_of_the_hand_in_play_is_drawn_once_for_every_phone_between_two_entries(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every table's panel shows its flags and rank on the board with the results in so far: the
    hall's phones refetch their panels after each entry, and all of them read one board."""
    drawn: list[int] = []
    board_from = military.fmt.board_from

    def counted(*args: Any, **kwargs: Any) -> Any:
        drawn.append(1)
        return board_from(*args, **kwargs)

    monkeypatch.setattr(military.fmt, "board_from", counted)
    with app.app_context():
        event = military.create_event("Boards", ["Aces", "Kings", "Queens", "Jacks"], [4])
        public_id, tokens = event.public_id, [t.token for t in event.tables]
    for token in tokens:
        assert client.get(f"/t/{token}/panel", headers=HX).status_code == 200
    assert len(drawn) == 1
    entry = client.post(f"/t/{tokens[0]}/result", data={"hand": "1", "tricks": "7", "revoke": "none"}, headers=HX)
    assert entry.status_code == 200 and len(drawn) == 2  # the entry moved the board: drawn again, once
    panels = [client.get(f"/t/{token}/panel", headers=HX).get_data(as_text=True) for token in tokens]
    assert len(drawn) == 2
    with app.app_context():
        event = core.by_public_id(public_id)
        assert event is not None
        held = {row.team: row.held for row in military.view(event).board.rows}
    for table, panel in enumerate(panels):  # each phone's header says what the board says
        assert f"<strong>{held[table]}</strong> flags held" in panel
    assert sorted(held.values()) != [12, 12, 12, 12]  # the entry moved flags


def test_a_preview_and_a_result_each_settle_the_hand_in_play_once(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28: a preview settles the hand with the tapped result once, for what it would do and
    the flags held after it; a result settles it once, for its check and the board drawn after it."""
    settled: list[int] = []
    settle = rules._settle

    def counted(setup: Any, spec: Any, *args: Any) -> Any:
        settled.append(spec.number)
        return settle(setup, spec, *args)

    monkeypatch.setattr(rules, "_settle", counted)
    with app.app_context():
        event = military.create_event("Settled", ["Aces", "Kings", "Queens", "Jacks"], [4])
        military.enter_result(event, 1, 1, 9, None, "table 1")
        token = event.tables[1].token
    assert client.get(f"/t/{token}/panel", headers=HX).status_code == 200  # the board with table 1 in, kept
    settled.clear()
    preview = client.post(f"/t/{token}/preview", data={"hand": "1", "tricks": "8", "revoke": "none"}, headers=HX)
    assert preview.status_code == 200 and "Confirm hand 1" in preview.get_data(as_text=True)
    assert settled == [1]
    settled.clear()
    entry = client.post(f"/t/{token}/result", data={"hand": "1", "tricks": "8", "revoke": "none"}, headers=HX)
    assert entry.status_code == 200 and "Hand 1 recorded." in entry.get_data(as_text=True)
    assert settled == [1]


def test_a_preview_sent_after_the_schedule_is_over_is_refused_not_an_error(app: Flask, client: FlaskClient) -> None:
    """A phone still showing the last hand's keypad after it closed (a tap replayed from its outbox)."""
    with app.app_context():
        event = military.create_event("Over", ["Aces", "Kings"], [1])
        for table in (1, 2):
            military.enter_result(event, table, 1, 7, None, f"table {table}")
        military.advance(event, hand=1)
        token = event.tables[0].token
    preview = client.post(f"/t/{token}/preview", data={"hand": "2", "tricks": "7", "revoke": "none"}, headers=HX)
    assert preview.status_code == 409 and "The schedule is over" in preview.get_data(as_text=True)


def test_a_tables_panel_preview_and_result_read_the_hand_in_play_once(
    app: Flask, client: FlaskClient, queries: list[str]
) -> None:
    """Issue 28: a phone's panel and preview read the table (with its event) and the hand in play's
    results, which give the view's stamp, the board and the table's own result; a result adds its
    write, the event's row read again once written (held until the commit: what the check is made
    against), its check and the event and table read again after the commit. No count of the event's
    results, no row of the table's own, no read of the result before it is written (the unique
    key refuses a second one)."""
    with app.app_context():
        event = military.create_event("Queries", ["Aces", "Kings", "Queens", "Jacks"], [4])
        military.enter_result(event, 1, 1, 9, None, "table 1")
        tokens = [t.token for t in event.tables]
    client.get(f"/t/{tokens[0]}/panel", headers=HX)  # the board with table 1 in, kept
    queries.clear()
    recorded = client.get(f"/t/{tokens[0]}/panel", headers=HX).get_data(as_text=True)
    assert "Hand 1 is recorded" in recorded and "Waiting for 3 more tables" in recorded
    assert len(queries) == 2, queries
    queries.clear()
    preview = client.post(f"/t/{tokens[1]}/preview", data={"hand": "1", "tricks": "8", "revoke": "none"}, headers=HX)
    assert preview.status_code == 200 and len(queries) == 2, queries
    queries.clear()
    entry = client.post(f"/t/{tokens[1]}/result", data={"hand": "1", "tricks": "8", "revoke": "none"}, headers=HX)
    assert "Waiting for 2 more tables" in entry.get_data(as_text=True)
    assert len([q for q in queries if q.lstrip().upper().startswith(("SELECT", "INSERT"))]) == 7, queries
    again = client.post(f"/t/{tokens[1]}/result", data={"hand": "1", "tricks": "5", "revoke": "none"}, headers=HX)
    assert again.status_code == 409 and "the visitors took 8" in again.get_data(as_text=True)
