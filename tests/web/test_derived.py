"""Issue 17, item 4: a game is derived once per change to its recorded hands, not on every tap; and
the copy a worker keeps is never served once the hands changed, however they changed."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm.attributes import set_committed_value

from scorepad import kept
from scorepad.extensions import db
from scorepad.games import derived
from scorepad.games import service as games
from scorepad.models import Game, Hand
from scorepad.rules import nomination
from tests.web.test_game_scorers import add_scorer
from tests.web.test_games import HX, nomination_form, start

HANDS = [
    {"trump": "S", "bids": [1, 1, 0, 1], "tricks": [1, 1, 1, 1]},
    {"trump": "H", "bids": [0, 0, 3, 0], "tricks": [1, 0, 3, 0]},
]


@pytest.fixture
def app_config() -> dict[str, object]:
    """These tests count the work a request does (hands read, replays): the suite's check of every
    kept value against a fresh derivation (which derives afresh on purpose) is off here; every other
    test keeps it."""
    return {"SCOREPAD_CHECK_KEPT_VIEWS": False}


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the recorded hands the rules read (each read of a complete Nomination hand)."""
    read: list[int] = []
    real = nomination.parse_hand

    def counted(*args: object) -> nomination.Hand:
        read.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(nomination, "parse_hand", counted)
    yield read


def two_hands(app: Flask, client: FlaskClient) -> str:
    token = start(client, form=nomination_form(**{"opt.custom_sequence": "4, 4, 4"}))  # Ann deals first
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        for number, hand in enumerate(HANDS, start=1):
            games.enter_hand(game, number, hand)
    return token


def test_a_tap_on_the_hand_in_hand_does_not_replay_the_recorded_hands(
    app: Flask, client: FlaskClient, replays: list[int]
) -> None:
    token = two_hands(app, client)
    assert client.get(f"/g/{token}").status_code == 200
    replays.clear()
    for data in ({"action": "trump", "trump": "D"}, {"action": "bid", "bid": "1"}, {"action": "bid", "bid": "0"}):
        assert client.post(f"/g/{token}/entry", data=data, headers=HX).status_code == 200
    assert replays == [], f"{len(replays)} recorded hands read again for three taps"
    assert client.get(f"/g/{token}").status_code == 200
    assert replays == []


def test_the_kept_sheet_follows_every_change_to_the_hands(app: Flask, client: FlaskClient) -> None:
    """A correction, an undo and a hand changed by another session (another worker) each give the
    sheet of the hands as stored, never the copy kept before."""
    token = two_hands(app, client)

    def totals() -> list[int]:
        with app.app_context():
            game = games.by_scorer_token(token)
            assert game is not None
            return [cell.total for cell in games.view(game).sheet.lines[-1].cells]

    assert totals() == [12, 21, 14, 21]  # hand 1: 11 11 1 11; hand 2: 1 10 13 10
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        games.correct_hand(game, 2, {"trump": "H", "bids": [0, 0, 3, 0], "tricks": [0, 0, 3, 1]})
    assert totals() == [21, 21, 14, 12]  # hand 2 now 10 10 13 1
    with app.app_context():  # another worker's write: the ORM, through its own session
        hand = db.session.query(Hand).join(Game).filter(Game.scorer_token == token, Hand.number == 1).one()
        hand.entry = {"trump": "S", "bids": [1, 1, 0, 1], "tricks": [0, 2, 1, 1]}
        db.session.commit()
    assert totals() == [10, 12, 14, 12]  # hand 1 now 0 2 1 11
    assert client.post(f"/g/{token}/undo", headers=HX).status_code == 200  # the last logged tap: the correction
    assert totals() == [1, 12, 14, 21]  # hand 2 as saved again: 1 10 13 10
    assert client.post(f"/g/{token}/undo", headers=HX).status_code == 200  # then the save of hand 2
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        assert games.hand_count(game) == 1 and len(games.view(game).sheet.lines) == 1


def test_a_scoring_page_reads_its_game_its_scorers_and_its_group_in_one_statement(
    app: Flask, client: FlaskClient, queries: list[str]
) -> None:
    """Issue 28: opening a scorer's page reads the game, whether a scorer's link of it is open and
    the group it is kept in with one statement (three before), and the recorded hands of a game this
    worker has no copy of as rows; what the page shows of each follows every change."""
    token = two_hands(app, client)
    kept.drop(app)  # as a worker that has not seen the game
    queries.clear()
    page = client.get(f"/g/{token}").get_data(as_text=True)
    # the hands as one column's rows (with the revision they are at), not as objects
    assert len(queries) == 2 and "hand.entry" in queries[1] and "hand.entered_at" not in queries[1], queries
    assert "Keep in a group…" in page and "sse-connect" not in page
    queries.clear()
    assert client.get(f"/g/{token}").status_code == 200
    assert len(queries) == 1, queries  # the game kept: its row alone
    add_scorer(client, token)
    assert client.post(f"/g/{token}/group/new", data={"name": "Tuesdays"}).status_code == 303
    queries.clear()
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert len(queries) == 1, queries
    assert "In the group Tuesdays: move it out…" in page and f'sse-connect="/g/{token}/events?since=' in page
    assert client.post(f"/g/{token}/scorers/1/revoke").status_code == 303
    assert client.post(f"/g/{token}/group/out").status_code == 303
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Keep in a group…" in page and "sse-connect" not in page


def test_a_scoring_page_opened_again_serves_its_hand_panel_as_drawn(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28: the hand's panel is drawn once per state of the game, link and language. Opened
    again, by another phone too, it is served as drawn, with that page's own CSRF token in its
    forms; a tap and another language each draw it anew."""
    token = two_hands(app, client)
    drawn: list[int] = []
    title = app.jinja_env.globals["hand_title"]
    monkeypatch.setitem(app.jinja_env.globals, "hand_title", lambda view: drawn.append(1) or title(view))
    csrf = re.compile(r'name="csrf[-_]token" (?:value|content)="([^"]+)"')
    first = client.get(f"/g/{token}").get_data(as_text=True)
    other = app.test_client()
    again = other.get(f"/g/{token}").get_data(as_text=True)
    assert len(drawn) == 1, f"the panel drawn {len(drawn)} times for one state"
    mine, theirs = set(csrf.findall(first)), set(csrf.findall(again))
    assert len(mine) == len(theirs) == 1 and mine != theirs  # each page its own token, in every form
    assert again == first.replace(mine.pop(), theirs.pop()) and "<legend>Which trump was turned up?</legend>" in again
    assert other.post(f"/g/{token}/entry", data={"action": "trump", "trump": "D"}, headers=HX).status_code == 200
    after = client.get(f"/g/{token}").get_data(as_text=True)
    assert "<legend>Which trump was turned up?</legend>" not in after and "</strong>’s bid</legend>" in after
    other.set_cookie("lang", "fr")
    french = other.get(f"/g/{token}").get_data(as_text=True)
    assert "<legend>Annonce de <strong>" in french and "’s bid" not in french
    assert len(drawn) == 4  # the trump's answer drew the next bid's panel; then English again and French


def test_a_scoring_page_opened_again_serves_its_body_as_drawn_until_the_game_changes(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28: the scorer's body (Undo and Redo, the live part around the sheet) is drawn once per
    state of the game, link and language: opened again, by another phone too, it is given as drawn;
    a tap draws it anew, saying what Undo now takes back; an ended game's is drawn each time (its
    end names the group that keeps it, which is not the game's row)."""
    token = two_hands(app, client)
    drawn: list[int] = []
    words = app.jinja_env.globals["undo_words"]
    monkeypatch.setitem(app.jinja_env.globals, "undo_words", lambda game: drawn.append(1) or words(game))
    first = client.get(f"/g/{token}").get_data(as_text=True)
    other = app.test_client()
    again = other.get(f"/g/{token}").get_data(as_text=True)
    assert len(drawn) == 1 and all("Undo last entry: saving hand 2" in page for page in (first, again))
    assert other.post(f"/g/{token}/entry", data={"action": "trump", "trump": "D"}, headers=HX).status_code == 200
    drawn.clear()
    after = client.get(f"/g/{token}").get_data(as_text=True)
    assert len(drawn) == 1 and "Undo last entry: saving hand 2" not in after and "Undo last entry" in after
    with app.app_context():
        game = games.by_scorer_token(token)
        assert game is not None
        games.enter_hand(game, 3, {"trump": "D", "bids": [1, 1, 0, 1], "tricks": [1, 1, 1, 1]})
    assert "Keep this game in a group" in client.get(f"/g/{token}").get_data(as_text=True)
    made = client.post(f"/g/{token}/group/new", data={"name": "Tuesdays"}, follow_redirects=True)
    assert made.status_code == 200 and "Tuesdays" in made.get_data(as_text=True)  # its notice said there
    ended = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Kept in <a" in ended and "Tuesdays</a>" in ended and "Keep this game in a group" not in ended


def test_a_group_pages_games_keep_no_hands_newer_than_the_rows_it_read(app: Flask, client: FlaskClient) -> None:
    """A group's page read its games' rows, then all their hands in one query: a hand saved between
    the two was kept under the older row's stamp, where a scorer's request that read the row before
    that save would find it beside its hand in hand (the game that never was, a 500 or hand 2 with
    hand 1's trump, which `_stored_hands` prevents for one game)."""
    token = two_hands(app, client)
    with app.app_context():
        kept.drop(app)  # as a worker that has not seen the game
        game = games.by_scorer_token(token)
        assert game is not None
        set_committed_value(game, "hands_revision", game.hands_revision - 1)  # read before hand 2 was saved
        older = derived.stamp(game)
        [found] = derived.derived_all([game])
        assert len(found.hands) == 2 and game.hands_revision == older[0] + 1  # the row read again
        assert derived._GAMES.peek(game.public_id, older) is None
