"""Issue 30, item 4: a home game scored from a second phone. The share page makes scorers' links
(at most a few open), each of which enters hands as the game's own link does and nothing more; one
taken back answers that scoring was handed back and never writes; two phones saving the same hand
get one write and a clear refusal; the scorers' pages hear each other's hands."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorepad.extensions import db
from scorepad.games import service as games
from scorepad.models import SCORERS_MAX, Game, GameScorer
from tests.web import test_club_night as club
from tests.web.test_games import HX, bid_round_one, game_of, hands_of, post, start

RESULT = {"action": "result", "number": "1", "tricks.0": "1", "tricks.1": "1", "tricks.2": "0", "tricks.3": "2"}


def add_scorer(client: FlaskClient, token: str) -> str:
    """Make a scorer's link on the share page; its token."""
    response = client.post(f"/g/{token}/scorers")
    assert response.status_code == 303, response.get_data(as_text=True)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    links = re.findall(r'<a href="http://[^"]*/g/([\w-]+)">', page)
    assert links, page
    return links[-1]


def test_a_scorers_link_enters_hands_and_nothing_more(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    share = client.get(f"/g/{token}/share").get_data(as_text=True)
    assert "Score from another phone" in share and "only it can share the game" in share
    link = add_scorer(client, token)
    assert link != token
    phone = app.test_client()
    page = phone.get(f"/g/{link}").get_data(as_text=True)
    assert "You are scoring with a scorer&#39;s link" in page or "You are scoring with a scorer's link" in page
    assert token not in page  # the game's own link never reaches the other phone
    assert f"/g/{link}/entry" in page and f"/g/{link}/share" not in page and f"/g/{link}/delete" not in page
    bid_round_one(phone, link, (1, 1, 0, 1))
    status, answer = post(phone, link, **RESULT)
    assert status == 200 and "Hand 1 saved." in answer and token not in answer
    assert hands_of(app, token) == [{"trump": "S", "bids": [1, 1, 1, 0], "tricks": [1, 1, 0, 2]}]
    for path in ("share", "delete", "scorers"):  # the owner's alone: refused with words, nothing done
        response = phone.post(f"/g/{link}/{path}") if path == "scorers" else phone.get(f"/g/{link}/{path}")
        assert response.status_code == 403 and "for the phone that started it" in response.get_data(as_text=True)
    assert phone.post(f"/g/{link}/rematch").status_code == 403
    with app.app_context():
        assert db.session.query(GameScorer).count() == 1


def test_at_most_a_few_scorers_links_are_open_at_once(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    for _ in range(SCORERS_MAX):
        add_scorer(client, token)
    response = client.post(f"/g/{token}/scorers")
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and f"already has {SCORERS_MAX} scorers&#39; links" in page
    assert 'id="err-scorer"' in page
    with app.app_context():
        assert db.session.query(GameScorer).count() == SCORERS_MAX


def test_a_link_taken_back_says_scoring_was_handed_back_and_never_writes(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    link = add_scorer(client, token)
    phone = app.test_client()
    assert post(phone, link, action="trump", trump="S")[0] == 200
    ask = client.get(f"/g/{token}/scorers/1/revoke")  # asks first: nothing is taken back by the GET
    assert ask.status_code == 200 and "Yes, take the link back" in ask.get_data(as_text=True)
    assert phone.get(f"/g/{link}").status_code == 200
    done = client.post(f"/g/{token}/scorers/1/revoke")
    assert done.status_code == 303
    assert "Scorer&#39;s link 1 was taken back" in client.get(done.headers["Location"]).get_data(as_text=True)
    before = game_of(app, token)
    page = phone.get(f"/g/{link}")
    assert page.status_code == 410 and "Scoring was handed back" in page.get_data(as_text=True)
    tapped = phone.post(f"/g/{link}/entry", data={"action": "bid", "bid": "1"}, headers=HX)
    assert tapped.status_code == 410 and tapped.headers["HX-Refresh"] == "true"  # the page reloads to say so
    for path in ("undo", "redo", "hands/1"):
        assert phone.post(f"/g/{link}/{path}", data={}).status_code == 410
    after = game_of(app, token)
    assert after.pending == before.pending == {"trump": "S"} and after.revision == before.revision
    assert client.get(f"/g/{token}/scorers/1/revoke").status_code == 404  # no longer open
    assert post(client, token, action="bid", bid="1")[0] == 200  # the owner's own link scores on


def test_two_phones_saving_the_same_hand_record_it_once(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    link = add_scorer(client, token)
    phone = app.test_client()
    bid_round_one(client, token, (1, 1, 0, 1))
    first = post(phone, link, **RESULT)
    assert first[0] == 200 and "Hand 1 saved." in first[1]
    status, page = post(client, token, **{**RESULT, "tricks.0": "2", "tricks.3": "1"})  # the owner, a moment later
    assert status == 409
    assert "Hand 1 was already saved, from another phone or by a second tap: this entry was not counted." in page
    assert "Hand 2 of 2" in page  # its body is the hand now in play
    again = post(phone, link, **RESULT)  # and the scorer's double tap
    assert again[0] == 409 and "this entry was not counted" in again[1]
    assert hands_of(app, token) == [{"trump": "S", "bids": [1, 1, 1, 0], "tricks": [1, 1, 0, 2]}]


def test_a_scorers_page_refreshes_when_the_other_phone_saves_a_hand(app: Flask, client: FlaskClient) -> None:
    token = start(client)
    assert "sse-connect" not in client.get(f"/g/{token}").get_data(as_text=True)  # one phone: no stream
    link = add_scorer(client, token)
    phone = app.test_client()
    own = client.get(f"/g/{token}").get_data(as_text=True)
    assert f'sse-connect="/g/{token}/events?since=' in own and 'hx-trigger="sse:hands delay:500ms"' in own
    revision = str(game_of(app, token).hands_revision)
    assert client.get(f"/g/{token}?sheet={revision}", headers=HX).status_code == 204  # nothing new
    app.config["SCOREPAD_HEARTBEAT"] = 0.05
    response = client.get(f"/g/{token}/events")
    stream: Iterator[bytes] = iter(response.response)  # type: ignore[arg-type]
    assert next(stream) == b": connected\n\n"
    watching = app.test_client().get(f"/w/{game_of(app, token).public_id}/events")  # a follower's page
    followed: Iterator[bytes] = iter(watching.response)  # type: ignore[arg-type]
    assert next(followed) == b": connected\n\n"
    bid_round_one(phone, link, (1, 1, 0, 1))
    assert post(phone, link, **RESULT)[0] == 200

    def next_event(stream: Iterator[bytes] = stream) -> str:
        for _ in range(40):
            chunk = next(stream).decode()
            if not chunk.startswith(": ping"):
                return chunk
        raise AssertionError("nothing pushed")

    assert next_event().startswith("event: hands\n")  # a signal: the page fetches its own body
    pushed = next_event(followed)  # the follower is given the hand the second phone saved
    assert pushed.startswith("event: update\n") and 'id="hand-1"' in pushed
    watching.close()
    fresh = client.get(f"/g/{token}?sheet={revision}", headers=HX)
    assert fresh.status_code == 200 and "Hand 2 of 2" in fresh.get_data(as_text=True)
    client.post(f"/g/{token}/scorers/1/revoke")
    assert next_event().startswith("event: hands\n")  # the page of the link taken back hears it
    response.close()


@pytest.mark.parametrize(
    "path, method",
    [
        ("/g/{bad}", "get"),
        ("/g/{bad}/entry", "post"),
        ("/g/{bad}/events", "get"),
        ("/g/{bad}/share", "get"),
        ("/g/{bad}/scorers", "post"),
        ("/g/{token}/scorers/2/revoke", "get"),
        ("/g/{token}/scorers/2/revoke", "post"),
        ("/g/{token}/scorers/99999999999999999999/revoke", "get"),
    ],
)
def test_bad_scorer_links_are_404(app: Flask, client: FlaskClient, path: str, method: str) -> None:
    token = start(client)
    add_scorer(client, token)
    url = path.format(bad="x" * 32, token=token)
    response = client.get(url) if method == "get" else client.post(url, data={"action": "bid", "bid": "1"})
    assert response.status_code == 404, response.get_data(as_text=True)[:300]


def test_an_events_game_takes_no_scorer(app: Flask, client: FlaskClient) -> None:
    """A club night's table game is scored from its table's link: no scorers' links."""
    director = club.create(client, tables="1")
    token = club.start_table(client, club.table_tokens(app, director)[1], ("Ann", "Bob", "Cat", "Dan"))
    assert "Score from another phone" not in client.get(f"/g/{token}/share").get_data(as_text=True)
    assert client.post(f"/g/{token}/scorers").status_code == 409
    assert 'sse-connect="/g/' not in client.get(f"/g/{token}").get_data(as_text=True)


def test_a_save_that_read_the_game_just_before_the_other_phones_save_is_told_it_was_saved(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both phones tap Save on hand 1: the owner's request has read the game (hand 1 in hand) when the
    scorer's save of that hand commits. It is refused as already saved and shows hand 2 as it is now,
    not the hands recorded since beside the hand in hand its older read of the game held."""
    token = start(client)
    link = add_scorer(client, token)
    phone = app.test_client()
    bid_round_one(client, token, (1, 1, 0, 1))
    checked = games.refuse_if_recorded

    def scorer_saves_first(game: Game, number: int) -> None:  # between the owner's read and its check
        monkeypatch.setattr(games, "refuse_if_recorded", checked)
        saved: list[int] = []  # the scorer's request in a thread of its own, as the server would serve it
        scorer = threading.Thread(target=lambda: saved.append(post(phone, link, **RESULT)[0]))
        scorer.start()
        scorer.join()
        assert saved == [200]
        checked(game, number)

    monkeypatch.setattr(games, "refuse_if_recorded", scorer_saves_first)
    status, page = post(client, token, **{**RESULT, "tricks.0": "2", "tricks.3": "1"})
    assert status == 409, page
    assert "Hand 1 was already saved, from another phone or by a second tap: this entry was not counted." in page
    trump = re.search(r'data-fact="trump"><span class="k">Trump</span> <span class="v">([^<]+)<', page)
    assert "Hand 2 of 2" in page and trump and trump[1] == "turned up"  # from its start, not with hand 1's ♠
    assert hands_of(app, token) == [{"trump": "S", "bids": [1, 1, 1, 0], "tricks": [1, 1, 0, 2]}]
