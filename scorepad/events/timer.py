"""The round timer of any event format (issue 30, item 1): the director gives each round (a hand
in Military Whist) some minutes, starts, pauses, resumes and adds time; every table's page, the
control room and the projector count down the same clock.

The clock is the server's: a running timer stores when it ends, a paused one what was left, and a
page is given the end and the server's time at the moment it was drawn (`TimerView`), from which
it counts down on its own monotonic clock (static/js/app.js), never from the phone's date and
time. Nothing waits on it: at zero the pages say time is up and everything stays open (the
director decides). Each change commits, then announces itself (`core.announce`, `Signals(timer=True)`),
so the pages fetch their timer again over their live stream.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from scorepad.events import core
from scorepad.events.core import Event
from scorepad.extensions import db
from scorepad.models import RoundTimer
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.errors import M, Message

MINUTES_MAX = 180  # a round of three hours is already a whole session
ADD_MAX = 60  # added at once
LEFT_MAX_MS = (MINUTES_MAX + ADD_MAX) * 60_000  # what may be left after adding time
WARN_MS = 2 * 60_000  # the gentle warning: two minutes left

OFF, RUNNING, PAUSED = "off", "running", "paused"


def _utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)  # stored naive, as both databases hand it back


clock: Callable[[], datetime] = _utcnow  # the server's time (the tests set it)


class TimerStateError(Exception):
    """The timer is not in a state where that can be done (paused twice, time added to none)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class TimerView:
    """The timer as a page draws it, at the server's `now`."""

    minutes: int | None  # per round; None: never set
    state: str  # OFF, RUNNING or PAUSED
    left_ms: int  # what is left now (0 once time is up); the whole round when off
    ends_ms: int | None  # when a running timer ends, in milliseconds since 1970 (UTC), server time
    now_ms: int  # the server's time when this was drawn

    @property
    def up(self) -> bool:
        return self.state == RUNNING and self.left_ms <= 0

    @property
    def warning(self) -> bool:
        return self.state != OFF and 0 < self.left_ms <= WARN_MS

    @property
    def warn_ms(self) -> int:
        return WARN_MS


def _ms(moment: datetime) -> int:
    return int(moment.replace(tzinfo=UTC).timestamp() * 1000)


def view(event: Event, now: datetime | None = None) -> TimerView:
    """The event's timer at `now` (the server's time by default)."""
    now = now or clock()
    row = event.timer
    if row is None:
        return TimerView(None, OFF, 0, None, _ms(now))
    if row.ends_at is not None:
        return TimerView(row.minutes, RUNNING, max(0, _ms(row.ends_at) - _ms(now)), _ms(row.ends_at), _ms(now))
    if row.paused_left_ms is not None:
        return TimerView(row.minutes, PAUSED, row.paused_left_ms, None, _ms(now))
    return TimerView(row.minutes, OFF, row.minutes * 60_000, None, _ms(now))


def _minutes(raw: str, field: str, most: int) -> int:
    text = raw.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        raise RuleErrors([RuleError(field, M("Enter a whole number of minutes, from 1 to %(most)s.", most=most))])
    minutes = int(text)
    if minutes < 1:
        raise RuleErrors([RuleError(field, M("Give at least 1 minute."))])
    if minutes > most:
        raise RuleErrors([RuleError(field, M("At most %(most)s minutes.", most=most))])
    return minutes


def _changed(event: Event) -> None:
    db.session.commit()
    core.announce(event, core.Signals(timer=True))


def set_minutes(event: Event, raw: str) -> None:
    """Set the minutes each round is given (from the next start: a running round keeps its time)."""
    minutes = _minutes(raw, "minutes", MINUTES_MAX)
    if event.timer is None:
        event.timer = RoundTimer(minutes=minutes)
    else:
        event.timer.minutes = minutes
    _changed(event)


def _row(event: Event) -> RoundTimer:
    if event.timer is None:
        raise TimerStateError(M("Set the minutes per round first."))
    return event.timer


def start(event: Event) -> None:
    """Start a round: its whole time from now (also a round already running or paused: a new round)."""
    row = _row(event)
    row.ends_at = clock() + timedelta(minutes=row.minutes)
    row.paused_left_ms = None
    _changed(event)


def pause(event: Event) -> None:
    """Stop the clock, keeping what is left."""
    row = _row(event)
    if row.ends_at is None:
        raise TimerStateError(M("The timer is not running."))
    row.paused_left_ms = view(event).left_ms
    row.ends_at = None
    _changed(event)


def resume(event: Event) -> None:
    """Run the clock again from what was left when it was paused."""
    row = _row(event)
    if row.paused_left_ms is None:
        raise TimerStateError(M("The timer is not paused."))
    row.ends_at = clock() + timedelta(milliseconds=row.paused_left_ms)
    row.paused_left_ms = None
    _changed(event)


def add(event: Event, raw: str) -> None:
    """Give the round more time: to a running clock (from now once time is up) or a paused one."""
    minutes = _minutes(raw, "add", ADD_MAX)
    row = _row(event)
    shown = view(event)
    if shown.state == OFF:
        raise TimerStateError(M("Start the timer first."))
    left = shown.left_ms + minutes * 60_000
    if left > LEFT_MAX_MS:
        raise RuleErrors([RuleError("add", M("At most %(most)s minutes can be left.", most=LEFT_MAX_MS // 60_000))])
    if shown.state == RUNNING:
        row.ends_at = clock() + timedelta(milliseconds=left)
    else:
        row.paused_left_ms = left
    _changed(event)


def stop(event: Event) -> None:
    """Stop and put away the clock (the tables no longer show it); the minutes are kept."""
    row = _row(event)
    row.ends_at = None
    row.paused_left_ms = None
    _changed(event)
