"""What a change sends to the screens: an event's boards and its pages' signals (`boards`), a home
game's spectators' fragment (`spectators`).

The services announce each change when they commit it (`events.core.announce`,
`games.service`), through `live.announce`; the relay (live.py, live_pg.py) calls, in every worker,
the handler of the change's kind, registered here by `create_app` (`init_app`). A handler draws
what its worker's own streams show, once per language they are read in, and fans it out. Views
never publish: a write whose view forgot to would leave a projector stale.
"""

from __future__ import annotations

from flask import Flask, Response

from scorepad import live
from scorepad.live import TooManyStreams, stream_url
from scorepad.pushes import boards, spectators

__all__ = ["TooManyStreams", "init_app", "stream", "stream_url"]


def init_app(app: Flask) -> None:
    """Let this app's relay show each kind of change: an event's (`event:<public id>`) and a home
    game's (`game:<public id>`)."""
    live.on(app, "event", boards.show)
    live.on(app, "game", spectators.show)


def stream(
    channel: str, only: frozenset[str] | None = None, language: str = "", heard_on: str | None = None
) -> Response:
    """A page's live stream of `channel` (see `live.sse_response`): TooManyStreams past the limits."""
    return live.sse_response(channel, only, language, heard_on)
