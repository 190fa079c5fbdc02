"""The `Idempotency-Key` request header: a write sent again with the same key is answered with what
the first one got, and done once.

A phone on venue Wi-Fi often sends a tap and never hears back (the answer was lost after the
server committed). Its page keeps the tap in an outbox and sends it again, with the key it made
for that tap. The key is recorded in the database before the request is served (a unique key:
two workers, or two retries at the same instant, cannot both take it), and the answer is stored
with it after. Then the same key again gets the stored answer (`Idempotent-Replayed: true`); the
same key with another request is refused (422); a key whose first request is still being served
gets 409 with `Retry-After`. A request that ends in a 5xx or an exception gives its key back, so a
retry runs it again. Keys are kept for KEEP, then forgotten.

A key also keeps the games its request wrote, with their revisions after the write. When one of
them has changed since (an undo, a correction, another phone's entry), the stored answer ("Hand 1
saved") is no longer the truth: the replay says the entry was recorded, that the game changed
since, and what is recorded now (`Idempotent-Changed: true`; the outbox shows it and redraws).

Every answer to a keyed request says whether the request recorded anything: `Idempotent-Recorded:
true` once one of its commits went through, `false` when it committed nothing (a Military table's
keypad tap asks only for a preview, and its Confirm records it), stored and replayed with the rest
of the answer. The outbox says "recorded" of a tap it sent again only on `true` (issue 32, item 1).

The rows are written on connections of their own, not the request's session, so storing an answer
never commits something a view left half done; but the request's own first commit also marks its
key RECORDED in the same transaction (`_mark_recorded`), so a worker killed between committing an
entry and storing its answer leaves a key that is answered "recorded", not run a second time.
(bench/durability.py found that double: a game created twice across a kill -9.)
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from datetime import datetime, timedelta
from typing import IO, Any

from flask import Flask, Response, g, has_request_context, request
from flask_babel import lazy_gettext, ngettext
from sqlalchemy import delete, event, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from scorepad.extensions import db
from scorepad.models import Game, Hand, IdempotentRequest, utcnow

HEADER = "Idempotency-Key"
RECORDED_HEADER = "Idempotent-Recorded"
KEY = re.compile(r"[A-Za-z0-9_.:-]{8,64}")
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
KEEP = timedelta(days=2)  # a phone asleep over night still gets its answer in the morning
STALE = timedelta(seconds=30)  # a first request "in progress" this long died with its worker
MAX_BODY = 512 * 1024
REPLAYED_HEADERS = (
    "Content-Type",
    "Location",
    "HX-Trigger",
    "HX-Redirect",
    "HX-Refresh",
    "HX-Retarget",
    "HX-Reswap",
    "HX-Push-Url",
    "Retry-After",
    RECORDED_HEADER,
)
TABLE = IdempotentRequest.__table__

BAD_KEY = lazy_gettext("The Idempotency-Key header must be 8 to 64 letters, digits, '-', '_', '.' or ':'.")
OTHER_REQUEST = lazy_gettext(
    "This Idempotency-Key was already used for a different request: nothing was done. "
    "Send each new entry with a key of its own."
)
IN_PROGRESS = lazy_gettext("This entry is still being recorded: its answer comes in a moment (try again in a second).")


def _now() -> datetime:
    return utcnow().replace(tzinfo=None)  # stored naive, in UTC


def _digest(stream: IO[bytes]) -> str:
    """An uploaded file's SHA-256, the stream put back at its start for the view to read."""
    digest = hashlib.sha256()
    for chunk in iter(lambda: stream.read(65536), b""):
        digest.update(chunk)
    stream.seek(0)
    return digest.hexdigest()


def fingerprint() -> str:
    """The request a key was made for: method, path, query, form and uploaded files (the CSRF token
    left out: a reloaded page sends the same entry with a new one)."""
    form = sorted((k, v) for k, v in request.form.items(multi=True) if k != "csrf_token")
    files = sorted((k, f.filename or "", _digest(f.stream)) for k, f in request.files.items(multi=True))
    raw = "" if form or files else request.get_data(cache=True).decode("utf-8", "replace")
    parts = [request.method, request.path, sorted(request.args.items(multi=True)), form, files, raw]
    return hashlib.sha256(json.dumps(parts, separators=(",", ":")).encode()).hexdigest()


def _refusal(status: int, message: object, **headers: str) -> Response:
    return Response(str(message), status=status, mimetype="text/plain", headers=headers)


RECORDED = 0  # `status` once the request's own changes are committed, before its answer is stored
RECORDED_WORDS = b"This entry was recorded. Reload the page to see it."


def _changed_since(written: dict[str, int] | None) -> int | None:
    """The game among those the request wrote that has changed since (a deleted one too), or None."""
    if not written:
        return None
    ids = [int(i) for i in written]
    with db.engine.begin() as conn:
        now = dict(conn.execute(select(Game.id, Game.revision).where(Game.id.in_(ids))).all())
    return next((i for i in ids if now.get(i, -1) != written[str(i)]), None)


def _recorded_now(game_id: int) -> Response:
    """The replay of an entry whose game changed since: what is recorded now, not the old answer."""
    with db.engine.begin() as conn:
        hands = conn.execute(select(func.count()).select_from(Hand).where(Hand.game_id == game_id)).scalar_one()
    words = ngettext(
        "This entry was recorded when it first arrived, and the game has changed since (an undo, a "
        "correction or another phone's entry): %(num)s hand is recorded now, as the page shows.",
        "This entry was recorded when it first arrived, and the game has changed since (an undo, a "
        "correction or another phone's entry): %(num)s hands are recorded now, as the page shows.",
        hands,
    )
    return Response(
        words,
        status=200,
        mimetype="text/plain",
        headers={
            "Idempotent-Replayed": "true",
            "Idempotent-Changed": "true",
            RECORDED_HEADER: "true",
            "HX-Refresh": "true",
        },
    )


def _replay(row: Any) -> Response:
    """The stored answer; for a request whose changes were committed but whose answer was never
    stored (its worker was killed in between), a plain "recorded", never a second run; for one whose
    game changed since, what is recorded now."""
    status, body = row.status, row.body
    changed = _changed_since(getattr(row, "written", None))
    if changed is not None:
        return _recorded_now(changed)
    if status == RECORDED:
        return Response(
            RECORDED_WORDS,
            status=200,
            mimetype="text/plain",
            headers={"Idempotent-Replayed": "true", RECORDED_HEADER: "true"},
        )
    response = Response(RECORDED_WORDS if body is None else body, status=status)
    for name, value in (row.headers or {}).items():
        response.headers[name] = value
    response.headers["Idempotent-Replayed"] = "true"
    return response


def _reserve(key: str, seen: str) -> Response | None:
    """Take the key for this request (None: go on and serve it), or answer from what is stored."""
    _let_go_of_the_session()  # an earlier before_request hook may have read something
    now = _now()
    if random.random() < 0.01:  # forget old keys now and then
        with db.engine.begin() as conn:
            conn.execute(delete(TABLE).where(TABLE.c.created_at < now - KEEP))
    try:
        with db.engine.begin() as conn:
            conn.execute(
                insert(TABLE).values(key=key, fingerprint=seen, status=None, headers={}, body=None, created_at=now)
            )
        return None
    except IntegrityError:
        pass
    with db.engine.begin() as conn:
        row = conn.execute(select(TABLE).where(TABLE.c.key == key)).first()
    if row is None:  # forgotten between the two statements: it will be taken next time
        return _refusal(409, IN_PROGRESS, **{"Retry-After": "1"})
    if row.fingerprint != seen:
        return _refusal(422, OTHER_REQUEST)
    if row.status is not None:
        return _replay(row)
    if now - row.created_at < STALE:
        return _refusal(409, IN_PROGRESS, **{"Retry-After": "1"})
    with db.engine.begin() as conn:  # its first request died unanswered: this one takes it over
        taken = conn.execute(
            update(TABLE)
            .where(TABLE.c.key == key, TABLE.c.status.is_(None), TABLE.c.created_at == row.created_at)
            .values(created_at=now)
        )
    return None if taken.rowcount else _refusal(409, IN_PROGRESS, **{"Retry-After": "1"})


def _let_go_of_the_session() -> None:
    """Give the request's own connection back to the pool before taking one for the key. A request
    holding two at once waits for the pool while keeping one: under a burst every connection is
    held by such a request and none comes back (tests/web/test_one_connection.py). What the view
    left uncommitted is rolled back, as the session's removal at the request's end does anyway."""
    db.session.rollback()


def _give_back(key: str) -> None:
    """Forget a key whose request changed nothing (a key marked RECORDED stays: its changes are in)."""
    _let_go_of_the_session()
    with db.engine.begin() as conn:
        conn.execute(delete(TABLE).where(TABLE.c.key == key, TABLE.c.status.is_(None)))


@event.listens_for(Session, "after_flush")
def _note_games_written(session: Session, context: object) -> None:
    """The games a keyed request writes, with their revisions once written (a deleted one: -1)."""
    if not has_request_context() or g.get("idempotency_key") is None:
        return
    written = g.setdefault("idempotency_written", {})
    for game in (*session.new, *session.dirty):
        if isinstance(game, Game) and game.id is not None:
            written[str(game.id)] = game.revision
    for game in session.deleted:
        if isinstance(game, Game):
            written[str(game.id)] = -1


def written(game_id: int, revision: int) -> None:
    """A game written by a statement of its own, not flushed by the ORM (a tap: games/service.py),
    noted as `_note_games_written` notes those flushed."""
    if has_request_context() and g.get("idempotency_key") is not None:
        g.setdefault("idempotency_written", {})[str(game_id)] = revision


@event.listens_for(Session, "before_commit")
def _mark_recorded(session: Session) -> None:
    """In the transaction of the request's first commit: its key's changes are now in. (Marked again
    in the next one when a commit fails and is rolled back, the mark with it.)"""
    if not has_request_context():
        return
    key = g.get("idempotency_key")
    if key is None or g.get("idempotency_recorded"):
        return
    session.execute(update(TABLE).where(TABLE.c.key == key, TABLE.c.status.is_(None)).values(status=RECORDED))


@event.listens_for(Session, "after_commit")
def _recorded(session: Session) -> None:
    """A commit of a keyed request went through: the request recorded something."""
    if has_request_context() and g.get("idempotency_key") is not None:
        g.idempotency_recorded = True


def init_app(app: Flask) -> None:
    """Register last: the key is taken after the CSRF and same-origin checks, and the answer is
    stored before compression (after_request hooks run in reverse order)."""

    @app.before_request
    def _take_key() -> Response | None:
        key = request.headers.get(HEADER)
        if key is None or request.method not in UNSAFE:
            return None
        if not KEY.fullmatch(key):
            return _refusal(400, BAD_KEY)
        answer = _reserve(key, fingerprint())
        if answer is None:
            g.idempotency_key = key
        return answer

    @app.after_request
    def _store_answer(response: Response) -> Response:
        key = g.pop("idempotency_key", None)
        if key is None:
            return response
        if response.status_code >= 500 or response.is_streamed:
            _give_back(key)
            return response
        response.headers[RECORDED_HEADER] = "true" if g.pop("idempotency_recorded", False) else "false"
        body = response.get_data()
        headers = {name: response.headers[name] for name in REPLAYED_HEADERS if name in response.headers}
        written = g.pop("idempotency_written", None) or None
        _let_go_of_the_session()
        with db.engine.begin() as conn:
            conn.execute(
                update(TABLE)
                .where(TABLE.c.key == key)
                .values(
                    status=response.status_code,
                    headers=headers,
                    body=body if len(body) <= MAX_BODY else None,
                    written=written,
                )
            )
        return response

    @app.teardown_request
    def _after_a_crash(error: BaseException | None) -> None:
        key = g.pop("idempotency_key", None)
        if key is not None:  # the request ended in an exception before an answer was stored
            _give_back(key)
