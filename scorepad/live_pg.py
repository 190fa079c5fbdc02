"""The shared broker on PostgreSQL: LISTEN/NOTIFY on the app's own database, no other service.

A change is announced by `NOTIFY scorepad_live` with a small JSON payload (the channel's kind and
key and a few values: NOTIFY carries at most 8,000 bytes, and a leaderboard is larger), sent after
the write committed, so every worker that hears it reads the change; it goes out on a connection
of its own (one per worker), never a second one from the request's pool. Each worker holds one
connection that LISTENs (a thread, a greenlet under gevent: psycopg 3 waits cooperatively) and,
on a notice from another worker, runs that kind's handler in an app context: the handler renders
what its own streams show once and fans it out to them. Its own notices it skips: the announcing
request already ran the handler.

When the database goes away (a restart), the listener logs a warning and connects again, then has
every channel it serves shown afresh: what was announced meanwhile is lost, what is stored is not.
The choice of relay (`relay_for`, by SCOREPAD_BROKER) is made here, not in live.py, which it builds on.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import threading
from collections.abc import Mapping
from typing import Any

from flask import Flask
from sqlalchemy.engine import make_url

from scorepad.live import Relay, broker_of

log = logging.getLogger("scorepad.live")

CHANNEL = "scorepad_live"  # the PostgreSQL notification channel (one per database)
MAX_PAYLOAD = 7999  # bytes: PostgreSQL refuses a NOTIFY payload of 8,000 or more
POLL_SECONDS = 1.0  # how often the listener looks up from waiting (to stop when asked)
RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)  # waits between tries to connect again, the last repeated
START_SECONDS = 10.0  # how long a starting worker waits for its listener before serving anyway


def connect_kwargs(url: str) -> dict[str, Any]:
    """psycopg.connect's keywords for a SQLAlchemy URL (whatever driver it names): host, port,
    user, password, dbname, and the query's options (a socket folder as ?host=..., sslmode...)."""
    parsed = make_url(url)
    kwargs: dict[str, Any] = {
        k: v for k, v in parsed.translate_connect_args(username="user", database="dbname").items() if v is not None
    }
    kwargs.update({k: v if isinstance(v, str) else v[-1] for k, v in parsed.query.items()})
    return kwargs


class PostgresRelay(Relay):
    """The relay for several workers on one PostgreSQL database."""

    name = "postgresql"
    shared = True

    def __init__(self, app: Flask) -> None:
        super().__init__(app)
        self.origin = f"{os.getpid()}-{secrets.token_hex(4)}"  # this worker's notices, to skip them
        self.listening = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()
        # NOTIFY goes out on a connection of its own, not the request's pool: a request that still
        # holds its session's connection would otherwise take a second one, and under a burst every
        # pooled connection could be held by such a request waiting for another (tests/web/test_one_connection.py)
        self._sender: Any = None  # a psycopg connection, made on the first notice
        self._sending = threading.Lock()

    def send(self, kind: str, key: str, data: Mapping[str, object]) -> None:
        """NOTIFY the other workers. A failure is logged, never raised: the write it follows is
        committed, and this worker's own streams are told anyway."""
        payload = json.dumps({"o": self.origin, "k": kind, "key": key, "d": dict(data)}, separators=(",", ":"))
        if len(payload.encode()) > MAX_PAYLOAD:
            raise ValueError(
                f"a live notice of {len(payload.encode())} bytes: NOTIFY carries what changed, not the page"
            )
        import psycopg

        with self._sending:
            for attempt in (1, 2):  # a connection the database dropped (a restart) is made again once
                try:
                    if self._sender is None or self._sender.closed:
                        self._sender = psycopg.connect(**self._connect_kwargs(), autocommit=True)
                    self._sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                    return
                except psycopg.Error as e:
                    self._close_sender()
                    if attempt == 2:
                        log.warning(
                            "Live update for %s:%s not sent to the other workers (%s); their screens "
                            "catch up on the next one.",
                            kind,
                            key,
                            e.__class__.__name__,
                        )

    def _connect_kwargs(self) -> dict[str, Any]:
        from scorepad.extensions import db

        with self.app.app_context():
            return connect_kwargs(db.engine.url.render_as_string(hide_password=False))

    def _close_sender(self) -> None:
        sender, self._sender = self._sender, None
        if sender is not None:
            try:
                sender.close()
            except Exception:  # already broken: nothing to give back
                pass

    def start(self, wait: float = START_SECONDS) -> None:
        """Start this worker's listener, once; wait (at most `wait` seconds) until it listens."""
        with self._starting:
            if self._thread is not None:
                return
            self._stopping.clear()
            self._thread = threading.Thread(target=self._listen, name="scorepad-live-listener", daemon=True)
            self._thread.start()
        if not self.listening.wait(wait):
            log.warning("Live updates: not listening to the other workers yet; going on, still trying.")

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=POLL_SECONDS * 3)
            self._thread = None
        self.listening.clear()
        with self._sending:
            self._close_sender()

    def _listen(self) -> None:
        import psycopg

        kwargs = self._connect_kwargs()
        tries = 0
        while not self._stopping.is_set():
            try:
                with psycopg.connect(**kwargs, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    broker_of(self.app).deaf()  # what the others said before now was not heard here
                    self.listening.set()
                    if tries:
                        log.warning(
                            "Live updates: listening to the other workers again; showing every open page afresh."
                        )
                        self._run(self.refresh)
                    tries = 0
                    while not self._stopping.is_set():
                        for notice in conn.notifies(timeout=POLL_SECONDS):
                            self.receive(notice.payload)
            except psycopg.Error as e:
                self.listening.clear()
                wait = RETRY_SECONDS[min(tries, len(RETRY_SECONDS) - 1)]
                tries += 1
                log.warning(
                    "Live updates: lost the database connection that hears the other workers (%s); "
                    "trying again in %.1f s.",
                    str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__,
                    wait,
                )
                self._stopping.wait(wait)

    def receive(self, payload: str) -> None:
        """Run the handler of a notice from another worker (one's own was handled when announced)."""
        try:
            notice = json.loads(payload)
            if notice["o"] == self.origin:
                return
            kind = str(notice["k"])
            if kind not in self.handlers:
                raise KeyError(kind)
        except (ValueError, KeyError, TypeError):
            log.warning("Live updates: a notice that is not Scorepad's was ignored: %.100s", payload)
            return
        self._run(lambda: self.deliver(kind, str(notice["key"]), notice["d"]))

    def _run(self, work: Any) -> None:
        """Do `work` in an app context with a database session of its own, closed after; a failure is
        logged (the listener goes on with the next notice)."""
        from scorepad.extensions import db

        with self.app.app_context():
            try:
                work()
            except Exception:
                log.exception("Live updates: showing a change failed")
            finally:
                db.session.remove()


def relay_for(app: Flask) -> Relay:
    """The relay that SCOREPAD_BROKER names: `memory` (in-process), `postgresql` (LISTEN/NOTIFY on
    the app's own database), or unset/`auto`: PostgreSQL's when the database is PostgreSQL."""
    choice = (app.config.get("SCOREPAD_BROKER") or "auto").strip().lower()
    on_postgresql = str(app.config.get("SQLALCHEMY_DATABASE_URI", "")).startswith("postgresql")
    if choice == "auto":
        choice = "postgresql" if on_postgresql else "memory"
    if choice == "memory":
        return Relay(app)
    if choice == "postgresql":
        if not on_postgresql:
            raise ValueError(
                "SCOREPAD_BROKER=postgresql uses the app's own database: set DATABASE_URL to a "
                "PostgreSQL database, or leave SCOREPAD_BROKER unset on SQLite."
            )
        return PostgresRelay(app)
    raise ValueError(f"SCOREPAD_BROKER={choice}: choose memory or postgresql, or leave it unset (auto).")


def init_app(app: Flask) -> None:
    """Put the relay SCOREPAD_BROKER names in place of live.init_app's in-process one."""
    app.extensions["scorepad.relay"] = relay_for(app)
