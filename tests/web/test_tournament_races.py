"""Two director devices at once on a Bid Whist tournament: one draws the next round while the other
reopens a sheet of the round. The draw is made from the round's final sheets, and a sheet can be
reopened only until the next round is drawn: one of the two goes through, never both.

Each race is played out in one thread: the other device's request runs in its own app context, which
gives it its own database session, exactly as a second request would have.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from scorepad.events.bid_whist import derived, matches, registration, writes
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import Event, EventMatch
from scorepad.rules.base import RuleErrors
from tests.web.test_tournament import hand

pytestmark = pytest.mark.postgresql


def play(match: EventMatch) -> None:
    """The match's four hands, N/S winning each."""
    assert match.game is not None
    for n in range(1, 5):
        games.enter_hand(match.game, n, hand(n, 0))


def play_and_close(event: Event, played: list[EventMatch]) -> None:
    """Each match played, then its sheet made final by the director."""
    for m in played:
        play(m)
        writes.close_match(event, m)


class OtherDeviceFirst:
    """Stands in for `then`: the other device's `act` runs once first, on the event in its own
    session, as a second request landing between this one's check and its write would."""

    def __init__(self, app: Flask, event_id: int, act: Callable[[Event], object], then: Callable[..., Any]) -> None:
        self.app, self.event_id, self.act, self.then = app, event_id, act, then
        self.done = False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not self.done:
            self.done = True
            with self.app.app_context():
                other = db.session.get(Event, self.event_id)
                assert other is not None
                self.act(other)
        return self.then(*args, **kwargs)


def round_one_final(app: Flask) -> int:
    """Four teams, round 1 played and every sheet made final by the director; the event's id."""
    with app.app_context():
        event = writes.create("Races", rounds=2)
        for name in ("A", "B", "C", "D"):
            registration.register_team(event, name, [f"{name}1", f"{name}2"])
        db.session.commit()
        writes.start(event)
        play_and_close(event, [m for m in event.matches if m.stage == "round" and m.number == 1])
        return event.id


def test_a_sheet_reopened_while_the_next_round_is_drawn_stops_the_draw(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    event_id = round_one_final(app)
    reopened = OtherDeviceFirst(  # the other device's reopen lands between this draw's check and its write
        app,
        event_id,
        lambda other: writes.reopen_match(other, next(m for m in other.matches if m.stage == "round" and m.table == 1)),
        writes._atomic,
    )
    monkeypatch.setattr(writes, "_atomic", reopened)
    with app.app_context():
        event = db.session.get(Event, event_id)
        assert event is not None
        with pytest.raises(RuleErrors, match="wait for every sheet of this round to be final"):
            writes.advance(event)
    assert reopened.done
    with app.app_context():
        event = db.session.get(Event, event_id)
        assert event is not None and event.current_hand == 1  # round 2 is not drawn
        view = derived.view(event)
        assert view.round == 1 and [m.match.table for m in view.current if not m.final] == [1]


def test_the_next_round_drawn_while_a_sheet_is_reopened_stops_the_reopen(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    event_id = round_one_final(app)
    drawn = OtherDeviceFirst(app, event_id, writes.advance, matches.reopen)  # between this reopen's check and write
    monkeypatch.setattr(matches, "reopen", drawn)
    with app.app_context():
        event = db.session.get(Event, event_id)
        assert event is not None
        match = next(m for m in event.matches if m.stage == "round" and m.table == 1)
        with pytest.raises(RuleErrors, match="this sheet can no longer be reopened"):
            writes.reopen_match(event, match)
    assert drawn.done
    with app.app_context():
        event = db.session.get(Event, event_id)
        assert event is not None and event.current_hand == 2
        assert all(matches.is_final(m) for m in event.matches if m.stage == "round" and m.number == 1)


def test_a_semi_final_reopened_while_the_other_opens_the_final_is_refused(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The director reopens semi-final 1 just as semi-final 2's sheet becomes final, which opens the
    final (its teams known from both sheets): the final is drawn from semi-final 1's result, so
    that sheet can no longer be reopened."""
    with app.app_context():
        event = writes.create("Races", rounds=1, bracket="4")
        for name in ("A", "B", "C", "D"):
            registration.register_team(event, name, [f"{name}1", f"{name}2"])
        db.session.commit()
        writes.start(event)
        play_and_close(event, [m for m in event.matches if m.stage == "round"])
        writes.advance(event)  # the bracket: the two semi-finals open
        semis = sorted((m for m in event.matches if m.stage == "bracket"), key=lambda m: m.table)
        assert len(semis) == 2
        play_and_close(event, semis[:1])
        play(semis[1])
        event_id, first, second = event.id, semis[0].id, semis[1].id

    def final_opened(other: Event) -> None:
        """Semi-final 2 is made final (and the final opened) between this reopen's check and its write."""
        writes.close_match(other, next(m for m in other.matches if m.id == second))
        assert len([m for m in other.matches if m.stage == "bracket"]) > 2

    opened = OtherDeviceFirst(app, event_id, final_opened, matches.reopen)
    monkeypatch.setattr(matches, "reopen", opened)
    with app.app_context():
        event = db.session.get(Event, event_id)
        assert event is not None
        with pytest.raises(RuleErrors, match="this sheet can no longer be reopened"):
            writes.reopen_match(event, next(m for m in event.matches if m.id == first))
    assert opened.done
    with app.app_context():
        event = db.session.get(Event, event_id)
        assert event is not None
        assert matches.is_final(next(m for m in event.matches if m.id == first))
