"""Publish/subscribe for live pages (server-sent events).

Two layers. `Broker` is this process's streams: one per app (kept in `app.extensions`), so tests
never share state; each subscriber has its own bounded queue, so a slow phone drops old updates
rather than holding the publisher, and it loses nothing that matters because every update carries
the whole fragment to show (or, for a page that hears every table's signals, is room enough for
one from each table). `Relay` carries what changed (a channel's kind, its key, a few small
values, never a page) to a handler of that kind in every worker process, which renders what its
own streams show once and fans it out to them. The in-process relay (SQLite, one worker) calls the
handler here and now; the PostgreSQL one (`live_pg.py`) also tells the other workers, by NOTIFY.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from flask import Flask, Response, current_app, g, request, stream_with_context, url_for
from flask_babel import gettext

HEARTBEAT_SECONDS = 15.0
QUEUE_SIZE = 16
# A page that hears every table's signals (`table-*`: a team's page drawn before it asked for
# `team-<n>` alone) gets one from each table when the hall signs at once: with 16 places the
# oldest, perhaps its own table's, would be dropped and the page would never ask again
# (bench/bid_whist_load.py --sign-window 2 shows it).
# Room for a signal from each table of a 1,024-team hall; the messages are shared, so a place costs
# a pointer (a stalled page still drops its oldest beyond that).
PREFIX_QUEUE_SIZE = 512
# Open live streams: in all (a worker of `scorepad run` holds 1,000 connections, serve.py: leave some for
# requests), and per client address (a venue's phones each have their own on the LAN).
MAX_STREAMS, MAX_STREAMS_PER_CLIENT = 800, 20


class TooManyStreams(Exception):
    """A new live stream would pass a limit; the message says which, for the page's alert bar."""


@dataclass(frozen=True)
class Message:
    event: str
    data: str
    # what a listener gets that did not ask for `event` by name: a board's patch goes to the pages
    # that ask for patches, the whole board to every other (a page drawn before patches existed)
    fallback: Message | None = None

    @cached_property
    def wire(self) -> bytes:
        """The message in the text/event-stream wire format, built and encoded once for all its
        subscribers (encoding a leaderboard again for each of hundreds of streams would be a fifth
        of the server's time under load).

        One data: line per line of HTML, indentation and blank lines left out (HTML does not need
        them, and a leaderboard goes to hundreds of screens on every push).
        """
        lines = [line.strip() for line in self.data.splitlines()]
        body = "".join(f"data: {line}\n" for line in lines if line) or "data: \n"
        return f"event: {self.event}\n{body}\n".encode()

    def encode(self) -> bytes:
        return self.wire


class Subscription:
    """One listener's queue on one channel, optionally for some event names only; iterate it to get
    encoded SSE text. A leaderboard takes only the standings: the small notices sent on every entry
    would wake hundreds of projector and phone streams for nothing. `language`: the page's, when the
    pushes are drawn once per language (a home game's spectators); empty when they are not."""

    def __init__(
        self, broker: Broker, channel: str, only: frozenset[str] | None = None, client: str = "", language: str = ""
    ) -> None:
        self.broker = broker
        self.channel = channel
        self.only = only
        # "table-*" in `only`: every name that starts "table-" (a team's page, whose table changes by
        # round, asked so before `team-<n>`)
        self.starts = tuple(name[:-1] for name in only or () if name.endswith("*"))
        self.client = client
        self.language = language
        self.queue: queue.Queue[Message] = queue.Queue(maxsize=PREFIX_QUEUE_SIZE if self.starts else QUEUE_SIZE)

    def takes(self, event: str) -> bool:
        return self.only is None or event in self.only or (bool(self.starts) and event.startswith(self.starts))

    def put(self, message: Message) -> None:
        """Queue `message` if this listener takes its event name (or its fallback's)."""
        if message.fallback is not None and (self.only is None or not self.takes(message.event)):
            message = message.fallback  # a page that did not ask for this kind (a patch) gets the whole
        if not self.takes(message.event):
            return
        try:
            self.queue.put_nowait(message)
        except queue.Full:  # a stalled client: drop its oldest update, keep the newest
            try:
                self.queue.get_nowait()
            except queue.Empty:
                pass
            self.queue.put_nowait(message)

    def stream(self, heartbeat: float = HEARTBEAT_SECONDS) -> Iterator[bytes]:
        """SSE bytes: each message as it comes, and a comment line as a heartbeat when idle."""
        try:
            yield b": connected\n\n"
            while True:
                try:
                    yield self.queue.get(timeout=heartbeat).encode()
                except queue.Empty:
                    yield b": ping\n\n"
        finally:
            self.close()

    def close(self) -> None:
        self.broker.unsubscribe(self)


class Broker:
    """Channels of subscribers; publishing fans a message out to every subscriber of a channel."""

    def __init__(self, most: int = MAX_STREAMS, most_per_client: int = MAX_STREAMS_PER_CLIENT) -> None:
        self._lock = threading.Lock()
        self._channels: dict[str, set[Subscription]] = {}
        self._clients: dict[str, int] = {}  # open streams by client address
        self.most, self.most_per_client = most, most_per_client
        # When this process last heard of a change on each channel (`heard`), and since when it has
        # heard every change (`deaf_until`: its start, or the relay's last reconnection): what a
        # stream opened here asks when its page was drawn (`missed`).
        self._heard: dict[str, float] = {}
        self.deaf_until = time.time()

    def heard(self, channel: str) -> None:
        """Note that `channel` changed now (the relay calls this before the channel's handler)."""
        self._heard[channel] = time.time()

    def deaf(self) -> None:
        """This process may have missed changes until now (its relay lost touch with the others)."""
        self.deaf_until = time.time()

    def missed(self, channel: str, since: float) -> bool:
        """Whether a page drawn from what was stored at `since` (a request's start, time.time())
        may not show every change of `channel`: one was heard since, or this process was not
        listening then. A change committed after the page's reads began is heard after `since`."""
        return since <= self.deaf_until or self._heard.get(channel, 0.0) >= since

    def subscribe(
        self, channel: str, only: frozenset[str] | None = None, client: str = "", language: str = ""
    ) -> Subscription:
        """A new listener; TooManyStreams when the server, or this client, holds as many as allowed
        (each open stream holds a connection of the worker: a thousand from one client would leave
        none for the phones entering scores)."""
        subscription = Subscription(self, channel, only, client, language)
        with self._lock:
            if sum(self._clients.values()) >= self.most:
                raise TooManyStreams(
                    gettext(
                        "The server is following as many live pages as it can; this page "
                        "will try again by itself in a moment."
                    )
                )
            if self._clients.get(client, 0) >= self.most_per_client:
                raise TooManyStreams(
                    gettext(
                        "This device already has %(count)s live pages open: close some tabs, "
                        "and this one will try again by itself.",
                        count=self.most_per_client,
                    )
                )
            self._channels.setdefault(channel, set()).add(subscription)
            self._clients[client] = self._clients.get(client, 0) + 1
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """Let a listener go (once: a closed stream may be closed again by the server)."""
        with self._lock:
            listeners = self._channels.get(subscription.channel)
            if listeners is None or subscription not in listeners:
                return
            listeners.discard(subscription)
            if not listeners:
                del self._channels[subscription.channel]
            left = self._clients.get(subscription.client, 1) - 1
            if left > 0:
                self._clients[subscription.client] = left
            else:
                self._clients.pop(subscription.client, None)

    def open_streams(self, client: str | None = None) -> int:
        with self._lock:
            return sum(self._clients.values()) if client is None else self._clients.get(client, 0)

    def publish(
        self,
        channel: str,
        event: str,
        data: str,
        background: bool = False,
        fallback: tuple[str, str] | None = None,
        language: str | None = None,
    ) -> int:
        """Send to every subscriber of `channel` (those whose page is in `language`, when given);
        returns how many there were.

        `background` (a push made off any request): under gevent, wake the listeners a batch at a
        time and let waiting requests run in between. Waking two hundred leaderboards at once would
        make every request that arrives meanwhile wait for all their writes (15 ms a push)."""
        with self._lock:
            listeners = [s for s in self._channels.get(channel, ()) if language is None or s.language == language]
        message = Message(event, data, Message(*fallback) if fallback is not None else None)
        pause = _fan_out_pause() if background else None
        for i, subscription in enumerate(listeners):
            if pause is not None and i and i % FAN_OUT_BATCH == 0:
                pause()
            subscription.put(message)
        return len(listeners)

    def count(self, channel: str) -> int:
        with self._lock:
            return len(self._channels.get(channel, ()))

    def languages(self, channel: str, events: frozenset[str] | None = None) -> set[str]:
        """The languages of the pages listening on `channel` (what a push is drawn in, once each);
        `events`: of those pages only that take one of these event names (an event's leaderboards,
        not its control rooms and table phones, which are told a hand number)."""
        with self._lock:
            return {
                s.language
                for s in self._channels.get(channel, ())
                if events is None or s.only is None or s.only & events
            }

    def channels(self) -> list[str]:
        """The channels someone listens to now."""
        with self._lock:
            return list(self._channels)


FAN_OUT_BATCH = 25
IDLE_WAIT = 0.05  # seconds: a push waits at most this long for the requests under way to answer


def _on_gevent() -> bool:
    gevent = sys.modules.get("gevent")
    if gevent is None:
        return False
    from gevent import monkey

    return bool(monkey.is_module_patched("socket"))


def _fan_out_pause() -> Callable[[], object] | None:
    """Between two batches of a fan-out, under gevent: let every greenlet ready now run once (the
    streams just woken write, the requests waiting take a turn), then go on. Not gevent.idle: under
    a steady load the loop is never idle, and a push waited there 1.7 s with half its screens sent
    (bench/bid_whist_load.py: 25 of 50 streams at once, the other 25 1.7 s later)."""
    if not _on_gevent():
        return None
    import gevent

    return lambda: gevent.sleep(0)


def let_requests_run() -> None:
    """Under gevent, let the requests waiting now answer before a background push is derived: until
    the loop is idle, but for IDLE_WAIT at most (a steady load may never leave it idle)."""
    if not _on_gevent():
        return
    import gevent

    with gevent.Timeout(IDLE_WAIT, False):
        gevent.idle()


# handler(key, data, **local): show what changed on channel "<kind>:<key>" to this process's streams.
# `data` is what the announcer sent ({} after the relay lost touch: show what is stored now);
# `local` holds objects the announcing request already has (never sent to other workers).
Handler = Callable[..., None]


class Relay:
    """How a change reaches every worker's handlers: here, this process only (SQLite: one worker)."""

    name = "in-process"
    shared = False  # True when the workers of other processes hear the changes too

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.handlers: dict[str, Handler] = {}

    def on(self, kind: str, handler: Handler) -> None:
        self.handlers[kind] = handler

    def announce(self, kind: str, key: str, data: Mapping[str, object], **local: object) -> None:
        """Tell every worker that `<kind>:<key>` changed: the others first (they work meanwhile),
        then this process's handler, now, in the caller's context."""
        self.send(kind, key, data)
        self.deliver(kind, key, data, **local)

    def deliver(self, kind: str, key: str, data: Mapping[str, object], **local: object) -> None:
        """Show a change heard (here or from another worker) to this process's streams."""
        broker_of(self.app).heard(f"{kind}:{key}")
        self.handlers[kind](key, data, **local)

    def send(self, kind: str, key: str, data: Mapping[str, object]) -> None:
        """Tell the other worker processes (none here)."""

    def start(self) -> None:
        """Start hearing the other workers (nothing to hear here)."""

    def stop(self) -> None:
        """Stop hearing them."""

    def refresh(self) -> None:
        """Have every channel with a listener here shown afresh: the changes announced while this
        process could not hear them are lost, what is stored is not."""
        broker_of(self.app).deaf()
        for channel in broker_of(self.app).channels():
            kind, _, key = channel.partition(":")
            handler = self.handlers.get(kind)
            if handler is not None:
                handler(key, {})


def init_app(app: Flask) -> None:
    app.extensions["scorepad.live"] = Broker(
        app.config.get("SCOREPAD_MAX_STREAMS", MAX_STREAMS),
        app.config.get("SCOREPAD_MAX_STREAMS_PER_CLIENT", MAX_STREAMS_PER_CLIENT),
    )
    app.extensions["scorepad.relay"] = Relay(app)  # the in-process one; live_pg.init_app may choose another
    app.before_request(note_request_start)
    app.add_template_global(stream_url)


def broker_of(app: Flask) -> Broker:
    found: Broker = app.extensions["scorepad.live"]
    return found


def relay_of(app: Flask) -> Relay:
    found: Relay = app.extensions["scorepad.relay"]
    return found


def on(app: Flask, kind: str, handler: Handler) -> None:
    """Let `handler` show the changes announced on `<kind>:<key>` channels, in every worker."""
    relay_of(app).on(kind, handler)


def announce(kind: str, key: str, data: Mapping[str, object], **local: object) -> None:
    """Tell every worker's handler that `<kind>:<key>` changed (see Relay.announce)."""
    relay_of(current_app).announce(kind, key, data, **local)


def broker() -> Broker:
    """The current app's broker (this process's streams)."""
    return broker_of(current_app)


MISSED = Message("missed", "1")


def note_request_start() -> None:
    """Before each request: when it began, as `stream_url` tells a page's live stream."""
    g.request_start = time.time()


def stream_url(endpoint: str, **values: Any) -> str:
    """The URL of a live stream opened by the page this request draws: with `since`, when the
    request began (before anything it shows was read), so the stream can say what it missed."""
    return url_for(endpoint, **values, since=int(g.get("request_start", 0.0) * 1000))  # ms, rounded down


def sse_response(
    channel: str, only: frozenset[str] | None = None, language: str = "", heard_on: str | None = None
) -> Response:
    """A text/event-stream of `channel`'s messages (those named in `only`, when given; those drawn
    in `language`, the page's, when its pushes are drawn once per language), with heartbeats,
    unbuffered by proxies. TooManyStreams past the limits; the listener is let go when
    the server closes the response, even one that never started streaming.

    A stream opened with `?since=` (`stream_url`: when its page's request began) first says
    `missed` when a change of `heard_on` (the channel announced, `channel` when not given) may have
    come between the page's reads and this listener: the page fetches what it shows again
    (static/js/app.js). Asked only once the listener is in, so no change falls between the two."""
    if not current_app.testing:  # a server not started by `scorepad run` (plain gunicorn): listen now
        relay_of(current_app).start()
    subscription = broker().subscribe(channel, only, request.remote_addr or "", language)
    since = request.args.get("since", type=int)
    if since is not None and broker().missed(heard_on or channel, since / 1000):
        subscription.queue.put_nowait(MISSED)  # whatever the page asked for: its queue is empty yet
    heartbeat = current_app.config.get("SCOREPAD_HEARTBEAT", HEARTBEAT_SECONDS)

    def stream() -> Iterator[bytes]:
        yield from subscription.stream(heartbeat)

    response = Response(stream_with_context(stream()), mimetype="text/event-stream")
    response.call_on_close(subscription.close)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
