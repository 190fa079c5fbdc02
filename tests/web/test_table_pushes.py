"""A change at one table of a Bid Whist tournament is pushed to that table's pages alone (issue 17).

A signature (or a dispute, an undo, a correction) in a preliminary round concerns its own table:
its bar on the table's phone and its two teams' pages. It used to go out as `orders`, which every
table's bar and every team's page refresh on: with 64 tables and 128 teams, one signature made 192
pages ask again, and a round's 128 signatures within a few minutes some 24,000. Now it goes out as
`table-<n>` (and `changed`, for the control room and the boards); the bracket keeps `orders`, since
a match made final there can open the next level's match at another table.

A team's page listened for every table's (`table-*`: its table changes by round), so each of the
128 pages was sent every signature of the round, and when the hall signed at once its own table's
was dropped from its stream's queue (bench/bid_whist_load.py --team-pages): the two teams of the
table are now told by number (`team-<n>`), as they are when their match's last hand is saved."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad import live
from scorepad.views.bid_whist import KEPT_BAR
from tests.web.test_events import HX, text
from tests.web.test_games import state_of
from tests.web.test_signing import a_match, sign
from tests.web.test_tournament import event_row, hand, lower_wins, play
from tests.web.test_tournament_director import bracket_matches, bracket_of_eight, round_matches, started, team_token
from tests.web.test_undo_and_tricks import sheet_seen


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the event pushes published (to the streams of this process)."""
    names: list[str] = []
    real = live.Broker.publish

    def noted(self: live.Broker, channel: str, event: str, data: Any, *args: Any, **kwargs: Any) -> int:
        if channel.startswith("event:"):
            names.append(event)
        return real(self, channel, event, data, *args, **kwargs)

    monkeypatch.setattr(live.Broker, "publish", noted)
    return names


def public_id(app: Flask, token: str) -> str:
    with app.app_context():
        return event_row(app, token).public_id


def listen(app: Flask, public: str) -> live.Subscription:
    """An open page on the event, so that its pushes are published here at all."""
    with app.app_context():
        return live.broker().subscribe(f"event:{public}")


def test_a_signature_in_a_round_is_pushed_to_its_table_only(client: FlaskClient, app: Flask, pushed: list[str]) -> None:
    token, m = a_match(client, app)
    listen(app, public_id(app, token))
    assert sign(client, m, 0, m["codes"][0]).status_code == 200
    assert f"table-{m['table']}" in pushed and "changed" in pushed and "orders" not in pushed
    assert {f"team-{m['home']}", f"team-{m['away']}"} <= set(pushed)  # its two teams' own pages
    assert [n for n in pushed if n.startswith("team-")] == [f"team-{m['home']}", f"team-{m['away']}"]
    pushed.clear()
    response = client.post(f"/team/{team_token(app, token, m['away'])}/sign")
    assert response.status_code == 303
    assert f"table-{m['table']}" in pushed and "orders" not in pushed


def test_an_undo_of_a_saved_hand_in_a_round_is_pushed_to_its_table_only(
    client: FlaskClient, app: Flask, pushed: list[str]
) -> None:
    token, m = a_match(client, app)
    listen(app, public_id(app, token))
    response = client.post(f"/g/{m['scorer']}/undo", headers=HX)  # the fourth hand taken back
    assert response.status_code == 200, text(response)
    assert f"table-{m['table']}" in pushed and "orders" not in pushed


def test_the_pages_of_a_table_listen_for_their_table_and_a_teams_page_for_its_team(
    client: FlaskClient, app: Flask
) -> None:
    token, m = a_match(client, app)
    game_page = text(client.get(f"/g/{m['scorer']}"))
    assert f"only=orders,timer,table-{m['table']}" in game_page.replace("%2C", ",")
    assert f'hx-trigger="sse:orders, sse:table-{m["table"]}"' in game_page
    team_page = text(client.get(f"/team/{team_token(app, token, m['home'])}"))
    assert f"only=orders,team-{m['home']}" in team_page.replace("%2C", ",")
    assert f'hx-trigger="sse:orders, sse:team-{m["home"]}"' in team_page


@pytest.mark.parametrize(
    "name, status",
    [
        ("table-7", 200),
        ("table-*", 200),
        ("orders,table-12", 200),
        ("team-3", 200),
        ("orders,team-12", 200),
        ("team-*", 400),
        ("tables", 400),
        ("table-x", 400),
        ("table-", 400),
        ("team-", 400),
    ],
)
def test_the_stream_takes_table_names(client: FlaskClient, app: Flask, name: str, status: int) -> None:
    token, _ = a_match(client, app)
    with client.get(f"/b/{public_id(app, token)}/events", query_string={"only": name}, buffered=False) as response:
        assert response.status_code == status


def test_a_signature_in_the_bracket_still_tells_every_page(client: FlaskClient, app: Flask, pushed: list[str]) -> None:
    """A bracket match made final may open the next level's match at another table."""
    token, _ = bracket_of_eight(client, app)
    m = bracket_matches(app, token)[1]
    play(app, m["scorer"], lower_wins(m))
    listen(app, public_id(app, token))
    assert sign(client, m, 0, m["codes"][0]).status_code == 200
    assert "orders" in pushed and f"table-{m['table']}" in pushed


def test_the_hand_that_ends_a_round_match_is_pushed_to_its_table(
    client: FlaskClient, app: Flask, pushed: list[str]
) -> None:
    """The teams' pages offer to sign once the match is over: they must hear of its last hand, and
    of no hand before it (a table's hands are not the other tables' business)."""
    token = started(client, app, 4, rounds="1")
    m = round_matches(app, token, 1)[0]
    listen(app, public_id(app, token))
    for number in range(1, 5):
        pushed.clear()
        entered = hand(number, lower_wins(m))
        for call in ("4-plain", "pass", "pass", "pass"):
            page = text(client.post(f"/g/{m['scorer']}/entry", data={"action": "call", "call": call}, headers=HX))
        response = client.post(
            f"/g/{m['scorer']}/entry",
            headers=HX,
            data={"action": "result", "number": str(number), "books": str(entered["books"])},
        )
        assert response.status_code == 200 and f"Hand {number} saved." in text(response), page
        assert "changed" in pushed and "orders" not in pushed
        assert (f"table-{m['table']}" in pushed) == (number == 4), (number, pushed)
        assert (f"team-{m['away']}" in pushed) == (number == 4), (number, pushed)
    team_page = text(client.get(f"/team/{team_token(app, token, m['home'])}"))
    assert "Sign our sheet" in team_page


def test_a_call_on_a_current_page_keeps_the_event_bar_and_a_saved_hand_draws_it(
    client: FlaskClient, app: Flask
) -> None:
    """A call changes nothing on the bar (a signature reaches it by its table's push): the page keeps
    its own (hx-preserve) rather than the answer drawing it again on every tap."""
    token = started(client, app, 4, rounds="1")
    m = round_matches(app, token, 1)[0]
    page = text(client.get(f"/g/{m['scorer']}"))
    assert 'id="event-bar"' in page and "event-bar-title" in page
    shows = {"sheet": sheet_seen(client, m["scorer"])}
    response = client.post(
        f"/g/{m['scorer']}/entry",
        headers=HX,
        data={"action": "call", "call": "4-plain", "state": state_of(page), **shows},
    )
    answer = text(response)
    assert response.status_code == 200 and KEPT_BAR in answer and "event-bar-title" not in answer
    response = client.post(f"/g/{m['scorer']}/entry", headers=HX, data={"action": "call", "call": "pass"})
    assert response.status_code == 200 and "event-bar-title" in text(response)  # which page sent it? drawn
    for call in ("pass", "pass"):
        client.post(f"/g/{m['scorer']}/entry", headers=HX, data={"action": "call", "call": call})
    response = client.post(
        f"/g/{m['scorer']}/entry", headers=HX, data={"action": "result", "number": "1", "books": "10", **shows}
    )
    assert response.status_code == 200 and "event-bar-title" in text(response)  # a saved hand: drawn


def test_a_push_drawn_slowly_is_not_overtaken_by_the_next(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two pushes of one board, the second scheduled while the first is still drawing: the screens end
    on the newer board. Drawn side by side, the second read newer rows and was sent first, and the
    first, sent after it, took the screens back a result (a patch from the newer version to the older)."""
    import queue
    import threading
    import time

    from scorepad.events import core
    from scorepad.events import military as events
    from scorepad.pushes import boards
    from tests.slowness import scaled

    drawing, first = threading.Event(), threading.Event()
    real = boards.board_context

    def slow_the_first(event: Any) -> Any:
        found = real(event)
        if not first.is_set():
            first.set()
            drawing.wait(5)  # drawn from the rows before the second result, sent after it came
        return found

    monkeypatch.setattr(boards, "board_context", slow_the_first)
    with app.app_context():
        event = events.create_event("Two pushes", [f"Team {t + 1}" for t in range(4)], [4])
        public = event.public_id
        subscription = live.broker().subscribe(f"event:{public}", frozenset({"board", "patch"}))
    try:
        with app.app_context():
            found = core.by_public_id(public)
            assert found is not None
            events.enter_result(found, 1, 1, 7, None, "table 1")
        assert first.wait(5), "the first push was not drawn"
        with app.app_context():
            found = core.by_public_id(public)
            assert found is not None
            events.enter_result(found, 2, 1, 7, None, "table 2")
        time.sleep(0.3)  # the second push scheduled, and drawn if nothing holds it
        drawing.set()
        said: list[str] = []  # what the screens are sent, until it ends on the newer board and goes quiet
        deadline = time.monotonic() + scaled(5)
        while time.monotonic() < deadline:
            try:
                said.append(subscription.queue.get(timeout=0.3).data)
            except queue.Empty:
                if said and "2 tables still playing" in said[-1]:
                    break
        assert said and "2 tables still playing" in said[-1], said[-1:]
    finally:
        drawing.set()
        with app.app_context():
            live.broker().unsubscribe(subscription)
