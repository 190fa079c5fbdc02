"""Publish/subscribe for live pages (server-sent events), in process.

One `Broker` per app (kept in `app.extensions`), so tests never share state. Each subscriber has
its own bounded queue: a slow phone drops old updates rather than holding the publisher, and it
loses nothing that matters because every update carries the whole fragment to show.
A deployment with several worker processes needs a shared broker instead (Redis or PostgreSQL
LISTEN/NOTIFY); run one worker with many threads until then.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from flask import Flask, Response, current_app, stream_with_context

HEARTBEAT_SECONDS = 15.0
QUEUE_SIZE = 16


@dataclass(frozen=True)
class Message:
    event: str
    data: str

    @cached_property
    def wire(self) -> str:
        """The message in the text/event-stream wire format, built once for all its subscribers.

        One data: line per line of HTML, indentation and blank lines left out (HTML does not need
        them, and a leaderboard goes to hundreds of screens on every push).
        """
        lines = [line.strip() for line in self.data.splitlines()]
        body = "".join(f"data: {line}\n" for line in lines if line) or "data: \n"
        return f"event: {self.event}\n{body}\n"

    def encode(self) -> str:
        return self.wire


class Subscription:
    """One listener's queue on one channel, optionally for some event names only; iterate it to get
    encoded SSE text. A leaderboard takes only the standings: the small notices sent on every entry
    would wake hundreds of projector and phone streams for nothing."""

    def __init__(self, broker: Broker, channel: str, only: frozenset[str] | None = None) -> None:
        self.broker = broker
        self.channel = channel
        self.only = only
        self.queue: queue.Queue[Message] = queue.Queue(maxsize=QUEUE_SIZE)

    def put(self, message: Message) -> None:
        if self.only is not None and message.event not in self.only:
            return
        try:
            self.queue.put_nowait(message)
        except queue.Full:  # a stalled client: drop its oldest update, keep the newest
            try:
                self.queue.get_nowait()
            except queue.Empty:
                pass
            self.queue.put_nowait(message)

    def stream(self, heartbeat: float = HEARTBEAT_SECONDS) -> Iterator[str]:
        """SSE text: each message as it comes, and a comment line as a heartbeat when idle."""
        try:
            yield ": connected\n\n"
            while True:
                try:
                    yield self.queue.get(timeout=heartbeat).encode()
                except queue.Empty:
                    yield ": ping\n\n"
        finally:
            self.close()

    def close(self) -> None:
        self.broker.unsubscribe(self)


class Broker:
    """Channels of subscribers; publishing fans a message out to every subscriber of a channel."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._channels: dict[str, set[Subscription]] = {}

    def subscribe(self, channel: str, only: frozenset[str] | None = None) -> Subscription:
        subscription = Subscription(self, channel, only)
        with self._lock:
            self._channels.setdefault(channel, set()).add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            listeners = self._channels.get(subscription.channel)
            if listeners is not None:
                listeners.discard(subscription)
                if not listeners:
                    del self._channels[subscription.channel]

    def publish(self, channel: str, event: str, data: str) -> int:
        """Send to every subscriber of `channel`; returns how many there were."""
        with self._lock:
            listeners = list(self._channels.get(channel, ()))
        message = Message(event, data)
        for subscription in listeners:
            subscription.put(message)
        return len(listeners)

    def count(self, channel: str) -> int:
        with self._lock:
            return len(self._channels.get(channel, ()))


def init_app(app: Flask) -> None:
    app.extensions["scorepad.live"] = Broker()


def broker() -> Broker:
    """The current app's broker."""
    found: Broker = current_app.extensions["scorepad.live"]
    return found


def sse_response(channel: str, only: frozenset[str] | None = None) -> Response:
    """A text/event-stream of `channel`'s messages (those named in `only`, when given), with
    heartbeats, unbuffered by proxies."""
    subscription = broker().subscribe(channel, only)
    heartbeat = current_app.config.get("SCOREPAD_HEARTBEAT", HEARTBEAT_SECONDS)

    def stream() -> Iterator[str]:
        yield from subscription.stream(heartbeat)

    response = Response(stream_with_context(stream()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
