"""An event's screens: the signals its pages listen for, and its leaderboard, drawn once per push.

`show` runs in every worker on hearing that an event changed (`events.core.announce`): the small
signals (`changed`, `orders`, a table's or a team's own) go out at once; the leaderboard is
coalesced (at most one push per PUSH_WINDOW per event), drawn off the request on a thread of its
own (a greenlet under gevent) once per language its screens read, and sent whole or as the parts
that changed (`board_parts`).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Mapping

from flask import Flask, current_app, render_template

from scorepad import i18n, live
from scorepad.events import core
from scorepad.events.core import Event
from scorepad.events.registry import get_format
from scorepad.pushes import board_parts


def channel(public_id: str) -> str:
    """An event's live channel: its pages' streams, and what `events.core.announce` names."""
    return f"event:{public_id}"


def show(public_id: str, data: Mapping[str, object]) -> None:
    """Show an event's change to this worker's streams (each worker runs this on hearing it).

    `changed` (and `orders` when the hand in play or its orders changed: the director advanced,
    corrected, lent flags) go out at once; they are tiny, and the table phones refetch their panel
    only on `orders`, so a table's entry does not interrupt another table in the middle of its own.
    The standings fragment is larger and goes to every leaderboard, so it is coalesced: at most one
    push per PUSH_WINDOW per event, rendered here with the latest results when it goes.
    """
    name = channel(public_id)
    broker = live.broker()
    if not broker.count(name):
        return  # nobody follows this event here
    if "hand" not in data:  # shown afresh (the relay lost touch): orders too, the phones may have missed some
        event = core.by_public_id(public_id)
        if event is None:
            return
        data = {"hand": event.current_hand, "orders": True}
        broker.publish(name, "timer", "1")  # an empty message is never dispatched
    elif data.get("timer"):  # the round timer alone: its clocks fetch it again; nothing else changed
        broker.publish(name, "timer", "1")  # an empty message is never dispatched
        return
    broker.publish(name, "changed", str(data["hand"]))
    if data.get("orders"):
        broker.publish(name, "orders", str(data["hand"]))
    if data.get("table") is not None:
        broker.publish(name, f"table-{data['table']}", str(data["hand"]))
    for number in data.get("teams") or ():  # type: ignore[attr-defined]
        broker.publish(name, f"team-{number}", str(data["hand"]))
    _push_board(current_app._get_current_object(), public_id, name)  # type: ignore[attr-defined]


STREAM_EVENTS = frozenset({"board", "patch", "changed", "orders", "timer"})
# one table's own changes (`table-*`: any table's, as a team's page drawn before `team-<n>` asked);
# one team's own (its table's, whichever table it is at this round)
OWN_EVENT = re.compile(r"(table-(\d{1,4}|\*))|(team-\d{1,4})")
BOARD_EVENTS = frozenset({"board", "patch"})  # the pushes drawn in their reader's language
# Seconds: the leaderboard shows a burst of entries at most this much later. Short, because a screen's
# wait from an entry is mostly this window; long enough that a burst of entries is drawn once (the
# measurements behind the figure are in docs/benchmarks.md).
PUSH_WINDOW = 0.025


class _Pushes:
    """Per app: when each event's board was last pushed, and whether a trailing push is scheduled."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.last: dict[str, float] = {}
        self.scheduled: set[str] = set()
        self.sent: dict[
            tuple[str, str], board_parts.Board
        ] = {}  # the board each channel's screens show now, by language
        # a format that keeps its board's view (Bid Whist) gives the same object while nothing on it
        # changed: the board drawn from it is drawn again from nothing (by channel and language)
        self.drawn: dict[tuple[str, str], tuple[tuple[object, ...], board_parts.Board]] = {}
        # one push of a channel at a time: a push scheduled while the last one was still drawing would
        # otherwise read newer rows, send first, and be overtaken by the older board (a patch from the
        # newer version back to the older, leaving the screens a result behind)
        self.drawing: dict[str, threading.Lock] = {}


def _pushes(app: Flask) -> _Pushes:
    found: _Pushes = app.extensions.setdefault("scorepad.board_pushes", _Pushes())
    return found


def _push_board(app: Flask, public_id: str, name: str) -> None:
    """Schedule a push of the standings: at once after a quiet spell, else at the end of the window.

    The push renders and fans out on its own thread (a greenlet under gevent), after the entry's
    answer: the phone that entered a result does not wait for two hundred leaderboards.
    """
    state = _pushes(app)
    with state.lock:
        if name in state.scheduled:
            return  # the push already scheduled will carry this change too
        state.scheduled.add(name)
        wait = max(0.0, state.last.get(name, 0.0) + PUSH_WINDOW - time.monotonic())
    timer = threading.Timer(wait, _trailing_push, (app, public_id, name))
    timer.daemon = True
    timer.start()


def _trailing_push(app: Flask, public_id: str, name: str) -> None:
    state = _pushes(app)
    with app.app_context():
        with state.lock:
            state.scheduled.discard(name)
            state.last[name] = time.monotonic()
        live.let_requests_run()  # the requests waiting now answer before the board is derived
        with state.lock:
            drawing = state.drawing.setdefault(name, threading.Lock())
        with drawing:  # the rows are read once the push before has been sent
            languages = live.broker().languages(name, BOARD_EVENTS)
            event = core.by_public_id(public_id) if languages else None
            if event is not None:
                for language in sorted(languages):  # usually one: the hall's
                    _push_in(state, name, language, event)
            core.end_session()


def _push_in(state: _Pushes, name: str, language: str, event: Event) -> None:
    """Draw the board in `language` and send it, or the parts that changed since the last one sent in
    it, to the leaderboards read in it (each language's board has its own versions). The format's
    board words are said in it too: its context is made while speaking it."""
    with i18n.speaking(language):
        board = _drawn(state, (name, language), *board_context(event))
    with state.lock:  # a bid or a call changes nothing on a board: its screens are not woken
        before, state.sent[name, language] = state.sent.get((name, language)), board
    if before is not None and before.version == board.version:
        return
    changed = board_parts.patch(before, board) if before is not None else None
    if changed is None:
        live.broker().publish(name, "board", board.html, background=True, language=language)
    else:  # the screens that take patches get the changed parts, the others the whole board
        live.broker().publish(
            name, "patch", changed, background=True, fallback=("board", board.html), language=language
        )


def _drawn(state: _Pushes, key: tuple[str, str], folder: str, context: dict[str, object]) -> board_parts.Board:
    """The board of `context`, not rendered again when its format kept the view and gave the very
    object the last push was drawn from (a call or a bid: 2 ms instead of 17 for 128 teams). The
    kept view's key covers the event row the template also reads; the language is in `key`."""
    event = context["event"]
    assert isinstance(event, Event)
    views = tuple(v for k, v in context.items() if k not in ("event", "pages"))
    if get_format(event.format).keeps_board:
        with state.lock:
            last = state.drawn.get(key)
        if last is not None and len(last[0]) == len(views) and all(a is b for a, b in zip(last[0], views)):
            return last[1]
    board = render_board(folder, context)
    with state.lock:
        state.drawn[key] = (views, board)  # the views held, so no other object can take their id
    return board


def board_context(event: Event) -> tuple[str, dict[str, object]]:
    """The template folder and context of an event's boards, by its format."""
    fmt = get_format(event.format)
    return fmt.pages, {"event": event, "pages": fmt.pages, **fmt.board(event)}


def render_board(folder: str, context: Mapping[str, object]) -> board_parts.Board:
    """An event's board fragment (from `board_context`), versioned: the same for the pages, their
    catch-up and the pushes."""
    return board_parts.read(render_template(f"{folder}/_board.html", **context))
