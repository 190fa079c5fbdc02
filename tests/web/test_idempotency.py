"""The `Idempotency-Key` header (issue 13, item 1, the server's half of the outbox): a tap sent
again with its key is answered as the first time and counted once; the key held in the database."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad import idempotency
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import IdempotentRequest
from tests.web.test_games import HX, bid_round_one, game_of, hands_of, start


def keyed(key: str) -> dict[str, str]:
    return {**HX, "Idempotency-Key": key}


def stored(app: Flask) -> list[tuple[str, int | None]]:
    with app.app_context():
        return [(r.key, r.status) for r in db.session.scalars(db.select(IdempotentRequest))]


@pytest.mark.postgresql
def test_a_tap_sent_again_with_its_key_is_answered_the_same_and_counted_once(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    bid_round_one(client, token, (1, 1, 0))
    tricks = {"action": "result", "number": "1", "tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"}
    assert client.post(f"/g/{token}/entry", data={"action": "bid", "bid": "1"}, headers=HX).status_code == 200
    first = client.post(f"/g/{token}/entry", data=tricks, headers=keyed("hand-1-tricks-0001"))
    assert first.status_code == 200 and "Hand 1 saved." in first.get_data(as_text=True)
    # the phone never heard that answer, and sends the same tap again, from a reloaded page
    again = app.test_client().post(
        f"/g/{token}/entry", data={**tricks, "csrf_token": "another"}, headers=keyed("hand-1-tricks-0001")
    )
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.data == first.data  # what it answered the first time ("Hand 1 saved.")
    assert len(hands_of(app, token)) == 1
    assert stored(app) == [("hand-1-tricks-0001", 200)]


def test_a_key_used_for_another_request_is_refused(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    assert (
        client.post(
            f"/g/{token}/entry", data={"action": "trump", "trump": "S"}, headers=keyed("trump-key-0001")
        ).status_code
        == 200
    )
    response = client.post(f"/g/{token}/entry", data={"action": "trump", "trump": "H"}, headers=keyed("trump-key-0001"))
    assert response.status_code == 422
    assert response.get_data(as_text=True) == idempotency.OTHER_REQUEST
    assert game_of(app, token).pending == {"trump": "S"}


@pytest.mark.postgresql
def test_a_bad_key_is_refused_and_reads_without_a_key_are_untouched(client: FlaskClient, app: Flask) -> None:
    token = start(client)
    for bad in ("short", "x" * 65, "has space here", "ünïcode-key"):
        response = client.post(f"/g/{token}/entry", data={"action": "trump", "trump": "S"}, headers=keyed(bad))
        assert response.status_code == 400 and response.get_data(as_text=True) == idempotency.BAD_KEY, bad
    assert game_of(app, token).pending is None
    longest = "k" * 64  # the column's length: accepted and stored whole
    assert (
        client.post(f"/g/{token}/entry", data={"action": "trump", "trump": "S"}, headers=keyed(longest)).status_code
        == 200
    )
    assert stored(app) == [(longest, 200)]
    assert client.get(f"/g/{token}", headers={"Idempotency-Key": "read-key-0001"}).status_code == 200
    assert stored(app) == [(longest, 200)]  # a GET takes no key


def test_a_refusal_is_replayed_too(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    refused = client.post(f"/g/{token}/entry", data={"action": "bid", "bid": "99"}, headers=keyed("early-bid-01"))
    assert refused.status_code == 422  # more tricks than cards
    assert (
        client.post(f"/g/{token}/entry", data={"action": "bid", "bid": "99"}, headers=keyed("early-bid-01")).data
        == refused.data
    )
    assert stored(app) == [("early-bid-01", 422)]


def test_a_key_still_in_progress_is_409_until_it_is_stale(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    form = {"action": "trump", "trump": "S"}
    with app.test_request_context(f"/g/{token}/entry", method="POST", data=form):
        seen = idempotency.fingerprint()
    with app.app_context():  # another worker took the key a moment ago and is still serving it
        db.session.add(IdempotentRequest(key="busy-key-0001", fingerprint=seen))
        db.session.commit()
    response = client.post(f"/g/{token}/entry", data=form, headers=keyed("busy-key-0001"))
    assert response.status_code == 409 and response.headers["Retry-After"] == "1"
    assert game_of(app, token).pending is None
    with app.app_context():  # that worker died: after 30 s the key is taken over
        row = db.session.scalars(db.select(IdempotentRequest)).one()
        row.created_at = row.created_at - idempotency.STALE - timedelta(seconds=1)
        db.session.commit()
    response = client.post(f"/g/{token}/entry", data=form, headers=keyed("busy-key-0001"))
    assert response.status_code == 200 and game_of(app, token).pending == {"trump": "S"}
    assert stored(app) == [("busy-key-0001", 200)]


@pytest.mark.postgresql
def test_the_same_key_at_the_same_instant_is_served_once(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    statuses: list[int] = []
    start_line = threading.Barrier(4)

    def send() -> None:
        phone = app.test_client()
        start_line.wait()
        statuses.append(
            phone.post(
                f"/g/{token}/entry", data={"action": "trump", "trump": "S"}, headers=keyed("same-instant-01")
            ).status_code
        )

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(statuses) <= {200, 409} and 200 in statuses, statuses
    assert stored(app) == [("same-instant-01", 200)]
    assert game_of(app, token).pending == {"trump": "S"}


def test_a_crash_gives_the_key_back_so_the_retry_runs(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = start(client)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the worker fell over")

    monkeypatch.setattr(games, "set_pending", broken)
    with pytest.raises(RuntimeError):
        client.post(f"/g/{token}/entry", data={"action": "trump", "trump": "S"}, headers=keyed("crash-key-001"))
    assert stored(app) == []
    monkeypatch.undo()
    response = client.post(f"/g/{token}/entry", data={"action": "trump", "trump": "S"}, headers=keyed("crash-key-001"))
    assert response.status_code == 200 and "Idempotent-Replayed" not in response.headers
    assert game_of(app, token).pending == {"trump": "S"}


def test_a_crash_after_the_entry_was_committed_is_never_run_twice(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker dies between committing the entry and storing its answer (bench/durability.py
    found a game created twice that way): the key stays, and the retry is told it was recorded."""
    token = start(client)
    original = games.set_pending

    def commit_then_die(*args: object, **kwargs: object) -> None:
        original(*args, **kwargs)  # type: ignore[arg-type]
        raise RuntimeError("killed after the commit")

    monkeypatch.setattr(games, "set_pending", commit_then_die)
    with pytest.raises(RuntimeError):
        client.post(f"/g/{token}/entry", data={"action": "bid", "bid": "1"}, headers=keyed("after-commit-1"))
    monkeypatch.undo()
    assert stored(app) == [("after-commit-1", idempotency.RECORDED)]
    again = client.post(f"/g/{token}/entry", data={"action": "bid", "bid": "1"}, headers=keyed("after-commit-1"))
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.data == idempotency.RECORDED_WORDS
    assert game_of(app, token).pending == {"bids": [None, 1, None, None]}  # once


def test_a_write_that_lost_the_race_for_the_game_row_is_a_409_never_a_500(app: Flask, client: FlaskClient) -> None:
    """Two phones save the same hand at the same moment: each read the game at the same revision,
    and the database takes the first write only (the ORM's version counter). The second phone is
    told so (409, in words: its screen was out of date), not shown a server error; nothing of its
    write is stored."""
    from sqlalchemy import event, update
    from sqlalchemy.orm import Session

    from scorepad.models import Game
    from tests.web.test_games import PARTNERS

    token = start(client, "whist", PARTNERS)

    def the_other_phone_wrote_first(session: Session, *args: object) -> None:
        with db.engine.begin() as conn:  # its commit lands between this request's read and its write
            conn.execute(update(Game).where(Game.scorer_token == token).values(revision=Game.revision + 1))

    event.listen(Session, "before_flush", the_other_phone_wrote_first, once=True)
    try:
        response = client.post(
            f"/g/{token}/entry",
            data={"action": "result", "number": "1", "trump": "S", "tricks": "7", "honours": ""},
            headers=HX,
        )
    finally:
        if event.contains(Session, "before_flush", the_other_phone_wrote_first):
            event.remove(Session, "before_flush", the_other_phone_wrote_first)
    assert response.status_code == 409, response.get_data(as_text=True)
    assert "This screen was out of date" in response.get_data(as_text=True)  # told as any stale screen
    assert hands_of(app, token) == []


@pytest.mark.postgresql
def test_a_replay_after_the_hand_was_undone_says_what_is_recorded_now(app: Flask, client: FlaskClient) -> None:
    """Issue 33, item 8: the old key's stored answer ("Hand 1 saved") was replayed after the hand had
    been undone, and nothing said it was not recorded any more."""
    token = start(client)
    bid_round_one(client, token, (1, 1, 0))
    assert client.post(f"/g/{token}/entry", data={"action": "bid", "bid": "1"}, headers=HX).status_code == 200
    tricks = {"action": "result", "number": "1", "tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"}
    first = client.post(f"/g/{token}/entry", data=tricks, headers=keyed("hand-1-tricks-0002"))
    assert first.status_code == 200 and "Hand 1 saved." in first.get_data(as_text=True)
    again = client.post(f"/g/{token}/entry", data=tricks, headers=keyed("hand-1-tricks-0002"))
    assert again.data == first.data and "Idempotent-Changed" not in again.headers  # nothing changed since
    assert client.post(f"/g/{token}/undo", headers=HX).status_code == 200  # the hand's last tap taken back
    with app.app_context():
        assert len(games.by_scorer_token(token).hands) == 0  # type: ignore[union-attr]
    late = app.test_client().post(f"/g/{token}/entry", data=tricks, headers=keyed("hand-1-tricks-0002"))
    assert late.status_code == 200
    assert late.headers["Idempotent-Replayed"] == "true" and late.headers["Idempotent-Changed"] == "true"
    words = late.get_data(as_text=True)
    assert "Hand 1 saved" not in words
    assert words == (
        "This entry was recorded when it first arrived, and the game has changed since (an undo, a "
        "correction or another phone's entry): 0 hands are recorded now, as the page shows."
    )
    assert hands_of(app, token) == []  # and the replay wrote nothing


@pytest.mark.postgresql
def test_every_keyed_answer_says_whether_it_recorded_anything(app: Flask, client: FlaskClient) -> None:
    """Issue 32, item 1: a Military table's keypad tap asks only for a preview; sent again from the
    outbox, its answer must not be told as recorded. Each keyed answer says so itself, and its replay
    says it again: a preview `false`, a confirmed result `true`, a refusal (nothing written) `false`."""
    from tests.web.test_events import create, table_tokens

    tables = table_tokens(app, create(client))
    hand = {"hand": "1", "tricks": "8", "revoke": "none"}
    preview = client.post(f"/t/{tables[0]}/preview", data=hand, headers=keyed("keypad-tap-0001"))
    assert preview.status_code == 200 and "Check before you confirm" in preview.get_data(as_text=True)
    assert preview.headers[idempotency.RECORDED_HEADER] == "false"
    again = client.post(f"/t/{tables[0]}/preview", data=hand, headers=keyed("keypad-tap-0001"))
    assert again.headers["Idempotent-Replayed"] == "true" and again.headers[idempotency.RECORDED_HEADER] == "false"
    assert again.data == preview.data

    confirmed = client.post(f"/t/{tables[0]}/result", data=hand, headers=keyed("confirm-tap-0001"))
    assert confirmed.status_code == 200 and confirmed.headers[idempotency.RECORDED_HEADER] == "true"
    again = client.post(f"/t/{tables[0]}/result", data=hand, headers=keyed("confirm-tap-0001"))
    assert again.headers["Idempotent-Replayed"] == "true" and again.headers[idempotency.RECORDED_HEADER] == "true"

    twice = client.post(f"/t/{tables[0]}/result", data=hand, headers=keyed("confirm-tap-0002"))
    assert twice.status_code == 409 and twice.headers[idempotency.RECORDED_HEADER] == "false"
    assert "Idempotent-Recorded" not in client.post(f"/t/{tables[1]}/preview", data=hand, headers=HX).headers


def test_a_commit_that_failed_leaves_the_key_to_be_marked_by_the_next_one(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A request's first commit fails (the other phone at the table got there first) and it commits
    again: the key is marked recorded in the commit that went through, and the answer says so."""
    from sqlalchemy import event
    from sqlalchemy.exc import IntegrityError
    from sqlalchemy.orm import Session

    from tests.web.test_events import create, table_tokens

    tables = table_tokens(app, create(client))
    failed: list[bool] = []
    marks: list[int | None] = []

    def fail_once(session: Session) -> None:
        if not failed and idempotency.has_request_context():
            failed.append(True)
            raise IntegrityError("INSERT", {}, Exception("the other phone at the table got there first"))

    def read_the_mark(session: Session) -> None:  # what a worker killed right now would leave
        if idempotency.has_request_context() and not marks:
            with db.engine.begin() as conn:
                marks.append(conn.execute(db.select(idempotency.TABLE.c.status)).scalar_one())

    event.listen(Session, "before_commit", fail_once)
    event.listen(Session, "after_commit", read_the_mark)
    try:
        answer = client.post(
            f"/t/{tables[0]}/result", data={"hand": "1", "tricks": "8", "revoke": "none"}, headers=keyed("retry-k-0001")
        )
    finally:
        event.remove(Session, "before_commit", fail_once)
        event.remove(Session, "after_commit", read_the_mark)
    assert failed and answer.status_code == 200, answer.get_data(as_text=True)
    assert marks == [idempotency.RECORDED]
    assert answer.headers[idempotency.RECORDED_HEADER] == "true"
    assert stored(app) == [("retry-k-0001", 200)]
