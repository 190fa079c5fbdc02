"""Two director devices at once on a Bid Whist tournament: one draws the next round while the other
reopens a sheet of the round. The draw is made from the round's final sheets, and a sheet can be
reopened only until the next round is drawn: one of the two goes through, never both.

Each race is played out in one thread: the other device's request runs in its own app context, which
gives it its own database session, exactly as a second request would have.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from scorepad.events.bid_whist import derived, matches, registration, writes
from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import Event
from scorepad.rules.base import RuleErrors
from tests.web.test_tournament import hand

pytestmark = pytest.mark.postgresql


def round_one_final(app: Flask) -> int:
    """Four teams, round 1 played and every sheet made final by the director; the event's id."""
    with app.app_context():
        event = writes.create("Races", rounds=2)
        for name in ("A", "B", "C", "D"):
            registration.register_team(event, name, [f"{name}1", f"{name}2"])
        db.session.commit()
        writes.start(event)
        for m in [m for m in event.matches if m.stage == "round" and m.number == 1]:
            assert m.game is not None
            for n in range(1, 5):
                games.enter_hand(m.game, n, hand(n, 0))
            writes.close_match(event, m)
        return event.id


def test_a_sheet_reopened_while_the_next_round_is_drawn_stops_the_draw(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    event_id = round_one_final(app)
    real, reopened = writes._atomic, []

    def reopened_meanwhile(action: Any) -> Any:
        """The other device's reopen lands between this draw's check and its write."""
        if not reopened:
            reopened.append(True)
            with app.app_context():
                other = db.session.get(Event, event_id)
                assert other is not None
                writes.reopen_match(other, next(m for m in other.matches if m.stage == "round" and m.table == 1))
        return real(action)

    monkeypatch.setattr(writes, "_atomic", reopened_meanwhile)
    with app.app_context():
        event = db.session.get(Event, event_id)
        assert event is not None
        with pytest.raises(RuleErrors, match="wait for every sheet of this round to be final"):
            writes.advance(event)
    assert reopened
    with app.app_context():
        event = db.session.get(Event, event_id)
        assert event is not None and event.current_hand == 1  # round 2 is not drawn
        view = derived.view(event)
        assert view.round == 1 and [m.match.table for m in view.current if not m.final] == [1]


def test_the_next_round_drawn_while_a_sheet_is_reopened_stops_the_reopen(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    event_id = round_one_final(app)
    real, drawn = matches.reopen, []

    def drawn_meanwhile(match: Any, actor: str = "director") -> None:
        """The other device's draw lands between this reopen's check and its write."""
        if not drawn:
            drawn.append(True)
            with app.app_context():
                other = db.session.get(Event, event_id)
                assert other is not None
                writes.advance(other)
        real(match, actor)

    monkeypatch.setattr(matches, "reopen", drawn_meanwhile)
    with app.app_context():
        event = db.session.get(Event, event_id)
        assert event is not None
        match = next(m for m in event.matches if m.stage == "round" and m.table == 1)
        with pytest.raises(RuleErrors, match="this sheet can no longer be reopened"):
            writes.reopen_match(event, match)
    assert drawn
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
        for m in [m for m in event.matches if m.stage == "round"]:
            assert m.game is not None
            for n in range(1, 5):
                games.enter_hand(m.game, n, hand(n, 0))
            writes.close_match(event, m)
        writes.advance(event)  # the bracket: the two semi-finals open
        semis = sorted((m for m in event.matches if m.stage == "bracket"), key=lambda m: m.table)
        assert len(semis) == 2
        for m in semis:
            assert m.game is not None
            for n in range(1, 5):
                games.enter_hand(m.game, n, hand(n, 0))
        writes.close_match(event, semis[0])
        event_id, first, second = event.id, semis[0].id, semis[1].id
    real, opened = matches.reopen, []

    def final_opened_meanwhile(match: Any, actor: str = "director") -> None:
        """Semi-final 2 is made final (and the final opened) between this reopen's check and its write."""
        if not opened:
            opened.append(True)
            with app.app_context():
                other = db.session.get(Event, event_id)
                assert other is not None
                writes.close_match(other, next(m for m in other.matches if m.id == second))
                assert len([m for m in other.matches if m.stage == "bracket"]) > 2
        real(match, actor)

    monkeypatch.setattr(matches, "reopen", final_opened_meanwhile)
    with app.app_context():
        event = db.session.get(Event, event_id)
        assert event is not None
        with pytest.raises(RuleErrors, match="this sheet can no longer be reopened"):
            writes.reopen_match(event, next(m for m in event.matches if m.id == first))
    assert opened
    with app.app_context():
        event = db.session.get(Event, event_id)
        assert event is not None
        assert matches.is_final(next(m for m in event.matches if m.id == first))
