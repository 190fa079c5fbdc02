"""Issue 17, item 5: a Bid Whist tournament's board is derived again only when a row it is derived
from changed (`events/bid_whist/boards.py`), by this worker or another, and is never served stale.

Besides these tests, every test app runs with `SCOREPAD_CHECK_KEPT_VIEWS`: each time a kept board is
served, the view is derived afresh too and must be equal, so a change the fingerprint missed fails
whichever test made it."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from scorepad import create_app
from scorepad.events.bid_whist import boards, derived, matches
from scorepad.extensions import db
from scorepad.games import entry
from scorepad.games import service as games
from scorepad.models import Event, Game
from scorepad.pushes import boards as board_views
from tests.conftest import config_for, release
from tests.web.test_events import HX, text
from tests.web.test_tournament import current_matches, event_row, hand, play, sign_both, start_nine


def board(app: Flask, token: str) -> derived.TournamentView:
    with app.app_context():
        return derived.kept_view(event_row(app, token))


def tap(app: Flask, scorer: str, action: str, **form: str) -> None:
    """One tap of the table's phone, as views/games.py `entry` applies it."""
    with app.app_context():
        game = games.by_scorer_token(scorer)
        assert game is not None
        entry.tap(game, action, form)


def real_matches(app: Flask, token: str) -> list[dict[str, Any]]:
    return [m for m in current_matches(app, token) if m["stage"] == "round" and 0 not in (m["home"], m["away"])]


def at(tournament_view: derived.TournamentView, table: int) -> matches.MatchView:
    found = tournament_view.match_at(table)
    assert found is not None
    return found


def counted_derivations(app: Flask, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The events whose whole view is derived from now on, one id a derivation (the suite's
    kept-against-fresh check is turned off: it derives each time)."""
    app.config["SCOREPAD_CHECK_KEPT_VIEWS"] = False
    derivations: list[int] = []
    real = derived.view

    def counted(event: Any) -> derived.TournamentView:
        derivations.append(event.id)
        return real(event)

    monkeypatch.setattr(derived, "view", counted)
    return derivations


@pytest.mark.postgresql
def test_the_board_is_kept_until_a_row_it_shows_changes(client: FlaskClient, app: Flask) -> None:
    token = start_nine(client, app)
    first_match, second_match = real_matches(app, token)[:2]
    kept = board(app, token)
    assert board(app, token) is kept  # nothing changed: not derived again
    tap(app, first_match["scorer"], "call", number="1", call="4-plain")  # a call is on no board
    assert board(app, token) is kept
    tap(app, first_match["scorer"], "call", number="1", call="pass")
    tap(app, first_match["scorer"], "call", number="1", call="pass")
    tap(app, first_match["scorer"], "call", number="1", call="pass")
    tap(app, first_match["scorer"], "result", number="1", trump="S", books="10", renege="none")
    after_hand = board(app, token)
    assert after_hand is not kept and at(after_hand, first_match["table"]).outcome.hands == 1
    table = first_match["table"]
    assert at(after_hand, table).outcome.points != (0, 0) and at(kept, table).outcome.points == (0, 0)
    assert board(app, token) is after_hand

    play(app, second_match["scorer"], 0)  # four hands, then both teams sign
    played = board(app, token)
    assert at(played, second_match["table"]).outcome.over and not at(played, second_match["table"]).final
    sign_both(client, second_match)
    signed = board(app, token)
    assert at(signed, second_match["table"]).final and [r.rounds_won for r in signed.standings][0] == 1

    with app.app_context():  # a director's change to the event row itself
        event = event_row(app, token)
        event.options = {**event.options, "hidden": True}
        db.session.commit()
    hidden = board(app, token)
    assert hidden.hide_standings and not signed.hide_standings


@pytest.mark.postgresql
def test_a_change_made_by_another_worker_is_seen(client: FlaskClient, app: Flask, database: str) -> None:
    """Two apps on one database, as two gunicorn workers: a hand entered through the second is on
    the first's board at once, though the first kept its board and heard of nothing."""
    token = start_nine(client, app)
    match = real_matches(app, token)[0]
    kept = board(app, token)
    other = create_app(config_for(database))
    try:
        with other.app_context():
            game = games.by_scorer_token(match["scorer"])
            assert isinstance(game, Game)
            games.enter_hand(game, 1, hand(1, 0))
    finally:
        release(other)
    seen = board(app, token)
    assert seen is not kept and at(seen, match["table"]).outcome.hands == 1


def test_a_hand_entered_advances_the_kept_board_from_its_game_alone(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28, item 4: the board pushed after each result derived the whole tournament again (10 of
    a push's 13 ms for 32 teams, shared by its streams); the kept view is advanced by the one game
    that changed, and equals the view derived afresh. A signature (the match's row) derives it whole."""
    token = start_nine(client, app)
    first_match, second_match = real_matches(app, token)[:2]
    kept = board(app, token)
    real = derived.view  # a fresh derivation, for the comparisons
    derivations = counted_derivations(app, monkeypatch)
    for call in ("4-plain", "pass", "pass", "pass"):
        tap(app, first_match["scorer"], "call", number="1", call=call)
    tap(app, first_match["scorer"], "result", number="1", trump="S", books="10", renege="none")
    advanced = board(app, token)
    assert derivations == [] and advanced is not kept
    assert at(advanced, first_match["table"]).outcome.hands == 1 and at(kept, first_match["table"]).outcome.hands == 0
    with app.app_context():
        assert advanced == boards.detached(real(event_row(app, token)))

    play(app, second_match["scorer"], 0)
    sign_both(client, second_match)
    signed = board(app, token)
    assert derivations and at(signed, second_match["table"]).final
    with app.app_context():
        assert signed == boards.detached(real(event_row(app, token)))


def test_a_kept_board_is_checked_against_a_fresh_one_in_the_tests(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The suite's check can fail: with a fingerprint that misses the hands, a hand entered makes the
    kept board differ from the rows, and serving it is refused (and, without the check, it is stale)."""
    token = start_nine(client, app)
    match = real_matches(app, token)[0]
    monkeypatch.setattr(boards, "fingerprint", lambda event: ("blind",))
    kept = board(app, token)
    play(app, match["scorer"], 0)
    with pytest.raises(AssertionError, match="kept Bid Whist board views for .* differs from one derived afresh"):
        board(app, token)
    app.config["SCOREPAD_CHECK_KEPT_VIEWS"] = False
    assert board(app, token) is kept and at(kept, match["table"]).outcome.hands == 0


def test_the_projector_shows_a_hand_entered_after_its_board_was_kept(client: FlaskClient, app: Flask) -> None:
    token = start_nine(client, app)
    match = real_matches(app, token)[0]
    with app.app_context():
        public = event_row(app, token).public_id
    before = text(client.get(f"/b/{public}/standings"))
    play(app, match["scorer"], 0)
    after = text(client.get(f"/b/{public}/standings"))
    assert before != after  # the match's points and its four hands


def test_a_push_after_a_call_sends_the_board_drawn_before(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board's push after a call (nothing on the board changed) is not rendered again; after a
    hand it is, and shows the hand."""
    token = start_nine(client, app)
    match = real_matches(app, token)[0]
    rendered: list[str] = []
    real = board_views.render_board

    def counted(folder: str, context: Any) -> Any:
        rendered.append(folder)
        return real(folder, context)

    monkeypatch.setattr(board_views, "render_board", counted)

    def push() -> str:
        with app.app_context():
            state = board_views._pushes(app)
            board_views._push_in(state, "event:test", "en", event_row(app, token))
            return state.sent["event:test", "en"].html

    first = push()
    assert push() == first and len(rendered) == 1
    tap(app, match["scorer"], "call", number="1", call="4-plain")
    assert push() == first and len(rendered) == 1
    for call in ("pass", "pass", "pass"):
        tap(app, match["scorer"], "call", number="1", call=call)
    tap(app, match["scorer"], "result", number="1", trump="S", books="10", renege="none")
    assert push() != first and len(rendered) == 2


def test_a_teams_page_is_drawn_from_the_kept_view_and_shows_the_other_teams_signature(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every team's phone asks for its page again on every signature in the hall: the page reads
    the kept view, derived once for all of them, and still shows what changed."""
    token = start_nine(client, app)
    match = real_matches(app, token)[0]
    play(app, match["scorer"], 0)
    with app.app_context():
        event = event_row(app, token)
        home = next(e.token for e in event.entrants if e.number == match["home"])
    derivations = counted_derivations(app, monkeypatch)
    first = text(client.get(f"/team/{home}"))
    again = text(client.get(f"/team/{home}"))
    assert len(derivations) == 1 and "Table" in again and "sign" in again.lower()
    assert "Your team has signed" not in first
    response = client.post(f"/g/{match['scorer']}/sign", data={"side": "0", "code": match["codes"][0]}, headers=HX)
    assert response.status_code == 200, text(response)
    signed = text(client.get(f"/team/{home}"))
    assert "Your team has signed" in signed and len(derivations) == 2


def test_a_board_derived_after_another_request_moved_the_event_is_the_event_as_stored(
    client: FlaskClient, app: Flask
) -> None:
    """A request read the event (a push, a team's page), then another committed a change to it (the
    director's next round) before this one read the fingerprint: the view was derived from the row
    read first and kept under the newer fingerprint, so every screen showed the round before until a
    signature or a director's action changed a row again."""
    token = start_nine(client, app)
    with app.app_context():
        event = event_row(app, token)  # this request's read
        assert event.current_hand == 1
        with db.engine.connect() as other:  # another request's commit, in between
            other.execute(update(Event).where(Event.id == event.id).values(current_hand=2))
            other.commit()
        assert derived.kept_view(event).round == 2
        assert derived.kept_view(event) is derived.kept_view(event)  # kept, under that fingerprint
